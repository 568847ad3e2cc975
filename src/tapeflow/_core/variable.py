"""Variable: a named, mutable tensor. Ops read it in place; tapes watch it when it is read.

The scopes a variable is made in live here too: ``tf.name_scope`` (which prefixes its name)
and ``tf.device`` (accepted and ignored).
"""
import contextlib
import enum
import functools
import operator
import sys
import threading

from . import dtypes as _dt
from . import errors
from . import events as _events
from . import nest as _nest
from . import recording as _rec
from .backend import np
from .tensor import (
    Tensor,
    TensorShape,
    _next_id,
    _numpy_text,
    _Reference,
    _TensorLike,
    _TFNamedType,
    alias,
    convert_to_tensor,
)

__all__ = ["ParentView", "Variable", "ResourceVariable", "UnreadVariable", "name_scope", "device",
           "variable_creator_scope", "VariableAggregation", "VariableSynchronization",
           "as_variable"]

_getrefcount = sys.getrefcount
# Called with each new Variable once tf.distribute is loaded: a variable made in a strategy's
# scope becomes that strategy's (mirrored; broadcast from rank 0 across processes).
_on_create = []


class _NameScopes(threading.local):
    """Per thread, as in TensorFlow: the ``tf.name_scope`` stack (``"outer/inner/"``, ...);
    the innermost prefixes new variables' names."""

    def __init__(self):
        self.stack = [""]


name_scopes = _NameScopes()


class name_scope:  # noqa: N801 (TensorFlow's name)
    """A context that prefixes the names of variables created inside (``tf.name_scope``).

    ``with tf.name_scope("outer"):`` makes ``tf.Variable(1., name="v").name`` read
    ``'outer/v:0'``; scopes nest; a name ending in ``/`` is absolute, and ``""`` resets.
    Entering returns the scope string (``"outer/"``).

    Args:
        name: the scope's name (a string).

    Raises:
        ValueError: if ``name`` is not a string.

    >>> import tapeflow as tf
    >>> with tf.name_scope("outer") as scope:
    ...     v = tf.Variable(1.0, name="v")
    >>> scope, v.name
    ('outer/', 'outer/v:0')
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        stack = name_scopes.stack
        old = stack[-1]
        name = self._name
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = f"{old}{name}/"
        stack.append(scope)
        return scope

    def __exit__(self, *exc):
        name_scopes.stack.pop()
        return False


@contextlib.contextmanager
def device(device_name):
    """``tf.device``: accepted and ignored; everything runs on the CPU with NumPy."""
    yield


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


class VariableAggregation(enum.Enum):
    """How a distributed variable combines the updates of its replicas
    (``tf.VariableAggregation``): ``NONE``, ``SUM``, ``MEAN``, ``ONLY_FIRST_REPLICA``.

    >>> import tapeflow as tf
    >>> tf.VariableAggregation.SUM
    <VariableAggregationV2.SUM: 1>
    """

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


VariableAggregation.__name__ = VariableAggregation.__qualname__ = "VariableAggregationV2"


class _VariableAggregationV1(enum.Enum):
    """TF's v1 enum, what ``tf.Variable(...).aggregation`` reports when none was given
    (``<VariableAggregation.NONE: 0>``); equal to the v2 member of the same value."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


_VariableAggregationV1.__name__ = _VariableAggregationV1.__qualname__ = "VariableAggregation"


def _aggregation_eq(self, other):
    """A v1 and a v2 aggregation member of the same value are equal (as TF's)."""
    if isinstance(other, (VariableAggregation, _VariableAggregationV1)):
        return self.value == other.value
    return NotImplemented


for _cls in (VariableAggregation, _VariableAggregationV1):
    _cls.__eq__ = _aggregation_eq
    _cls.__hash__ = lambda self: hash(self.value)
del _cls


class VariableSynchronization(enum.Enum):
    """When a distributed variable's replicas agree (``tf.VariableSynchronization``):
    ``AUTO``, ``NONE``, ``ON_WRITE`` (mirrored), ``ON_READ`` (per replica, combined when
    read: metric state).

    >>> import tapeflow as tf
    >>> tf.VariableSynchronization.ON_READ
    <VariableSynchronization.ON_READ: 3>
    """

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


def _distribution_modes(var, synchronization, aggregation):
    """Checks and keeps the (rarely given) synchronization and aggregation of ``var``."""
    sync = VariableSynchronization.AUTO if synchronization is None else synchronization
    agg = VariableAggregation.NONE if aggregation is None else aggregation
    if not isinstance(sync, VariableSynchronization):
        raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                         f"variable: {var._name}")
    if not isinstance(agg, VariableAggregation):
        try:
            agg = VariableAggregation[str(agg.name if hasattr(agg, "name") else agg).upper()]
        except KeyError:
            raise ValueError(f"Invalid variable aggregation mode: {aggregation} for "
                             f"variable: {var._name}") from None
    var._modes = (sync, agg)
    if sync is VariableSynchronization.ON_READ:
        var._trainable = False


class _Creators(threading.local):
    def __init__(self):
        self.stack = []   # the creators of tf.variable_creator_scope, outermost first


_creators = _Creators()
_MADE = []   # a variable the creator chain made in __new__ (its __init__ has run)

# TF's keyword arguments of a variable creator (``tf.Variable``'s, in TF's order)
_CREATOR_KEYS = ("initial_value", "trainable", "validate_shape", "caching_device", "name",
                 "variable_def", "dtype", "import_scope", "constraint", "synchronization",
                 "aggregation", "shape", "experimental_enable_variable_lifting")


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Route the creation of variables in this thread through ``variable_creator``
    (``tf.variable_creator_scope``).

    ``variable_creator(next_creator, **kwargs)`` is called for each ``tf.Variable(...)``
    (and each Keras weight) made inside: ``kwargs`` are ``tf.Variable``'s arguments
    (``initial_value``, ``trainable``, ``validate_shape``, ``caching_device``, ``name``,
    ``variable_def``, ``dtype``, ``import_scope``, ``constraint``, ``synchronization``,
    ``aggregation``, ``shape``, ``experimental_enable_variable_lifting``; those not given
    are None, ``synchronization``/``aggregation`` ``AUTO``/``NONE``, ``validate_shape``
    True); ``next_creator(**kwargs)`` calls the next creator out (the innermost scope's is
    called first), the last one makes the variable. What the creator returns is what
    ``tf.Variable(...)`` returns.

    Args:
        variable_creator: a callable ``(next_creator, **kwargs) -> variable``.

    TensorFlow counterpart: ``tf.variable_creator_scope``.

    >>> import tapeflow as tf
    >>> def double(next_creator, **kwargs):
    ...     kwargs["initial_value"] = kwargs["initial_value"] * 2
    ...     return next_creator(**kwargs)
    >>> with tf.variable_creator_scope(double):
    ...     v = tf.Variable(3.0)
    >>> float(v.numpy())
    6.0
    """
    _creators.stack.append(variable_creator)
    try:
        yield
    finally:
        stack = _creators.stack
        if stack and stack[-1] is variable_creator:
            stack.pop()
        elif variable_creator in stack:
            stack.remove(variable_creator)


def _creator_kwargs(cls, args, kwargs):
    import inspect
    bound = inspect.signature(cls.__init__).bind(None, *args, **kwargs).arguments
    bound.pop(next(iter(bound)))   # self
    out = dict.fromkeys(_CREATOR_KEYS)
    out["validate_shape"] = True
    out["synchronization"] = VariableSynchronization.AUTO
    out["aggregation"] = _VariableAggregationV1.NONE
    out.update(bound)
    if getattr(cls, "_creator_callable_value", False):
        # Keras 3 makes its weights' tf.Variable from an initializer callable and a dtype
        # name: its creators see those
        value = out["initial_value"]
        if not callable(value):
            out["initial_value"] = lambda: value
        if out["dtype"] is not None:
            out["dtype"] = _dt.as_dtype(out["dtype"]).name
    return out


def _create_through_scopes(cls, args, kwargs):
    target = ResourceVariable if cls is Variable else cls
    own = set(inspect_params(target))

    def make(**kw):
        given = {k: v for k, v in kw.items() if k in own}
        if given.get("synchronization") is VariableSynchronization.AUTO:
            given["synchronization"] = None
        if given.get("aggregation") is _VariableAggregationV1.NONE:
            given["aggregation"] = None
        for k in ("trainable", "experimental_enable_variable_lifting", "validate_shape"):
            if k in given and given[k] is None:
                del given[k]
        obj = object.__new__(target)
        target.__init__(obj, **given)
        return obj

    fn = make
    saved = _creators.stack
    for creator in list(saved):
        fn = functools.partial(creator, fn)
    _creators.stack = []   # variables the creators make themselves go straight through
    try:
        out = fn(**_creator_kwargs(cls, args, kwargs))
    finally:
        _creators.stack = saved
    if isinstance(out, cls):
        _MADE.append(out)
    return out


def inspect_params(cls):
    import inspect
    return list(inspect.signature(cls.__init__).parameters)[1:]


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

    __slots__ = ("_value", "_id", "_trainable", "_name", "constraint", "_unread", "_modes",
                 "__weakref__")

    def __len__(self):
        # TensorFlow's variables have no len(), whatever their shape
        raise TypeError(f"object of type '{type(self).__name__}' has no len()")

    def __new__(cls, *args, **kwargs):
        # tf.Variable(...) makes a ResourceVariable, as TensorFlow's does; subclasses
        # (KerasVariable) are made as themselves.
        if _creators.stack:   # inside tf.variable_creator_scope: the creators decide
            return _create_through_scopes(cls, args, kwargs)
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=True, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None,
                 aggregation=None, shape=None, experimental_enable_variable_lifting=True):
        if _MADE and _MADE[-1] is self:   # made by the creator chain in __new__
            _MADE.pop()
            return
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
        self._name = name_scopes.stack[-1] + ("Variable" if name is None else str(name))
        self.constraint = constraint
        if _rec.ACTIVE[0]:
            tracer = _rec._state.tracer
            if tracer is not None:
                tracer.created(self)
        self._unread = None
        if synchronization is not None or aggregation is not None:
            _distribution_modes(self, synchronization, aggregation)
        if _on_create:
            _on_create[0](self)

    @property
    def name(self) -> str:
        return f"{self._name}:0"

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def synchronization(self) -> VariableSynchronization:
        """``tf.VariableSynchronization`` given at creation (``AUTO`` unless given)."""
        modes = getattr(self, "_modes", None)
        return VariableSynchronization.AUTO if modes is None else modes[0]

    @property
    def aggregation(self) -> VariableAggregation:
        """``tf.VariableAggregation`` given at creation (``NONE`` unless given)."""
        modes = getattr(self, "_modes", None)
        return _VariableAggregationV1.NONE if modes is None else modes[1]

    def _watchable(self, tape=None):
        """Whether reading this variable under ``tape`` watches it: trainable and floating.
        A trainable integer or bool variable is listed in the tape's
        ``watched_variables()``, as TensorFlow lists it, but never gets a gradient."""
        if not self._trainable:
            return False
        if self._value.dtype.kind in "fcV":  # V: bfloat16
            return True
        if tape is not None and self._id not in tape.variables:
            tape.variables[self._id] = self
        return False

    def _read(self):
        """A Tensor with this variable's current value and id; active tapes see the read."""
        if _rec.ACTIVE[0]:
            for tape in _rec.tape_stack():
                if tape.watch_accessed and self._watchable(tape):
                    tape.watch_variable(self)
            tracer = _rec._state.tracer
            if tracer is not None:
                tracer.read(self)
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
        """Set the value (same shape and dtype).

        Returns:
            An ``UnreadVariable`` that reads this variable when used (as TensorFlow's), or
            None with ``read_value=False``.

        Raises:
            ValueError: on a shape or dtype mismatch.
        """
        v = self._new_value(value, "assign")
        if _rec.ACTIVE[0]:
            _assigned(self, value, "assign", v)
        self._value = v
        u = self._unread
        return (u if u is not None else _unread(self)) if read_value else None

    def _update(self, delta, ufunc, pyop, op, read_value):
        d = self._new_value(delta, op)
        if _rec.ACTIVE[0]:
            _assigned(self, delta, op, d)
        v = self._value
        # Update in place when nothing else holds the array (no tensor read from this
        # variable, no tape snapshot): NumPy's speed for big weights, and what any reader
        # already holding the old value could never observe (see _unshared_refcount).
        if type(v) is np.ndarray and _getrefcount(v) <= _UNSHARED and v.flags.writeable:
            ufunc(v, d, out=v)
        else:
            # The operator reaches NumPy's scalar fast path for 0-d variables.
            self._value = pyop(v, d)
        u = self._unread
        return (u if u is not None else _unread(self)) if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Add ``delta`` (same dtype and shape). Returns an ``UnreadVariable`` (or None).

        Raises:
            ValueError: on a dtype mismatch.
            tf.errors.InvalidArgumentError: on a shape mismatch.
        """
        return self._update(delta, np.add, operator.add, "assign_add", read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtract ``delta`` (same dtype and shape). Returns an ``UnreadVariable`` (or None).

        Raises:
            ValueError: on a dtype mismatch.
            tf.errors.InvalidArgumentError: on a shape mismatch.
        """
        return self._update(delta, np.subtract, operator.sub, "assign_sub", read_value)

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")

    __str__ = __repr__


class ResourceVariable(Variable, metaclass=_TFNamedType):
    """The class of every ``tf.Variable(...)``, named as TensorFlow's."""

    __slots__ = ()
    _tf_path = "tensorflow.python.ops.resource_variable_ops.ResourceVariable"


class ParentView:
    """The protocol of a variable-like that stands for a ``Variable`` held in ``_parent``
    (what ``assign`` returns, a Keras variable): its value and identity are the parent's,
    read at each use (a later assign shows through), and a tape watches the parent."""

    __slots__ = ()
    _value = property(lambda self: self._parent._value)
    _id = property(lambda self: self._parent._id)

    def _watchable(self, tape=None):
        # The tape lists the Variable itself (``dense/kernel:0``), not this view of it.
        parent = self._parent
        if parent._watchable(tape):
            if tape is not None:
                tape.watch_variable(parent)
            return True
        return False

    def _read(self):
        return self._parent._read()


class UnreadVariable(ParentView, Variable, metaclass=_TFNamedType):
    """What ``assign`` returns: a view of the assigned variable that reads its value when
    used, printed as TensorFlow prints its ``_UnreadVariable``."""

    __slots__ = ("_parent",)
    _tf_path = "tensorflow.python.ops.resource_variable_ops._UnreadVariable"

    # The rest of the parent's state, read at each use too.
    _trainable = property(lambda self: self._parent._trainable)
    _name = "UnreadVariable"
    constraint = property(lambda self: self._parent.constraint)
    _unread = property(lambda self: self._parent._unread)

    @property
    def name(self) -> str:
        return "UnreadVariable"

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._parent.assign(value, use_locking, name, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._parent.assign_add(delta, use_locking, name, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._parent.assign_sub(delta, use_locking, name, read_value)

    def __repr__(self):
        return (f"<tf.Variable 'UnreadVariable' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")

    __str__ = __repr__


_nest.register_leaf_types(Variable, ResourceVariable, UnreadVariable)


def as_variable(obj):
    """The Variable ``obj`` stands for, or None: ``obj`` itself for a Variable; for a
    variable-like wrapper (``keras.Variable``, which is no ``tf.Variable``) the Variable it
    reads, its ``_parent``; None for anything else. How checkpoints, saving and optimizers
    recognise a wrapper without importing its class."""
    if isinstance(obj, Variable):
        return obj
    if isinstance(obj, _TensorLike):
        parent = getattr(obj, "_parent", None)
        if isinstance(parent, Variable):
            return parent
    return None


UnreadVariable.__name__ = UnreadVariable.__qualname__ = "_UnreadVariable"
_new_object = object.__new__


def _unread(var):
    # An UnreadVariable holds no state of its own (it reads its variable at each use),
    # so one per variable serves every assign: no allocation on the update path.
    u = var._unread
    if u is None:
        u = var._unread = _new_object(UnreadVariable)
        u._parent = var
    return u


def _assigned(var, value, op, array):
    # Written while a tape records: explain() reports that the chain stops here; a tracer
    # records the write as a step of its program.
    tracer = _rec._state.tracer
    if tracer is not None:
        tracer.assign(var, op, value, array)
    if _rec.tape_stack():
        _events.on_assign(var, value, op)


def update_in_place(var, d, ufunc, pyop):
    """``var``'s value ``pyop(value, d)``, in place when nothing else holds the array: the
    update a replayed ``tf.function`` program makes (the same rule as ``Variable._update``)."""
    v = var._value
    if type(v) is np.ndarray and _getrefcount(v) <= _UNSHARED and v.flags.writeable:
        ufunc(v, d, out=v)
    else:
        var._value = pyop(v, d)
