"""Layer: Keras 3's base class: weights made on the first call, tracked sublayers, names."""
import inspect
import warnings

from ..._core import dtypes as _dt
from ..._core.tensor import _TensorLike, convert_to_tensor
from ...ops import math_ops as _m
from .. import _naming, _symbolic
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from .._variable import KerasVariable
from . import _masking

__all__ = ["Layer"]

# The ``training`` flag of the outermost call, seen by nested layers that are not given one.
_training_stack = []
# Keyword arguments every Keras layer accepts (and tapeflow ignores).
_ACCEPTED_KWARGS = {"batch_input_shape", "batch_size", "weights", "autocast",
                    "implementation", "input_length", "dynamic"}
# Layers whose ``build`` runs from their first call (not from user code), innermost last.
building = []


def _convert_input(x, dtype, kinds):
    """``x`` as a tensor, cast to ``dtype`` if its dtype is of one of ``kinds`` ('f', 'fiub')."""
    if isinstance(x, (tuple, list, dict)) or x is None:
        return x
    if not isinstance(x, _TensorLike):
        x = convert_to_tensor(x)
    if x._value.dtype != dtype._np and x._value.dtype.kind in kinds:
        x = _m.cast(x, dtype)
    return x


def _shape_of(x):
    if isinstance(x, _TensorLike):
        return tuple(x._value.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(e) for e in x]
    return None


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
    # Whether the layer passes its input's Keras mask on (through ``compute_mask``).
    supports_masking = False

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None,
                 input_dim=None, activity_regularizer=None, **kwargs):
        unknown = {k: v for k, v in kwargs.items() if k not in _ACCEPTED_KWARGS}
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {unknown}")
        object.__setattr__(self, "_own_weights", [])
        object.__setattr__(self, "_added_losses", [])
        self.name = name or _naming.auto_name(type(self).__name__)
        self._trainable = bool(trainable)
        self.dtype_policy = _dt.as_dtype(dtype or "float32")
        self.built = False
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
        self._call_has_mask = "mask" in params

    # -- weights -------------------------------------------------------------------------
    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True,
                   regularizer=None, constraint=None, name=None, **kwargs) -> KerasVariable:
        """Create a weight tracked by this layer.

        Args:
            shape: the weight's shape (default scalar).
            initializer: an initializer name, instance or callable; default
                'glorot_uniform' for floats, 'zeros' otherwise.
            dtype: the dtype (default the layer's).
            trainable: whether tapes and optimizers see it.
            name: its short name (``kernel``); the path adds the layer scopes.

        Returns:
            The new KerasVariable.
        """
        shape = () if shape is None else tuple(shape)
        dtype = _dt.as_dtype(dtype or self.dtype_policy)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = _init.get(initializer)
        with _naming.name_scope(self.name, self):
            var = KerasVariable(init(shape, dtype=dtype), name=name or "variable",
                                trainable=trainable, dtype=dtype)
        var.constraint = _constraints.get(constraint)
        var.regularizer = _reg.get(regularizer)
        self._own_weights.append(var)
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

    variables = weights

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

    non_trainable_variables = non_trainable_weights

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
        return self.dtype_policy.name

    @property
    def compute_dtype(self) -> str:
        return self.dtype_policy.name

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
        return int(sum(w._value.size for w in self.weights))

    # -- losses --------------------------------------------------------------------------
    def add_loss(self, loss):
        """Add a scalar loss term (from ``call``); the outermost call starts the list afresh."""
        self._added_losses.append(loss)

    def _clear_losses(self):
        self._added_losses.clear()
        for layer in self._sublayers():
            layer._clear_losses()

    @property
    def losses(self) -> list:
        """Losses added by ``add_loss`` in the last call, then the weights' regularization
        penalties (computed now, so they are differentiable), this layer first, then each
        sublayer's."""
        out = list(self._added_losses)
        out += [w.regularizer(w) for w in self._own_weights
                if getattr(w, "regularizer", None) is not None]
        for layer in self._sublayers():
            out += layer.losses
        return out

    # -- calling -------------------------------------------------------------------------
    def build(self, input_shape):
        """Create the weights for inputs of ``input_shape``; the base does nothing."""
        self.built = True

    def call(self, inputs, *args, **kwargs):
        """The computation; subclasses override it."""
        return inputs

    def __call__(self, inputs, *args, **kwargs):
        if _symbolic.is_symbolic(inputs):
            return _symbolic.symbolic_call(self, inputs, kwargs)
        previous_mask = _masking.input_mask(inputs)
        if previous_mask is not None and self._call_has_mask and kwargs.get("mask") is None:
            kwargs["mask"] = previous_mask
        inputs = _convert_input(inputs, self.dtype_policy, self._cast_kinds)
        training = kwargs.pop("training", None)
        if training is None and _training_stack:
            training = _training_stack[-1]
        if not _training_stack:
            self._clear_losses()
        with _naming.name_scope(self.name, self):
            if not self.built:
                building.append(self)
                try:
                    self.build(_shape_of(inputs))
                finally:
                    building.pop()
                self.built = True
            if self._call_has_training:
                kwargs["training"] = training
            _training_stack.append(training)
            try:
                out = self.call(inputs, *args, **kwargs)
            finally:
                _training_stack.pop()
        if self.activity_regularizer is not None:
            for t in _symbolic.flatten(out):
                if isinstance(t, _TensorLike):
                    penalty = self.activity_regularizer(t)
                    if t._value.ndim:
                        penalty = _m.divide(penalty, float(t._value.shape[0] or 1))
                    self.add_loss(penalty)
        if self._output_shape is None and isinstance(out, _TensorLike):
            self._output_shape = tuple(out._value.shape)  # the build-time shape, as Keras
        if previous_mask is not None or type(self).compute_mask is not Layer.compute_mask:
            _masking.propagate(self, inputs, out, previous_mask)
        return out

    def compute_mask(self, inputs, previous_mask):
        """The Keras mask of the outputs; the base passes ``previous_mask`` on."""
        return previous_mask

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape`` (``None`` for unknown dimensions); the base
        runs the layer on zeros, taking each unknown dimension as 1."""
        from .._symbolic import KerasTensor
        out = _symbolic.symbolic_call(self, KerasTensor(tuple(input_shape)), {})
        return out.shape

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}
