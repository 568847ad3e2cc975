"""Every op once, grouped as TensorFlow groups them; Python operators are bound here."""
from .._core import engine_ops as _engine_ops
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike
from .._core.variable import Variable
from . import (
    array_ops,
    complex_ops,
    indexing_ops,
    linalg_ops,
    math_ops,
    nn_conv_ops,
    nn_ops,
    random_ops,
    reduction_ops,
    state_ops,
)
from ._helpers import check_kind, like, pair
from .math_ops import (
    add,
    divide,
    equal,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matmul,
    multiply,
    negative,
    not_equal,
    pow,
    subtract,
)

# image_ops, string_ops, ragged/, sparse/ and the Philox ops load with tf.image, tf.strings,
# tf.ragged, tf.sparse, tf.random's stateless ops: off ``import tapeflow``.
__all__ = ["array_ops", "complex_ops", "linalg_ops", "math_ops", "nn_conv_ops", "nn_ops",
           "random_ops", "state_ops"]


def _load_batching_rules():
    from . import batching  # noqa: F401 - registering is importing


def _load_jvp_rules():
    from . import jvp_rules  # noqa: F401 - registering is importing


# The engine computes gradients with these ops; it takes them from here (it never imports
# this package: see _core/engine_ops.py).
_engine_ops.install(
    rules={"batching": _load_batching_rules, "jvp": _load_jvp_rules},
    add=math_ops.add, negative=math_ops.negative, multiply=math_ops.multiply,
    reduce_sum=reduction_ops.reduce_sum, zeros_like=array_ops.zeros_like,
    ones_like=array_ops.ones_like, cast=array_ops.cast, reshape=array_ops.reshape,
    transpose=array_ops.transpose, stack=array_ops.stack, unstack=array_ops.unstack,
    concat=array_ops.concat, broadcast_to=array_ops.broadcast_to,
    stop_gradient=array_ops.stop_gradient)


def _reflected(f):
    # As TensorFlow's reflected operators, the Python operand must fit the tensor's dtype.
    def op(self, other):
        if not isinstance(other, _TensorLike):
            other = like(other, self)
        return f(other, self)
    op.__name__ = f"r{f.__name__}"
    return op


def _eq(self, other):
    if other is None:
        return False
    try:
        return equal(self, other)
    except errors.InvalidArgumentError as err:
        # TensorFlow compares with incompatible_shape_error=False: a scalar answer.
        if err.static_shape:
            return Tensor(np.bool_(False))
        raise


def _ne(self, other):
    if other is None:
        return True
    try:
        return not_equal(self, other)
    except errors.InvalidArgumentError as err:
        if err.static_shape:
            return Tensor(np.bool_(True))
        raise


_INT_TYPES = "int8, int16, int32, int64, uint8, uint16, uint32, uint64"
_BITWISE = {name: nondifferentiable(name, fn, error=math_ops._broadcast_error)
            for name, fn in (("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or),
                             ("BitwiseXor", np.bitwise_xor), ("Invert", np.invert))}


def _logic_or_bits(logical, op_name):
    """Python's ``&``, ``|``, ``^``: logical for bools, TensorFlow's bitwise ops for integers
    (other dtypes refused as its kernels refuse them)."""
    prim = _BITWISE[op_name]

    def op(self, other):
        x = self
        if x._value.dtype.kind == "b":
            return logical(x, other)
        x, y = pair(x, other, op_name)
        if x._value.dtype.kind not in "iu":
            check_kind(x, "iu", op_name, _INT_TYPES)
        return apply(prim, (x, y))
    return op


def _invert(self):
    if self._value.dtype.kind == "b":
        return logical_not(self)
    if self._value.dtype.kind not in "iu":
        check_kind(self, "iu", "Invert", _INT_TYPES)
    return apply(_BITWISE["Invert"], (self,))


def _iter(self):
    v = self._value
    if v.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    if ACTIVE[0]:
        # (in a trace the count is a guard: a replay at another size runs the body again)
        return (indexing_ops.strided_slice_getitem(self, i)
                for i in range(array_ops.static_dim(self, 0)))
    return map(Tensor, v)


def _bind(cls):
    cls.__add__ = add
    cls.__radd__ = _reflected(add)
    cls.__sub__ = subtract
    cls.__rsub__ = _reflected(subtract)
    cls.__mul__ = math_ops._mul_operator
    cls.__rmul__ = _reflected(multiply)
    cls.__truediv__ = divide
    cls.__rtruediv__ = _reflected(divide)
    cls.__floordiv__ = floordiv
    cls.__rfloordiv__ = _reflected(floordiv)
    cls.__mod__ = floormod
    cls.__rmod__ = _reflected(floormod)
    cls.__pow__ = lambda self, other, modulo=None: pow(self, other)
    cls.__rpow__ = _reflected(pow)
    cls.__matmul__ = matmul
    cls.__rmatmul__ = _reflected(matmul)
    cls.__neg__ = negative
    cls.__abs__ = math_ops.abs
    cls.__invert__ = _invert
    cls.__lt__ = less
    cls.__le__ = less_equal
    cls.__gt__ = greater
    cls.__ge__ = greater_equal
    cls.__eq__ = _eq
    cls.__ne__ = _ne
    cls.__and__ = _logic_or_bits(logical_and, "BitwiseAnd")
    cls.__rand__ = _reflected(cls.__and__)
    cls.__or__ = _logic_or_bits(logical_or, "BitwiseOr")
    cls.__ror__ = _reflected(cls.__or__)
    cls.__xor__ = _logic_or_bits(logical_xor, "BitwiseXor")
    cls.__rxor__ = _reflected(cls.__xor__)
    cls.__getitem__ = indexing_ops.strided_slice_getitem
    cls.__iter__ = _iter


_bind(_TensorLike)
state_ops._bind(Variable)  # v[1:3].assign(...), v.scatter_nd_update(...)
