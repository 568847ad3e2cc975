"""DType objects (``tf.float32`` ...), dtype inference for Python values, and conversions."""
import builtins as _builtins

from .backend import np

__all__ = [
    "DType", "as_dtype", "float16", "bfloat16", "float32", "float64", "half", "double",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    "complex64", "complex128", "string", "infer_dtype",
]


class DType:
    """A tensor element type, as ``tf.DType``.

    Compare with ``==`` against another DType, a NumPy dtype or a name string.
    ``repr`` is ``tf.float32``; ``str`` is ``<dtype: 'float32'>`` as in TensorFlow.
    """

    __slots__ = ("name", "as_numpy_dtype", "_np")

    def __init__(self, name, np_dtype):
        self.name = name
        self._np = np.dtype(np_dtype)
        self.as_numpy_dtype = self._np.type

    @property
    def is_floating(self) -> bool:
        return self._np.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        return self._np.kind == "u"

    @property
    def is_complex(self) -> bool:
        return self._np.kind == "c"

    @property
    def is_bool(self) -> bool:
        return self._np.kind == "b"

    @property
    def is_numpy_compatible(self) -> bool:
        return True

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def real_dtype(self) -> "DType":
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self):
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        raise TypeError(f"Cannot find minimum value of {self}.")

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self}.")

    def is_compatible_with(self, other) -> bool:
        return self == other

    def __eq__(self, other):
        if other is self:
            return True
        if other is None:
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = half = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = double = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001 - TensorFlow's public name
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)


class _BFloat16(DType):
    """bfloat16, stored as ``ml_dtypes.bfloat16`` (as TensorFlow stores it). ml_dtypes is a
    core dependency; it is imported the first time a bfloat16 value is made, not at ``import
    tapeflow`` (it costs ~50 ms, half the import budget)."""

    __slots__ = ()

    def __init__(self):
        self.name = "bfloat16"

    @property
    def _np(self):
        return np.dtype(_ml_dtypes().bfloat16)

    @property
    def as_numpy_dtype(self):
        return _ml_dtypes().bfloat16

    @property
    def is_floating(self) -> bool:
        return True

    @property
    def min(self):
        return float(_ml_dtypes().finfo(_ml_dtypes().bfloat16).min)

    @property
    def max(self):
        return float(_ml_dtypes().finfo(_ml_dtypes().bfloat16).max)


def _ml_dtypes():
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError("bfloat16 needs the ml_dtypes package, a dependency of tapeflow: "
                          "pip install ml_dtypes") from None
    FROM_NUMPY.setdefault(np.dtype(ml_dtypes.bfloat16), bfloat16)
    return ml_dtypes


_BFloat16.__name__ = _BFloat16.__qualname__ = "DType"  # type(tf.bfloat16) as TensorFlow's
bfloat16 = _BFloat16()


class _DTypeTable(dict):
    """NumPy dtype -> DType; a bfloat16 array met before any bfloat16 tensor registers it."""

    def __missing__(self, key):
        if getattr(key, "name", None) == "bfloat16":
            _ml_dtypes()
            return self[key]
        raise KeyError(key)


_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
        uint64, bool, complex64, complex128, string)
# NumPy dtype -> DType. Keys are np.dtype objects (hashable, singletons for builtins).
FROM_NUMPY = _DTypeTable({d._np: d for d in _ALL})
FROM_NUMPY[np.dtype(np.str_)] = string
FROM_NUMPY[np.dtype(np.bytes_)] = string
_BY_NAME = {d.name: d for d in _ALL + (bfloat16,)}
_BY_NAME.update({"half": float16, "double": float64, "float": float32, "int": int32})


def as_dtype(type_value) -> DType:
    """Convert a DType, NumPy dtype or type, or a name string to a DType (``tf.as_dtype``).

    Raises:
        TypeError: if the value does not name a supported dtype.
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        d = _BY_NAME.get(type_value)
        if d is not None:
            return d
    else:
        if type_value is float:
            return float32
        if type_value is int:
            return int32
        if type_value is _builtins.bool:
            return bool
        try:
            key = np.dtype(type_value)
            d = FROM_NUMPY[key] if key.name == "bfloat16" else FROM_NUMPY.get(key)
        except TypeError:
            d = None
        if d is not None:
            return d
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                    f"TensorFlow DType.")


def infer_dtype(value) -> DType:
    """TensorFlow's inference for Python values: int -> int32, float -> float32, nested lists."""
    t = type(value)
    if t is float:
        return float32
    if t is int:
        return int32 if -2**31 <= value < 2**31 else int64
    if t is _builtins.bool:
        return bool
    if t is complex:
        return complex128
    if t is str or t is bytes:
        return string
    raise TypeError(t)
