"""Layer: Keras 3's base class: weights made on the first call, tracked sublayers, names."""
import inspect
import warnings

from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.recording import executing_eagerly
from ..._core.tensor import _TensorLike, convert_to_tensor
from ...checkpoint import tracking as _tracking
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .. import _naming, _symbolic, _variable
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from .._variable import KerasVariable
from ..mixed_precision.policy import _get as _policy
from ..random import SeedGenerator
from . import _masking
from .input_spec import assert_input_compatibility

__all__ = ["Layer"]

# The ``training`` flag of the outermost call, seen by nested layers that are not given one.
_training_stack = []
# Keyword arguments every Keras layer accepts (and tapeflow ignores).
_ACCEPTED_KWARGS = {"batch_input_shape", "batch_size", "weights", "autocast",
                    "implementation", "input_length", "dynamic"}
# Layers whose ``build`` runs from their first call (not from user code), innermost last.
building = []


def _restores(layer):
    """Resume the pending checkpoint restores into ``layer`` (it made variables or
    sublayers); inside the first run of a layer's ``call`` (``Layer._build_by_run``) their
    writes stay: they are initialization."""
    if _variable._STATELESS:
        with _variable.initializing():
            _tracking.created(layer)
    else:
        _tracking.created(layer)


def _convert_input(x, dtype, kinds):
    """``x`` as a tensor, cast to ``dtype`` if its dtype is of one of ``kinds`` ('f', 'fiub')."""
    if isinstance(x, (tuple, list, dict)) or x is None:
        return x
    if not isinstance(x, _TensorLike):
        x = convert_to_tensor(x)
    have = x.dtype
    if have != dtype and (have._np.kind in kinds or have is _dt.bfloat16):  # bfloat16: kind V
        x = _a.cast(x, dtype)
    return x


def _shape_of(x):
    if isinstance(x, _TensorLike):
        return tuple(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(e) for e in x]
    return None


def _plain(value):
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return value is None or isinstance(value, (str, int, float, bool))


_SIGNATURES = {}


def _auto_config(cls, args, kwargs):
    """The arguments ``cls(*args, **kwargs)`` was made with, if they are plain data (so a
    subclass without ``get_config`` still saves, as Keras 3's ``Operation.__new__`` does).
    tapeflow's own layers have a ``get_config`` each: None for them, at no cost."""
    if cls.__module__.startswith("tapeflow."):
        return None
    params = _SIGNATURES.get(cls)
    if params is None:
        params = _SIGNATURES[cls] = inspect.signature(cls.__init__)
    try:
        bound = params.bind(None, *args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    config = {}
    for i, (name, value) in enumerate(bound.arguments.items()):
        kind = params.parameters[name].kind
        if i == 0 or kind is inspect.Parameter.POSITIONAL_ONLY:
            continue
        if kind is inspect.Parameter.VAR_POSITIONAL:
            if value:
                return None
            continue
        if kind is inspect.Parameter.VAR_KEYWORD:
            config.update(value)
        else:
            config[name] = value
    config.pop("name", None)
    return config if _plain(config) else None
def _check_positional(args):
    for arg in _symbolic.flatten(list(args)):
        if arg is not None and not isinstance(arg, (_TensorLike, np.ndarray)) \
                and not _symbolic.is_symbolic(arg):
            raise ValueError("Only input tensors may be passed as positional arguments. The "
                             "following argument value should be passed as a keyword "
                             f"argument: {arg} (of type {type(arg)})")


def _format_argument(value):
    if isinstance(value, _TensorLike):
        return f"tf.Tensor(shape={tuple(value.shape)}, dtype={value.dtype.name})"
    if isinstance(value, (list, tuple)):
        return type(value)(_format_argument(v) for v in value)
    if isinstance(value, dict):
        return {k: _format_argument(v) for k, v in value.items()}
    return value


def _with_call_info(e, layer, args, kwargs):
    """``e`` re-raised as Keras does from ``call()``: same class, the message framed by the
    layer's name and a report of the arguments it received (innermost call only)."""
    if getattr(e, "_keras_call_info_injected", False):
        return e.with_traceback(e.__traceback__)
    call = layer.call
    keras_call = getattr(layer, "_keras_call_arguments", None)
    if keras_call is not None:  # a layer whose ``call`` packs Keras's arguments differently
        call, args = keras_call(args)
    try:
        bound = inspect.signature(call).bind(*args, **kwargs)
    except TypeError:
        return e
    report = []
    for param in inspect.signature(call).parameters.values():
        value = bound.arguments.get(param.name, param.default)
        if param.name in bound.arguments:
            value = _format_argument(value)
        report.append(f"  \u2022 {param.name}={value}")
    from ... import errors
    is_op = isinstance(e, errors.OpError)
    message = e.message if is_op else (e.args[0] if e.args else "")
    name = f"{type(layer).__name__}.call()"
    message = (f"Exception encountered when calling {name}.\n\n\x1b[1m{message}\x1b[0m\n\n"
               f"Arguments received by {name}:\n" + "\n".join(report))
    if is_op:
        new = type(e)(e.node_def, e.op, message)
    else:
        try:
            new = type(e)(message)
        except TypeError:
            new = RuntimeError(message)
    new._keras_call_info_injected = True
    return new.with_traceback(e.__traceback__)


class Layer:
    """The base class of every layer, as ``tf.keras.layers.Layer`` (Keras 3).

    Subclasses create weights in ``build(input_shape)`` with :meth:`add_weight` (or in
    ``__init__``) and compute in ``call(inputs, ...)``. The first ``layer(x)`` builds the
    layer from ``x``'s shape. Layers and lists of layers assigned as attributes are
    tracked: their weights follow the layer's own in ``trainable_variables``.

    Args:
        trainable: whether the weights are trainable.
        name: the layer's name; default the class name in snake case, made unique
            (``dense``, ``dense_1``, ...).
        dtype: the dtype of the weights and computations (default float32).
        input_shape: the shape of one example, without the batch axis (used by
            ``Sequential`` to build ahead of the first call).
        activity_regularizer: a penalty on the outputs, divided by the batch size and added
            to ``losses`` at each call.
    """

    # Float inputs take the layer's dtype, as Keras autocasts; Dense and Conv2D also cast
    # integer and bool inputs (Keras promotes them in the matmul).
    _cast_kinds = "f"
    # Keys Keras 3 writes in this layer's config that tapeflow supports at one value only:
    # written as such by ``get_config`` and checked by ``from_config``.
    _config_fixed = {}
    # Keras 3 marks some weightless layers built at construction: no ``build_config``.
    _built_at_init = False
    # The default of ``call``'s ``training`` argument (what a call without one gets).
    _training_default = None

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        object.__setattr__(obj, "_auto_config", _auto_config(cls, args, kwargs))
        return obj
    # What the first argument of a call must be (an InputSpec, a list of them, or None).
    input_spec = None
    # Layers that compute in floats refuse string inputs, as Keras's type promotion does.
    _numeric_only = False
    # Keras refuses Python values (lists, floats, strings) as positional call arguments.
    _allow_non_tensor_positional_args = False

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None,
                 input_dim=None, activity_regularizer=None, **kwargs):
        unknown = {k: v for k, v in kwargs.items() if k not in _ACCEPTED_KWARGS}
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {unknown}")
        object.__setattr__(self, "_own_weights", [])
        object.__setattr__(self, "_added_losses", [])
        self.name = _naming.auto_name(type(self).__name__) if name is None else name
        self._build_shape = None
        self._trainable = bool(trainable)
        # a DTypePolicy: from a name, a DType, a Keras config dict, or the global policy
        self.dtype_policy = _policy(dtype)
        self.built = self._built_at_init
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if input_shape is not None:
            warnings.warn(
                "Do not pass an `input_shape`/`input_dim` argument to a layer. When using "
                "Sequential models, prefer using an `Input(shape)` object as the first "
                "layer in the model instead.", UserWarning, stacklevel=3)
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)
        self.activity_regularizer = _reg.get(activity_regularizer)
        self._output_shape = None
        params = inspect.signature(self.call).parameters
        self._call_has_training = "training" in params or any(
            p.kind is p.VAR_KEYWORD for p in params.values())
        default = params["training"].default if "training" in params else None
        self._training_default = None if default is inspect.Parameter.empty else default
        self._call_has_mask = "mask" in params

    # -- weights -------------------------------------------------------------------------
    def add_weight(self, *args, **kwargs) -> KerasVariable:
        """Create a weight tracked by this layer: ``add_weight(shape=None, initializer=None,
        dtype=None, trainable=True, regularizer=None, constraint=None, name=None)``.

        Args:
            shape: the weight's shape (default scalar).
            initializer: an initializer name, instance or callable; default
                'glorot_uniform' for floats, 'zeros' otherwise.
            dtype: the dtype (default the layer's).
            trainable: whether tapes and optimizers see it.
            name: its short name (``kernel``); the path adds the layer scopes.

        Returns:
            The new KerasVariable.

        Raises:
            ValueError: for a name passed first, positionally (Keras 3's text).
        """
        if args and isinstance(args[0], str):
            raise ValueError(f"`name` must be passed as a keyword argument. Received: "
                             f"add_weight('{args[0]}', ...). Use: add_weight(shape=..., "
                             f"name='{args[0]}').")
        return self._add_weight(*args, **kwargs)

    def _add_weight(self, shape=None, initializer=None, dtype=None, trainable=True,
                    regularizer=None, constraint=None, name=None, **kwargs):
        shape = () if shape is None else tuple(shape)
        dtype = _dt.as_dtype(dtype or self.dtype_policy._variable)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = _init.get(initializer)
        # as TensorFlow lifts a variable's initializer out of a function being traced
        # (a layer built by a compiled step's first call): its ops are not the step's
        from ..._core.recording import init_scope
        with init_scope():
            value = init(shape, dtype=dtype)
        with _naming.name_scope(self.name, self):
            var = KerasVariable(value, name=name or "variable", trainable=trainable,
                                dtype=dtype)
        var.constraint = _constraints.get(constraint)
        var.regularizer = _reg.get(regularizer)
        self._own_weights.append(var)
        _restores(self)  # a pending checkpoint restore assigns it now
        return var

    def _sublayers(self):
        found = []

        def visit(value):
            if isinstance(value, Layer):
                if all(value is not f for f in found):
                    found.append(value)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    visit(v)
            elif isinstance(value, dict):
                for v in value.values():
                    visit(v)

        for key, value in vars(self).items():
            if key not in ("_own_weights", "_added_losses"):
                visit(value)
        return found

    @property
    def layers(self) -> list:
        """The directly tracked sublayers, in attribute-assignment order."""
        return self._sublayers()

    @property
    def weights(self) -> list:
        """All weights: this layer's own (creation order), then each sublayer's."""
        out = list(self._own_weights)
        for layer in self._sublayers():
            for w in layer.weights:
                if all(w is not o for o in out):
                    out.append(w)
        return out

    def _seed_generators(self) -> list:
        """The ``keras.random.SeedGenerator`` objects this layer holds as attributes (Keras
        tracks them as it does sublayers): their states are variables, not weights."""
        return [v for v in vars(self).values() if isinstance(v, SeedGenerator)]

    @property
    def variables(self) -> list:
        """All the layer's state, as Keras 3: its own weights, the states of its
        SeedGenerators (``seed_generator_state``, int64, non-trainable), then each
        sublayer's variables."""
        out = list(self._own_weights)
        out += [g.state for g in self._seed_generators()]
        for layer in self._sublayers():
            for v in layer.variables:
                if all(v is not o for o in out):
                    out.append(v)
        return out

    @property
    def trainable_weights(self) -> list:
        """The trainable weights (none when ``trainable`` is False)."""
        if not self._trainable:
            return []
        own = [w for w in self._own_weights if w.trainable]
        for layer in self._sublayers():
            own += [w for w in layer.trainable_weights if all(w is not o for o in own)]
        return own

    trainable_variables = trainable_weights

    @property
    def non_trainable_weights(self) -> list:
        """The weights that training leaves alone."""
        train = self.trainable_weights
        return [w for w in self.weights if all(w is not t for t in train)]

    @property
    def non_trainable_variables(self) -> list:
        """The non-trainable weights and the SeedGenerators' states (all the variables when
        the layer is frozen), as Keras 3."""
        if not self._trainable:
            return self.variables
        return [v for v in self.variables if not v.trainable]

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._sublayers():
            layer.trainable = value

    @property
    def dtype(self) -> str:
        """The variables' dtype name (``float32`` under ``mixed_float16``), as Keras 3."""
        return self.dtype_policy.variable_dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype name the layer computes in (``float16`` under ``mixed_float16``)."""
        return self.dtype_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self.dtype_policy.variable_dtype

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Assign NumPy arrays to the weights, in ``weights`` order.

        Raises:
            ValueError: if the count or a shape differs.
        """
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(mine)} weights.")
        for var, value in zip(mine, weights, strict=True):
            var.assign(convert_to_tensor(value, dtype=var.dtype))

    def count_params(self) -> int:
        """The number of scalars in all weights."""
        return int(sum(w.shape.num_elements() for w in self.weights))

    # -- losses --------------------------------------------------------------------------
    def add_loss(self, loss):
        """Add a scalar loss term (from ``call``); the outermost call starts the list afresh."""
        self._added_losses.append(loss)

    def _clear_losses(self):
        self._added_losses.clear()
        for layer in self._sublayers():
            layer._clear_losses()

    @property
    def supports_masking(self) -> bool:
        """Whether the layer passes its input's Keras mask on (through ``compute_mask``): as
        in Keras 3, true by default for a layer that defines its own ``compute_mask``; a
        layer class or instance may set it."""
        value = self.__dict__.get("_supports_masking")
        if value is None:
            return type(self).compute_mask is not Layer.compute_mask
        return value

    @supports_masking.setter
    def supports_masking(self, value):
        self.__dict__["_supports_masking"] = bool(value)

    # -- the symbolic graph --------------------------------------------------------------
    def _graph_attribute(attr, what):  # noqa: N805 - a property factory, run at class level
        def get(self):
            if f"_{what}_override" in self.__dict__:
                return self.__dict__[f"_{what}_override"]
            return self._first_node(attr, what)

        def set_(self, value):
            self.__dict__[f"_{what}_override"] = value
        get.__doc__ = (f"The KerasTensor(s) of this layer's first symbolic call's {what} "
                       f"(``layer.{what}`` in Keras 3: one tensor, or a list for several; a "
                       f"functional model cut at a layer's output extracts features).\n\n"
                       f"Raises:\n    AttributeError: if the layer was never called on "
                       f"KerasTensors.")
        return property(get, set_)

    input = _graph_attribute("inputs", "input")
    output = _graph_attribute("outputs", "output")
    del _graph_attribute

    def _first_node(self, attr, what):
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has "
                                 f"no defined {what}.")
        values = getattr(nodes[0], attr)
        return values[0] if isinstance(values, list) and len(values) == 1 else values

    @property
    def losses(self) -> list:
        """Losses added by ``add_loss`` in the last call (this layer's, then each sublayer's),
        then the regularization penalties of every weight (computed now, so they are
        differentiable), in Keras 3's order."""
        return self._added_loss_terms() + [w.regularizer(w) for w in self.weights
                                           if getattr(w, "regularizer", None) is not None]

    def _added_loss_terms(self):
        out = list(self._added_losses)
        for layer in self._sublayers():
            out += layer._added_loss_terms()
        return out

    # -- calling -------------------------------------------------------------------------
    def build(self, input_shape):
        """Create the weights for inputs of ``input_shape``; the base does nothing."""
        self.built = True

    build._keras_default = True   # Keras's @utils.default: a layer that keeps it is built
    #                               by running its call once (_build_by_run)

    def _build_by_run(self, inputs, args, kwargs, training):
        """Keras 3's ``_maybe_build`` for a layer that keeps the default ``build()`` and has
        sublayers not built yet: ``call`` runs once before the real call, to build them (in
        Keras, symbolically, through ``backend.compute_output_spec``), so a ``print`` in
        ``call`` shows twice on the first call, as in Keras. Nothing that run changes stays
        (Keras's StatelessScope): Keras variables' writes, the random seed state and the
        losses it adds are undone. A run that raises is forgotten and the real call builds,
        as Keras does for an eager call."""
        from ...ops import random_ops
        tree = self._layer_tree()
        losses = {id(layer): list(layer._added_losses) for layer in tree}
        seeds = random_ops._snapshot()
        if self._call_has_training and training is not None:
            kwargs = dict(kwargs, training=training)
        _training_stack.append(training)
        try:
            with _variable.stateless_scope():
                if self.dtype_policy._mixed:
                    self._autocast_call(inputs, args, kwargs)
                else:
                    self.call(inputs, *args, **kwargs)
        except Exception:  # noqa: BLE001, S110 - Keras lets the eager call build then
            pass
        finally:
            _training_stack.pop()
            random_ops._restore(seeds)
            for layer in self._layer_tree():
                layer._added_losses[:] = losses.get(id(layer), ())

    def _layer_tree(self):
        """This layer and every layer it tracks, depth first."""
        out, stack, seen = [], [self], set()
        while stack:
            layer = stack.pop()
            if id(layer) not in seen:
                seen.add(id(layer))
                out.append(layer)
                stack.extend(reversed(layer._sublayers()))
        return out

    def call(self, inputs, *args, **kwargs):
        """The computation; subclasses override it."""
        return inputs

    def __call__(self, inputs, *args, **kwargs):
        if _symbolic.is_symbolic(inputs) or (args and _symbolic.is_symbolic(args)):
            if self.input_spec is not None:  # with the batch axis as None, as Keras shows it
                assert_input_compatibility(self.input_spec, inputs, self.name)
            return _symbolic.symbolic_call(self, inputs, kwargs, args)
        if not self._allow_non_tensor_positional_args:
            _check_positional((inputs,) + args)
        previous_mask = _masking.input_mask(inputs)
        if previous_mask is not None and self._call_has_mask and kwargs.get("mask") is None:
            kwargs["mask"] = previous_mask
        inputs = _convert_input(inputs, self.dtype_policy._compute, self._cast_kinds)
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, inputs, self.name)
        # Keras's order: the argument, an outer call's, the call signature's default; a
        # None is not passed (the signature's default applies).
        training = kwargs.pop("training", None)
        if training is None and _training_stack:
            training = _training_stack[-1]
        if training is None:
            training = self._training_default
        if not _training_stack:
            self._clear_losses()
        with _naming.name_scope(self.name, self):
            if not self.built:
                if getattr(type(self).build, "_keras_default", False) and \
                        executing_eagerly() and not all(
                            layer.built for layer in self._sublayers()):
                    self._build_by_run(inputs, args, kwargs, training)
                building.append(self)
                self._build_shape = _shape_of(inputs)
                if _symbolic.unknown_batch:
                    self._build_shape = _symbolic.unknown_batch_shape(self._build_shape)
                try:
                    self.build(_shape_of(inputs))
                finally:
                    building.pop()
                self.built = True
                _restores(self)  # sublayers made in build: pending restores reach them
            if self._call_has_training and training is not None:
                kwargs["training"] = training
            _training_stack.append(training)
            try:
                if self._numeric_only and isinstance(inputs, _TensorLike) \
                        and inputs.dtype == _dt.string:
                    raise ValueError(f"dtype='{inputs.dtype.name}' is not a valid dtype for "
                                     "Keras type promotion.")
                if self.dtype_policy._mixed:
                    out = self._autocast_call(inputs, args, kwargs)
                else:
                    out = self.call(inputs, *args, **kwargs)
            except Exception as e:  # noqa: BLE001 - re-raised with Keras's call report
                raise _with_call_info(e, self, (inputs,) + args, kwargs) from None
            finally:
                _training_stack.pop()
        if self.activity_regularizer is not None:
            for t in _symbolic.flatten(out):
                if isinstance(t, _TensorLike):
                    penalty = self.activity_regularizer(t)
                    if t.ndim:
                        # each call's batch size where its static one is None (a relaxed
                        # trace), as Keras's ops.shape(output)[0]
                        batch = t.shape[0]
                        batch = float(batch or 1) if batch is not None else _m.cast(
                            _a.shape(t)[0], penalty.dtype)
                        penalty = _m.divide(penalty, batch)
                    self.add_loss(penalty)
        if self._output_shape is None and isinstance(out, _TensorLike):
            self._output_shape = tuple(out.shape)  # the build-time shape, as Keras
            if _symbolic.unknown_batch and self._output_shape:   # built for a None batch
                self._output_shape = _symbolic.unknown_batch_shape(self._output_shape)
        if previous_mask is not None or type(self).compute_mask is not Layer.compute_mask:
            _masking.propagate(self, inputs, out, previous_mask)
        return out

    def _autocast_call(self, inputs, args, kwargs):
        """``call`` under a mixed policy: the layer's own trainable float variables held as
        attributes read as casts to the compute dtype (recorded, so gradients reach the
        float32 variables), as Keras 3's autocast scope does."""
        compute = self.dtype_policy._compute
        saved = {k: v for k, v in self.__dict__.items()
                 if isinstance(v, KerasVariable) and v.trainable and v.dtype.is_floating
                 and v.dtype != compute}
        for k, v in saved.items():
            object.__setattr__(self, k, _a.cast(v, compute))
        try:
            return self.call(inputs, *args, **kwargs)
        finally:
            for k, v in saved.items():
                object.__setattr__(self, k, v)

    def compute_mask(self, inputs, previous_mask):
        """The Keras mask of the outputs; the base passes ``previous_mask`` on."""
        return previous_mask

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape`` (``None`` for unknown dimensions); the base
        runs the layer on zeros, taking each unknown dimension as 1."""
        out = _symbolic.symbolic_call(self, _symbolic.KerasTensor(tuple(input_shape)), {})
        return out.shape

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    # -- saving --------------------------------------------------------------------------
    def get_config(self) -> dict:
        """The arguments that rebuild this layer (``name``, ``trainable``, ``dtype`` and the
        layer's own), in Keras 3's keys, so the config is read by Keras and tapeflow alike.

        A subclass that does not override this gets the plain-data arguments it was
        constructed with, as in Keras.

        Raises:
            NotImplementedError: for a subclass made with non-plain arguments and no
                ``get_config`` of its own.
        """
        from ..saving.serialization import dtype_policy_config, serialize_keras_object
        config = {"name": self.name}
        if (type(self).get_config is Layer.get_config
                and not type(self).__module__.startswith("tapeflow.")):
            if self._auto_config is None:
                raise NotImplementedError(
                    f"Layer {type(self).__name__} (name '{self.name}') cannot be saved: it "
                    "was created by passing non-serializable argument values in "
                    "`__init__()`, and therefore the object must override `get_config()` "
                    "in order to be serializable. Please implement `get_config()`.")
            config.update(self._auto_config)
            params = inspect.signature(self.__init__).parameters
            if "name" not in params and not (
                    "kwargs" in params and params["kwargs"].kind is params["kwargs"].VAR_KEYWORD):
                config.pop("name", None)
        config["trainable"] = self.trainable
        config["dtype"] = dtype_policy_config(self.dtype_policy.name)
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = serialize_keras_object(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        """A new layer from :meth:`get_config`'s dict (or the one Keras 3 wrote).

        Raises:
            ValueError: for a Keras option tapeflow's layer does not support.
        """
        from ..saving.serialization import deserialize_config_values
        config = deserialize_config_values(config)
        fixed = {}
        for klass in reversed(cls.__mro__):
            fixed.update(vars(klass).get("_config_fixed", {}))
        for key, supported in fixed.items():
            if key in config:
                value = config.pop(key)
                if _normalize(value) != _normalize(supported):
                    raise ValueError(f"tapeflow's {cls.__name__} does not support "
                                     f"`{key}={value!r}` (layer '{config.get('name')}').")
        return cls(**config)

    def get_build_config(self):
        """``{"input_shape": ...}``: the shape the layer was built for, or None."""
        if self._build_shape is not None and not self._built_at_init:
            return {"input_shape": self._build_shape}
        return None

    def build_from_config(self, config):
        """Create the weights for ``config["input_shape"]`` (None dimensions taken as 1)
        by calling the layer once on zeros."""
        if not config or "input_shape" not in config:
            return
        shape = config["input_shape"]
        first = shape[0] if shape and isinstance(shape[0], (list, tuple)) else shape
        if first and first[0] is None:
            _symbolic.unknown_batch.append(True)
        _symbolic.building.append(self)
        try:
            self(_zeros_like_shape(shape, self.dtype_policy._compute), training=False)
        finally:
            _symbolic.building.pop()
            if first and first[0] is None:
                _symbolic.unknown_batch.pop()
        self._build_shape = shape


def _normalize(value):
    if isinstance(value, (list, tuple)):
        return [_normalize(v) for v in value]
    return value


def _zeros_like_shape(shape, dtype):
    from ..._core.backend import np
    from ..._core.tensor import Tensor
    if shape and isinstance(shape[0], (list, tuple)):
        return [_zeros_like_shape(s, dtype) for s in shape]
    return Tensor(np.zeros(tuple(1 if d is None else d for d in shape), dtype._np))


def serialize(obj):
    """``obj``'s Keras config (for ``get_config``), None for None."""
    from ..saving.serialization import serialize_keras_object
    return serialize_keras_object(obj)
