"""3-D convolution and pooling of ``tf.nn`` (NDHWC): conv3d, max_pool3d, avg_pool3d.

Each is a composition of the 2-D ops of ``nn_conv_ops``: the input is padded once on the
three spatial axes, then for each kernel depth offset the strided depth slab
``[batch, out_d, H, W, C]`` is folded into the batch, convolved (pooled) in 2-D with
``'VALID'`` padding, and the offsets are summed (maxed). Gradients (and higher ones) are
therefore those of conv2d, pad, slicing and add_n/reduce_max: conv3d's are TensorFlow's
exactly; max_pool3d's agrees with TensorFlow's except where a window holds several equal
maxima across depth (TensorFlow routes to the first one, reduce_max shares it).
"""
from .._core.backend import np
from . import array_ops as _a
from . import creation_ops as _cr
from . import manip_ops as _mn
from . import math_ops as _m
from . import nn_conv_ops as _c
from . import reduction_ops as _r
from ._helpers import check_kind, to_tensor

__all__ = ["conv3d", "max_pool3d", "avg_pool3d"]


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
    b, _, h, w, c = xp.shape
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
