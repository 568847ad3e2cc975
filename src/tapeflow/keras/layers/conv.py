"""Conv2D and 2-D pooling layers (channels-last)."""
from ...ops import conv_ops as _conv
from ...ops import math_ops as _m
from .. import activations as _act
from .. import initializers as _init
from .layer import Layer

__all__ = ["Conv2D", "MaxPooling2D", "AveragePooling2D"]


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


class Conv2D(Layer):
    """2-D convolution over ``(batch, rows, cols, channels)`` (``tf.keras.layers.Conv2D``).

    ``outputs = activation(conv2d(inputs, kernel) + bias)`` with ``kernel`` of shape
    ``(*kernel_size, in_channels, filters)``.

    Args:
        filters: the number of output channels.
        kernel_size: an int or a pair.
        strides: an int or a pair (default 1).
        padding: 'valid' or 'same'.
        activation, use_bias, kernel_initializer, bias_initializer: as for ``Dense``.

    Raises:
        ValueError: for a non-positive ``filters`` or a ``data_format`` other than
            channels_last.
    """

    _cast_kinds = "fiub"

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if int(filters) <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if data_format not in (None, "channels_last"):
            raise ValueError("tapeflow's Conv2D supports data_format='channels_last' only")
        if _pair(dilation_rate) != (1, 1) or groups != 1:
            raise ValueError("tapeflow's Conv2D supports dilation_rate=1 and groups=1 only")
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size)
        self.strides = _pair(strides)
        self.padding = padding.lower()
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=self.kernel_size + (input_shape[-1], self.filters),
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer)
        self.built = True

    def call(self, inputs):
        y = _conv.conv2d(inputs, self.kernel, self.strides, self.padding.upper())
        if self.use_bias:
            y = _m.add(y, self.bias)
        return self.activation(y)


class _Pooling2D(Layer):
    _fn = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError("tapeflow's pooling supports data_format='channels_last' only")
        self.pool_size = _pair(pool_size)
        self.strides = self.pool_size if strides is None else _pair(strides)
        self.padding = padding.lower()

    def call(self, inputs):
        return type(self)._fn(inputs, self.pool_size, self.strides, self.padding.upper())


class MaxPooling2D(_Pooling2D):
    """The maximum over ``pool_size`` windows (``tf.keras.layers.MaxPooling2D``).

    Args:
        pool_size: an int or a pair (default 2).
        strides: default ``pool_size``.
        padding: 'valid' or 'same'.
    """

    _fn = staticmethod(_conv.max_pool2d)


class AveragePooling2D(_Pooling2D):
    """The mean over ``pool_size`` windows (``tf.keras.layers.AveragePooling2D``)."""

    _fn = staticmethod(_conv.avg_pool2d)
