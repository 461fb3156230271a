"""The image layers: Keras 3's ``keras/src/layers/preprocessing/image_preprocessing/``.

>>> from kerasmini.layers.preprocessing.image_preprocessing import RandomFlip
>>> RandomFlip().mode
'horizontal_and_vertical'
"""

from kerasmini.layers.preprocessing.image_preprocessing.center_crop import CenterCrop
from kerasmini.layers.preprocessing.image_preprocessing.random_contrast import (
    RandomContrast,
)
from kerasmini.layers.preprocessing.image_preprocessing.random_crop import RandomCrop
from kerasmini.layers.preprocessing.image_preprocessing.random_flip import RandomFlip
from kerasmini.layers.preprocessing.image_preprocessing.random_rotation import (
    RandomRotation,
)
from kerasmini.layers.preprocessing.image_preprocessing.random_translation import (
    RandomTranslation,
)
from kerasmini.layers.preprocessing.image_preprocessing.random_zoom import RandomZoom
from kerasmini.layers.preprocessing.image_preprocessing.resizing import Resizing

__all__ = ["CenterCrop", "RandomContrast", "RandomCrop", "RandomFlip",
           "RandomRotation", "RandomTranslation", "RandomZoom", "Resizing"]
