"""Conv3DTranspose (channels-last), on ``tf.nn.conv3d_transpose``."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import nn_conv3d_ops as _c3
from . import _spec
from .conv_transpose import _ConvTranspose

__all__ = ["Conv3DTranspose"]


class Conv3DTranspose(_ConvTranspose):
    """Transposed 3-D convolution over ``(batch, d1, d2, d3, channels)``
    (``tf.keras.layers.Conv3DTranspose``, alias ``Convolution3DTranspose``): the gradient of
    ``Conv3D`` with respect to its input, to upsample volumes.

    The kernel has shape ``(*kernel_size, filters, in_channels)``. With ``padding='same'``
    and no ``output_padding`` each spatial size is multiplied by its stride; with 'valid' it
    is ``(size - 1) * stride + max(kernel, stride)``.

    Args:
        filters: the number of output channels.
        kernel_size, strides: an int or three ints.
        padding: 'valid' or 'same'.
        output_padding: an int or three ints (each smaller than its stride) added to the
            output size; None for the default above.
        dilation_rate: an int or three ints; above 1 fails when called, as TensorFlow's CPU
            kernel does.
        activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
            bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint:
            as for ``Conv3D``.

    Raises:
        ValueError: for a non-positive ``filters``, an unknown padding, an
            ``output_padding`` not smaller than the stride, or an input that is not
            5-dimensional.

    >>> import tapeflow as tf
    >>> layer = tf.keras.layers.Conv3DTranspose(4, 3, strides=2, padding="same")
    >>> layer(tf.ones((1, 2, 3, 4, 5))).shape
    TensorShape([1, 4, 6, 8, 4])
    """

    _rank = 3

    def call(self, inputs):
        _spec.check_input(self, inputs, ndim=5, axes={-1: self._channels})
        out_shape = list(self.compute_output_shape(tuple(inputs.shape)))
        if out_shape[0] is None:   # a relaxed trace: each call's batch size
            out_shape[0] = _a.shape(inputs)[0]
        y = _c3.conv3d_transpose(inputs, self.kernel, out_shape, self.strides,
                                 self.padding.upper(), dilations=self.dilation_rate)
        if self.use_bias:
            y = _m.add(y, self.bias)
        return self.activation(y)
