"""The preprocessing layers: Keras 3's ``keras/src/layers/preprocessing/``.

Numbers (``Normalization``, ``Discretization``, ``Rescaling``), lookups and
text (``StringLookup``, ``IntegerLookup``, ``TextVectorization``), and the
image layers of :mod:`~kerasmini.layers.preprocessing.image_preprocessing`.

>>> import numpy as np
>>> from kerasmini.layers.preprocessing import Rescaling
>>> Rescaling(0.5)(np.array([[2.0]])).tolist()
[[1.0]]
"""

from kerasmini.layers.preprocessing.discretization import Discretization
from kerasmini.layers.preprocessing.image_preprocessing import (
    CenterCrop,
    RandomContrast,
    RandomCrop,
    RandomFlip,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
    Resizing,
)
from kerasmini.layers.preprocessing.integer_lookup import IntegerLookup
from kerasmini.layers.preprocessing.normalization import Normalization
from kerasmini.layers.preprocessing.rescaling import Rescaling
from kerasmini.layers.preprocessing.string_lookup import StringLookup
from kerasmini.layers.preprocessing.text_vectorization import TextVectorization

__all__ = ["CenterCrop", "Discretization", "IntegerLookup", "Normalization",
           "RandomContrast", "RandomCrop", "RandomFlip", "RandomRotation",
           "RandomTranslation", "RandomZoom", "Rescaling", "Resizing",
           "StringLookup", "TextVectorization"]
