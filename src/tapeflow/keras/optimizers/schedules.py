"""Learning-rate schedules (``tf.keras.optimizers.schedules``): ``schedule(step) -> rate``.

An optimizer given a schedule evaluates it at its ``iterations`` before every update.
"""
import math

from ..._core.backend import np
from ..._core.tensor import Tensor, _TensorLike

__all__ = ["LearningRateSchedule", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "PolynomialDecay", "CosineDecay"]


def _step(step):
    return float(step._value if isinstance(step, _TensorLike) else step)


def _rate(value):
    return Tensor(np.float32(value))


class LearningRateSchedule:
    """Base class: subclasses implement ``__call__(step)`` returning a float32 scalar."""

    def __call__(self, step):
        raise NotImplementedError

    def get_config(self) -> dict:
        """The constructor's arguments (Keras 3's keys)."""
        from ..saving.serialization import signature_config
        return signature_config(self)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """``initial * decay_rate ** (step / decay_steps)`` (integer division if ``staircase``)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError("Argument `decay_steps` must be > 0. Received: "
                             f"decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _step(step) / self.decay_steps
        if self.staircase:
            p = math.floor(p)
        return _rate(self.initial_learning_rate * self.decay_rate ** p)


class InverseTimeDecay(LearningRateSchedule):
    """``initial / (1 + decay_rate * step / decay_steps)`` (floored ratio if ``staircase``)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _step(step) / self.decay_steps
        if self.staircase:
            p = math.floor(p)
        return _rate(self.initial_learning_rate / (1 + self.decay_rate * p))


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` for ``boundaries[i-1] < step <= boundaries[i]`` (one more value than
    boundaries).

    Raises:
        ValueError: if ``len(values) != len(boundaries) + 1``.
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        s = _step(step)
        for boundary, value in zip(self.boundaries, self.values, strict=False):
            if s <= boundary:
                return _rate(value)
        return _rate(self.values[-1])


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end``, the step capped at
    ``decay_steps`` (or, with ``cycle``, ``decay_steps`` stretched to the next multiple)."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle = end_learning_rate, power, cycle
        self.name = name

    def __call__(self, step):
        s, steps = _step(step), float(self.decay_steps)
        if self.cycle:
            steps *= 1.0 if s == 0 else math.ceil(s / self.decay_steps)
        else:
            s = min(s, steps)
        p = s / steps
        return _rate((self.initial_learning_rate - self.end_learning_rate) * (1 - p) ** self.power
                     + self.end_learning_rate)


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial`` (or, after a linear warm-up, from ``warmup_target``) to
    ``alpha`` times it over ``decay_steps`` (Loshchilov & Hutter 2017)."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, step, start):
        cosine = 0.5 * (1.0 + math.cos(math.pi * step / self.decay_steps))
        return start * ((1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        s = _step(step)
        if self.warmup_target is None:
            return _rate(self._decay(min(s, self.decay_steps), self.initial_learning_rate))
        s = min(s, self.decay_steps + self.warmup_steps)
        if s < self.warmup_steps:
            delta = self.warmup_target - self.initial_learning_rate
            return _rate(delta * s / self.warmup_steps + self.initial_learning_rate)
        return _rate(self._decay(s - self.warmup_steps, self.warmup_target))
