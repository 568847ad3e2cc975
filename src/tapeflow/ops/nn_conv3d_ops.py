"""3-D convolution and pooling of ``tf.nn`` (NDHWC): conv3d, conv3d_transpose, max_pool3d,
avg_pool3d.

Each is a composition of the 2-D ops of ``nn_conv_ops``: the input is padded once on the
three spatial axes, then for each kernel depth offset the strided depth slab
``[batch, out_d, H, W, C]`` is folded into the batch, convolved (pooled) in 2-D with
``'VALID'`` padding, and the offsets are summed (maxed). Gradients (and higher ones) are
therefore those of conv2d, pad, slicing and add_n/reduce_max: conv3d's are TensorFlow's
exactly; max_pool3d's agrees with TensorFlow's except where a window holds several equal
maxima across depth (TensorFlow routes to the first one, reduce_max shares it).

conv3d_transpose runs the other way: for each kernel depth offset the input's depth slices,
folded into the batch, go through the 2-D ``conv2d_transpose`` (``'VALID'``, on the padded
plane), are spread ``stride`` apart along depth and shifted by the offset; the offsets are
summed and the padding cropped. Its gradients are those of the pieces, so TensorFlow's.
"""
from .._core.backend import np
from . import _helpers as _h
from . import array_ops as _a
from . import creation_ops as _cr
from . import manip_ops as _mn
from . import math_ops as _m
from . import nn_conv_ops as _c
from . import reduction_ops as _r
from ._helpers import check_kind, to_tensor

__all__ = ["conv3d", "conv3d_transpose", "max_pool3d", "avg_pool3d"]


def _check_format(data_format, op_name):
    if data_format not in (None, "NDHWC"):
        raise ValueError(f"tapeflow's {op_name} supports data_format='NDHWC' only. Received: "
                         f"data_format={data_format}")


def _geometry(x, k, padding, strides, dilations, op_name):
    st = _c._spatial(strides, 3, "strides", op_name)
    dl = _c._spatial(dilations, 3, "dilations", op_name)
    pads = tuple(tuple(p) for p in _c._pads(padding, x._value.shape[1:4], k, st, dl, op_name))
    return st, dl, pads


def _out_sizes(shape, k, st, dl, pads):
    return [(n + lo + hi - d * (kk - 1) - 1) // s + 1
            for n, kk, s, d, (lo, hi) in zip(shape, k, st, dl, pads, strict=True)]


def _slabs(xp, kd, sd, dd, od):
    """For each depth offset, ``xp[:, i*dd : ... : sd]`` (od slices) folded into the batch."""
    b, _, h, w, c = xp._value.shape
    for i in range(kd):
        start = i * dd
        slab = xp[:, start:start + (od - 1) * sd + 1:sd]
        yield i, _a.reshape(slab, [-1, h, w, c])


def conv3d(input, filters, strides, padding, data_format="NDHWC",  # noqa: A002
           dilations=None, name=None):
    """3-D cross-correlation of NDHWC ``input`` with ``filters`` (``tf.nn.conv3d``).

    Args:
        input: ``[batch, depth, height, width, in_channels]`` floats.
        filters: ``[kd, kh, kw, in_channels, out_channels]``, ``input``'s dtype.
        strides: a list of 5 ints ``[1, sd, sh, sw, 1]`` (an int or 3 ints also accepted).
        padding: ``'SAME'`` (``ceil(in / stride)`` outputs, the odd padding cell after) or
            ``'VALID'``.
        dilations: like ``strides`` (default 1).

    Returns:
        ``[batch, out_d, out_h, out_w, out_channels]``.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched channels, ranks or dtypes.
    """
    x, w = to_tensor(input), to_tensor(filters)
    _check_format(data_format, "Conv3D")
    _c._check_pair(x, w, "Conv3D")
    if x._value.ndim != 5 or w._value.ndim != 5:
        raise _c._err("input and filter must be 5-dimensional", "Conv3D")
    if x._value.shape[4] != w._value.shape[3]:
        raise _c._err(f"Input depth must be evenly divisible by filter depth: "
                      f"{x._value.shape[4]} vs {w._value.shape[3]}", "Conv3D")
    k = w._value.shape[:3]
    st, dl, pads = _geometry(x, k, padding, strides, dilations, "Conv3D")
    od, oh, ow = _out_sizes(x._value.shape[1:4], k, st, dl, pads)
    b, f = x._value.shape[0], w._value.shape[4]
    if min(od, oh, ow) <= 0:
        return _cr.zeros([b, max(od, 0), max(oh, 0), max(ow, 0), f], x.dtype)
    xp = _mn.pad(x, [[0, 0], *pads, [0, 0]]) if any(any(p) for p in pads) else x
    parts = [_c.conv2d(slab, w[i], st[1:], "VALID", dilations=dl[1:])
             for i, slab in _slabs(xp, k[0], st[0], dl[0], od)]
    out = parts[0] if len(parts) == 1 else _m.add_n(parts)
    return _a.reshape(out, [b, od, oh, ow, f])


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NDHWC", dilations=None, name=None):
    """The transpose (gradient with respect to its input) of :func:`conv3d`
    (``tf.nn.conv3d_transpose``), the "deconvolution" that upsamples volumes.

    Args:
        input: ``[batch, d, h, w, in_channels]`` floats (the conv3d output side).
        filters: ``[kd, kh, kw, out_channels, in_channels]``, ``input``'s dtype.
        output_shape: ``[batch, out_d, out_h, out_w, out_channels]`` (a list or 1-D tensor);
            conv3d of this shape with the same strides and padding must give ``input``'s
            spatial shape.
        strides: an int or a list of 1, 3 or 5 ints (``[1, sd, sh, sw, 1]``).
        padding: ``'SAME'`` or ``'VALID'``, as the forward conv3d.
        dilations: must be 1 (TensorFlow's CPU kernel has no dilated form).

    Returns:
        ``output_shape``, ``input``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched channels or sizes, or dilations above
            1 (TensorFlow's texts).
    """
    op = "Conv3DBackpropInputV2"
    dy, w = to_tensor(input), to_tensor(filters)
    _check_format(data_format, op)
    _c._check_pair(dy, w, op)
    if dy._value.ndim != 5 or w._value.ndim != 5:
        raise _c._err("input and filter must be 5-dimensional", op)
    out = tuple(_h._int_list(output_shape))
    st = _c._spatial(strides, 3, "strides", op)
    dl = _c._spatial(dilations, 3, "dilations", op)
    if max(dl) > 1:
        raise _c._err("Current CPU implementation does not yet support dilation rates larger "
                      "than 1.", op)
    if dy._value.shape[4] != w._value.shape[4]:
        raise _c._err("out_backprop and filter_sizes must have the same number of channels. "
                      f"Got {dy._value.shape[4]} for out_backprop and {w._value.shape[4]} for "
                      "filter_sizes", op)
    if out[4] != w._value.shape[3]:
        raise _c._err("input and filter_sizes must have the same number of channels. Got "
                      f"{out[4]} for input and {w._value.shape[3]} for filter_sizes", op)
    k = w._value.shape[:3]
    pads = tuple(tuple(p) for p in _c._pads(padding, out[1:4], k, st, dl, op))
    expect = _out_sizes(out[1:4], k, st, dl, pads)
    for i in range(3):
        if expect[i] != dy._value.shape[i + 1]:
            raise _c._err(
                f"Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = "
                f"{dy._value.shape[i + 1]}, computed = {expect[i]} spatial_dim: {i + 1} input: "
                f"{out[i + 1]} filter: {k[i]} output: {dy._value.shape[i + 1]} stride: "
                f"{st[i]} dilation: 1", op)
    b, od, oh, ow, f = dy._value.shape
    dp, hp, wp = (n + lo + hi for n, (lo, hi) in zip(out[1:4], pads, strict=True))
    c = out[4]
    if min(b, od, oh, ow) == 0:
        return _cr.zeros(list(out), dy.dtype)
    flat = _a.reshape(dy, [b * od, oh, ow, f])
    span = (od - 1) * st[0] + 1
    parts = []
    for i in range(k[0]):
        t = _c.conv2d_transpose(flat, w[i], [b * od, hp, wp, c], st[1:], "VALID")
        t = _a.reshape(t, [b, od, hp, wp, c])
        if st[0] > 1:  # the slices land stride apart along depth
            t = _a.stack([t] + [_a.zeros_like(t)] * (st[0] - 1), axis=2)
            t = _a.reshape(t, [b, od * st[0], hp, wp, c])[:, :span]
        parts.append(_mn.pad(t, [[0, 0], [i, dp - i - span], [0, 0], [0, 0], [0, 0]]))
    total = parts[0] if len(parts) == 1 else _m.add_n(parts)
    if any(any(p) for p in pads):
        (d0, _), (h0, _), (w0, _) = pads
        total = total[:, d0:d0 + out[1], h0:h0 + out[2], w0:w0 + out[3]]
    return total


def _pool3d(x, ksize, strides, padding, data_format, op_name, fill):
    x = to_tensor(x)
    _check_format(data_format, op_name)
    check_kind(x, "f", op_name, "half, bfloat16, float, double")
    if x._value.ndim != 5:
        raise _c._err("Input must be 5-dimensional", op_name)
    k = _c._spatial(ksize, 3, "ksize", op_name)
    st, dl, pads = _geometry(x, k, padding, strides, 1, op_name)
    od, oh, ow = _out_sizes(x._value.shape[1:4], k, st, dl, pads)
    b, c = x._value.shape[0], x._value.shape[4]
    if min(od, oh, ow) <= 0:
        return x, None, (b, max(od, 0), max(oh, 0), max(ow, 0), c), pads, k, st
    xp = (_mn.pad(x, [[0, 0], *pads, [0, 0]], constant_values=fill)
          if any(any(p) for p in pads) else x)
    return xp, od, (b, od, oh, ow, c), pads, k, st


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Maximum over ``ksize`` windows of NDHWC ``input`` (``tf.nn.max_pool3d``).

    Args:
        input: ``[batch, depth, height, width, channels]`` floats.
        ksize, strides: an int or a list of 1, 3 or 5 ints (``[1, kd, kh, kw, 1]``).
        padding: ``'SAME'`` (padding never wins the max) or ``'VALID'``.

    Returns:
        ``[batch, out_d, out_h, out_w, channels]``.
    """
    xp, od, shape, _, k, st = _pool3d(input, ksize, strides, padding, data_format,
                                      "MaxPool3D", -np.inf)
    if od is None:
        return _cr.zeros(shape, xp.dtype)
    parts = [_c.max_pool2d(slab, k[1:], st[1:], "VALID")
             for _, slab in _slabs(xp, k[0], st[0], 1, od)]
    out = parts[0] if len(parts) == 1 else _r.reduce_max(_a.stack(parts), axis=0)
    return _a.reshape(out, list(shape))


def _counts(n, k, s, lo, out):
    start = np.arange(out) * s - lo
    return np.minimum(start + k, n) - np.maximum(start, 0)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Mean over ``ksize`` windows of NDHWC ``input`` (``tf.nn.avg_pool3d``); with
    ``'SAME'`` padding the mean is over the window's cells inside the input only.

    Args: as :func:`max_pool3d`.
    """
    x = to_tensor(input)
    xp, od, shape, pads, k, st = _pool3d(x, ksize, strides, padding, data_format,
                                         "AvgPool3D", 0)
    if od is None:
        return _cr.zeros(shape, xp.dtype)
    parts = [_c.avg_pool2d(slab, k[1:], st[1:], "VALID")
             for _, slab in _slabs(xp, k[0], st[0], 1, od)]
    total = parts[0] if len(parts) == 1 else _m.add_n(parts)
    total = _a.reshape(total, list(shape))
    d, h, w = x._value.shape[1:4]
    counts = (_counts(d, k[0], st[0], pads[0][0], shape[1])[:, None, None]
              * _counts(h, k[1], st[1], pads[1][0], shape[2])[None, :, None]
              * _counts(w, k[2], st[2], pads[2][0], shape[3])[None, None, :])
    scale = (k[1] * k[2]) / counts[None, :, :, :, None]
    return _m.multiply(total, to_tensor(scale.astype(x._value.dtype)))
