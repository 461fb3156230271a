"""``SeedGenerator``: the state behind a layer's random numbers.

Keras 3's random functions are stateless: ``normal(shape, seed=42)`` gives the
same numbers every time. To get new numbers on each call a layer keeps a
``SeedGenerator``, whose state is a variable ``[seed, counter]``: each draw
reads the state and moves the counter on. Because the state is a variable, a
traced train step (``kerasmini.function``) reads and advances it at every
replay, and saving writes it with the layer, as Keras does.

>>> gen = SeedGenerator(seed=42)
>>> gen.state.numpy().tolist(), gen.next().tolist(), gen.state.numpy().tolist()
([42, 0], [42, 0], [42, 1])
"""

import random as _python_random

import numpy as np

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend.naming import auto_name, name_scope
from kerasmini.backend.variables import Variable

SEED_DTYPE = "uint32"  # Keras 3's random_seed_dtype on the NumPy and JAX backends


@keras_export("kerasmini.random.SeedGenerator")
class SeedGenerator:
    """A variable seed: ``next()`` returns it and advances it.

    Args:
        seed: an integer; ``None`` draws one from Python's ``random`` (seeded
            by ``kerasmini.utils.set_random_seed``).
        name: default ``seed_generator``, ``seed_generator_1``...

    >>> SeedGenerator(seed=3, name="gen").state.path
    'gen/seed_generator_state'
    """

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name or auto_name(type(self).__name__)
        self._initial_seed = seed
        if seed is None:
            seed = _python_random.randint(1, int(1e9))
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise ValueError(
                f"Argument `seed` must be an integer. Received: seed={seed!r}"
            )
        with name_scope(self.name, caller=self):
            self.state = Variable(np.array([seed, 0], dtype=SEED_DTYPE),
                                  trainable=False, name="seed_generator_state")

    def next(self):
        """The current seed (a copy), after which the counter moves on."""
        seed = ops.multiply(self.state.value, 1)  # a copy, before the update
        self.state.assign_add(np.array([0, 1], dtype=SEED_DTYPE))
        return seed

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    # saved under its attribute name, as Keras 3 saves it
    def _obj_type(self):
        return "SeedGenerator"

    def save_own_variables(self, store):
        store["0"] = self.state.numpy()

    def load_own_variables(self, store):
        if len(store.keys()) == 0:
            # Keras 3.15.1 does not save seed generators (its SeedGenerator is
            # not a saveable): a file it wrote has none, keep the fresh state
            return
        if len(store.keys()) != 1:
            raise ValueError(
                f"SeedGenerator '{self.name}' expected 1 variable, but received "
                f"{len(store.keys())} variables during loading."
            )
        self.state.assign(store["0"])

    def __repr__(self):
        return f"<SeedGenerator name={self.name}>"


__all__ = ["SEED_DTYPE", "SeedGenerator"]
