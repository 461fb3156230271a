"""``plot_history``: one panel per quantity, validation in the same panel."""

import matplotlib
import numpy as np
import pytest

import kerasmini as keras

matplotlib.use("Agg")


def test_plot_history_of_a_real_fit():
    x = np.random.default_rng(0).normal(size=(20, 2)).astype("float32")
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    model.compile(loss="mse", metrics=["mae"])
    history = model.fit(x, x[:, :1], epochs=3, validation_split=0.2, verbose=0)
    fig = keras.utils.plot_history(history)
    assert [ax.get_title() for ax in fig.axes] == ["loss", "mae"]
    lines = fig.axes[0].get_lines()
    assert [list(line.get_xdata()) for line in lines] == [[1, 2, 3], [1, 2, 3]]
    np.testing.assert_allclose(lines[1].get_ydata(), history.history["val_loss"])


def test_plot_history_rejects_unknown_keys():
    with pytest.raises(ValueError, match=r"Unknown keys \['acc'\]"):
        keras.utils.plot_history({"loss": [1.0]}, keys=["acc"])
