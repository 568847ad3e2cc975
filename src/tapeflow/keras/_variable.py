"""KerasVariable: Keras 3's ``keras.Variable`` on TensorFlow's backend.

As in Keras 3.15 it is not a ``tf.Variable`` (``isinstance(layer.kernel, tf.Variable)`` is
False) but wraps one: ``.value`` is the ``tf.Variable`` (named ``dense/kernel:0``, what
``tape.watched_variables()`` lists), ``.name`` the short name (``kernel``), ``.path`` adds
the layer scopes (``dense/kernel``) and ``.dtype`` is a string (``'float32'``).

Ops, tapes and ``tf.function`` take it as the variable it wraps through the protocol
tapeflow's variable-likes share (``_value``, ``_id``, ``_read``, ``_watchable``, and
``_parent``: the Variable read, as for what ``assign`` returns); the places that need a
real Variable (optimizers, checkpoints, saving) unwrap it with
``tapeflow._core.variable.as_variable``.
"""
from .._core import dtypes as _dt
from .._core import nest as _nest
from .._core.backend import np
from .._core.tensor import Tensor, TensorShape, _TensorLike, _TFNamedType, convert_to_tensor
from .._core.variable import ParentView, Variable
from . import _naming
from .backend import floatx

__all__ = ["KerasVariable", "initializing", "stateless_scope"]

# Keras's StatelessScope, reduced to what a layer's first symbolic run needs (see
# ``Layer._build_by_run``): while a dict is on this stack the first write to each Keras
# variable saves its value there, and the scope's end puts the values back.
_STATELESS = []

# keras.initializers.get, which keras.initializers (a floor above: its random initializers
# draw from SeedGenerators, which hold KerasVariables) registers on import.
_initializer_by_name = [None]


def register_initializer_lookup(get):
    """Name ``get`` (a name -> initializer function) as the lookup of an ``initializer``
    given as a string; keras.initializers registers its ``get`` when it is imported."""
    _initializer_by_name[0] = get


class stateless_scope:  # noqa: N801 - a context manager named as Keras's scope
    """Undo, on exit, every ``assign``/``assign_add``/``assign_sub`` of a Keras variable
    made inside (BatchNormalization's moving statistics, SeedGenerator states, metric
    totals), as Keras 3's ``StatelessScope`` leaves variables as they were."""

    def __enter__(self):
        self._saved = {}
        _STATELESS.append(self._saved)
        return self

    def __exit__(self, *exc):
        _STATELESS.pop()
        for var, old in self._saved.values():
            var._parent.assign(old, read_value=False)
        return False


class initializing:  # noqa: N801 - a context manager, as stateless_scope
    """Writes that stay inside a ``stateless_scope``: a pending checkpoint restore filling
    the variables a layer has just made is initialization, not a state change."""

    def __enter__(self):
        _STATELESS.append(None)
        return self

    def __exit__(self, *exc):
        _STATELESS.pop()
        return False


def _note_write(var):
    saved = _STATELESS[-1]
    if saved is not None and id(var) not in saved:
        saved[id(var)] = (var, np.array(var._parent.numpy()))   # a copy: no alias


class _DTypeName(str):
    """A dtype as Keras 3 gives it, the string ``'float32'`` (printing, comparing, hashing,
    JSON as that string), which also answers DType's attributes (``is_floating``, ``name``,
    ``as_numpy_dtype``) so code written for ``tf.Variable.dtype`` keeps working."""

    __slots__ = ()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(_dt.as_dtype(str(self)), attr)


_DTYPE_NAMES = {}


def _dtype_name(dtype):
    d = _DTYPE_NAMES.get(dtype.name)
    if d is None:
        d = _DTYPE_NAMES[dtype.name] = _DTypeName(dtype.name)
    return d


class KerasVariable(ParentView, _TensorLike, metaclass=_TFNamedType):
    """``keras.Variable``: a Keras weight wrapping the ``tf.Variable`` that holds its value.

    Args:
        initializer: the initial value (Tensor, array, Python value), or an initializer
            (a callable taking ``(shape, dtype=...)``, or a zero-argument callable).
        shape: the shape, required with a shape-taking initializer.
        dtype: the dtype (a DType or its name); default the value's (float32 for Python
            floats).
        trainable: whether tapes watch it when it is read and optimizers update it.
        autocast: accepted (Keras's mixed-precision autocast is the layer's).
        aggregation, synchronization: Keras's strings (``'none'``, ``'auto'``), kept.
        name: the short name (default ``'variable'``); the path adds the layer scopes.

    Raises:
        ValueError: if ``initializer`` is a shape-taking callable and ``shape`` is None.

    TensorFlow counterpart: ``keras.Variable`` (``keras.src.backend.Variable``).
    """

    __slots__ = ("_parent", "_name", "_path", "regularizer", "_aggregation",
                 "_synchronization", "_autocast", "__weakref__")
    _tf_path = "keras.src.backend.Variable"

    def __init__(self, initializer=None, shape=None, dtype=None, trainable=True,
                 autocast=True, aggregation="none", synchronization="auto", name=None):
        if initializer is None:
            raise ValueError("Argument `initializer` must be provided to create a Variable.")
        if isinstance(initializer, str):   # an initializer's name ("ones"), as Keras takes it
            initializer = _initializer_by_name[0](initializer)
        if callable(initializer) and not isinstance(initializer, _TensorLike):
            if shape is None:
                try:
                    initializer = initializer()
                except TypeError:
                    raise ValueError(
                        "When creating a Variable from an initializer, the `shape` argument "
                        f"should be specified. Received: initializer={initializer} and "
                        "shape=None") from None
            else:
                initializer = initializer(tuple(shape), dtype=_dt.as_dtype(dtype or floatx()))
        name = _naming.uniquify("variable") if name is None else str(name)
        if dtype is not None:
            dtype = _dt.as_dtype(dtype)
        path = _naming.current_path(name)
        # as Keras 3 on TensorFlow: tf.variable_creator_scope's creators see an initializer
        # callable and a dtype name
        var = Variable(lambda: initializer, trainable=trainable, name=name,
                       dtype=None if dtype is None else dtype.name)
        var._name = path  # Keras names the tf.Variable by its path, whatever tf.name_scope
        self._parent = var
        self._name = name
        self._path = path
        self.regularizer = None
        self._aggregation = aggregation
        self._synchronization = synchronization
        self._autocast = autocast

    # -- Keras 3's attributes ------------------------------------------------------------
    @property
    def value(self):
        """The wrapped ``tf.Variable``."""
        return self._parent

    @property
    def name(self) -> str:
        return self._name

    @property
    def path(self) -> str:
        return self._path

    @property
    def dtype(self) -> str:
        """The dtype's name, a string (``'float32'``), as Keras 3's."""
        return _dtype_name(self._parent.dtype)

    @property
    def shape(self) -> TensorShape:
        return self._parent.shape

    @property
    def trainable(self) -> bool:
        return self._parent._trainable

    @trainable.setter
    def trainable(self, value):
        self._parent._trainable = bool(value)

    @property
    def constraint(self):
        return self._parent.constraint

    @constraint.setter
    def constraint(self, value):
        self._parent.constraint = value

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def handle(self):
        return self._parent

    def read_value(self) -> Tensor:
        return self._parent._read()

    def ref(self):
        return self._parent.ref()

    experimental_ref = ref

    # Keras 3: assign casts to the variable's dtype, checks the shape with its own message
    # and returns the value assigned; assign_add/assign_sub return the new value.
    def _cast_in(self, value):
        dtype = self._parent.dtype
        if isinstance(value, _TensorLike):
            if value.dtype != dtype:
                from ..ops.math_ops import cast
                return cast(value, dtype)
            return value if type(value) is Tensor else value._read()
        return convert_to_tensor(value, dtype=dtype)

    def assign(self, value):
        """Set the value; returns the value assigned (a Tensor of this variable's dtype).

        Raises:
            ValueError: if the shapes differ (Keras 3's text).
        """
        if _STATELESS:
            _note_write(self)
        t = self._cast_in(value)
        if tuple(t.shape) != tuple(self._parent.shape):
            raise ValueError(
                "The shape of the target variable and the shape of the target value in "
                "`variable.assign(value)` must match. "
                f"variable.shape={self.shape}, Received: value.shape={t.shape}. "
                f"Target variable: {self!s}")
        self._parent.assign(t, read_value=False)
        return value if isinstance(value, KerasVariable) else t

    def assign_add(self, value):
        """Add ``value``; returns the new value (a Tensor)."""
        if _STATELESS:
            _note_write(self)
        self._parent.assign_add(self._cast_in(value), read_value=False)
        return self._parent._read()

    def assign_sub(self, value):
        """Subtract ``value``; returns the new value (a Tensor)."""
        if _STATELESS:
            _note_write(self)
        self._parent.assign_sub(self._cast_in(value), read_value=False)
        return self._parent._read()

    def __len__(self):
        raise TypeError("object of type 'Variable' has no len()")

    __hash__ = None

    def __repr__(self):
        v = self._parent._value
        text = str(v.item()) if v.ndim == 0 else str(v)
        return (f"<Variable path={self._path}, shape={tuple(v.shape)}, "
                f"dtype={self.dtype}, value={text}>")

    __str__ = __repr__


KerasVariable.__name__ = KerasVariable.__qualname__ = "Variable"
_nest.register_leaf_types(KerasVariable)
