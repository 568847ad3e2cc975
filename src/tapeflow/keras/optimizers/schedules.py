"""Learning-rate schedules (``tf.keras.optimizers.schedules``): ``schedule(step) -> rate``.

An optimizer given a schedule evaluates it at its ``iterations`` before every update. Each
schedule computes its rate with ops from the step (a Python number, a Tensor or the
``iterations`` variable), in float32 as Keras does, so a recorded step replays with the
step's current value.
"""
import math

from ..._core import dtypes as _dt
from ..._core.tensor import _TensorLike, convert_to_tensor
from ...ops import array_ops as _a
from ...ops import math_ops as _m

__all__ = ["LearningRateSchedule", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "PolynomialDecay", "CosineDecay", "CosineDecayRestarts",
           "serialize", "deserialize"]


def _f32(x):
    """``x`` as a float32 tensor (a Tensor or variable is cast, a number converted)."""
    if isinstance(x, _TensorLike):
        return x if x.dtype == _dt.float32 else _a.cast(x, _dt.float32)
    return convert_to_tensor(float(x), dtype=_dt.float32)


class LearningRateSchedule:
    """Base class: subclasses implement ``__call__(step)`` returning a float32 scalar Tensor.

    >>> import tapeflow as tf
    >>> s = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    >>> round(float(s(10)), 6)
    0.05
    """

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `__call__(self, step)`.")

    def get_config(self) -> dict:
        """The constructor's arguments (Keras 3's keys)."""
        from ..saving.serialization import signature_config
        return signature_config(self)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """``initial * decay_rate ** (step / decay_steps)`` (floored ratio if ``staircase``).

    Raises:
        ValueError: if ``decay_steps <= 0``.
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError("Argument `decay_steps` must be > 0. Received: "
                             f"decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _m.divide(_f32(step), _f32(self.decay_steps))
        if self.staircase:
            p = _m.floor(p)
        return _m.multiply(_f32(self.initial_learning_rate), _m.pow(_f32(self.decay_rate), p))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """``initial / (1 + decay_rate * step / decay_steps)`` (floored ratio if ``staircase``)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = _m.divide(_f32(step), _f32(self.decay_steps))
        if self.staircase:
            p = _m.floor(p)
        return _m.divide(_f32(self.initial_learning_rate),
                         _m.add(1.0, _m.multiply(_f32(self.decay_rate), p)))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


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
        step = _f32(step)
        values = [_f32(v) for v in self.values]
        bounds = [float(b) for b in self.boundaries]
        result = _m.multiply(_a.cast(_m.less_equal(step, bounds[0]), _dt.float32), values[0])
        result = _m.add(result, _m.multiply(
            _a.cast(_m.greater(step, bounds[-1]), _dt.float32), values[-1]))
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1], strict=True):
            inside = _m.logical_and(_m.greater(step, low), _m.less_equal(step, high))
            result = _m.add(result, _m.multiply(_a.cast(inside, _dt.float32), value))
        return result

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end``, the step capped at
    ``decay_steps`` (or, with ``cycle``, ``decay_steps`` stretched to the next multiple)."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle = end_learning_rate, power, cycle
        self.name = name

    def __call__(self, step):
        s, steps = _f32(step), _f32(self.decay_steps)
        if self.cycle:
            multiplier = _a.where(_m.equal(s, 0.0), _f32(1.0),
                                  _m.ceil(_m.divide(s, steps)))
            steps = _m.multiply(steps, multiplier)
        else:
            s = _m.minimum(s, steps)
        p = _m.divide(s, steps)
        end = _f32(self.end_learning_rate)
        return _m.add(_m.multiply(_m.subtract(_f32(self.initial_learning_rate), end),
                                  _m.pow(_m.subtract(1.0, p), _f32(self.power))), end)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial`` (or, after a linear warm-up, from ``warmup_target``) to
    ``alpha`` times it over ``decay_steps`` (Loshchilov & Hutter 2017).

    Raises:
        ValueError: if ``decay_steps <= 0``.
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        if decay_steps <= 0:
            raise ValueError("Argument `decay_steps` must be > 0. Received: "
                             f"decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, step, start):
        cosine = _m.multiply(0.5, _m.add(1.0, _m.cos(_m.multiply(
            _f32(math.pi), _m.divide(step, _f32(self.decay_steps))))))
        return _m.multiply(start, _m.add(_m.multiply(1.0 - self.alpha, cosine),
                                         float(self.alpha)))

    def __call__(self, step):
        s = _f32(step)
        initial = _f32(self.initial_learning_rate)
        if self.warmup_target is None:
            return self._decay(_m.minimum(s, _f32(self.decay_steps)), initial)
        warmup_steps = _f32(self.warmup_steps)
        s = _m.minimum(s, _f32(self.decay_steps + self.warmup_steps))
        target = _f32(self.warmup_target)
        warm = _m.add(_m.multiply(_m.subtract(target, initial), _m.divide(s, warmup_steps)),
                      initial)
        decayed = self._decay(_m.subtract(s, warmup_steps), target)
        return _a.where(_m.less(s, warmup_steps), warm, decayed)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR, Loshchilov & Hutter 2017): each period is
    ``t_mul`` times longer and starts ``m_mul`` times lower.

    Raises:
        ValueError: if ``first_decay_steps <= 0``.
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        if first_decay_steps <= 0:
            raise ValueError("Argument `first_decay_steps` must be > 0. Received: "
                             f"first_decay_steps={first_decay_steps}")
        self.initial_learning_rate, self.first_decay_steps = (initial_learning_rate,
                                                              first_decay_steps)
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        fraction = _m.divide(_f32(step), _f32(self.first_decay_steps))
        t_mul = _f32(self._t_mul)
        if self._t_mul == 1.0:
            i_restart = _m.floor(fraction)
            fraction = _m.subtract(fraction, i_restart)
        else:
            i_restart = _m.floor(_m.divide(
                _m.log(_m.subtract(1.0, _m.multiply(fraction, 1.0 - self._t_mul))),
                _m.log(t_mul)))
            sum_r = _m.divide(_m.subtract(1.0, _m.pow(t_mul, i_restart)), 1.0 - self._t_mul)
            fraction = _m.divide(_m.subtract(fraction, sum_r), _m.pow(t_mul, i_restart))
        m_fac = _m.pow(_f32(self._m_mul), i_restart)
        cosine = _m.multiply(_m.multiply(0.5, m_fac), _m.add(1.0, _m.cos(_m.multiply(
            _f32(math.pi), fraction))))
        decayed = _m.add(_m.multiply(1.0 - self.alpha, cosine), float(self.alpha))
        return _m.multiply(_f32(self.initial_learning_rate), decayed)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def serialize(learning_rate_schedule) -> dict:
    """The schedule as Keras 3 serializes it: module, class name and config."""
    return {"module": "keras.optimizers.schedules",
            "class_name": type(learning_rate_schedule).__name__,
            "config": learning_rate_schedule.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None) -> LearningRateSchedule:
    """A schedule from :func:`serialize`'s dict.

    Raises:
        ValueError: for an unknown class name.
    """
    classes = {c.__name__: c for c in (ExponentialDecay, InverseTimeDecay,
                                       PiecewiseConstantDecay, PolynomialDecay, CosineDecay,
                                       CosineDecayRestarts)}
    classes.update(custom_objects or {})
    cls = classes.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown learning rate schedule: {config['class_name']}")
    return cls.from_config(config["config"])
