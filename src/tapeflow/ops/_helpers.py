"""Conversion and dtype checks shared by the op modules."""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value

# TensorFlow's DataTypeString names, used in its error messages.
TF_TYPE_NAME = {"float32": "float", "float64": "double", "float16": "half"}

FLOAT_TYPES = "bfloat16, half, float, double"
FLOAT_COMPLEX_TYPES = "bfloat16, half, float, double, complex64, complex128"
# TensorFlow's type lists, in the order its errors give them.
_ADD_TYPES = ("bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, "
              "int32, int64, complex64, complex128")
_SUB_TYPES = ("bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, "
              "complex64, complex128, uint32, uint64")
_MUL_TYPES = ("bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, "
              "uint64, int64, complex64, complex128")
_MINMAX_TYPES = ("bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
                 "int64, uint64")
_FLOORMOD_TYPES = ("int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, "
                   "float, double")
_POW_TYPES = "bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128"
_SIGNED_TYPES = "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128"
_SQDIFF_TYPES = "bfloat16, half, float, double, int32, int64, complex64, complex128"



def tf_type_name(np_dtype) -> str:
    name = _dt.FROM_NUMPY[np_dtype].name
    return TF_TYPE_NAME.get(name, name)


def to_tensor(x):
    """A Tensor or Variable as it is; anything else through ``convert_to_tensor``."""
    if isinstance(x, _TensorLike):
        return x
    return convert_to_tensor(x)


def like(value, ref):
    """``value`` as a tensor of ``ref``'s dtype: how a Python scalar joins a tensor."""
    t = type(value)
    dt = ref._value.dtype
    if t is float or t is int:
        k = dt.kind
        if k in "iubOSU" and (t is float or k in "OSU"):  # no int or float into a string
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                            f"{_dt.FROM_NUMPY[dt].name}")
        return Tensor(dt.type(value))
    return convert_to_tensor(value, dtype=_dt.FROM_NUMPY[dt])


def dtype_mismatch(op_name, index, expected, got):
    return errors.op_error(
        errors.InvalidArgumentError,
        f"cannot compute {op_name} as input #{index}(zero-based) was expected to be a "
        f"{tf_type_name(expected)} tensor but is a {tf_type_name(got)} tensor", op_name)


# TensorFlow's wrappers of these ops convert a Python operand that does not fit the other's
# dtype on its own, so the kernel reports the mismatch; the others raise TypeError.
_OWN_DTYPE_FALLBACK = frozenset({"AddV2", "MatMul"})


def _join(value, ref, op_name, index):
    try:
        return like(value, ref)
    except TypeError:
        if op_name not in _OWN_DTYPE_FALLBACK:
            raise
        own = convert_to_tensor(value)._value.dtype
        if index == 1:
            raise dtype_mismatch(op_name, 1, ref._value.dtype, own) from None
        raise dtype_mismatch(op_name, 1, own, ref._value.dtype) from None


def pair(x, y, op_name):
    """Two operands of one dtype: Python values take the tensor's dtype; tensors must agree.

    Raises:
        tf.errors.InvalidArgumentError: for two tensors of different dtypes.
        TypeError: for a Python value the tensor's dtype cannot hold.
    """
    if isinstance(x, _TensorLike):
        if isinstance(y, _TensorLike):
            if x._value.dtype is not y._value.dtype:
                raise dtype_mismatch(op_name, 1, x._value.dtype, y._value.dtype)
            return x, y
        return x, _join(y, x, op_name, 1)
    if isinstance(y, _TensorLike):
        return _join(x, y, op_name, 0), y
    x = convert_to_tensor(x)
    return x, like(y, x)


def kind_of(dt) -> str:
    """``dt``'s NumPy kind letter, with bfloat16 (``V`` through ml_dtypes) counted as ``f``."""
    return "f" if dt.kind == "V" and dt.name == "bfloat16" else dt.kind


def check_kind(x, kinds, op_name, allowed):
    """Refuse a dtype outside ``kinds`` (NumPy kind letters) with TensorFlow's message.
    bfloat16 (kind ``V`` in NumPy, through ml_dtypes) counts as a float."""
    dt = x._value.dtype
    if dt.kind not in kinds and not (dt.kind == "V" and "f" in kinds and dt.name == "bfloat16"):
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'T' of {tf_type_name(x._value.dtype)} is not in the list of "
            f"allowed values: {allowed}\n\t; NodeDef: {{{{node {op_name}}}}}", op_name)


def no_bool(op_name, allowed):
    """The error hook of an op NumPy itself refuses bools for (``-`` and sign of a bool
    array raise): TensorFlow's message, at no cost on the op's fast path."""
    def error(values, attrs, exc):
        if np.asarray(values[0]).dtype == np.bool_:
            return errors.InvalidArgumentError, (
                f"Value for attr 'T' of bool is not in the list of allowed values: {allowed}"
                f"\n\t; NodeDef: {{{{node {op_name}}}}}")
        return errors.InvalidArgumentError, str(exc)
    return error


def no_kernel(x, op_name):
    """TensorFlow's NotFoundError for a dtype its op declares but has no CPU kernel for."""
    dt = tf_type_name(x._value.dtype).upper()
    return errors.op_error(
        errors.NotFoundError,
        f"Could not find device for node: {{{{node {op_name}}}}} = {op_name}[T=DT_{dt}]",
        op_name)


def norm_axis(axis, ndim):
    """An axis argument (int, list, tuple, tensor or None) as sorted non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, _TensorLike):
        axis = static_value(axis).tolist()
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"Invalid reduction dimension ({a} for input with {ndim} "
                             f"dimension(s)")
        out.append(a % ndim if ndim else 0)
    kept = set(out)
    if len(kept) != len(out):
        dup = next(a for i, a in enumerate(out) if a in out[:i])
        raise ValueError(f"Invalid reduction arguments: Axes contains duplicate dimension: {dup}")
    return tuple(sorted(kept))


def shape_tuple(shape):
    """A shape argument (list, tuple, TensorShape, tensor) as a tuple of ints."""
    if isinstance(shape, _TensorLike):
        shape = static_value(shape).tolist()
        return tuple(shape) if isinstance(shape, list) else (shape,)
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) if not isinstance(d, _TensorLike) else int(static_value(d)) for d in shape)


def _show(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"



def _err(text, op_name, name=""):
    """TF's eager error text: ``name: <name>`` ends it, or nothing for ops that omit it."""
    if name is None:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op_name}]")
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op_name}] name: {name}")


def _named(exc, name):
    """``exc`` with TF's trailing ``name: `` filled in (or dropped for ``None``)."""
    msg = exc.message
    if msg.endswith(" name: "):
        msg = msg[:-len(" name: ")] + ("" if name is None else f" name: {name}")
    return type(exc)(None, None, msg)


def _int_list(v):
    if isinstance(v, _TensorLike):
        v = static_value(v).tolist()
    if isinstance(v, (int, np.integer)):
        return [int(v)]
    return [int(static_value(d)) if isinstance(d, _TensorLike) else int(d) for d in v]


# TensorFlow's eager messages for these ops end without ``name:`` (Reshape, Tile, ...) or
# with the Python wrapper's default name (concat, stack, x[...]). Their forwards fail inside
# the shared dispatcher, which appends ``name: ``; each error hook below raises the final
# exception itself instead, so the hot path is untouched.


def _final_error(prim, name):
    """Make ``prim``'s errors read as TensorFlow's eager text, ending in ``name``."""
    if prim.error is None:
        prim.error = lambda values, attrs, exc: (errors.InvalidArgumentError, str(exc))
    hook = prim.error

    def error(values, attrs, exc):
        found = hook(values, attrs, exc)   # (class, text[, static shape mismatch])
        suffix = "" if name is None else f" name: {name}"
        err = found[0](None, None, f"{found[1]} [Op:{prim.name}]{suffix}")
        err.static_shape = len(found) > 2 and found[2]
        raise err from None
    prim.error = error



# ------------------------------------------------------------------ one op, one function


def public_op(fn, name, doc):
    """``fn`` under its public ``name`` (``__name__`` and ``__qualname__``) with ``doc``: an
    op made by a factory reads as the function TensorFlow documents. The primitive's op
    type stays on the primitive (errors still end ``[Op:<type>]``)."""
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def op_doc(prim, name, what, args, returns, raises, notes="", tf_name=None):
    """The docstring of an op made by a factory, from its primitive: what it computes, the
    TensorFlow op it runs and whether it has a gradient, its arguments (with shapes and
    dtypes), what it returns and raises, and the TensorFlow counterpart."""
    grad = "differentiable" if prim.differentiable else "no gradient"
    text = (f"{what} (``{tf_name or 'tf.math.' + name}``).\n\n"
            f"Runs TensorFlow's ``{prim.name}`` op ({grad}).{notes}\n\n"
            "Args:\n" + "".join(f"    {a}\n" for a in args)
            + "    name: TensorFlow's op name; unused.\n\n"
            f"Returns:\n    {returns}\n\n"
            "Raises:\n" + "".join(f"    {r}\n" for r in raises))
    return text


def bool_operands(paired):
    """``paired`` (``logical_and``/``logical_or``) refusing other operands as TensorFlow's
    generated wrapper, whose T is fixed to bool: a Python number does not convert to bool
    (TypeError), and a tensor of another dtype fails the kernel's input check."""
    op_name = "".join(w.capitalize() for w in paired.__name__.split("_"))

    def op(x, y, name=None):
        for v in (x, y):
            if type(v) is int or type(v) is float:
                raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype bool")
        for k, v in enumerate((x, y)):
            if isinstance(v, _TensorLike) and v._value.dtype.kind != "b":
                raise dtype_mismatch(op_name, k, np.dtype(bool), v._value.dtype)
        return paired(x, y, name)
    return public_op(op, paired.__name__, paired.__doc__)


def same_dtype_or_type_error(x, y):
    """TF's Python-level TypeError for two tensors of different dtypes (``div_no_nan``)."""
    if isinstance(x, _TensorLike) and isinstance(y, _TensorLike) and x.dtype != y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != "
                        f"{y.dtype!r}.")


def matmul_dtype_check(a, b):
    """TF's refusal of a matmul dtype: bool and string, and int8 (and int16 in 2-D MatMul):
    TF 2.21's MatMul has no int8/int16 kernel, its BatchMatMulV2 (a rank above 2) no int8."""
    dt = a._value.dtype
    batch = a._value.ndim > 2 or b._value.ndim > 2
    if dt.kind not in "iu":
        check_kind(a, "fiuc", "MatMul", "bfloat16, half, float, double, int32, int64, "
                   "uint8, uint16, uint32, uint64, complex64, complex128")
        return
    if dt.itemsize > 2 or dt.kind != "i" or (dt.itemsize == 2 and batch):
        return
    op_name = "BatchMatMulV2" if batch else "MatMul"
    allowed = ("bfloat16, half, float, double, " + ("int16, " if batch else "")
               + "int32, int64, uint8, uint16, uint32, uint64, complex64, complex128")
    raise errors.op_error(
        errors.InvalidArgumentError,
        f"Value for attr 'T' of {tf_type_name(dt)} is not in the list of allowed values: "
        f"{allowed}\n\t; NodeDef: {{{{node {op_name}}}}}", op_name)
