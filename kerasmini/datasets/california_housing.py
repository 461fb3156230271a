"""``keras.datasets.california_housing``: 20,640 California block groups of
the 1990 census, 8 features each, and their median house value (dollars).
``version="small"`` keeps the first 600, a stand-in for ``boston_housing``.
"""

from kerasmini.api_export import keras_export
from kerasmini.datasets import housing
from kerasmini.datasets.safe_pickle import load_arrays
from kerasmini.utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


@keras_export("kerasmini.datasets.california_housing.load_data")
def load_data(version="large", path="california_housing.npz", test_split=0.2,
              seed=113):
    """``(x_train, y_train), (x_test, y_test)``: ``x`` of shape ``(n, 8)``,
    ``y`` of shape ``(n,)``, shuffled with ``seed``, ``test_split`` of it to
    test.

    >>> load_data(version="tiny")
    Traceback (most recent call last):
      ...
    ValueError: california_housing.load_data: argument `version` must be one of 'small', ...
    """
    housing.check_test_split(test_split, seed, "california_housing.load_data")
    if version not in ("small", "large"):  # Keras checks it after the download
        raise ValueError("california_housing.load_data: argument `version` must be "
                         "one of 'small', 'large'. "
                         f"Received: version={version}")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}california_housing.npz",
                    file_hash=FILE_HASH)
    x, y = load_arrays(path, ("x", "y"), "california_housing.load_data")
    if version == "small":
        x, y = x[:600], y[:600]
    return housing.split(x, y, test_split, seed)
