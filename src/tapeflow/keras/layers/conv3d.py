"""Conv3D and 3-D pooling layers (channels-last, ``(batch, d1, d2, d3, channels)``), on
``tf.nn.conv3d``, ``tf.nn.max_pool3d`` and ``tf.nn.avg_pool3d``."""
from ...ops import math_ops as _m
from ...ops import nn_conv3d_ops as _c3
from .. import constraints as _constraints
from .. import regularizers as _reg
from ..utils.argument_validation import standardize_padding, standardize_tuple
from .conv import Conv2D, _check_output_size, _Pooling2D
from .input_spec import InputSpec
from .layer import serialize

__all__ = ["AveragePooling3D", "Conv3D", "MaxPooling3D"]


class Conv3D(Conv2D):
    """3-D convolution over ``(batch, d1, d2, d3, channels)`` (``tf.keras.layers.Conv3D``).

    ``outputs = activation(conv3d(inputs, kernel) + bias)`` with ``kernel`` of shape
    ``(*kernel_size, in_channels, filters)``.

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or three ints (strides and dilation
            default 1).
        padding: 'valid' or 'same'.
        activation, use_bias, initializers, regularizers, constraints: as for ``Conv2D``.

    Raises:
        ValueError: for a non-positive ``filters``, bad sizes or padding, a
            ``data_format`` other than channels_last, or a 'valid' convolution with no output
            position.
    """

    _rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), groups=1, **kwargs):
        kernel_size = standardize_tuple(kernel_size, 3, "kernel_size")
        strides = standardize_tuple(strides, 3, "strides")
        dilation_rate = standardize_tuple(dilation_rate, 3, "dilation_rate")
        padding = standardize_padding(padding)
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, **kwargs)

    def build(self, input_shape):
        self.input_spec = InputSpec(min_ndim=5, axes={-1: input_shape[-1]})
        shape = self.kernel_size + (input_shape[-1], self.filters)
        _check_output_size(input_shape, shape, self.dilation_rate, self.strides, self.padding)
        self.kernel = self.add_weight(shape=shape, initializer=self.kernel_initializer,
                                      name="kernel", regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def get_config(self):
        return dict(super().get_config(), kernel_size=list(self.kernel_size),
                    strides=list(self.strides), dilation_rate=list(self.dilation_rate),
                    kernel_regularizer=serialize(_reg.get(self.kernel_regularizer)),
                    kernel_constraint=serialize(_constraints.get(self.kernel_constraint)))

    def call(self, inputs):
        y = _c3.conv3d(inputs, self.kernel, self.strides, self.padding.upper(),
                       dilations=self.dilation_rate)
        if self.use_bias:
            y = _m.add(y, self.bias)
        return self.activation(y)


class _Pooling3D(_Pooling2D):
    _rank = 3

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        pool_size = standardize_tuple(pool_size, 3, "pool_size")
        strides = standardize_tuple(pool_size if strides is None else strides, 3, "strides",
                                    allow_zero=True)
        super().__init__(pool_size, strides, standardize_padding(padding), data_format,
                         **kwargs)
        self.pool_size, self.strides = pool_size, strides

    def get_config(self):
        return dict(super().get_config(), pool_size=list(self.pool_size),
                    strides=list(self.strides))


class MaxPooling3D(_Pooling3D):
    """The maximum over ``pool_size`` windows of ``(batch, d1, d2, d3, channels)``
    (``tf.keras.layers.MaxPooling3D``).

    Args:
        pool_size: an int or three ints (default 2).
        strides: default ``pool_size``.
        padding: 'valid' or 'same'.
    """

    _fn = staticmethod(_c3.max_pool3d)


class AveragePooling3D(_Pooling3D):
    """The mean over ``pool_size`` windows of ``(batch, d1, d2, d3, channels)``
    (``tf.keras.layers.AveragePooling3D``); with 'same' padding over the cells inside the
    input only. Arguments as :class:`MaxPooling3D`."""

    _fn = staticmethod(_c3.avg_pool3d)
