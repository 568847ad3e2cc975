"""Image ops (``tf.image``): ``extract_patches``.

``ExtractImagePatches`` copies each output position's window into one row; its transpose
``ExtractImagePatchesTranspose`` adds rows back into their windows. The two are linear and
each is the other's derivative, so patches get derivatives of any order. Both run on the
strided patch view that backs ``tf.nn``'s convolutions (``nn_conv_ops._patches``).
"""
import builtins

from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from . import array_ops as _a
from . import nn_conv_ops as _nc
from ._helpers import to_tensor

__all__ = ["extract_patches"]


def _extract_forward(x, ksizes, strides, rates, pads):
    (kh, kw), (sh, sw), (rh, rw) = ksizes, strides, rates
    n, _, _, c = x.shape
    oh = builtins.max(_nc._out_size(x.shape[1], kh, sh, rh, *pads[0]), 0)
    ow = builtins.max(_nc._out_size(x.shape[2], kw, sw, rw, *pads[1]), 0)
    if oh == 0 or ow == 0:
        return np.zeros((n, oh, ow, kh * kw * c), x.dtype)
    view = _nc._patches(_nc._pad(x, pads), kh, kw, sh, sw, rh, rw, oh, ow)
    return np.ascontiguousarray(view).reshape(n, oh, ow, kh * kw * c)


def _extract_transpose_forward(g, input_shape, ksizes, strides, rates, pads):
    (kh, kw), (sh, sw), (rh, rw), ((pt, pb), (pl, pr)) = ksizes, strides, rates, pads
    n, h, w, c = input_shape
    oh, ow = g.shape[1:3]
    dxp = np.zeros((n, h + pt + pb, w + pl + pr, c), g.dtype)
    if g.size:
        g6 = g.reshape(n, oh, ow, kh, kw, c)
        for i in builtins.range(kh):
            for j in builtins.range(kw):
                _nc._window(dxp, i, j, rh, rw, sh, sw, oh, ow)[...] += g6[:, :, :, i, j, :]
    return dxp[:, pt:pt + h, pl:pl + w, :]


_PATCHES = primitive("ExtractImagePatches", _extract_forward, save_inputs=False)
_PATCHES_T = primitive("ExtractImagePatchesTranspose", _extract_transpose_forward,
                       save_inputs=False)
defvjp(_PATCHES, lambda g, y, x_shape, **a: apply(
    _PATCHES_T, (g,), dict(a, input_shape=tuple(x_shape))))
defvjp(_PATCHES_T, lambda g, y, g_shape, input_shape, **a: apply(_PATCHES, (g,), a))


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Each output position's window, flattened in (row, column, channel) order.

    TensorFlow counterpart: ``tf.image.extract_patches``.

    Args:
        images: ``[batch, height, width, channels]``.
        sizes: ``[1, size_rows, size_cols, 1]`` (or 1 or 2 ints).
        strides: ``[1, stride_rows, stride_cols, 1]``, the step between windows.
        rates: ``[1, rate_rows, rate_cols, 1]``, the step between a window's cells
            (dilation).
        padding: ``'VALID'`` (windows inside the image) or ``'SAME'`` (zero padding as
            ``tf.nn.conv2d`` pads, ``ceil(size / stride)`` windows).

    Returns:
        ``[batch, out_rows, out_cols, size_rows * size_cols * channels]``, ``images``' dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``images`` is not 4-dimensional or ``sizes``,
            ``strides`` or ``rates`` move along the batch or channel axis.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> p = tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID')
        >>> print(p.shape, p[0, 0, 1].numpy())
        (1, 2, 2, 4) [2. 3. 6. 7.]
    """
    x = to_tensor(images)
    op = "ExtractImagePatches"
    if x._value.ndim != 4:
        raise _nc._err(f"input must be 4-dimensional{_a._show(x._value.shape)}", op)
    k = _nc._spatial(sizes, 2, "ksizes", op)
    st = _nc._spatial(strides, 2, "strides", op)
    rt = _nc._spatial(rates, 2, "rates", op)
    pads = _nc._pads(padding, x._value.shape[1:3], k, st, rt, op)
    return apply(_PATCHES, (x,), {"ksizes": k, "strides": st, "rates": rt, "pads": pads})
