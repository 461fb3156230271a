"""kerasmini.random: seeded draws in eager, symbolic and traced code."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import random


def test_integer_seed_repeats_and_generator_moves_on():
    assert np.array_equal(random.normal((3,), seed=4), random.normal((3,), seed=4))
    gen = random.SeedGenerator(4)
    first, second = random.normal((3,), seed=gen), random.normal((3,), seed=gen)
    assert not np.array_equal(first, second)
    assert gen.state.numpy().tolist() == [4, 2]


def test_same_generator_seed_reproduces_the_sequence():
    def draws():
        gen = random.SeedGenerator(9)
        return [random.uniform((2,), seed=gen) for _ in range(3)]

    for a, b in zip(draws(), draws()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", [None, "generator"])
def test_traced_function_draws_afresh_at_every_replay(seed):
    seed = random.SeedGenerator(1) if seed == "generator" else None
    f = keras.function(lambda x: x + random.normal((4,), seed=seed))
    a, b = f(np.zeros(4, "float32")), f(np.zeros(4, "float32"))
    assert f.trace_count == 1 and not np.array_equal(a, b)


def test_integer_seed_in_a_traced_function_is_stateless():
    f = keras.function(lambda x: x + random.normal((4,), seed=3))
    np.testing.assert_array_equal(f(np.zeros(4)), f(np.zeros(4)))


def test_distributions_have_their_ranges():
    assert float(np.abs(random.truncated_normal((2000,), seed=0)).max()) <= 2.0
    ints = random.randint((1000,), 2, 5, seed=0)
    assert ints.dtype == np.int32 and set(ints.tolist()) == {2, 3, 4}
    u = random.uniform((1000,), minval=-1.0, maxval=1.0, seed=0)
    assert u.min() >= -1.0 and u.max() < 1.0
    assert abs(float(random.normal((5000,), mean=3.0, seed=0).mean()) - 3.0) < 0.1


def test_dropout_shuffle_categorical():
    out = random.dropout(np.ones(4000, "float32"), 0.25, seed=1)
    assert set(np.unique(out).tolist()) == {0.0, np.float32(1 / 0.75)}
    assert abs(float((out == 0).mean()) - 0.25) < 0.03
    assert sorted(random.shuffle(np.arange(10), seed=2).tolist()) == list(range(10))
    draws = random.categorical(np.log([[0.2, 0.8]]), 4000, seed=3)
    assert draws.shape == (1, 4000) and abs(float(draws.mean()) - 0.8) < 0.03


def test_bad_seed_and_rate_are_refused():
    with pytest.raises(ValueError, match="must be an integer"):
        random.normal((2,), seed="x")
    with pytest.raises(ValueError, match=r"must be in \[0, 1\)"):
        random.dropout(np.ones(2), 1.0)
    with pytest.raises(ValueError, match="must be an integer"):
        random.SeedGenerator(seed=1.5)


class NoisyDense(keras.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.seed_generator = random.SeedGenerator(1337)

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units))

    def call(self, x, training=False):
        y = keras.ops.matmul(x, self.w)
        if training:
            y = y + random.normal(keras.ops.shape(y), stddev=0.1,
                                  seed=self.seed_generator)
        return y

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_layer_using_random_works_in_all_three_modes(tmp_path):
    x = keras.Input((3,))
    layer = NoisyDense(2)
    assert layer(x, training=True).shape == (None, 2)  # symbolic: no draw
    assert layer.seed_generator.state.numpy().tolist() == [1337, 0]
    model = keras.Model(x, layer(x))
    data = np.ones((4, 3), "float32")
    np.testing.assert_array_equal(model(data), model(data))  # inference: no noise
    assert not np.array_equal(model(data, training=True), model(data, training=True))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(data, np.zeros((4, 2)), epochs=2, verbose=0)  # traced
    assert layer.seed_generator.state.numpy()[1] > 2


def test_seed_state_is_a_variable_of_the_layer_not_a_weight_and_is_saved(tmp_path):
    model = keras.Sequential([keras.Input((3,)), NoisyDense(2)])
    layer = model.layers[0]
    assert layer.seed_generator.state in [v for v in model.variables]
    assert all(w is not layer.seed_generator.state for w in model.weights)
    layer(np.ones((1, 3)), training=True)
    path = tmp_path / "noisy.keras"
    model.save(path)
    restored = keras.saving.load_model(path, custom_objects={"NoisyDense": NoisyDense})
    assert restored.layers[0].seed_generator.state.numpy().tolist() == \
        layer.seed_generator.state.numpy().tolist()
