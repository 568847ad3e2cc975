"""Transposed convolutions (channels-last): Conv2DTranspose and Conv1DTranspose."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_conv_ops as _conv
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from ..backend import standardize_data_format
from . import _spec
from .layer import Layer

__all__ = ["Conv1DTranspose", "Conv2DTranspose"]


def _output_size(size, kernel, stride, padding, output_padding, dilation):
    """Keras's output length of a transposed convolution along one axis."""
    if size is None:
        return None
    kernel = (kernel - 1) * dilation + 1
    if padding == "valid":
        extra = max(kernel, stride) - kernel if output_padding is None else output_padding
        return (size - 1) * stride + kernel + extra
    if output_padding is None:
        return size * stride
    return (size - 1) * stride + kernel % 2 + output_padding


class _ConvTranspose(Layer):
    _rank = 2
    _cast_kinds = "fiub"

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        n = self._rank
        if filters is not None and (not isinstance(filters, int) or filters <= 0):
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if standardize_data_format(data_format) != "channels_last":
            raise ValueError(f"tapeflow's {type(self).__name__} supports "
                             "data_format='channels_last' only")
        padding = padding.lower()
        if padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be one of 'valid', 'same'. "
                             f"Received: padding={padding}")
        self.filters = filters
        self.kernel_size = _spec.int_tuple(kernel_size, n, "kernel_size")
        self.strides = _spec.int_tuple(strides, n, "strides")
        self.dilation_rate = _spec.int_tuple(dilation_rate, n, "dilation_rate")
        self.output_padding = (None if output_padding is None
                               else _spec.int_tuple(output_padding, n, "output_padding"))
        for i, (stride, op) in enumerate(zip(self.strides, self.output_padding or (),
                                             strict=False)):
            if op >= stride:
                raise ValueError("`output_padding` must be strictly less than `strides` for all "
                                 f"dimensions. At dimension {i}, `output_padding` is {op} but "
                                 f"`strides` is {stride}. Received: output_padding="
                                 f"{self.output_padding}, strides={self.strides}")
        self.padding = padding
        self.data_format = "channels_last"
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.kernel = self.bias = None

    def build(self, input_shape):
        _spec.check_input(self, _Shape(input_shape), min_ndim=self._rank + 2)
        channels = input_shape[-1]
        self.kernel = self.add_weight(shape=self.kernel_size + (self.filters, channels),
                                      name="kernel", initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self._channels = channels
        self.built = True

    def compute_output_shape(self, input_shape):
        sizes = [_output_size(input_shape[1 + i], self.kernel_size[i], self.strides[i],
                              self.padding, None if self.output_padding is None
                              else self.output_padding[i], self.dilation_rate[i])
                 for i in range(self._rank)]
        return (input_shape[0], *sizes, self.filters)

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=self._rank + 2, axes={-1: self._channels})
        out_shape = list(self.compute_output_shape(tuple(inputs.shape)))
        if out_shape[0] is None:   # a relaxed trace (a compiled fit step's first layer)
            out_shape[0] = _a.shape(inputs)[0]
        if self._rank == 2:
            y = _conv.conv2d_transpose(inputs, self.kernel, out_shape, self.strides,
                                       self.padding.upper(), dilations=self.dilation_rate)
        else:
            y = _conv.conv1d_transpose(inputs, self.kernel, out_shape, self.strides,
                                       self.padding.upper(), dilations=self.dilation_rate)
        if self.use_bias:
            y = _m.add(y, self.bias)
        return self.activation(y)

    def get_config(self):
        return dict(
            super().get_config(), filters=self.filters, kernel_size=self.kernel_size,
            strides=self.strides, padding=self.padding, output_padding=self.output_padding,
            data_format=self.data_format, dilation_rate=self.dilation_rate,
            activation=_spec.serialize(self.activation), use_bias=self.use_bias,
            kernel_initializer=_spec.serialize(self.kernel_initializer),
            bias_initializer=_spec.serialize(self.bias_initializer),
            kernel_regularizer=_spec.serialize(self.kernel_regularizer),
            bias_regularizer=_spec.serialize(self.bias_regularizer),
            activity_regularizer=_spec.serialize(self.activity_regularizer),
            kernel_constraint=_spec.serialize(self.kernel_constraint),
            bias_constraint=_spec.serialize(self.bias_constraint))


class _Shape:
    """A bare shape, so build-time checks can use the same messages as call-time ones."""

    def __init__(self, shape):
        self.shape = tuple(shape)


class Conv2DTranspose(_ConvTranspose):
    """Transposed 2-D convolution ("deconvolution") over ``(batch, rows, cols, channels)``
    (``tf.keras.layers.Conv2DTranspose``): the gradient of ``Conv2D`` with respect to its
    input, used to upsample in generators.

    The kernel has shape ``(*kernel_size, filters, in_channels)``. With ``padding='same'``
    and no ``output_padding`` the output is ``strides`` times larger; with 'valid' it is
    ``(size - 1) * stride + max(kernel, stride)``.

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or a pair.
        padding: 'valid' or 'same'.
        output_padding: an int or a pair (each smaller than the stride), added to the
            output size; None for the default above.
        activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
            bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint:
            as for ``Conv2D``.

    Raises:
        ValueError: for a non-positive ``filters``, an unknown padding, an
            ``output_padding`` not smaller than the stride, or an input that is not
            4-dimensional.

    >>> import tapeflow as tf
    >>> layer = tf.keras.layers.Conv2DTranspose(8, 3, strides=2, padding="same")
    >>> layer(tf.ones((1, 4, 4, 16))).shape
    TensorShape([1, 8, 8, 8])
    """

    _rank = 2


class Conv1DTranspose(_ConvTranspose):
    """Transposed 1-D convolution over ``(batch, steps, channels)``
    (``tf.keras.layers.Conv1DTranspose``); the kernel has shape
    ``(kernel_size, filters, in_channels)``.

    Args:
        filters, kernel_size, strides, padding, output_padding, dilation_rate, activation,
            use_bias, initializers, regularizers, constraints: as for ``Conv2DTranspose``
            with ints instead of pairs.

    Raises:
        ValueError: as ``Conv2DTranspose``, for inputs that are not 3-dimensional.

    >>> import tapeflow as tf
    >>> tf.keras.layers.Conv1DTranspose(4, 3, strides=2, padding="same")(tf.ones((2, 5, 3))).shape
    TensorShape([2, 10, 4])
    """

    _rank = 1

