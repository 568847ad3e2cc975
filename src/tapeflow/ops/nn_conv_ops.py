"""Convolutions and pooling of ``tf.nn`` (channels-last: NWC, NHWC).

Three primitives close conv2d under differentiation: ``Conv2D`` (x, w),
``Conv2DBackpropInput`` (dy, w) and ``Conv2DBackpropFilter`` (x, dy). Each is bilinear, so
each one's derivatives are the other two: second derivatives come for free. The NumPy
forward is an im2col matmul; the two backprops loop over the (small) kernel window.
Pooling is ``MaxPool`` (gradient routed to the first maximum of each window, by a scatter
that is itself differentiable) and ``AvgPool``/``AvgPoolGrad`` (a linear map and its
transpose). conv1d, pool1d and depthwise_conv2d are compositions.
"""
import builtins

from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive
from .._core.tensor import Tensor, _TensorLike
from . import array_ops as _a
from . import math_ops as _m
from ._helpers import check_kind, dtype_mismatch, to_tensor

__all__ = [
    "conv1d", "conv2d", "conv2d_transpose", "conv1d_transpose", "depthwise_conv2d",
    "convolution", "max_pool", "max_pool1d", "max_pool2d", "avg_pool", "avg_pool1d",
    "avg_pool2d",
]

_FLOATS = "half, bfloat16, float, double, int32"


def _err(text, op_name):
    return errors.op_error(errors.InvalidArgumentError, text, op_name)


def _window(xp, i, j, dh, dw, sh, sw, oh, ow):
    """The (N, oh, ow, C) view of padded input ``xp`` at kernel offset (i, j)."""
    return xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]


def _out_size(size, k, s, d, lo, hi):
    return (size + lo + hi - (k - 1) * d - 1) // s + 1


def _conv_forward(x, w, strides, pads, dilations):
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = strides, pads, dilations
    kh, kw, c, o = w.shape
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh = _out_size(x.shape[1], kh, sh, dh, pt, pb)
    ow = _out_size(x.shape[2], kw, sw, dw, pl, pr)
    if oh <= 0 or ow <= 0:
        return np.zeros((x.shape[0], builtins.max(oh, 0), builtins.max(ow, 0), o), x.dtype)
    cols = np.concatenate([_window(xp, i, j, dh, dw, sh, sw, oh, ow)
                           for i in builtins.range(kh) for j in builtins.range(kw)], axis=-1)
    return np.matmul(cols, w.reshape(kh * kw * c, o))


def _conv_input_forward(dy, w, input_shape, strides, pads, dilations):
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = strides, pads, dilations
    n, h, wd, c = input_shape
    kh, kw = w.shape[:2]
    oh, ow = dy.shape[1:3]
    dxp = np.zeros((n, h + pt + pb, wd + pl + pr, c), np.result_type(dy, w))
    if dy.size == 0:
        return dxp[:, pt:pt + h, pl:pl + wd, :]
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            _window(dxp, i, j, dh, dw, sh, sw, oh, ow)[...] += dy @ w[i, j].T
    return dxp[:, pt:pt + h, pl:pl + wd, :]


def _conv_filter_forward(x, dy, filter_shape, strides, pads, dilations):
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = strides, pads, dilations
    kh, kw, c, o = filter_shape
    if dy.size == 0:
        return np.zeros(filter_shape, np.result_type(x, dy))
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh, ow = dy.shape[1:3]
    # im2col again: one contiguous [positions, kh*kw*c] matrix, one BLAS product.
    cols = np.concatenate([_window(xp, i, j, dh, dw, sh, sw, oh, ow)
                           for i in builtins.range(kh) for j in builtins.range(kw)], axis=-1)
    dwt = cols.reshape(-1, kh * kw * c).T @ np.ascontiguousarray(dy).reshape(-1, o)
    return dwt.reshape(filter_shape).astype(np.result_type(x, dy), copy=False)


_CONV = primitive("Conv2D", _conv_forward)
_CONV_IN = primitive("Conv2DBackpropInput", _conv_input_forward)
_CONV_FILT = primitive("Conv2DBackpropFilter", _conv_filter_forward)


def _conv(x, w, **attrs):
    return apply(_CONV, (x, w), attrs)


def _conv_in(dy, w, input_shape, **attrs):
    return apply(_CONV_IN, (dy, w), dict(attrs, input_shape=tuple(input_shape)))


def _conv_filt(x, dy, filter_shape, **attrs):
    return apply(_CONV_FILT, (x, dy), dict(attrs, filter_shape=tuple(filter_shape)))


defvjp(_CONV,
       lambda g, y, x, w, **a: _conv_in(g, w, x._value.shape, **a),
       lambda g, y, x, w, **a: _conv_filt(x, g, w._value.shape, **a))
defvjp(_CONV_IN,
       lambda g, y, dy, w, input_shape, **a: _conv(g, w, **a),
       lambda g, y, dy, w, input_shape, **a: _conv_filt(g, dy, w._value.shape, **a))
defvjp(_CONV_FILT,
       lambda g, y, x, dy, filter_shape, **a: _conv_in(dy, g, x._value.shape, **a),
       lambda g, y, x, dy, filter_shape, **a: _conv(x, g, **a))


def _spatial(v, n, what, op_name, full_rank=4):
    """An int or list of 1, n or n+2 ints as n spatial values (TF's stride/ksize forms)."""
    if isinstance(v, _TensorLike):
        v = v._value.tolist()
    if v is None:
        return (1,) * n
    if isinstance(v, (int, np.integer)):
        return (int(v),) * n
    v = [int(d) for d in v]
    if len(v) == 1:
        return (v[0],) * n
    if len(v) == n:
        return tuple(v)
    if len(v) == n + 2:
        if v[0] != 1 or v[-1] != 1:
            raise _err(f"Current implementation does not yet support {what} in the batch "
                       f"and depth dimensions.", op_name)
        return tuple(v[1:-1])
    raise ValueError(f"{what} should be of length 1, {n} or {n + 2}. Received: "
                     f"{what}={v} of length {len(v)}")


def _pads(padding, in_sizes, k_sizes, strides, dilations, op_name):
    if isinstance(padding, (list, tuple)):
        p = [tuple(int(a) for a in q) for q in padding]
        if len(p) == len(in_sizes) + 2:
            p = p[1:-1]
        return tuple(p)
    padding = str(padding).upper()
    if padding == "VALID":
        return ((0, 0),) * len(in_sizes)
    if padding != "SAME":
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list of "
            f"allowed values: \"SAME\", \"VALID\", \"EXPLICIT\"\n\t; NodeDef: "
            f"{{{{node {op_name}}}}}")
    out = []
    for size, k, s, d in zip(in_sizes, k_sizes, strides, dilations, strict=True):
        o = -(-size // s)
        total = builtins.max((o - 1) * s + (k - 1) * d + 1 - size, 0)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def _check_pair(x, w, op_name):
    if x._value.dtype is not w._value.dtype:
        raise dtype_mismatch(op_name, 1, x._value.dtype, w._value.dtype)
    check_kind(x, "fi", op_name, _FLOATS)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D cross-correlation of NHWC ``input`` with ``filters`` (``tf.nn.conv2d``).

    Args:
        input: ``[batch, height, width, in_channels]``.
        filters: ``[kh, kw, in_channels, out_channels]``, ``input``'s dtype.
        strides: an int or a list of 1, 2 or 4 ints (``[1, sh, sw, 1]``).
        padding: ``'SAME'`` (output ``ceil(in / stride)``, padding split with the extra row
            at the bottom/right), ``'VALID'``, or explicit ``[[0,0],[t,b],[l,r],[0,0]]``.
        dilations: an int or list like ``strides``.

        data_format: ``'NHWC'`` (default) or ``'NCHW'`` (computed by transposing).

    Returns:
        ``[batch, out_height, out_width, out_channels]`` (empty if the window does not
        fit, as TensorFlow).

    Raises:
        tf.errors.InvalidArgumentError: for mismatched channels, ranks or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.ones([1, 4, 4, 1])
        >>> w = tf.ones([3, 3, 1, 2])
        >>> print(tf.nn.conv2d(x, w, strides=1, padding='SAME').shape)
        (1, 4, 4, 2)
        >>> print(tf.nn.conv2d(x, w, strides=1, padding='VALID')[0, :, :, 0].numpy())
        [[9. 9.]
         [9. 9.]]
    """
    x = to_tensor(input)
    w = to_tensor(filters)
    if data_format == "NCHW":
        def nhwc(v):
            return [v[0], v[2], v[3], v[1]] if isinstance(v, (list, tuple)) and len(v) == 4 \
                else v
        out = conv2d(_a.transpose(x, [0, 2, 3, 1]), w, nhwc(strides), nhwc(padding), "NHWC",
                     nhwc(dilations))
        return _a.transpose(out, [0, 3, 1, 2])
    if data_format not in (None, "NHWC"):
        raise ValueError(f"`data_format` must be 'NHWC' or 'NCHW'. Received: "
                         f"data_format={data_format}")
    _check_pair(x, w, "Conv2D")
    if x._value.ndim != 4:
        raise _err(f"input must be 4-dimensional{_a._show(x._value.shape)}", "Conv2D")
    if w._value.ndim != 4:
        raise _err(f"filter must be 4-dimensional: {_a._show(w._value.shape)}", "Conv2D")
    if x._value.shape[3] % w._value.shape[2] or x._value.shape[3] != w._value.shape[2]:
        raise _err(f"input depth must be evenly divisible by filter depth: "
                   f"{x._value.shape[3]} vs {w._value.shape[2]}", "Conv2D")
    st = _spatial(strides, 2, "strides", "Conv2D")
    dl = _spatial(dilations, 2, "dilations", "Conv2D")
    pads = _pads(padding, x._value.shape[1:3], w._value.shape[:2], st, dl, "Conv2D")
    return _conv(x, w, strides=st, pads=pads, dilations=dl)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None):
    """The transpose (gradient) of :func:`conv2d` (``tf.nn.conv2d_transpose``).

    Args:
        input: ``[batch, h, w, in_channels]``.
        filters: ``[kh, kw, out_channels, in_channels]``.
        output_shape: ``[batch, out_h, out_w, out_channels]``; conv2d of this shape with
            the same strides and padding must give ``input``'s shape.

    Raises:
        tf.errors.InvalidArgumentError: if the shapes do not correspond.
    """
    dy = to_tensor(input)
    w = to_tensor(filters)
    _check_pair(dy, w, "Conv2DBackpropInput")
    out = tuple(_a._int_list(output_shape))
    st = _spatial(strides, 2, "strides", "Conv2DBackpropInput")
    dl = _spatial(dilations, 2, "dilations", "Conv2DBackpropInput")
    pads = _pads(padding, out[1:3], w._value.shape[:2], st, dl, "Conv2DBackpropInput")
    expect = tuple(_out_size(s, k, q, d, lo, hi) for s, k, q, d, (lo, hi) in
                   zip(out[1:3], w._value.shape[:2], st, dl, pads, strict=True))
    if out[3] != w._value.shape[2]:
        raise _err(f"Conv2DCustomBackpropInputOp: input and filter must have the same "
                   f"depth: {out[3]} vs {w._value.shape[2]}", "Conv2DBackpropInput")
    if expect != dy._value.shape[1:3]:
        raise _err(f"Conv2DCustomBackpropInputOp: Size of out_backprop doesn't match "
                   f"computed: actual = {dy._value.shape[1]}, computed = {expect[0]} "
                   f"spatial_dim: 1 input: {out[1]} filter: {w._value.shape[0]} output: "
                   f"{dy._value.shape[1]} stride: {st[0]} dilation: {dl[0]}",
                   "Conv2DBackpropInput")
    return _conv_in(dy, w, out, strides=st, pads=pads, dilations=dl)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None):
    """1-D cross-correlation of NWC ``input`` with ``filters [k, in, out]`` (``tf.nn.conv1d``).

    Computed as :func:`conv2d` on a height-1 image, as TensorFlow does.
    """
    x = _a.expand_dims(to_tensor(input), 1)
    w = _a.expand_dims(to_tensor(filters), 0)
    st = _spatial(stride, 1, "stride", "Conv2D")
    dl = _spatial(dilations, 1, "dilations", "Conv2D")
    if isinstance(padding, (list, tuple)):
        padding = [[0, 0], [0, 0]] + [list(p) for p in padding[1:2]] + [[0, 0]]
    out = conv2d(x, w, (1,) + st, padding, dilations=(1,) + dl)
    return _a.squeeze(out, [1])


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of :func:`conv1d` (``tf.nn.conv1d_transpose``)."""
    x = _a.expand_dims(to_tensor(input), 1)
    w = _a.expand_dims(to_tensor(filters), 0)
    out = _a._int_list(output_shape)
    st = _spatial(strides, 1, "strides", "Conv2DBackpropInput")
    dl = _spatial(dilations, 1, "dilations", "Conv2DBackpropInput")
    y = conv2d_transpose(x, w, [out[0], 1, out[1], out[2]], (1,) + st, padding,
                         dilations=(1,) + dl)
    return _a.squeeze(y, [1])


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """Per-channel 2-D convolution (``tf.nn.depthwise_conv2d``).

    Args:
        input: ``[batch, h, w, channels]``.
        filter: ``[kh, kw, channels, multiplier]``.
        strides: ``[1, s, s, 1]`` (equal spatial strides, as TensorFlow requires).

    Returns:
        ``[batch, out_h, out_w, channels * multiplier]``; output channel ``c * m + k``
        comes from input channel ``c`` and filter ``[..., c, k]``.

    Computed as :func:`conv2d` with a block-diagonal filter, so its cost grows with
    ``channels**2``; the gradients are conv2d's.
    """
    x = to_tensor(input)
    w = to_tensor(filter)
    _check_pair(x, w, "DepthwiseConv2dNative")
    kh, kw, c, m = w._value.shape
    if x._value.shape[3] != c:
        raise _err(f"input depth must be evenly divisible by filter depth: "
                   f"{x._value.shape[3]} vs {c}", "DepthwiseConv2dNative")
    eye = Tensor(np.eye(c, dtype=w._value.dtype))
    full = _a.reshape(_a.einsum("hwcm,cd->hwcdm", w, eye), (kh, kw, c, c * m))
    return conv2d(x, full, strides, padding, dilations=dilations)


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """``conv1d`` or ``conv2d`` by the rank of ``input`` (``tf.nn.convolution``)."""
    x = to_tensor(input)
    if x._value.ndim == 3:
        return conv1d(x, filters, strides or 1, padding, dilations=dilations)
    return conv2d(x, filters, strides or 1, padding, dilations=dilations)


# ----------------------------------------------------------------------------- pooling


def _pool_geometry(x, ksize, strides, padding, op_name):
    k = _spatial(ksize, 2, "ksize", op_name)
    st = _spatial(strides, 2, "strides", op_name)
    pads = _pads(padding, x.shape[1:3], k, st, (1, 1), op_name)
    oh = _out_size(x.shape[1], k[0], st[0], 1, *pads[0])
    ow = _out_size(x.shape[2], k[1], st[1], 1, *pads[1])
    return k, st, pads, oh, ow


def _max_pool_forward(x, ksize, strides, pads):
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    oh = _out_size(x.shape[1], kh, sh, 1, pt, pb)
    ow = _out_size(x.shape[2], kw, sw, 1, pl, pr)
    if oh <= 0 or ow <= 0:
        return np.zeros((x.shape[0], builtins.max(oh, 0), builtins.max(ow, 0), x.shape[3]),
                        x.dtype)
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=-np.inf)
    out = np.full((x.shape[0], oh, ow, x.shape[3]), -np.inf, x.dtype)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            np.maximum(out, _window(xp, i, j, 1, 1, sh, sw, oh, ow), out=out)
    return out


def _max_pool_argmax(x, ksize, strides, pads):
    """Flat index into ``x`` of each window's first maximum (row-major window order)."""
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    n, h, w, c = x.shape
    oh = _out_size(h, kh, sh, 1, pt, pb)
    ow = _out_size(w, kw, sw, 1, pl, pr)
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=-np.inf)
    best = np.full((n, oh, ow, c), -np.inf, x.dtype)
    idx = np.zeros((n, oh, ow, c), np.int64)
    bn = np.arange(n)[:, None, None, None]
    bc = np.arange(c)[None, None, None, :]
    ro = np.arange(oh)[None, :, None, None] * sh - pt
    co = np.arange(ow)[None, None, :, None] * sw - pl
    first = True
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            v = _window(xp, i, j, 1, 1, sh, sw, oh, ow)
            hit = (v > best) | (first & (v == best))
            first = False
            best = np.where(hit, v, best)
            flat = ((bn * h + (ro + i)) * w + (co + j)) * c + bc
            idx = np.where(hit, flat, idx)
    return idx


_MAXPOOL = primitive("MaxPool", _max_pool_forward)


def _max_pool_rule(g, y, x, ksize, strides, pads):
    idx = Tensor(_max_pool_argmax(x._value, ksize, strides, pads))
    size = int(np.prod(x._value.shape))
    flat = _m.unsorted_segment_sum(_a.reshape(g, [-1]), _a.reshape(idx, [-1]), size)
    return _a.reshape(flat, x._value.shape)


defvjp(_MAXPOOL, _max_pool_rule)


def _avg_counts(shape, ksize, strides, pads, dtype):
    ones = np.ones((1,) + tuple(shape[1:3]) + (1,), dtype)
    return _avg_sum(ones, ksize, strides, pads)


def _avg_sum(x, ksize, strides, pads):
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    oh = _out_size(x.shape[1], kh, sh, 1, pt, pb)
    ow = _out_size(x.shape[2], kw, sw, 1, pl, pr)
    out = np.zeros((x.shape[0], builtins.max(oh, 0), builtins.max(ow, 0), x.shape[3]),
                   x.dtype)
    if oh <= 0 or ow <= 0:
        return out
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            out += _window(xp, i, j, 1, 1, sh, sw, oh, ow)
    return out


def _avg_pool_forward(x, ksize, strides, pads):
    # Padded cells do not count toward the mean, as TensorFlow's SAME average pooling.
    return _avg_sum(x, ksize, strides, pads) / _avg_counts(x.shape, ksize, strides, pads,
                                                           x.dtype)


def _avg_pool_grad_forward(g, input_shape, ksize, strides, pads):
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    n, h, w, c = input_shape
    oh, ow = g.shape[1:3]
    if g.size == 0:
        return np.zeros(input_shape, g.dtype)
    share = g / _avg_counts(input_shape, ksize, strides, pads, g.dtype)
    dxp = np.zeros((n, h + pt + pb, w + pl + pr, c), g.dtype)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            _window(dxp, i, j, 1, 1, sh, sw, oh, ow)[...] += share
    return dxp[:, pt:pt + h, pl:pl + w, :]


_AVGPOOL = primitive("AvgPool", _avg_pool_forward, save_inputs=False)
_AVGPOOL_GRAD = primitive("AvgPoolGrad", _avg_pool_grad_forward, save_inputs=False)
defvjp(_AVGPOOL, lambda g, y, x_shape, **a: apply(_AVGPOOL_GRAD, (g,),
                                                  dict(a, input_shape=tuple(x_shape))))
defvjp(_AVGPOOL_GRAD, lambda g, y, g_shape, input_shape, **a: apply(_AVGPOOL, (g,), a))


def _pool2d(prim, input, ksize, strides, padding, data_format):  # noqa: A002
    x = to_tensor(input)
    if data_format not in (None, "NHWC"):
        raise _err(f"Default {prim.name}Op only supports NHWC on device type CPU",
                   prim.name)
    check_kind(x, "f", prim.name, "half, bfloat16, float, double")
    if x._value.ndim != 4:
        raise _err("Input must be 4 or 5-dimensional", prim.name)
    k, st, pads, oh, ow = _pool_geometry(x._value, ksize, strides, padding, prim.name)
    del oh, ow  # an empty output when the window does not fit, as TensorFlow
    return apply(prim, (x,), {"ksize": k, "strides": st, "pads": pads})


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Maximum over ``ksize`` windows of NHWC ``input`` (``tf.nn.max_pool2d``).

    Args:
        input: ``[batch, h, w, channels]`` floats.
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: ``'SAME'`` (padding never wins the max) or ``'VALID'``.

    Returns:
        ``[batch, out_h, out_w, channels]``; the gradient goes to each window's first
        maximum.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> print(tf.nn.max_pool2d(x, 2, 2, 'VALID')[0, :, :, 0].numpy())
        [[ 5.  7.]
         [13. 15.]]
    """
    return _pool2d(_MAXPOOL, input, ksize, strides, padding, data_format)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Mean over ``ksize`` windows of NHWC ``input`` (``tf.nn.avg_pool2d``).

    With ``'SAME'`` padding the mean is over the window's cells inside the input only.
    """
    return _pool2d(_AVGPOOL, input, ksize, strides, padding, data_format)


def _pool1d(fn, input, ksize, strides, padding):  # noqa: A002
    x = _a.expand_dims(to_tensor(input), 1)
    k = _spatial(ksize, 1, "ksize", "MaxPool")
    st = _spatial(strides, 1, "strides", "MaxPool")
    return _a.squeeze(fn(x, (1,) + k, (1,) + st, padding), [1])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Maximum over windows of NWC ``input`` (``tf.nn.max_pool1d``), via max_pool2d."""
    return _pool1d(max_pool2d, input, ksize, strides, padding)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Mean over windows of NWC ``input`` (``tf.nn.avg_pool1d``), via avg_pool2d."""
    return _pool1d(avg_pool2d, input, ksize, strides, padding)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``max_pool1d`` or ``max_pool2d`` by the rank of ``input`` (``tf.nn.max_pool``)."""
    x = to_tensor(input)
    fn = max_pool1d if x._value.ndim == 3 else max_pool2d
    return fn(x, ksize, strides, padding)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``avg_pool1d`` or ``avg_pool2d`` by the rank of ``input`` (``tf.nn.avg_pool``)."""
    x = to_tensor(input)
    fn = avg_pool1d if x._value.ndim == 3 else avg_pool2d
    return fn(x, ksize, strides, padding)


__all__ += ["separable_conv2d", "atrous_conv2d", "space_to_depth", "depth_to_space"]


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution (``tf.nn.separable_conv2d``).

    Args:
        input: ``[batch, h, w, channels]``.
        depthwise_filter: ``[kh, kw, channels, multiplier]``.
        pointwise_filter: ``[1, 1, channels * multiplier, out_channels]``.
    """
    mid = depthwise_conv2d(input, depthwise_filter, strides, padding, dilations=dilations)
    return conv2d(mid, pointwise_filter, 1, "VALID")


def atrous_conv2d(value, filters, rate, padding, name=None):
    """:func:`conv2d` with stride 1 and dilation ``rate`` (``tf.nn.atrous_conv2d``).

    Raises:
        ValueError: for a rate below 1.
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Move ``block_size x block_size`` spatial blocks into channels (``tf.nn.space_to_depth``).

    Raises:
        tf.errors.InvalidArgumentError: if height or width is not divisible by the block.
    """
    x = to_tensor(input)
    n, h, w, c = x._value.shape
    b = int(block_size)
    if h % b or w % b:
        raise _err(f"Image width {w} and height {h} should be divisible by block_size: {b}",
                   "SpaceToDepth")
    y = _a.reshape(x, [n, h // b, b, w // b, b, c])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, [n, h // b, w // b, b * b * c])


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of :func:`space_to_depth` (``tf.nn.depth_to_space``).

    Raises:
        tf.errors.InvalidArgumentError: if channels are not divisible by ``block_size**2``.
    """
    x = to_tensor(input)
    n, h, w, c = x._value.shape
    b = int(block_size)
    if c % (b * b):
        raise _err(f"Input depth dimension {c} should be divisible by: {b * b}",
                   "DepthToSpace")
    y = _a.reshape(x, [n, h, w, b, b, c // (b * b)])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, [n, h * b, w * b, c // (b * b)])
