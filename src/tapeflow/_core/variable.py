"""Variable: a named, mutable tensor. Ops read it in place; tapes watch it when it is read."""
import operator
import sys

from . import dispatch, errors
from . import dtypes as _dt
from .backend import np
from .tensor import (
    Tensor,
    TensorShape,
    _next_id,
    _numpy_text,
    _Reference,
    _TensorLike,
    alias,
    convert_to_tensor,
)

__all__ = ["Variable"]

_getrefcount = sys.getrefcount
# Called with each new Variable once tf.distribute is loaded: a variable made in a strategy's
# scope becomes that strategy's (mirrored; broadcast from rank 0 across processes).
_on_create = []


def _unshared_refcount():
    """What ``getrefcount`` reports inside ``Variable._update`` for an array that only the
    variable holds: its attribute, the local name, the call's own argument. Measured here in
    the same pattern rather than assumed, since interpreters count borrowed references
    differently (3.14 skips some); one more holder anywhere makes the count larger."""

    class Probe:
        __slots__ = ("_value",)

    probe = Probe()
    probe._value = np.empty(1)
    v = probe._value
    return _getrefcount(v)


_UNSHARED = _unshared_refcount()


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


class Variable(_TensorLike):
    """A mutable tensor that training updates, as ``tf.Variable``.

    Args:
        initial_value: a Tensor, array or Python value, or a callable returning one.
        trainable: whether tapes watch it automatically when it is read.
        name: the name; ``.name`` is ``'<name>:0'`` (default ``'Variable:0'``).
        dtype: optional DType to cast the initial value to.
        shape: optional shape (accepted for TensorFlow's signature; checked if given).

    Raises:
        ValueError: if ``initial_value`` is None.
        TypeError: if the value cannot be represented in ``dtype``.
    """

    __slots__ = ("_value", "_id", "_trainable", "_name", "constraint", "__weakref__")

    def __init__(self, initial_value=None, trainable=True, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None,
                 aggregation=None, shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified "
                             "except when you are not providing a `variable_def`. You "
                             "provided neither.")
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, _TensorLike) and dtype is not None:
            dtype = _dt.as_dtype(dtype)
            value = initial_value._value
            if value.dtype != dtype._np:
                value = value.astype(dtype._np)
            t = Tensor(value)
        else:
            t = convert_to_tensor(initial_value, dtype=dtype)
        value = t._value
        if shape is not None and not TensorShape(shape).is_compatible_with(value.shape):
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                             f"({TensorShape(value.shape)}) is not "
                             f"compatible with the explicitly supplied `shape` argument "
                             f"({TensorShape(shape)}).")
        self._value = value
        self._id = _next_id()
        self._trainable = bool(trainable)
        self._name = "Variable" if name is None else str(name)
        self.constraint = constraint
        if _on_create:
            _on_create[0](self)

    @property
    def name(self) -> str:
        return f"{self._name}:0"

    @property
    def trainable(self) -> bool:
        return self._trainable

    def _watchable(self):
        return self._trainable and self._value.dtype.kind in "fc"

    def _read(self):
        """A Tensor with this variable's current value and id; active tapes see the read."""
        if dispatch.ACTIVE[0]:
            for tape in dispatch.tape_stack():
                if tape.watch_accessed and self._watchable():
                    tape.watch_variable(self)
        return alias(self._value, self._id)

    def read_value(self) -> Tensor:
        """The current value as a Tensor (``tf.Variable.read_value``)."""
        return self._read()

    def value(self) -> Tensor:
        return self._read()

    def ref(self):
        return _Reference(self)

    def experimental_ref(self):
        return _Reference(self)

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def _new_value(self, value, op):
        if isinstance(value, _TensorLike):
            v = value._value
            if v.dtype is not self._value.dtype:
                raise ValueError(
                    f"Tensor conversion requested dtype {self.dtype.name} for Tensor with "
                    f"dtype {value.dtype.name}: {value!r}")
        else:
            v = convert_to_tensor(value, dtype=self.dtype)._value
        if v.shape != self._value.shape:
            if op == "assign":
                raise ValueError(
                    f"Cannot assign value to variable ' {self.name}': Shape mismatch.The "
                    f"variable shape {TensorShape(self._value.shape)}, and the assigned value "
                    f"shape {TensorShape(v.shape)} are incompatible.")
            op_type = "AssignAddVariableOp" if op == "assign_add" else "AssignSubVariableOp"
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"Cannot update variable with shape {_dims(self._value.shape)} using a "
                f"Tensor with shape {_dims(v.shape)}, shapes must be equal.", op_type)
        return v

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Set the value (same shape and dtype). Returns the variable.

        Raises:
            ValueError: on a shape or dtype mismatch.
        """
        v = self._new_value(value, "assign")
        if dispatch.ACTIVE[0]:
            _assigned(self, value, "assign")
        self._value = v
        return self

    def _update(self, delta, ufunc, pyop, op):
        d = self._new_value(delta, op)
        if dispatch.ACTIVE[0]:
            _assigned(self, delta, op)
        v = self._value
        # Update in place when nothing else holds the array (no tensor read from this
        # variable, no tape snapshot): NumPy's speed for big weights, and what any reader
        # already holding the old value could never observe (see _unshared_refcount).
        if type(v) is np.ndarray and _getrefcount(v) <= _UNSHARED and v.flags.writeable:
            ufunc(v, d, out=v)
        else:
            # The operator reaches NumPy's scalar fast path for 0-d variables.
            self._value = pyop(v, d)
        return self

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Add ``delta`` (same dtype and shape). Returns the variable.

        Raises:
            ValueError: on a dtype mismatch.
            tf.errors.InvalidArgumentError: on a shape mismatch.
        """
        return self._update(delta, np.add, operator.add, "assign_add")

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtract ``delta`` (same dtype and shape). Returns the variable.

        Raises:
            ValueError: on a dtype mismatch.
            tf.errors.InvalidArgumentError: on a shape mismatch.
        """
        return self._update(delta, np.subtract, operator.sub, "assign_sub")

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")

    __str__ = __repr__


def _assigned(var, value, op):
    # Written while a tape records: explain() reports that the chain stops here.
    from .explain import on_assign
    on_assign(var, value, op)
