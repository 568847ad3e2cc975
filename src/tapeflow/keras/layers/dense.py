"""Dense: ``activation(inputs @ kernel + bias)``."""
from ..._core import dtypes as _dt
from ..._core.recording import executing_eagerly
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_ops as _nn
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from .input_spec import InputSpec
from .layer import Layer, serialize

_F16 = _dt.float16

__all__ = ["Dense"]


class Dense(Layer):
    """A densely connected layer, as ``tf.keras.layers.Dense`` (Keras 3).

    ``outputs = activation(inputs @ kernel + bias)`` with ``kernel`` of shape
    ``(input_dim, units)`` and ``bias`` of shape ``(units,)``. Inputs of rank > 2 are
    contracted on their last axis.

    Args:
        units: the output width (positive int).
        activation: an activation name or callable; None for linear.
        use_bias: whether to add a bias.
        kernel_initializer, bias_initializer: initializer names or instances.
        kernel_regularizer, bias_regularizer: optional penalties (see ``layer.losses``).
        name, trainable, dtype, input_shape: as for ``Layer``.

    Raises:
        ValueError: for ``units`` that is not a positive int, an input of rank < 2, or
            one whose last dimension differs from the one the layer was built for.

    >>> import tapeflow as tf
    >>> layer = tf.keras.layers.Dense(3, kernel_initializer='ones')
    >>> layer(tf.ones((2, 4))).numpy().tolist()
    [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]]
    """

    _cast_kinds = "fiub"
    _numeric_only = True
    supports_masking = True

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if not isinstance(units, int) or units <= 0:   # (a NumPy int too, as Keras 3.15)
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.input_spec = InputSpec(min_ndim=2)
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.kernel = self.add_weight(shape=(input_dim, self.units), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.units,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs):
        shape = tuple(inputs.shape)
        units_in = self.kernel.shape[0]
        if not shape or shape[-1] != units_in:
            raise ValueError(
                f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the "
                f"layer: expected axis -1 of input shape to have value "
                f"{units_in}, but received input with shape {shape}")
        rank = len(shape)
        if rank == 2:
            y = _m.matmul(inputs, self.kernel)
        else:
            lead = shape[:-1]
            y = _m.matmul(_a.reshape(inputs, (-1, shape[-1])), self.kernel)
            if None in lead or not executing_eagerly():
                # traced: each call's leading sizes (a relaxed trace serves any batch size)
                y = _a.reshape(y, _a.concat([_a.shape(inputs)[:-1], [self.units]], 0))
            else:
                y = _a.reshape(y, lead + (self.units,))
        if self.use_bias:  # (Keras's ops.add of a bias is TF's BiasAdd: its float16 gradient)
            y = _m.add(y, self.bias) if y.dtype is not _F16 else _nn.bias_add(y, self.bias)
        return self.activation(y)

    _config_fixed = {"quantization_config": None, "lora_rank": None, "lora_alpha": None}

    def get_config(self):
        return dict(super().get_config(), units=self.units,
                    activation=serialize(self.activation), use_bias=self.use_bias,
                    kernel_initializer=serialize(self.kernel_initializer),
                    bias_initializer=serialize(self.bias_initializer),
                    kernel_regularizer=serialize(_reg.get(self.kernel_regularizer)),
                    bias_regularizer=serialize(_reg.get(self.bias_regularizer)),
                    kernel_constraint=serialize(_constraints.get(self.kernel_constraint)),
                    bias_constraint=serialize(_constraints.get(self.bias_constraint)),
                    quantization_config=None)
