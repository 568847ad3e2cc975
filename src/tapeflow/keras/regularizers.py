"""Weight penalties (``tf.keras.regularizers``): ``layer.losses`` adds them up."""
from ..ops import math_ops as _m
from ..ops import reduction_ops as _r

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get"]


class Regularizer:
    """Base class: ``regularizer(weight)`` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self) -> dict:
        """The constructor's arguments (Keras 3's keys)."""
        from .saving.serialization import signature_config
        return signature_config(self)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)`` (``tf.keras.regularizers.L1L2``).

    Args:
        l1, l2: the factors (default 0).
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        penalty = None
        if self.l1:
            penalty = _m.multiply(_r.reduce_sum(_m.abs(x)), self.l1)
        if self.l2:
            term = _m.multiply(_r.reduce_sum(_m.square(x)), self.l2)
            penalty = term if penalty is None else _m.add(penalty, term)
        return _m.multiply(_r.reduce_sum(x), 0.0) if penalty is None else penalty



class L1(L1L2):
    """``l1 * sum(|x|)`` (``tf.keras.regularizers.L1``, default factor 0.01)."""

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)


class L2(L1L2):
    """``l2 * sum(x**2)`` (``tf.keras.regularizers.L2``, default factor 0.01)."""

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)


l1, l2, l1_l2 = L1, L2, L1L2


def get(identifier):
    """A Regularizer from a name ('l1', 'l2', 'l1_l2'), an instance or a callable.

    Raises:
        ValueError: for an unknown identifier.
    """
    if identifier is None or callable(identifier):
        return identifier
    by_name = {"l1": L1, "l2": L2, "l1_l2": lambda: L1L2(0.01, 0.01), "l1l2": L1L2}
    if isinstance(identifier, str) and identifier.lower() in by_name:
        return by_name[identifier.lower()]()
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
