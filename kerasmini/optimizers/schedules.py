"""Learning-rate schedules: the learning rate as a function of the step.

A schedule is called with the optimizer's ``iterations`` variable and returns
the learning rate for that step, computed with ``kerasmini.ops``, so inside a
traced ``fit`` step it is recomputed on every replay.

>>> import numpy as np
>>> schedule = ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> [round(float(schedule(np.array(step))), 4) for step in (0, 10, 20)]
[0.1, 0.05, 0.025]
"""

import math

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


def _check_steps(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={value!r}")
    return value


@keras_export("kerasmini.optimizers.schedules.PolynomialDecay")
class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` down to ``end_learning_rate`` in
    ``decay_steps`` steps along ``(1 - step / decay_steps) ** power`` (a
    straight line for ``power=1``), then constant; with ``cycle=True`` it
    starts again from the top, each cycle a multiple of ``decay_steps`` long.

    >>> import numpy as np
    >>> s = PolynomialDecay(1.0, decay_steps=4, end_learning_rate=0.0)
    >>> [round(float(s(np.array(k))), 4) for k in (0, 1, 4, 9)]
    [1.0, 0.75, 0.0, 0.0]
    >>> s = PolynomialDecay(1.0, 4, end_learning_rate=0.0, cycle=True)
    >>> round(float(s(np.array(5))), 4)  # the second cycle lasts 8 steps
    0.375
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _check_steps(decay_steps, "decay_steps")
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        step = _float_step(step)
        decay_steps = float(self.decay_steps)
        if self.cycle:
            # the first multiple of decay_steps at or above the step (1 at 0)
            multiple = ops.negative(ops.floor(ops.divide(ops.negative(step),
                                                         decay_steps)))
            decay_steps = ops.multiply(decay_steps, ops.maximum(multiple, 1.0))
        else:
            step = ops.minimum(step, decay_steps)
        remaining = ops.subtract(1.0, ops.divide(step, decay_steps))
        span = self.initial_learning_rate - self.end_learning_rate
        return ops.add(ops.multiply(span, ops.power(remaining, float(self.power))),
                       self.end_learning_rate)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "end_learning_rate": self.end_learning_rate,
            "power": self.power,
            "cycle": self.cycle,
            "name": self.name,
        }


def _cosine(fraction, alpha):
    # from 1 down to alpha along half a cosine wave
    wave = ops.multiply(0.5, ops.add(1.0, ops.cos(ops.multiply(math.pi, fraction))))
    return ops.add(ops.multiply(1.0 - alpha, wave), alpha)


@keras_export("kerasmini.optimizers.schedules.CosineDecay")
class CosineDecay(LearningRateSchedule):
    """Half a cosine wave from the rate down to ``alpha`` times it, over
    ``decay_steps`` steps; with ``warmup_target``, first a straight line from
    ``initial_learning_rate`` up to ``warmup_target`` over ``warmup_steps``
    steps, then the wave from ``warmup_target`` (SGDR, Loshchilov and Hutter).

    >>> import numpy as np
    >>> s = CosineDecay(1.0, decay_steps=10)
    >>> [round(float(s(np.array(k))), 4) for k in (0, 5, 10, 20)]
    [1.0, 0.5, 0.0, 0.0]
    >>> s = CosineDecay(0.0, 10, warmup_target=1.0, warmup_steps=4)
    >>> [round(float(s(np.array(k))), 4) for k in (2, 4, 9)]
    [0.5, 1.0, 0.5]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0,
                 name="CosineDecay", warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _check_steps(decay_steps, "decay_steps")
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        step = _float_step(step)
        decay_steps = float(self.decay_steps)
        if self.warmup_target is None:
            fraction = ops.divide(ops.minimum(step, decay_steps), decay_steps)
            return ops.multiply(self.initial_learning_rate,
                                _cosine(fraction, self.alpha))
        warmup = float(self.warmup_steps)
        step = ops.minimum(step, decay_steps + warmup)
        rise = ops.divide(step, max(warmup, 1.0))  # 0 to 1 during the warmup
        warming = ops.add(ops.multiply(self.warmup_target -
                                       self.initial_learning_rate, rise),
                          self.initial_learning_rate)
        fraction = ops.divide(ops.subtract(step, warmup), decay_steps)
        decaying = ops.multiply(self.warmup_target, _cosine(fraction, self.alpha))
        return ops.where(ops.less(step, warmup), warming, decaying)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "alpha": self.alpha,
            "name": self.name,
            "warmup_target": self.warmup_target,
            "warmup_steps": self.warmup_steps,
        }


@keras_export("kerasmini.optimizers.schedules.CosineDecayRestarts")
class CosineDecayRestarts(LearningRateSchedule):
    """:class:`CosineDecay` that restarts: the first wave lasts
    ``first_decay_steps``, each next one ``t_mul`` times longer and ``m_mul``
    times lower.

    >>> import numpy as np
    >>> s = CosineDecayRestarts(1.0, first_decay_steps=4)
    >>> [round(float(s(np.array(k))), 4) for k in (0, 2, 4, 8)]
    [1.0, 0.5, 1.0, 0.5]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0,
                 m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = _check_steps(first_decay_steps, "first_decay_steps")
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        fraction = ops.divide(_float_step(step), float(self.first_decay_steps))
        t_mul = float(self._t_mul)
        if t_mul == 1.0:  # waves of equal length
            restart = ops.floor(fraction)
            fraction = ops.subtract(fraction, restart)
        else:  # wave i starts after 1 + t + ... + t**(i-1) first waves
            restart = ops.floor(ops.divide(
                ops.log(ops.subtract(1.0, ops.multiply(fraction, 1.0 - t_mul))),
                math.log(t_mul)))
            before = ops.divide(ops.subtract(1.0, ops.power(t_mul, restart)),
                                1.0 - t_mul)
            fraction = ops.divide(ops.subtract(fraction, before),
                                  ops.power(t_mul, restart))
        height = ops.power(float(self._m_mul), restart)
        wave = ops.multiply(0.5, ops.multiply(height, ops.add(
            1.0, ops.cos(ops.multiply(math.pi, fraction)))))
        decayed = ops.add(ops.multiply(1.0 - self.alpha, wave), self.alpha)
        return ops.multiply(self.initial_learning_rate, decayed)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self._t_mul,
            "m_mul": self._m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }


__all__ = ["CosineDecay", "CosineDecayRestarts", "ExponentialDecay",
           "InverseTimeDecay", "LearningRateSchedule", "PiecewiseConstantDecay",
           "PolynomialDecay"]
