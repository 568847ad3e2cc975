"""Depthwise and separable convolutions (channels-last): DepthwiseConv1D/2D,
SeparableConv1D/2D, built on ``tf.nn.depthwise_conv2d`` and ``tf.nn.conv2d``."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_conv_ops as _conv
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from ..backend import standardize_data_format
from ..utils.argument_validation import standardize_padding, standardize_tuple
from .conv import _check_output_size
from .input_spec import InputSpec
from .layer import Layer, serialize

__all__ = ["DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D"]


class _DepthwiseBase(Layer):
    """Shared arguments, weights and call of the depthwise/separable layers; ``_rank`` is
    the number of spatial axes (1 or 2) and ``_separable`` adds the 1x1 pointwise kernel."""

    _rank = 2
    _separable = False
    _cast_kinds = "fiub"
    _numeric_only = True

    def _setup(self, kernel_size, strides, padding, data_format, dilation_rate,
               depth_multiplier, activation, use_bias, depthwise_initializer,
               bias_initializer, depthwise_regularizer, bias_regularizer,
               depthwise_constraint, bias_constraint):
        n = self._rank
        self.kernel_size = standardize_tuple(kernel_size, n, "kernel_size")
        self.strides = standardize_tuple(strides, n, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, n, "dilation_rate")
        self.padding = standardize_padding(padding)
        if standardize_data_format(data_format) != "channels_last":
            raise ValueError(f"tapeflow's {type(self).__name__} supports "
                             "data_format='channels_last' only")
        if depth_multiplier is None or int(depth_multiplier) <= 0:
            raise ValueError("Invalid value for argument `depth_multiplier`. Expected a "
                             "strictly positive value. Received "
                             f"depth_multiplier={depth_multiplier}.")
        self.depth_multiplier = int(depth_multiplier)
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = _init.get(depthwise_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.depthwise_regularizer = _reg.get(depthwise_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.depthwise_constraint = _constraints.get(depthwise_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=n + 2)
        self.bias = None

    def _add_depthwise(self, channels, name):
        shape = self.kernel_size + (channels, self.depth_multiplier)
        return self.add_weight(shape=shape, name=name, initializer=self.depthwise_initializer,
                               regularizer=self.depthwise_regularizer,
                               constraint=self.depthwise_constraint)

    def _add_bias(self, size):
        if self.use_bias:
            self.bias = self.add_weight(shape=(size,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)

    def _check(self, input_shape, channels):
        self.input_spec = InputSpec(min_ndim=self._rank + 2, axes={-1: channels})
        _check_output_size(input_shape, self.kernel_size + (channels, self.depth_multiplier),
                           self.dilation_rate, self.strides, self.padding)

    def _depthwise(self, inputs, kernel):
        if self._rank == 1:
            y = _conv.depthwise_conv2d(
                _a.expand_dims(inputs, 1), _a.expand_dims(kernel, 0),
                [1, 1, self.strides[0], 1],
                self.padding.upper(), dilations=(1, self.dilation_rate[0]))
            return y, True
        y = _conv.depthwise_conv2d(inputs, kernel, [1, *self.strides, 1],
                                   self.padding.upper(), dilations=self.dilation_rate)
        return y, False

    def _finish(self, y):
        if self.use_bias:
            y = _m.add(y, self.bias)
        return self.activation(y)

    def _base_config(self):
        return dict(super().get_config(), depth_multiplier=self.depth_multiplier,
                    kernel_size=list(self.kernel_size), strides=list(self.strides),
                    padding=self.padding, data_format="channels_last",
                    dilation_rate=list(self.dilation_rate),
                    activation=serialize(self.activation), use_bias=self.use_bias,
                    depthwise_initializer=serialize(self.depthwise_initializer))


class DepthwiseConv2D(_DepthwiseBase):
    """Per-channel 2-D convolution (``tf.keras.layers.DepthwiseConv2D``).

    Each input channel is convolved with its own ``depth_multiplier`` filters: ``kernel``
    has shape ``(*kernel_size, in_channels, depth_multiplier)`` and the output
    ``(batch, out_rows, out_cols, in_channels * depth_multiplier)``, channel ``c * m + k``
    from input channel ``c``.

    Args:
        kernel_size: an int or a pair.
        strides: an int or a pair (default 1; TensorFlow needs equal strides).
        padding: 'valid' or 'same'.
        depth_multiplier: the filters per input channel (default 1).
        dilation_rate, activation, use_bias, depthwise_initializer, bias_initializer,
        *_regularizer, *_constraint: as for ``Conv2D``.

    Raises:
        ValueError: for a non-positive ``depth_multiplier``, bad sizes or padding, or a
            'valid' convolution with no output position.
    """

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self._setup(kernel_size, strides, padding, data_format, dilation_rate,
                    depth_multiplier, activation, use_bias, depthwise_initializer,
                    bias_initializer, depthwise_regularizer, bias_regularizer,
                    depthwise_constraint, bias_constraint)
        self.kernel = None

    def build(self, input_shape):
        channels = input_shape[-1]
        self._check(input_shape, channels)
        self.kernel = self._add_depthwise(channels, "kernel")
        self._add_bias(channels * self.depth_multiplier)
        self.built = True

    def call(self, inputs):
        y, squeeze = self._depthwise(inputs, self.kernel)
        return self._finish(_a.squeeze(y, 1) if squeeze else y)

    def get_config(self):
        return dict(self._base_config(),
                    bias_initializer=serialize(self.bias_initializer),
                    depthwise_regularizer=serialize(self.depthwise_regularizer),
                    bias_regularizer=serialize(self.bias_regularizer),
                    activity_regularizer=serialize(self.activity_regularizer),
                    depthwise_constraint=serialize(self.depthwise_constraint),
                    bias_constraint=serialize(self.bias_constraint))


class DepthwiseConv1D(DepthwiseConv2D):
    """Per-channel 1-D convolution over ``(batch, steps, channels)``
    (``tf.keras.layers.DepthwiseConv1D``). Arguments as
    for :class:`DepthwiseConv2D` with ints for the sizes."""

    _rank = 1

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, **kwargs)


class SeparableConv2D(_DepthwiseBase):
    """A depthwise convolution then a 1x1 convolution to ``filters`` channels
    (``tf.keras.layers.SeparableConv2D``).

    Weights, in order: ``depthwise_kernel`` ``(*kernel_size, in_channels, depth_multiplier)``,
    ``pointwise_kernel`` ``(1, 1, in_channels * depth_multiplier, filters)``, ``bias``
    ``(filters,)``.

    Args:
        filters: the output channels.
        kernel_size, strides, padding, depth_multiplier, dilation_rate, activation, use_bias:
            as for :class:`DepthwiseConv2D`.
        depthwise_initializer, pointwise_initializer, bias_initializer, the matching
            regularizers and constraints.

    Raises:
        ValueError: for a non-positive ``filters`` or ``depth_multiplier``.
    """

    _separable = True

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1), depth_multiplier=1, activation=None,
                 use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if filters is None or int(filters) <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = int(filters)
        self._setup(kernel_size, strides, padding, data_format, dilation_rate,
                    depth_multiplier, activation, use_bias, depthwise_initializer,
                    bias_initializer, depthwise_regularizer, bias_regularizer,
                    depthwise_constraint, bias_constraint)
        self.pointwise_initializer = _init.get(pointwise_initializer)
        self.pointwise_regularizer = _reg.get(pointwise_regularizer)
        self.pointwise_constraint = _constraints.get(pointwise_constraint)
        self.depthwise_kernel = self.pointwise_kernel = None

    def build(self, input_shape):
        channels = input_shape[-1]
        self._check(input_shape, channels)
        self.depthwise_kernel = self._add_depthwise(channels, "depthwise_kernel")
        self.pointwise_kernel = self.add_weight(
            shape=(1,) * self._rank + (channels * self.depth_multiplier, self.filters),
            name="pointwise_kernel", initializer=self.pointwise_initializer,
            regularizer=self.pointwise_regularizer, constraint=self.pointwise_constraint)
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        y, squeeze = self._depthwise(inputs, self.depthwise_kernel)
        w = self.pointwise_kernel
        y = _conv.conv2d(y, _a.expand_dims(w, 0) if squeeze else w, 1, "VALID")
        return self._finish(_a.squeeze(y, 1) if squeeze else y)

    def get_config(self):
        return dict(self._base_config(), filters=self.filters,
                    pointwise_initializer=serialize(self.pointwise_initializer),
                    bias_initializer=serialize(self.bias_initializer),
                    depthwise_regularizer=serialize(self.depthwise_regularizer),
                    pointwise_regularizer=serialize(self.pointwise_regularizer),
                    bias_regularizer=serialize(self.bias_regularizer),
                    activity_regularizer=serialize(self.activity_regularizer),
                    depthwise_constraint=serialize(self.depthwise_constraint),
                    pointwise_constraint=serialize(self.pointwise_constraint),
                    bias_constraint=serialize(self.bias_constraint))


class SeparableConv1D(SeparableConv2D):
    """:class:`SeparableConv2D` over ``(batch, steps, channels)``
    (``tf.keras.layers.SeparableConv1D``); the pointwise
    kernel has shape ``(1, in_channels * depth_multiplier, filters)``."""

    _rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         depth_multiplier, **kwargs)
