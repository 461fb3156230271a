"""Small real datasets, shaped like ``keras.datasets`` (no downloads).

>>> from kerasmini import datasets
>>> datasets.digits.load_data()[0][0].shape
(1500, 8, 8)
"""

from kerasmini.datasets import digits

__all__ = ["digits"]
