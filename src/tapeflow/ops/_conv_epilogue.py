"""A convolution and the batch norm after it (``x * s + b``, then a ReLU or ReLU6) as one
kernel, for compiled programs (``function/fusion.py``'s :class:`Affine` with its producer):
the norm runs on each block of the convolution's output while it is in cache, on the thread
that computed it (the chunks of a 1x1 product, the tiles of a depthwise convolution), or on
the whole output after the other kernels. Each element gets the convolution's bits and then
``_kernels.scale_shift``'s operations: the same bits as the steps one by one."""
from . import _kernels
from . import nn_conv_ops as _conv

__all__ = ["conv2d", "depthwise_conv2d"]


class _Post:
    """``scale_shift`` in place on a block of the output; ``used`` once it ran."""

    __slots__ = ("s", "b", "act", "used")

    def __init__(self, s, b, act):
        self.s, self.b, self.act, self.used = s, b, act, False

    def __call__(self, block):
        self.used = True
        return _kernels.scale_shift(block, self.s, self.b, self.act, block)


def conv2d(x, w, s, b, act, strides, pads, dilations):
    """``act(Conv2D(x, w) * s + b)`` (``act`` None, ``"relu"`` or ``"relu6"``; ``s``, ``b``
    vectors of the output channels, of ``x``'s float dtype)."""
    post = _Post(s, b, act)
    return _finish(_conv._conv_forward(x, w, strides, pads, dilations, post), post)


def depthwise_conv2d(x, w, s, b, act, strides, pads, dilations):
    """``act(DepthwiseConv2dNative(x, w) * s + b)``, as :func:`conv2d`."""
    post = _Post(s, b, act)
    return _finish(_conv._dw_forward(x, w, strides, pads, dilations, post), post)


def _finish(out, post):
    """The output, its blocks normed, or normed now (in place when it may be)."""
    if post.used:
        return out
    return _kernels.scale_shift(out, post.s, post.b, post.act,
                                out if out.flags.c_contiguous and out.flags.writeable else None)
