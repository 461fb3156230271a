"""Every optimizer survives a ``.keras`` round trip, whatever its state.

The matrix (``optimizer_roundtrip.py``): each optimizer kerasmini has, and
the variants that add slots (momentum, ``amsgrad``, ``centered``) or take
the learning rate from a schedule, x compiled but never trained (its slots
do not exist yet), one training step, several steps, x loaded with and
without ``compile``. After loading, the optimizer's variables are what was
saved, and training goes on bit for bit as the model that was never saved.
The same matrix against real Keras 3 files is in
``test_saving_keras_interop.py`` (``make interop``).
"""

import numpy as np
import pytest
from optimizer_roundtrip import CASES, SOURCE

import kerasmini as keras
from kerasmini.saving import load_model

SIDE = {"keras": keras, "np": np}
exec(SOURCE, SIDE)


def arrays(variables):
    return [np.asarray(v.numpy()) for v in variables]


def assert_same(actual, expected):
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a.dtype == e.dtype, i
        assert np.array_equal(a, e), i


@pytest.mark.parametrize("optimizer,state", CASES)
def test_compiled_model_round_trips_optimizer_state_and_trains_on(
        tmp_path, optimizer, state):
    model = SIDE["trained"](optimizer, state)
    assert model.optimizer.built == (state != "untrained")
    saved = arrays(model.optimizer.variables)
    model.save(tmp_path / "m.keras")
    loaded = load_model(tmp_path / "m.keras")

    assert type(loaded.optimizer) is type(model.optimizer)
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    assert_same(arrays(loaded.weights), arrays(model.weights))
    restored = arrays(loaded.optimizer.variables)
    assert_same(restored[:len(saved)], saved)  # iterations, learning rate, slots
    if state == "untrained":
        # the loaded optimizer is built (as Keras's is); its slots hold what
        # the first step of the saved one would have created
        model.optimizer.build(model.trainable_variables)
    assert_same(restored, arrays(model.optimizer.variables))

    SIDE["go_on"](model)
    SIDE["go_on"](loaded)
    assert_same(arrays(loaded.weights), arrays(model.weights))
    assert_same(arrays(loaded.optimizer.variables), arrays(model.optimizer.variables))
    assert int(loaded.optimizer.iterations.numpy()) == SIDE["STATES"][state] + 4


@pytest.mark.parametrize("optimizer,state", CASES)
def test_model_loaded_without_compile_keeps_weights_and_trains_as_fresh(
        tmp_path, optimizer, state):
    model = SIDE["trained"](optimizer, state)
    model.save(tmp_path / "m.keras")
    loaded = load_model(tmp_path / "m.keras", compile=False)
    assert not loaded.compiled and loaded.optimizer is None
    assert_same(arrays(loaded.weights), arrays(model.weights))
    x, _ = SIDE["data"]()
    np.testing.assert_array_equal(loaded.predict(x, verbose=0),
                                  model.predict(x, verbose=0))
    # compiled again by hand, it trains as the same weights with a new optimizer
    reference = SIDE["fresh_copy"](model, optimizer)
    loaded.compile(optimizer=SIDE["OPTIMIZERS"][optimizer](), loss="mse")
    SIDE["go_on"](reference)
    SIDE["go_on"](loaded)
    assert_same(arrays(loaded.weights), arrays(reference.weights))


def test_saved_unbuilt_optimizer_keeps_a_learning_rate_changed_after_compile(
        tmp_path):
    model = SIDE["trained"]("adam", "untrained")
    model.optimizer.learning_rate = 0.125
    model.save(tmp_path / "m.keras")
    loaded = load_model(tmp_path / "m.keras")
    assert float(loaded.optimizer.learning_rate.numpy()) == 0.125


def test_optimizer_state_of_another_optimizer_is_refused_by_name(tmp_path):
    # an entry that fits neither the unbuilt nor the built optimizer: refused,
    # naming the optimizer and both counts (and nothing is changed)
    SIDE["trained"]("adam", "one_step").save(tmp_path / "m.keras")
    other = SIDE["trained"]("rmsprop_centered", "one_step")
    before = arrays(other.weights)
    with pytest.raises(ValueError, match="Optimizer 'rmsprop' has 14 variables, "
                                         "but the file holds 10"):
        other.load_weights(tmp_path / "m.keras")
    assert_same(arrays(other.weights), before)


@pytest.mark.parametrize("trained", [False, True])
def test_a_model_larger_than_the_allowance_round_trips_with_its_slots(
        tmp_path, trained):
    # 4 MB of weights: the optimizer's slots (8 MB for Adam) are not in the
    # file of an untrained model, and were refused by the weight budget
    # ("Creating weight 'adam/dense_kernel_momentum' ... exceeds what the
    # file being loaded can hold")
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((1000,)), keras.layers.Dense(1000)])
    model.compile(optimizer="adam", loss="mse")
    x = np.ones((2, 1000), "float32")
    if trained:
        model.fit(x, x, verbose=0)
    model.save(tmp_path / "m.keras")
    loaded = load_model(tmp_path / "m.keras")
    if not trained:
        model.optimizer.build(model.trainable_variables)
    assert_same(arrays(loaded.optimizer.variables), arrays(model.optimizer.variables))
    model.fit(x, x, verbose=0)
    loaded.fit(x, x, verbose=0)
    assert_same(arrays(loaded.weights), arrays(model.weights))
