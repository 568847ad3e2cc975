"""Weight constraints (``tf.keras.constraints``): projections applied after each update."""
from ..ops import math_ops as _m
from ..ops import reduction_ops as _r
from ..ops._helpers import to_tensor
from .backend import epsilon

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "max_norm", "non_neg", "unit_norm",
           "get"]


def _norms(w, axis):
    return _m.sqrt(_r.reduce_sum(_m.square(w), axis, keepdims=True))


class Constraint:
    """Base class: ``constraint(w)`` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self) -> dict:
        """The constructor's arguments (Keras 3's keys)."""
        from .saving.serialization import signature_config
        return signature_config(self)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Scale each slice along ``axis`` down to norm at most ``max_value`` (Srivastava et al.
    2014)."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = to_tensor(w)
        norms = _norms(w, self.axis)
        desired = _m.minimum(_m.maximum(norms, 0.0), float(self.max_value))
        return _m.multiply(w, _m.divide(desired, _m.add(norms, epsilon())))


class NonNeg(Constraint):
    """``max(w, 0)``."""

    def __call__(self, w):
        return _m.maximum(to_tensor(w), 0.0)


class UnitNorm(Constraint):
    """Scale each slice along ``axis`` to unit norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = to_tensor(w)
        return _m.divide(w, _m.add(_norms(w, self.axis), epsilon()))


max_norm, non_neg, unit_norm = MaxNorm, NonNeg, UnitNorm


def get(identifier):
    """A constraint from a name ('max_norm', 'non_neg', 'unit_norm'), an instance or a
    callable.

    Raises:
        ValueError: for an unknown identifier.
    """
    if identifier is None or callable(identifier):
        return identifier
    by_name = {"max_norm": MaxNorm, "maxnorm": MaxNorm, "non_neg": NonNeg, "nonneg": NonNeg,
               "unit_norm": UnitNorm, "unitnorm": UnitNorm}
    if isinstance(identifier, str) and identifier.lower() in by_name:
        return by_name[identifier.lower()]()
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")
