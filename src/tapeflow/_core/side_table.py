"""Per-tensor side tables: values that ride along with a tensor, kept beside it.

Tensors are immutable and slotted, so an upper floor that wants to hang a value on one (Keras
hangs a layer output's mask on it) keeps it in a :class:`SideTable`, keyed by the tensor's id
and forgotten when the tensor is freed. With :func:`add_attribute` the table also shows as an
attribute of every Tensor, as TensorFlow's tensors carry such attributes themselves. The
engine knows no table by name: the floor that owns one makes and registers it on import.
"""
import weakref

from .tensor import Tensor, _TensorLike

__all__ = ["SideTable", "add_attribute"]


class SideTable:
    """Values attached to tensors by id; each is dropped with its tensor."""

    __slots__ = ("_values",)

    def __init__(self):
        self._values = {}

    def __len__(self):
        return len(self._values)

    def get(self, x):
        """The value attached to tensor ``x``, or None (also for a non-tensor)."""
        if isinstance(x, _TensorLike):
            return self._values.get(x._id)
        return None

    def set(self, x, value):
        """Attach ``value`` to tensor ``x`` (forgotten when ``x`` is freed)."""
        values = self._values
        if x._id not in values:
            weakref.finalize(x, values.pop, x._id, None)
        values[x._id] = value


def add_attribute(name, table, doc=None):
    """Give every Tensor a read/write attribute ``name`` backed by ``table``.

    Reading it where the table holds nothing raises ``AttributeError``, as for a tensor that
    was never given the attribute.
    """

    def get(self):
        value = table.get(self)
        if value is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return value

    def set_(self, value):
        table.set(self, value)

    setattr(Tensor, name, property(get, set_, doc=doc))
