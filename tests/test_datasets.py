"""``datasets.digits``: MNIST-shaped, deterministic, no download."""

import numpy as np

from kerasmini.datasets import digits


def test_digits_has_the_mnist_layout():
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    assert (x_train.shape, x_test.shape) == ((1500, 8, 8), (297, 8, 8))
    assert x_train.dtype == np.uint8 and y_train.dtype == np.uint8
    assert int(x_train.max()) == 255 and int(x_train.min()) == 0
    assert sorted(np.unique(y_test).tolist()) == list(range(10))


def test_digits_split_is_the_same_every_time():
    (a, _), _ = digits.load_data()
    (b, _), _ = digits.load_data()
    np.testing.assert_array_equal(a, b)


def test_importing_kerasmini_does_not_import_sklearn():
    import subprocess
    import sys

    code = "import kerasmini, sys; print('sklearn' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]
