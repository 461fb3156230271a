"""Learning-rate schedules: the learning rate as a function of the step.

A schedule is called with the optimizer's ``iterations`` variable and returns
the learning rate for that step, computed with ``kerasmini.ops``, so inside a
traced ``fit`` step it is recomputed on every replay.

>>> import numpy as np
>>> schedule = ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> [round(float(schedule(np.array(step))), 4) for step in (0, 10, 20)]
[0.1, 0.05, 0.025]
"""

from kerasmini import ops
from kerasmini.api_export import keras_export
from kerasmini.backend import config


@keras_export("kerasmini.optimizers.schedules.LearningRateSchedule")
class LearningRateSchedule:
    """Base class: ``__call__(step)`` returns the learning rate.

    >>> import numpy as np
    >>> class Halving(LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return ops.power(0.5, ops.cast(step, "float32"))
    ...     def get_config(self):
    ...         return {}
    >>> float(Halving()(np.array(2)))
    0.25
    """

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override "
            "`__call__(self, step)`."
        )

    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override "
            "`get_config()` in order to be serializable."
        )

    @classmethod
    def from_config(cls, config_):
        """Create a schedule from :meth:`get_config`'s output."""
        return cls(**config_)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def _float_step(step):
    return ops.cast(step, config.floatx())


@keras_export("kerasmini.optimizers.schedules.ExponentialDecay")
class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)``.

    With ``staircase=True`` the exponent is floored (the rate drops in steps).

    >>> import numpy as np
    >>> s = ExponentialDecay(1.0, decay_steps=4, decay_rate=0.5, staircase=True)
    >>> float(s(np.array(3))), float(s(np.array(4)))
    (1.0, 0.5)
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate,
                 staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(
                "Argument `decay_steps` must be > 0. "
                f"Received: decay_steps={decay_steps}"
            )
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        exponent = ops.divide(_float_step(step), float(self.decay_steps))
        if self.staircase:
            exponent = ops.floor(exponent)
        return ops.multiply(self.initial_learning_rate,
                            ops.power(float(self.decay_rate), exponent))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }


@keras_export("kerasmini.optimizers.schedules.InverseTimeDecay")
class InverseTimeDecay(LearningRateSchedule):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)``.

    >>> import numpy as np
    >>> float(InverseTimeDecay(1.0, decay_steps=1, decay_rate=1.0)(np.array(3)))
    0.25
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate,
                 staircase=False, name="InverseTimeDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        t = ops.divide(_float_step(step), float(self.decay_steps))
        if self.staircase:
            t = ops.floor(t)
        return ops.divide(self.initial_learning_rate,
                          ops.add(1.0, ops.multiply(float(self.decay_rate), t)))

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }


@keras_export("kerasmini.optimizers.schedules.PiecewiseConstantDecay")
class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``.

    >>> import numpy as np
    >>> s = PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [round(float(s(np.array(k))), 4) for k in (0, 10, 11, 21)]
    [1.0, 1.0, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of "
                f"values. Received: boundaries={boundaries} of length "
                f"{len(boundaries)}, and values={values} of length {len(values)}."
            )
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def __call__(self, step):
        # walk from the last interval back: where(step <= b_i, v_i, later)
        result = ops.cast(self.values[-1], config.floatx())
        for boundary, value in zip(reversed(self.boundaries),
                                   reversed(self.values[:-1])):
            result = ops.where(ops.less_equal(step, boundary),
                               ops.cast(value, config.floatx()), result)
        return result

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values,
                "name": self.name}


__all__ = ["ExponentialDecay", "InverseTimeDecay", "LearningRateSchedule",
           "PiecewiseConstantDecay"]
