"""TensorSpec: the shape, dtype and name a tensor must have (``tf.TensorSpec``).

tf.function's signatures and ``tf.data``'s element specs are made of these.
"""
from . import dtypes as _dt
from . import recording as _rec
from .tensor import SymbolicTensor, Tensor, TensorShape

__all__ = ["TensorSpec"]


def _op_name(t):
    """The op name of a graph tensor (one of the active trace, or one kept from a trace),
    else None."""
    if isinstance(t, SymbolicTensor):
        return t.name.rpartition(":")[0]
    if _rec.ACTIVE[0]:
        ask = getattr(_rec._state.tracer, "symbolic_name", None)
        if ask is not None:
            return ask(t)
    return None


class TensorSpec:
    """Describes a tensor: a (possibly partial) shape, a dtype and an optional name.

    TensorFlow counterpart: ``tf.TensorSpec``.

    Args:
        shape: a TensorShape, list or tuple (``None`` for an unknown dimension), or ``None``
            for an unknown rank.
        dtype: a DType or anything ``tf.as_dtype`` takes (default ``tf.float32``).
        name: an optional name (a string).

    Raises:
        TypeError: if ``dtype`` is not a dtype.

    Example:
        >>> import tapeflow as tf
        >>> spec = tf.TensorSpec([None, 3], tf.float32)
        >>> spec
        TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
        >>> spec.is_compatible_with(tf.ones((5, 3))), spec.is_compatible_with(tf.ones((5, 2)))
        (True, False)
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dt.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None) -> "TensorSpec":
        """The spec of ``tensor`` (a Tensor): its static shape and dtype
        (``tf.TensorSpec.from_tensor``). Inside a ``tf.function`` trace (or for a tensor
        kept from one) the shape has None where the size is unknown and ``name`` defaults
        to the tensor's op name (``"concat"``), as TensorFlow's graph tensors.

        Raises:
            ValueError: ``tensor`` is not a Tensor (a Variable, a NumPy array), as TF."""
        if not isinstance(tensor, Tensor):
            raise ValueError(f"`tensor` should be a tf.Tensor, but got type {type(tensor)}.")
        if name is None:
            name = _op_name(tensor)
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None) -> "TensorSpec":
        """A copy of ``spec`` (with ``name`` if given)."""
        return cls(spec.shape, spec.dtype, spec.name if name is None else name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, spec_or_tensor) -> bool:
        """True if ``spec_or_tensor`` (a TensorSpec or tensor) has this dtype and a shape
        that fits this shape; other values (Variables, NumPy arrays, lists) are not."""
        other = spec_or_tensor
        if isinstance(other, Tensor):  # a Variable is not, as in TensorFlow
            other = TensorSpec(other.shape, other.dtype)
        if not isinstance(other, TensorSpec):
            return False
        return self._dtype == other._dtype and self._shape.is_compatible_with(other._shape)

    def is_subtype_of(self, other) -> bool:
        """True if every tensor this spec admits ``other`` admits too."""
        if not isinstance(other, TensorSpec) or self._dtype != other._dtype:
            return False
        if other._shape.rank is None:
            return True
        if self._shape.rank != other._shape.rank:
            return False
        return all(b is None or a == b for a, b in zip(self._shape, other._shape))

    def most_specific_common_supertype(self, others):
        """The narrowest spec every one of ``self`` and ``others`` is a subtype of, or None."""
        shape, name = self._shape, self._name
        for o in others:
            if not isinstance(o, TensorSpec) or o._dtype != self._dtype:
                return None
            if shape.rank is None or o._shape.rank != shape.rank:
                shape = TensorShape(None)
            else:
                shape = TensorShape([a if a == b else None for a, b in zip(shape, o._shape)])
            if o._name != name:
                name = None
        return TensorSpec(shape, self._dtype, name)

    def __eq__(self, other):
        return (type(other) is type(self) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self._shape, self._dtype.name, self._name))

    def __repr__(self):
        name = "None" if self._name is None else repr(self._name)
        return f"TensorSpec(shape={self._shape}, dtype=tf.{self._dtype.name}, name={name})"

    __str__ = __repr__

    def __reduce__(self):
        return TensorSpec, (self._shape.dims, self._dtype, self._name)
