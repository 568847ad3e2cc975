"""2-D convolution and pooling (``tf.nn.conv2d``, ``max_pool2d``, ``avg_pool2d``), NHWC.

All three are compositions over image patches: ``ExtractImagePatches`` gathers each output
position's window into one row, and its transpose scatters rows back, adding overlaps. The
two are linear and each is the other's derivative, so convolution (patches @ filters) and
pooling (a reduction over each row) get derivatives of any order from the rule table.
"""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from . import array_ops as _a
from . import math_ops as _m
from ._helpers import to_tensor

__all__ = ["conv2d", "max_pool2d", "avg_pool2d", "extract_patches"]


def _window(size, k, s, padding):
    """Output length and (before, after) padding of one spatial axis, as TensorFlow pads."""
    if padding == "VALID":
        return max((size - k) // s + 1, 0), 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2, total - total // 2


def _geometry(shape, ksizes, strides, padding):
    _, h, w, _ = shape
    oh, top, bottom = _window(h, ksizes[0], strides[0], padding)
    ow, left, right = _window(w, ksizes[1], strides[1], padding)
    return oh, ow, ((0, 0), (top, bottom), (left, right), (0, 0))


def _patches_forward(x, ksizes, strides, padding, pad_value):
    n, _, _, c = x.shape
    (kh, kw), (sh, sw) = ksizes, strides
    oh, ow, pads = _geometry(x.shape, ksizes, strides, padding)
    xp = np.pad(x, pads, constant_values=pad_value) if padding == "SAME" else x
    out = np.empty((n, oh, ow, kh, kw, c), x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, :, i, j, :] = xp[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw]
    return out.reshape(n, oh, ow, kh * kw * c)


def _patches_transpose_forward(g, input_shape, ksizes, strides, padding, pad_value):
    n, h, w, c = input_shape
    (kh, kw), (sh, sw) = ksizes, strides
    oh, ow, pads = _geometry(input_shape, ksizes, strides, padding)
    (_, (top, bottom), (left, right), _) = pads
    g6 = g.reshape(n, oh, ow, kh, kw, c)
    xp = np.zeros((n, h + top + bottom, w + left + right, c), g.dtype)
    for i in range(kh):
        for j in range(kw):
            xp[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw] += g6[:, :, :, i, j]
    return xp[:, top:top + h, left:left + w]


_PATCHES = primitive("ExtractImagePatches", _patches_forward, save_inputs=False)
_PATCHES_T = primitive("ExtractImagePatchesTranspose", _patches_transpose_forward,
                       save_inputs=False)
defvjp(_PATCHES, lambda g, y, x_shape, **attrs: apply(
    _PATCHES_T, (g,), dict(attrs, input_shape=tuple(x_shape))))
defvjp(_PATCHES_T, lambda g, y, g_shape, input_shape, **attrs: apply(
    _PATCHES, (g,), dict(attrs, pad_value=0)))


def _pair(value, name, rank4_ok=True):
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * 2
    if len(value) == 2:
        return value
    if len(value) == 4 and rank4_ok:
        return value[1:3]
    raise ValueError(f"`{name}` should be of length 1, 2 or 4. Received: {name}={value}")


def _padding(padding):
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"tapeflow supports padding 'SAME' or 'VALID'; got {padding!r}")
    return padding.upper()


def _check_nhwc(x, op_name, data_format):
    if data_format not in (None, "NHWC"):
        raise ValueError(f"tapeflow computes {op_name} in NHWC only; got "
                         f"data_format={data_format!r}")
    if x._value.ndim != 4:
        raise ValueError(f"input must be 4-dimensional {list(x._value.shape)}")


def extract_patches(images, sizes, strides, rates=(1, 1, 1, 1), padding="VALID", name=None):
    """Each output position's ``sizes`` window, flattened in (row, column, channel) order.

    TensorFlow counterpart: ``tf.image.extract_patches`` (rates of 1 only).

    Args:
        images: a ``[batch, height, width, channels]`` tensor.
        sizes, strides: ``[1, size_rows, size_cols, 1]`` and ``[1, stride_rows,
            stride_cols, 1]``.
        padding: 'VALID' or 'SAME'.

    Returns:
        ``[batch, out_rows, out_cols, size_rows * size_cols * channels]``.
    """
    x = to_tensor(images)
    _check_nhwc(x, "ExtractImagePatches", None)
    if tuple(rates) not in ((1, 1, 1, 1), (1, 1)):
        raise ValueError("tapeflow's extract_patches supports rates of 1 only")
    return apply(_PATCHES, (x,), {"ksizes": _pair(sizes, "sizes"),
                                  "strides": _pair(strides, "strides"),
                                  "padding": _padding(padding), "pad_value": 0})


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D cross-correlation of NHWC ``input`` with HWIO ``filters`` (``tf.nn.conv2d``).

    ``out[b, i, j, o] = sum over di, dj, c of in[b, s*i + di, s*j + dj, c] * f[di, dj, c, o]``,
    with the input zero-padded as TensorFlow pads for 'SAME'.

    Args:
        input: float tensor ``[batch, height, width, in_channels]``.
        filters: same dtype, ``[rows, cols, in_channels, out_channels]``.
        strides: an int or a list of 1, 2 or 4 ints.
        padding: 'SAME' or 'VALID'.
        dilations: 1 only.

    Returns:
        ``[batch, out_rows, out_cols, out_channels]``.

    Raises:
        tf.errors.InvalidArgumentError: if the channel counts differ.
        ValueError: for another data format, explicit paddings or dilations.
    """
    x, f = to_tensor(input), to_tensor(filters)
    _check_nhwc(x, "Conv2D", data_format)
    if dilations not in (None, 1) and set(_pair(dilations, "dilations")) != {1}:
        raise ValueError("tapeflow's conv2d supports dilations of 1 only")
    kh, kw, cin, cout = f._value.shape
    if x._value.shape[3] != cin:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"input depth must be evenly divisible by filter depth: "
                              f"{x._value.shape[3]} vs {cin}", "Conv2D")
    patches = apply(_PATCHES, (x,), {"ksizes": (kh, kw), "strides": _pair(strides, "strides"),
                                     "padding": _padding(padding), "pad_value": 0})
    n, oh, ow, k = patches._value.shape
    y = _m.matmul(_a.reshape(patches, (n * oh * ow, k)), _a.reshape(f, (k, cout)))
    return _a.reshape(y, (n, oh, ow, cout))


def _pool(x, ksize, strides, padding, pad_value):
    x = to_tensor(x)
    ksize, strides = _pair(ksize, "ksize"), _pair(strides, "strides")
    padding = _padding(padding)
    patches = apply(_PATCHES, (x,), {"ksizes": ksize, "strides": strides, "padding": padding,
                                     "pad_value": pad_value})
    n, oh, ow, _ = patches._value.shape
    c = x._value.shape[3]
    return x, _a.reshape(patches, (n, oh, ow, ksize[0] * ksize[1], c)), ksize, strides, padding


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum of each window (``tf.nn.max_pool2d``), NHWC.

    Where a window holds several equal maxima the gradient is shared among them
    (TensorFlow gives it all to the first).

    Args:
        input: ``[batch, height, width, channels]``.
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: 'SAME' (padding never wins) or 'VALID'.
    """
    x = to_tensor(input)
    _check_nhwc(x, "MaxPool", data_format)
    pad = -np.inf if x._value.dtype.kind == "f" else np.iinfo(x._value.dtype).min
    _, windows, _, _, _ = _pool(x, ksize, strides, padding, pad)
    return _m.reduce_max(windows, 3)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each window over its in-image elements (``tf.nn.avg_pool2d``), NHWC."""
    x = to_tensor(input)
    _check_nhwc(x, "AvgPool", data_format)
    x, windows, ksize, strides, padding = _pool(x, ksize, strides, padding, 0)
    total = _m.reduce_sum(windows, 3)
    if padding == "VALID":
        return _m.divide(total, float(ksize[0] * ksize[1]))
    ones = np.ones((1,) + x._value.shape[1:3] + (1,), x._value.dtype)
    counts = _patches_forward(ones, ksize, strides, padding, 0).sum(-1, keepdims=True)
    return _m.divide(total, to_tensor(counts))
