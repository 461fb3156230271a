"""``keras.datasets.boston_housing``: 506 Boston suburbs of the 1970s, 13
attributes each, and their median house value (k$).

Keras keeps it for old examples and warns about its "B" attribute (a racist
assumption built into the data); ``california_housing`` is its replacement.
"""

from kerasmini.api_export import keras_export
from kerasmini.datasets import housing
from kerasmini.datasets.safe_pickle import load_arrays
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


@keras_export("kerasmini.datasets.boston_housing.load_data")
def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """``(x_train, y_train), (x_test, y_test)``: ``x`` of shape ``(n, 13)``,
    ``y`` of shape ``(n,)``, shuffled with ``seed``, ``test_split`` of it to
    test.

    >>> load_data(test_split=1)
    Traceback (most recent call last):
      ...
    ValueError: boston_housing.load_data: invalid `test_split` argument: it must be between ...
    """
    housing.check_test_split(test_split, seed, "boston_housing.load_data")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}boston_housing.npz",
                    file_hash=FILE_HASH)
    x, y = load_arrays(path, ("x", "y"), "boston_housing.load_data")
    return housing.split(x, y, test_split, seed)
