"""NumPy kernels of max pooling by tiling windows, and the per-thread scratch buffer that
``nn_conv_ops``' patch matrices and poolings write into (moved here from ``nn_conv_ops``,
which is at its size limit, so ``function/batch_chunks.py`` can run a pool before the bias
add and ReLU that precede it: :func:`tiled_max` without the NaN-window pass, then the
element-wise steps on the pooled quarter, then :func:`nan_windows`).

TF's (Eigen's) max pooling starts each window at the lowest finite value and keeps a value
only when it is larger: NaN is skipped (``np.fmax``, ties keep the later operand) and a
window holding only NaN and -inf gives that lowest value.
"""
import builtins
import math
import threading

from .._core.backend import np

__all__ = ["scratch", "tiles", "tiled", "tiled_max", "window_max", "nan_windows"]

_SCRATCH = threading.local()
_SCRATCH_LIMIT = 1 << 26  # bytes; larger patch matrices are allocated afresh


def scratch(shape, dtype):
    """A per-thread reusable buffer for a patch matrix that dies before the next one is made.

    Reusing it spares the page faults of a fresh multi-megabyte allocation each step, which
    otherwise cost about as much as the matrix product itself.
    """
    dtype = np.dtype(dtype)
    if (nbytes := math.prod(shape) * dtype.itemsize) > _SCRATCH_LIMIT:   # (not np.prod: 5 us)
        return np.empty(shape, dtype)
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.nbytes < nbytes:
        buf = _SCRATCH.buf = np.empty(builtins.max(nbytes, 1 << 20), np.uint8)
    return buf[:nbytes].view(dtype).reshape(shape)


def tiles(shape, ksize, strides, pads, oh, ow):
    """Whether the windows tile the input without overlap or padding (stride == ksize)."""
    return (tuple(strides) == tuple(ksize) and not builtins.any(builtins.sum(pads, ()))
            and oh * ksize[0] <= shape[1] and ow * ksize[1] <= shape[2])


def tiled(x, kh, kw, oh, ow):
    """``[N, oh, kh, ow, kw, C]``: the input as its tiling windows (a view when they cover
    it)."""
    n, _, _, c = x.shape
    return x[:, :oh * kh, :ow * kw, :].reshape(n, oh, kh, ow, kw, c)


def tiled_max(x, kh, kw, oh, ow):
    """Max pooling by windows that tile ``x`` (stride == window, no padding), into a new
    array: the maxima of the window rows (whole image rows at a time, into the scratch
    buffer), then of their columns; NaN skipped (``np.fmax``, ties keep the later operand,
    as always). A window of NaN only is NaN here (:func:`nan_windows` gives TF's value)."""
    x6 = tiled(x, kh, kw, oh, ow)
    if kw == 1:
        out = x6[:, :, 0, :, 0].copy()
        for i in builtins.range(1, kh):
            np.fmax(out, x6[:, :, i, :, 0], out=out)
        return out
    if kh == 1:
        rows = x6[:, :, 0]
    else:
        # (a scratch buffer: a fresh one would cost page faults on every call)
        rows = scratch(x6[:, :, 0].shape, x.dtype)
        np.fmax(x6[:, :, 0], x6[:, :, 1], out=rows)
        for i in builtins.range(2, kh):
            np.fmax(rows, x6[:, :, i], out=rows)
    out = np.fmax(rows[:, :, :, 0], rows[:, :, :, 1])
    for j in builtins.range(2, kw):
        np.fmax(out, rows[:, :, :, j], out=out)
    return out


def window_max(blocks):
    """:func:`tiled_max` of windows given offset by offset, ``blocks`` ``[kh, kw, N, oh, ow,
    C]`` (block ``[i, j]`` holds each window's element ``(i, j)``; ``_conv_windows``
    computes a convolution's output so), in the same order of ``fmax``
    calls and operands, so the same bits (NaN, ties): each long contiguous pass where
    :func:`tiled_max`'s column step runs C-float inner loops. Written over ``blocks``; the
    result is ``blocks[0, 0]``."""
    kh, kw = blocks.shape[:2]
    for i in builtins.range(1, kh):     # (every column offset j in one call)
        np.fmax(blocks[0], blocks[i], out=blocks[0])
    for j in builtins.range(1, kw):
        np.fmax(blocks[0, 0], blocks[0, j], out=blocks[0, 0])
    return blocks[0, 0]


def nan_windows(out):
    """``out`` (pooled maxima, NaN skipped) with TF's value for windows of NaN and -inf
    only: the lowest finite value, in place. (``min`` first: a vectorised pass, 7x faster
    than ``fmax`` with a scalar, which only runs when some window is NaN or -inf.)"""
    if out.dtype.kind == "f" and out.size:
        lowest = np.finfo(out.dtype).min
        if not np.minimum.reduce(out, axis=None) >= lowest:   # out.min() without its wrapper
            np.fmax(out, lowest, out=out)
    return out


def depthwise_input_nonfinite(dxp, w, strides, dilations, oh, ow):
    """TF's CPU DepthwiseConv2dNativeBackpropInput multiplies every filter tap for every
    input cell, by a zero where the tap meets no output (past the edge, or between strides):
    a non-finite tap there makes the cell nan (0 * inf). Not float32 over several channels:
    oneDNN's depthwise kernel skips those taps there. ``dxp``: the padded input gradient
    (of ``nn_conv_ops``' DepthwiseConv2dNativeBackpropInput, at its size limit)."""
    (sh, sw), (dh, dw) = strides, dilations
    kh, kw = w.shape[:2]
    bad = ~np.isfinite(w).all(-1)  # (kh, kw, c): a tap holding inf/nan for channel c
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            if not bad[i, j].any():
                continue
            met = np.zeros(dxp.shape[1:3], bool)
            if oh and ow:
                met[i * dh:i * dh + (oh - 1) * sh + 1:sh,
                    j * dw:j * dw + (ow - 1) * sw + 1:sw] = True
            dxp[:, ~met[:, :, None] & bad[i, j]] = np.nan
