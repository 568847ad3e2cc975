"""``tf.nn.convolution``: the rank-agnostic convolution, and a dilated one as TensorFlow
computes it.

TF 2.21's ``tf.nn.convolution`` with any dilation above 1 (on CPU) runs no dilated Conv2D:
it moves each dilation block of the input into the batch (``space_to_batch_nd``, padded so
that the blocks divide the padded sizes), runs the undilated convolution with VALID padding,
and moves the result back (``batch_to_space_nd``, cropping the rows added for divisibility).
The values are those of a dilated convolution; what follows the structure is the rounding
order of each sum, and the gradient: the zero upstream gradient of the cropped rows meets an
infinite filter (nan) in the input gradient, as in TF. ``conv1d``/``conv2d``/``conv3d``
called directly with dilations stay dilated kernels, as in TF.
"""
from .._core import errors
from .._core.backend import np
from .._core.tensor import _TensorLike, static_value
from . import array_ops as _a
from . import manip_ops as _mn
from . import nn_conv3d_ops as _c3
from . import nn_conv_ops as _c
from ._helpers import check_kind, to_tensor

__all__ = ["convolution"]

_NC = {"NCW": 1, "NCHW": 2, "NCDHW": 3}


def _sequence(value, n, name, channels_first=False):
    """TF's ``_get_sequence``: None, an int, or 1, n or n+2 values as n+2 values (the
    batch and channel entries 1)."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, _TensorLike):
        value = static_value(value).tolist()
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    return [1, 1] + value if channels_first else [1] + value + [1]


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """N-D convolution, 1, 2 or 3 spatial axes by the rank of ``filters``
    (``tf.nn.convolution``).

    Without dilation it is :func:`conv1d`, :func:`conv2d` or :func:`conv3d`. With a dilation
    above 1 it is computed as TensorFlow computes it: ``space_to_batch_nd`` of the input
    (block = the dilations, padded for SAME or explicit padding and to a multiple of the
    block), the undilated convolution with VALID padding, then ``batch_to_space_nd``.

    Args:
        input: ``[batch, *spatial, in_channels]`` (``data_format`` ``NWC``/``NHWC``/
            ``NDHWC`` or None), or channels first (``NCW``/``NCHW``/``NCDHW``); a float or
            int32 dtype as the kernel takes.
        filters: ``[*kernel_spatial, in_channels, out_channels]``, ``input``'s dtype.
        strides, dilations: an int, or 1, N or N+2 ints; strides above 1 exclude dilations
            above 1.
        padding: ``'VALID'``, ``'SAME'`` or explicit ``[[before, after], ...]`` pairs.

    Returns:
        ``[batch, *out_spatial, out_channels]`` (channels first for an ``NC`` format).

    Raises:
        ValueError: for a filter rank other than 3, 4 or 5, strides or dilations of another
            length, below 1, or strides and dilations both above 1 (dilated), an input of
            too low a rank or channels not divisible by the filter's (dilated).
        tf.errors.InvalidArgumentError: from the convolution kernel (mismatched channels,
            dtypes); a channels-first 3-D convolution other than float32/bfloat16.
        tf.errors.UnimplementedError: a channels-first 1-D or 2-D convolution other than
            float32/bfloat16 (TF's CPU kernels for those take channels last only).
    """
    x, w = to_tensor(input), to_tensor(filters)
    n = w._value.ndim - 2
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: "
                         f"num_spatial_dims={n}.")
    channels_first = data_format is not None and data_format.startswith("NC")
    dl = _sequence(dilations, n, "dilations", channels_first)
    if dilations is None or all(int(d) == 1 for d in dl):
        if channels_first:
            _channels_first_kernel(x, n)
        return _undilated(x, w, n, strides, padding, data_format, dilations)
    st = _sequence(strides, n, "strides", channels_first)
    st, dl = (st[2:], dl[2:]) if channels_first else (st[1:-1], dl[1:-1])
    _check(x, w, n, st, dl, channels_first)
    if all(int(d) == 1 for d in dl):
        # a dilation above 1 only on the batch or channel axis: TF's plain convolution
        return _undilated(x, w, n, strides, padding, data_format, None)
    if channels_first:
        _channels_first_kernel(x, n)
        # (TF's block of 1 over the channels moves nothing: the same values channels-last)
        y = _dilated(_a.transpose(x, [0] + list(range(2, n + 2)) + [1]), w, n, padding, dl)
        return _a.transpose(y, [0, n + 1] + list(range(1, n + 1)))
    return _dilated(x, w, n, padding, dl)


def _channels_first_kernel(x, n):
    """TF's CPU kernels take a channels-first layout in float32 and bfloat16 only (oneDNN's);
    its Eigen kernels refuse it (float16, float64, int32)."""
    dt = x._value.dtype
    if dt == np.float32 or dt.name == "bfloat16":
        return
    if n == 3:
        check_kind(x, "f", "Conv3D", "half, bfloat16, float, double")
        raise errors.op_error(errors.InvalidArgumentError, "CPU implementation of Conv3D "
                              "currently only supports the NHWC tensor format.", "Conv3D")
    raise errors.op_error(errors.UnimplementedError, "The Conv2D op currently only supports "
                          "the NHWC tensor format on the CPU. The op was given the format: "
                          "NCHW", "Conv2D")


def _undilated(x, w, n, strides, padding, data_format, dilations):
    if n != 2 and data_format is not None and data_format.startswith("NC"):
        # NCW/NCDHW: computed channels-last (conv1d and conv3d take that layout only)
        def last(v):
            if isinstance(v, (list, tuple)) and len(v) == n + 2:
                return [v[0]] + list(v[2:]) + [v[1]]
            return v
        y = _undilated(_a.transpose(x, [0] + list(range(2, n + 2)) + [1]), w, n,
                       last(strides), last(padding), None, last(dilations))
        return _a.transpose(y, [0, n + 1] + list(range(1, n + 1)))
    if n == 3:
        return _c3.conv3d(x, w, strides or 1, padding, data_format or "NDHWC",
                          dilations=dilations)
    if n == 2:
        return _c.conv2d(x, w, strides or 1, padding, data_format or "NHWC",
                         dilations=dilations)
    return _c.conv1d(x, w, strides or 1, padding, dilations=dilations)


def _check(x, w, n, strides, dilations, channels_first):
    """TF's checks of a dilated convolution (``nn_ops.Convolution``), in its order."""
    xs, ws = x._value.shape, w._value.shape
    if len(xs) < n + 2:
        raise ValueError(f"`input.shape.rank` must be >= than `num_spatial_dims + 2`. "
                         f"Received: input.shape={_shape(xs)} of rank {len(xs)} and "
                         f"num_spatial_dims={n}")
    channels = xs[len(xs) - n - 1] if channels_first else xs[-1]
    if ws[n] == 0 or channels % ws[n]:
        raise ValueError(f"The number of input channels is not divisible by the corresponding "
                         f"number of output filters. Received: input.shape={_shape(xs)} with "
                         f"{channels} channels and filters.shape={_shape(ws)} with {ws[n]} "
                         f"output filters.")
    dl = np.array(dilations, np.int32)
    st = np.array(strides, np.int32)
    if np.any(dl < 1):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: "
                         f"dilation_rate={dl}")
    if np.any(st < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={st}")
    if np.any(st > 1) and np.any(dl > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={st} and dilation_rate={dl}")


def _shape(dims):
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _explicit(padding, n):
    """Explicit ``[[0, 0], [top, bottom], [left, right], [0, 0]]`` paddings as the spatial
    pairs, with TF's checks (its dilated path takes 4 pairs, so only 2-D convolutions)."""
    for i, pair in enumerate(padding):
        if not isinstance(pair, (list, tuple)):
            raise ValueError(f"When `padding` is a list, each element of `padding` must be a "
                             f"list/tuple of size 2. Received: padding={padding} with element "
                             f"at index {i} of type {type(pair)}")
        if len(pair) != 2:
            raise ValueError(f"When `padding` is a list, each element of `padding` must be a "
                             f"list/tuple of size 2. Received: padding={padding} with element "
                             f"at index {i} of size {len(pair)}")
    if len(padding) != 4:
        raise ValueError(f"When padding is a list, it must be of size 4. Received: "
                         f"padding={padding} of size {len(padding)}")
    if n != 2:
        raise ValueError(f"cannot reshape array of size 8 into shape ({n + 2},2)")
    return [(int(a), int(b)) for a, b in padding[1:-1]]


def _dilated(x, w, n, padding, dilations):
    """``space_to_batch_nd`` -> VALID convolution -> ``batch_to_space_nd`` of a channels-last
    ``x`` (TF's ``_WithSpaceToBatch``)."""
    k = w._value.shape[:n]
    if isinstance(padding, (list, tuple)):
        base = _explicit(padding, n)
    elif padding == "SAME":
        base = [((kk - 1) * d // 2, (kk - 1) * d - (kk - 1) * d // 2)
                for kk, d in zip(k, dilations, strict=True)]
    elif padding == "VALID":
        base = [(0, 0)] * n
    elif padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    else:  # (TF's dilated path takes the names in capitals only)
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: "
                         f"padding={padding}")
    # padded at the end to a multiple of the block (TF's required_space_to_batch_paddings);
    # the sizes are read as guards of a trace with relaxed shapes
    paddings, crops = [], []
    for i, ((lo, hi), d) in enumerate(zip(base, dilations, strict=True)):
        extra = -(_a.static_dim(x, 1 + i) + lo + hi) % d
        paddings.append([lo, hi + extra])
        crops.append([0, extra])
    block = [int(d) for d in dilations]
    xs = _mn.space_to_batch_nd(x, block, paddings)
    for size, kk in zip(xs._value.shape[1:1 + n], k, strict=True):
        if size - kk + 1 < 0:
            # (tapeflow's kernels give an empty output there; TF's undilated kernel raises)
            raise _c._err(f"Computed output size would be negative: {size - kk + 1} "
                          f"[input_size: {size}, effective_filter_size: {kk}, stride: 1]",
                          "Conv3D" if n == 3 else "Conv2D")
    if n == 3:
        y = _c3.conv3d(xs, w, 1, "VALID")
    elif n == 2:
        y = _c.conv2d(xs, w, 1, "VALID")
    else:
        y = _c.conv1d(xs, w, 1, "VALID")
    return _mn.batch_to_space_nd(y, block, crops)
