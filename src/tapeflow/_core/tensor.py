"""Tensor (immutable, ``__slots__``, a process-unique integer id), TensorShape, conversion."""
import itertools

from . import dtypes as _dt
from . import errors as _errors
from . import events as _events
from . import nest as _nest
from . import recording as _rec
from .backend import np

__all__ = ["Tensor", "TensorShape", "TensorType", "convert_to_tensor", "constant", "is_tensor",
           "static_value", "get_static_value", "traced_shape"]

_next_id = itertools.count(1).__next__


class _TFNamedType(type):
    """Classes that print as TensorFlow's (``<class '...ops.EagerTensor'>``): programs print
    ``type(t)``. Only the class's repr changes; instances are made as fast as before.
    Only leaf classes get it: ``isinstance(x, _TensorLike)`` (the hot check) stays on
    CPython's fast path, which a custom metaclass on the class checked against leaves."""

    def __repr__(cls):
        return f"<class '{cls.__dict__.get('_tf_path', cls.__module__ + '.' + cls.__qualname__)}'>"


class TensorShape:
    """The shape of a tensor, as ``tf.TensorShape``: a tuple of ints, ``None`` for unknown dims.

    ``str`` gives ``(3, 2)``, ``repr`` gives ``TensorShape([3, 2])``, as in TensorFlow.

    Args:
        dims: an iterable of ints (or ``None``), or ``None`` for an unknown rank.
    """

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif isinstance(dims, (int, np.integer)):
            self._dims = (int(dims),)
        else:
            self._dims = tuple(None if d is None else int(d) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if self._dims is None or None in self._dims:
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def is_compatible_with(self, other) -> bool:
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        """Raises ValueError unless :meth:`is_compatible_with` (TF's text names ``other`` as
        given)."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def assert_has_rank(self, rank):
        """Raises ValueError if the rank is known and not ``rank``."""
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        """Raises ValueError if both ranks are known and differ."""
        other = TensorShape(other)
        if self._dims is not None and other._dims is not None and (
                len(self._dims) != len(other._dims)):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self):
        """Raises ValueError unless every dimension is known."""
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def merge_with(self, other) -> "TensorShape":
        other = TensorShape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other) -> "TensorShape":
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = TensorShape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return TensorShape(other).concatenate(self)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __tf_tensor__(self, dtype=None, name=None):
        # tf.constant(shape), tf.reduce_prod(x.shape): a fully known shape is an int32
        # vector (int64 when asked for), as TensorFlow converts it.
        if self._dims is None or None in self._dims:
            _unsupported(None)
        dtype = _dt.int32 if dtype is None else _dt.as_dtype(dtype)
        if dtype not in (_dt.int32, _dt.int64):
            raise TypeError(f"Cannot convert {self!r} to {dtype.name}: only int32 and int64")
        return Tensor(np.array(self._dims, dtype._np))


def _numpy_text(value, is_repr):
    if is_repr:
        text = repr(value.item()) if value.ndim == 0 else repr(np.asarray(value))
    else:
        text = str(value)
    if "\n" in text:
        text = "\n" + text
    return text


class _TensorLike:
    """What Tensor and Variable share: a value, an id, printing and the Python protocols.

    Operators (``+ - * / @`` ...) are attached by ``tapeflow.ops`` once the ops exist.
    """

    __slots__ = ()
    __array_priority__ = 100

    @property
    def shape(self) -> TensorShape:
        """The static shape (``tf.Tensor.shape``): the value's, but inside a ``tf.function``
        traced with relaxed shapes, TensorFlow's static shape, None where a size follows an
        unknown dimension, whoever asks. tapeflow's own code reads the sizes it computes
        with through :func:`traced_shape` (``_value.shape``)."""
        if _rec.ACTIVE[0]:
            tracer = _rec._state.tracer
            if tracer is not None and (tracer.relaxed_shapes or tracer.value_sized):
                return tracer.static_shape(self)
        return TensorShape(self._value.shape)

    def get_shape(self) -> TensorShape:
        """The static shape, as :attr:`shape` (``tf.Tensor.get_shape``)."""
        return self.shape

    @property
    def dtype(self) -> _dt.DType:
        return _dt.FROM_NUMPY[self._value.dtype]

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    # TF's graph tensor attributes: defined while a ``tf.Graph().as_default()`` block
    # records this tensor (the tracer answers), else TF's eager AttributeError.
    @property
    def name(self) -> str:
        return _graph_attr(self, "name")

    @property
    def op(self):
        return _graph_attr(self, "op")

    @property
    def graph(self):
        return _graph_attr(self, "graph")

    def numpy(self):
        """The value as a NumPy array (a copy) or, for a scalar, a NumPy scalar."""
        if _rec.ACTIVE[0]:
            _left(self, "numpy")
        v = self._value
        if v.ndim == 0:
            return v[()]
        return v.copy()

    def __array__(self, dtype=None, copy=None):
        if _rec.ACTIVE[0]:
            _left(self, "array")
        v = np.asarray(self._value)
        if dtype is not None and v.dtype != dtype:
            return v.astype(dtype)
        if copy:
            return v.copy()
        return v

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __bool__(self):
        if _rec.ACTIVE[0]:
            return _left(self, "bool", bool)
        return bool(self._value)

    def __float__(self):
        if _rec.ACTIVE[0]:
            return _left(self, "float", float)
        return float(self._value)

    def __int__(self):
        if _rec.ACTIVE[0]:
            return _left(self, "int", int)
        return int(self._value)

    def __index__(self):
        if self._value.dtype.kind not in "iu" or self._value.ndim != 0:
            raise TypeError("Only integer scalar tensors can be converted to an index")
        if _rec.ACTIVE[0]:
            return _left(self, "index", int)
        return int(self._value)

    def __complex__(self):
        return complex(self._value)

    def __format__(self, format_spec):
        if not format_spec and _rec.ACTIVE[0] and _rec._state.tracer is not None:
            return str(self)   # a traced tensor formats as its symbolic text, as in TF
        return self.numpy().__format__(format_spec)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return constant, (np.asarray(self._value),)


class Tensor(_TensorLike, metaclass=_TFNamedType):
    """An immutable multidimensional array, as TensorFlow's eager ``tf.Tensor``.

    Made by ops and by :func:`constant` / :func:`convert_to_tensor`, never directly.
    Each tensor has a process-unique integer id by which tapes refer to it. Its class is
    named ``EagerTensor`` as TensorFlow's (``type(t).__name__``); ``tf.Tensor`` is
    :class:`TensorType`, which every tensor is an instance of.
    """

    __slots__ = ("_value", "_id", "__weakref__")
    _tf_path = "tensorflow.python.framework.ops.EagerTensor"

    def __init__(self, value):
        self._value = value
        self._id = _next_id()

    def ref(self):
        return _Reference(self)

    def experimental_ref(self):
        return _Reference(self)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __str__(self):
        if _rec.ACTIVE[0]:
            text = _symbolic_text(self, False)
            if text is not None:
                return text
        return (f"tf.Tensor({_numpy_text(self._value, False)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __repr__(self):
        if _rec.ACTIVE[0]:
            text = _symbolic_text(self, True)
            if text is not None:
                return text
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")


Tensor.__name__ = Tensor.__qualname__ = "EagerTensor"
_nest.register_leaf_types(Tensor, TensorShape)


_SCOPE_TEXT = (
    "{t!r} is out of scope and cannot be used here. Use return values, explicit Python "
    "locals or TensorFlow collections to access it.\nPlease see https://www.tensorflow.org/"
    "guide/function#all_outputs_of_a_tffunction_must_be_return_values for more "
    "information.\n\n{t!r} was defined here:\n{where}\nThe tensor {t!r} cannot be accessed "
    "from here, because it was defined in FuncGraph(name={fn}, id={gid}), which is out of "
    "scope.")


def scope_error(text):
    """TensorFlow's TypeError for a graph tensor used outside its function (flagged so that
    a trace reports it as it is, not as an error "in user code")."""
    exc = TypeError(text)
    exc._tf_graph_scope = True
    return exc


class _GraphValue:
    """The ``_value`` of a :class:`SymbolicTensor`: a graph tensor has no value outside its
    function. It keeps the metadata printing needs; any NumPy use raises TensorFlow's
    out-of-scope ``TypeError`` (an op's failure is turned into it by ``raise_op_error``)."""

    __slots__ = ("shape", "dtype", "text")

    def __init__(self, shape, dtype, text):
        self.shape = shape
        self.dtype = dtype
        self.text = text

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def _fail(self, *args, **kwargs):
        raise scope_error(self.text)

    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __iter__ = _fail
    __float__ = __int__ = __index__ = __bool__ = _fail


class _FailedValue:
    """The ``_value`` of an op's output whose kernel failed while a ``tf.function`` traced it:
    TensorFlow prunes an op nothing needs, so the failure is raised only where the value is
    needed (an output, an effect, a Python read, another op's input turns failing too)."""

    __slots__ = ("exc", "dtype")

    def __init__(self, exc, dtype):
        self.exc = exc
        self.dtype = dtype   # the op's first input's: what most ops give (a guess)

    def _fail(self, *args, **kwargs):
        raise self.exc

    shape = ndim = size = property(_fail)
    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __iter__ = _fail
    __float__ = __int__ = __index__ = __bool__ = __len__ = copy = _fail


class SymbolicTensor(Tensor):
    """A tensor made inside a ``tf.function`` trace and kept past it (a global, an
    attribute, a list the function appended to): as TensorFlow's graph tensor it has a name
    (``add:0``) and a static shape but no value outside its function.

    ``.numpy()`` raises ``AttributeError``, ``np.asarray`` ``NotImplementedError`` and using
    it in an op (eagerly or captured by another function) TensorFlow's ``TypeError``
    ("... is out of scope and cannot be used here"). Made only by the tracer (``retire``)."""

    __slots__ = ()
    _tf_path = "tensorflow.python.framework.ops.SymbolicTensor"

    @property
    def numpy(self):
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    @property
    def name(self):
        return _SYMBOLIC.get(self._id, ("tensor", None, None))[0] + ":0"

    @property
    def shape(self):
        info = _SYMBOLIC.get(self._id)
        if info is None:
            return TensorShape(self._value.shape)
        shape = info[1]
        if callable(shape):   # a relaxed trace's: worked out when first asked
            shape = shape()
            _SYMBOLIC[self._id] = (info[0], shape, info[2])
        return shape

    @property
    def graph(self):
        ref = GRAPH_OF.get(self._id)
        g = ref() if ref is not None else None
        if g is None:
            raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")
        return g

    @property
    def op(self):
        return self.graph.get_operation_by_name(self.name.rpartition(":")[0])

    def get_shape(self):
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    def _out_of_scope(self):
        info = _SYMBOLIC.get(self._id)
        if info is not None and type(self._value) is _GraphValue:
            return scope_error(self._value.text)
        return scope_error(_SCOPE_TEXT.format(t=self, where="", fn="?", gid=0))

    def _read(self):
        raise self._out_of_scope()

    def _watchable(self, tape):
        return False

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error "
            f"may indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            f"supported.")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please "
                        f"call `x.shape` rather than `len(x)` for shape information.")

    def __bool__(self):
        raise _errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt "
            "the following resolutions to the problem: If you are running in Graph mode, use "
            "Eager execution mode or decorate this function with @tf.function. If you are "
            "using AutoGraph, you can try decorating this function with @tf.function. If that "
            "does not work, then you may be using an unsupported feature or your source code "
            "may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/"
            "blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
            "#access-to-source-code for more information.")

    def __iter__(self):
        raise self._out_of_scope()

    def __str__(self):
        shape = self.shape
        if shape.rank is None:
            return f'Tensor("{self.name}", dtype={self.dtype.name})'
        return f'Tensor("{self.name}", shape={shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


# SymbolicTensor id -> (TensorFlow name, static TensorShape, site); entries leave with the
# tensor (a weakref callback made when it is retired).
_SYMBOLIC = {}
# Graph tensor id -> weakref to its ``tf.Graph`` (filled by function/graph.py).
GRAPH_OF = {}


def _graph_attr(t, what):
    tracer = _rec._state.tracer
    answer = getattr(tracer, "graph_tensor_attr", None)
    if answer is not None:
        got = answer(t, what)
        if got is not None:
            return got
    raise AttributeError(f"Tensor.{what} is undefined when eager execution is enabled.")


def make_symbolic(t, name, shape, site, fn_name, detach):
    """Turn ``t`` (a Tensor a finished trace made) into a :class:`SymbolicTensor` named
    ``name`` with static ``shape``; with ``detach`` its value is dropped too, so an op that
    uses it raises TensorFlow's out-of-scope TypeError (kept when a tape may still need it)."""
    import weakref

    tid = t._id
    t.__class__ = SymbolicTensor
    _SYMBOLIC[tid] = (name, shape, site)
    weakref.finalize(t, _SYMBOLIC.pop, tid, None)
    if detach:
        where = "" if site is None else f'    File "{site[0]}", line {site[1]}, in {site[2]}\n'
        text = _SCOPE_TEXT.format(t=t, where=where, fn=fn_name, gid=id(_SYMBOLIC) // 16)
        t._value = _GraphValue(t._value.shape, t._value.dtype, text)


class _TensorTypeMeta(_TFNamedType):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, Tensor)


class TensorType(metaclass=_TensorTypeMeta):
    """``tf.Tensor``: the type every tensor is an instance of (``isinstance(t, tf.Tensor)``).

    Eager tensors are of the concrete class ``EagerTensor``, as in TensorFlow; Variables are
    not tensors (``isinstance(tf.Variable(1.0), tf.Tensor)`` is False).

    Example:
        >>> import tapeflow as tf
        >>> isinstance(tf.constant(1.0), tf.Tensor), type(tf.constant(1.0)).__name__
        (True, 'EagerTensor')
    """

    _tf_path = "tensorflow.python.framework.tensor.Tensor"

    def __new__(cls, *args, **kwargs):
        raise TypeError("tf.Tensor cannot be created directly: use tf.constant or "
                        "tf.convert_to_tensor.")


TensorType.__name__ = TensorType.__qualname__ = "Tensor"

_new = object.__new__


def alias(value, tensor_id):
    """A Tensor that shares ``tensor_id`` with an existing tensor or variable.

    Tapes know a variable by its id; a snapshot of its value under that id keeps the
    gradient connected while later ``assign`` calls cannot change what was recorded.
    """
    t = _new(Tensor)
    t._value = value
    t._id = tensor_id
    return t


class _Reference:
    """A hashable reference to a tensor or variable (``tensor.ref()``)."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return self._obj._id

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


def traced_shape(x) -> TensorShape:
    """The sizes ``x`` has in this run, for code that computes with them: a Tensor's or
    Variable's value shape (inside a ``tf.function`` trace, the traced call's sizes, where
    ``x.shape`` gives TensorFlow's static shape with None for unknown dimensions); any other
    object's ``shape`` (a RaggedTensor, a SparseTensor, a KerasTensor)."""
    if isinstance(x, _TensorLike):
        return TensorShape(x._value.shape)
    return x.shape


def is_tensor(x) -> bool:
    """True for a Tensor or Variable (``tf.is_tensor``)."""
    return isinstance(x, _TensorLike)


_PY_SCALARS = (float, int, bool)


# Set by ops.array_ops: packs a nested list holding tensors with ``tf.stack`` (while a
# tf.function traces, so the program computes it from its tensors).
PACK_HOOK = [None]


def _array_from_python(value, dtype):
    """NumPy value for a Python scalar or nested list, with TensorFlow's inference."""
    if dtype is None:
        t = type(value)
        if t in _PY_SCALARS or t is complex or t is str or t is bytes:
            dtype = _dt.infer_dtype(value)
            if dtype is _dt.string:
                return string_value(value.encode() if t is str else value)
            if t is int and not -2**63 <= value < 2**63:
                raise ValueError(_OUT_OF_RANGE)
            return dtype._np.type(value)
        if not isinstance(value, (list, tuple)):
            _unsupported(value)
        packed = _packed_dtype(value)
        if packed is not None:   # a list holding tensors packs to their dtype (tf.stack)
            return _array_from_python(_unpacked(value), packed)
        try:
            arr = np.array(value)
        except ValueError:  # NumPy refuses ragged nesting
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        except OverflowError:
            raise ValueError(_OUT_OF_RANGE) from None
        kind = arr.dtype.kind
        if kind in "USO":
            _check_leaf_types(value)
        if kind == "f":
            return arr.astype(np.float32) if arr.dtype != np.float32 else arr
        if kind in "iu":
            if arr.size and (arr.max() >= 2**31 or arr.min() < -2**31):
                return arr.astype(np.int64)
            return arr.astype(np.int32)
        if kind == "c":
            return arr.astype(np.complex128)
        if kind in "US":
            # not through the 'S'/'U' array: NumPy drops trailing NUL bytes there
            obj = np.array(value, dtype=object)
            if kind == "U":
                obj = _encode_str(obj)
            return string_value(obj)
        if kind == "O":  # numbers only (checked above): ints beyond int64, maybe floats
            if any(isinstance(v, float) for v in arr.ravel()):
                return arr.astype(np.float32)
            raise ValueError(_OUT_OF_RANGE)
        return arr
    if not isinstance(value, (list, tuple, float, int, complex, str, bytes)):
        _unsupported(value)
    np_dtype = dtype._np
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    _check_castable(arr, dtype, value)
    if dtype is _dt.string:
        return _bytes(arr)
    return arr.astype(np_dtype) if arr.ndim else np_dtype.type(arr[()])


_OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


def _unpacked(value):
    """Nested list ``value`` with each Tensor or Variable replaced by its NumPy value."""
    if isinstance(value, _TensorLike):
        return value.numpy()
    if type(value) is list or type(value) is tuple:
        return [_unpacked(v) for v in value]
    return value


def _packed_dtype(value):
    """The dtype of the first Tensor or Variable inside nested list/tuple ``value``, or None:
    TensorFlow packs such a list with that dtype (``[tf.constant(0, tf.int64)]`` is int64)."""
    stack = [value]
    found = None
    while stack:
        v = stack.pop()
        for k, item in enumerate(v):
            if isinstance(item, _TensorLike):
                if found is None:
                    found = item.dtype
                elif item.dtype != found:
                    from . import errors
                    raise errors.InvalidArgumentError(
                        None, None, f"cannot compute Pack as input #{k}(zero-based) was "
                        f"expected to be a {found.name} tensor but is a {item.dtype.name} "
                        "tensor [Op:Pack] name: packed")
            elif type(item) is list or type(item) is tuple:
                stack.append(item)
    return found


def _check_leaf_types(value):
    """TensorFlow's error for a nested list mixing strings, numbers or None."""
    kinds = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        else:
            kinds.add("s" if isinstance(v, (str, bytes)) else
                      "n" if isinstance(v, (int, float, complex, np.number, np.bool_)) else "x")
    if len(kinds) > 1 or "x" in kinds:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def _unsupported(value):
    text = getattr(value, "_conversion_error", None)   # a RaggedTensor: TensorFlow's text
    if text is not None:
        raise ValueError(text)
    raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                     f"({type(value)}) to a Tensor.")


_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


class StringArray(np.ndarray):
    """A scalar string tensor's value: a 0-d object array that stays an array through
    NumPy operators (``s1 + s2`` on plain 0-d object arrays gives a bare ``bytes``).
    Results of other dtypes come back as ordinary arrays and NumPy scalars."""

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        if not isinstance(arr, np.ndarray):
            arr = np.asarray(arr)
        if arr.dtype.kind == "O":
            return arr.view(StringArray) if arr.ndim == 0 else arr.view(np.ndarray)
        arr = arr.view(np.ndarray)
        return arr[()] if arr.ndim == 0 else arr


def string_value(arr):
    """``arr`` (bytes, or an array of them) as a string tensor's value."""
    arr = np.asarray(arr, dtype=object)
    return arr.view(StringArray) if arr.ndim == 0 else arr


def _encode_str(obj):
    """An object array with its ``str`` elements encoded as UTF-8 bytes."""
    flat = obj.reshape(-1)
    for i, v in enumerate(flat):
        if isinstance(v, str):
            flat[i] = v.encode("utf-8")
    return obj


def _bytes(arr):
    """A string array as TensorFlow holds it: an object array of bytes (``b'a'``)."""
    if arr.dtype.kind == "U":
        arr = np.char.encode(arr, "utf-8")
    return string_value(arr.astype(object))


def _check_castable(arr, dtype, original):
    kind = arr.dtype.kind
    target = dtype._np.kind
    if arr.size == 0 and kind == "f" and arr.dtype == np.float64:
        return  # an empty list ([], [[]]) has no values to lose: any dtype holds it
    if kind == "O" and dtype is not _dt.string:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    bad = ((kind in "fc" and target in "iub") or (kind == "c" and target == "f")
           or (kind in "US" and dtype is not _dt.string)
           or (kind in "iuf" and target == "b"))
    if bad:
        # TensorFlow names the dtype as its C++ core does (float, double, half).
        name = _C_NAMES.get(dtype.name, dtype.name)
        raise TypeError(f"Cannot convert {original!r} to EagerTensor of dtype {name}")


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """A Tensor from a Tensor, Variable, NumPy array or Python value (``tf.convert_to_tensor``).

    Args:
        value: the value; Python floats become float32, ints int32, NumPy arrays keep their dtype.
        dtype: optional DType (or anything ``tf.as_dtype`` takes) the result must have.
        dtype_hint: a dtype used only when ``value`` has none of its own (a Python value).
        name: ignored (eager mode).

    Returns:
        A Tensor.

    Raises:
        ValueError: if ``value`` is a tensor of another dtype than ``dtype``.
        TypeError: if ``value`` cannot become a tensor of ``dtype``.
    """
    if isinstance(value, _TensorLike):
        if type(value) is not Tensor:
            value = value._read()
        if dtype is not None:
            dtype = _dt.as_dtype(dtype)
            if value._value.dtype != dtype._np:
                raise ValueError(
                    f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                    f"{value.dtype.name}: {value!r}")
        return value
    if dtype is not None:
        dtype = _dt.as_dtype(dtype)
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind in "US":
            value = _bytes(np.asarray(value))
        if dtype is not None and value.dtype != dtype._np:
            _check_castable(np.asarray(value), dtype, value)
            value = value.astype(dtype._np)
        elif isinstance(value, np.ndarray):
            value = value.copy()
        return Tensor(value)
    if hasattr(value, "__tf_tensor__"):
        return convert_to_tensor(value.__tf_tensor__(dtype, name), dtype)
    if _rec._state.tracer is not None and PACK_HOOK[0] is not None and \
            isinstance(value, (list, tuple)):
        packed = _packed_dtype(value)
        if packed is not None:   # traced: TensorFlow's Pack op, not a frozen value
            return PACK_HOOK[0](value, dtype or packed)
    if dtype is None and dtype_hint is not None:
        try:
            return Tensor(_array_from_python(value, _dt.as_dtype(dtype_hint)))
        except (TypeError, ValueError):
            pass
    return Tensor(_array_from_python(value, dtype))


def constant(value, dtype=None, shape=None, name="Const"):
    """A constant tensor from a Python value or array (``tf.constant``).

    Args:
        value: a Python scalar, nested list, NumPy array or Tensor.
        dtype: optional result DType; values are cast to it.
        shape: optional result shape; a scalar (or one-element) value is broadcast to it,
            a value with as many elements is reshaped.
        name: the Const node's name inside ``tf.Graph().as_default()`` (eagerly ignored).

    Returns:
        A Tensor.

    Raises:
        TypeError: if the value cannot be represented in ``dtype``.
        TypeError: if ``shape`` does not fit the number of elements.
    """
    if isinstance(value, _TensorLike):
        t = value if type(value) is Tensor else value._read()
        if dtype is not None and _dt.as_dtype(dtype)._np != t._value.dtype:
            t = Tensor(t._value.astype(_dt.as_dtype(dtype)._np))
    else:
        if dtype is not None:
            dtype = _dt.as_dtype(dtype)
        if isinstance(value, (np.ndarray, np.generic)) and dtype is not None and \
                dtype._np.kind != "O":   # strings: convert_to_tensor encodes them
            arr = np.asarray(value)
            t = Tensor(arr.astype(dtype._np) if arr.ndim else dtype._np.type(arr[()]))
        else:
            t = convert_to_tensor(value, dtype)
    if shape is not None:
        shape = tuple(TensorShape(shape).as_list())
        v = t._value
        if v.shape != shape:
            size = int(np.prod(shape)) if shape else 1
            if v.size == 1:
                v = np.full(shape, v.reshape(()), dtype=v.dtype)
            elif v.size == size:
                v = np.reshape(v, shape)
            else:
                raise TypeError(
                    f"Eager execution of tf.constant with unsupported shape. Tensor "
                    f"{t} (converted from {value}) has {v.size} elements, but got `shape` "
                    f"{TensorShape(shape)} with {size} elements).")
            t = Tensor(v)
    if _rec.ACTIVE[0]:
        hook = getattr(_rec._state.tracer, "graph_constant", None)
        if hook is not None:   # inside tf.Graph().as_default(): a Const node of its own
            hook(t, name)
    return t


def static_value(t):
    """``t``'s NumPy value for a Python decision about a shape, an axis, a count or an index:
    the one way code outside op forwards reads a tensor's value. Under a ``tf.function``
    trace the read becomes a guard of the program, so a replay where the value differs
    re-traces instead of reusing a baked-in constant."""
    if _rec.ACTIVE[0]:
        tracer = _rec._state.tracer
        if tracer is not None:
            return tracer.leave(t, "value", None)
    return t._value


def get_static_value(tensor, partial=False):
    """The NumPy value of a tensor (``tf.get_static_value``); other values pass through."""
    if isinstance(tensor, _TensorLike):
        return tensor.numpy()
    return tensor


def _symbolic_text(t, is_repr):
    tracer = _rec._state.tracer
    return None if tracer is None else tracer.symbolic_text(t, is_repr)


def _left(t, how, convert=None):
    """A value leaves the tapes as NumPy/Python: explain() reports where (only while taping);
    under a ``tf.function`` trace the Python value becomes a guard of the program (or, for
    ``.numpy()``, TensorFlow's error). Returns ``convert(value)`` when ``convert`` is given."""
    tracer = _rec._state.tracer
    if tracer is not None:
        result = tracer.leave(t, how, convert)
    elif convert is not None:
        result = convert(t._value)
    else:
        result = None
    if _rec.tape_stack():
        _events.on_leave(t, how, type(t) is Tensor)
    return result
