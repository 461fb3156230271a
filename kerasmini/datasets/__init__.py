"""``keras.datasets``: the loaders of Keras's datasets, and the book's digits.

``digits`` ships inside scikit-learn (no download): the chapters use it.
The others download what Keras 3.15.1 downloads (same URLs, file names and
hashes) through :func:`kerasmini.utils.get_file` and return the same arrays;
their modules load on first access, so ``import kerasmini`` stays cheap.

>>> from kerasmini import datasets
>>> datasets.digits.load_data()[0][0].shape
(1500, 8, 8)
>>> datasets.mnist.load_data.__module__
'kerasmini.datasets.mnist'
"""

import importlib

from kerasmini.datasets import digits

# keras.datasets.<name>: modules imported on first access (PEP 562)
LOADERS = ("boston_housing", "california_housing", "cifar10", "cifar100",
           "fashion_mnist", "imdb", "mnist", "reuters")


def __getattr__(name):
    if name in LOADERS:  # importing a submodule binds it on this package
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(LOADERS))


__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "digits",
           "fashion_mnist", "imdb", "mnist", "reuters"]
