"""Winograd's minimal filtering for 3x3 stride-1 convolutions: F(2x2, 3x3) in float32.

Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks" (CVPR 2016,
arXiv:1509.09308): a 2x2 block of a 3x3 correlation's output is
``A^T [(G g G^T) * (B^T d B)] A`` for the 4x4 input tile ``d`` that covers it, the filter
``g`` and fixed 4x4/4x3/4x2 matrices with entries 0, +-1/2, +-1. Over channels the 16
element-wise products become 16 independent matrix products, one per tile position:
``M[k] = V[k] @ U[k]`` with ``V[k]`` ``[tiles, C]`` and ``U[k]`` ``[C, O]``. That is
``16 * C * O`` multiply-adds per 2x2 output block against im2col's ``36 * C * O``: 2.25x fewer
flops in the product, paid for with the transforms (passes over the tiles, linear in ``C``
and ``O``), so it wins where ``C`` and ``O`` are large enough (see :func:`worth_it`).

Each transform is applied one axis at a time as a small matrix product over the tile axis
(``B^T`` on the rows, then on the columns, of all tiles at once), the tiles gathered by one
strided copy, and every intermediate lives in a per-thread workspace (a fresh multi-megabyte
array per call costs page faults comparable to the product itself).

Rounding: the transforms add and subtract at most four terms and halve exactly, so the
result stays within float32 rounding of the direct sum (measured against float64: the same
or smaller error than im2col's single product, 2e-7 to 7e-7 of the output's magnitude for
C = 16 to 256; F(4x4, 3x3), with transform entries up to 8 and 1/24, measured 10-20x larger
errors, beyond TensorFlow's own, so it is not used). TensorFlow's CPU kernel (oneDNN) has no
counterpart choice; the values agree within float32 rounding, not bit for bit.
"""
import os
import threading

from .._core.backend import np

__all__ = ["conv3x3", "filter_transform", "padding", "worth_it", "MODE"]

# Which convolutions may use it: "constant" (default) only filters nothing can change (a
# loaded graph's constants: ``nn_conv_ops._immutable``); "all" (``TAPEFLOW_WINOGRAD=1``) every
# float32 filter; "off" (``TAPEFLOW_WINOGRAD=0``) none. Not trained filters by default: its
# rounding differs from TensorFlow's kernels by float32 rounding per call, and a training run
# compounds that (distributed_custom_training's CNN, 2 epochs: losses 1.9525 vs TF's 1.9590,
# beyond the compat tests' 2e-5), where im2col's order tracks TF's.
MODE = {"1": "all", "0": "off"}.get(os.environ.get("TAPEFLOW_WINOGRAD", ""), "constant")

# B^T (4x4), G (4x3), A^T (2x4) of F(2x2, 3x3)
_BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float32)
_G = np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]], np.float32)
_AT = np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float32)

_WORK = threading.local()
_WORK_LIMIT = 1 << 27   # bytes: a call needing more allocates afresh


def worth_it(n, oh, ow, c, o):
    """Whether F(2x2, 3x3) beats im2col + one product for a float32 3x3 stride-1 convolution
    with ``n * oh * ow`` outputs, ``c`` input and ``o`` output channels.

    Measured on one core (OpenBLAS 0.3.31, SkylakeX; ``benchmarks/winograd.py``, CPU time):
    the transforms are memory-bound passes that cost about what the product saves at 16
    channels (64x13x13x16 -> 32: 0.97x) and less from 32 up (64x11x11x32 -> 64: 1.38x,
    8x28x28x128 -> 128: 1.38x, 1x56x56x64 -> 64: 1.23x); with few outputs the filter's
    transform is not paid back (1x7x7x512 -> 512: 0.51x).
    """
    return c >= 32 and o >= 32 and n * oh * ow >= 512


def filter_transform(w):
    """``U = G g G^T`` of a ``[3, 3, C, O]`` float32 filter: ``[16, C, O]`` (one ``[C, O]``
    matrix per position of the 4x4 tile), by two small products."""
    _, _, c, o = w.shape
    t = np.matmul(_G, w.reshape(3, 3 * c * o)).reshape(4, 3, c * o)
    return np.matmul(_G, t).reshape(16, c, o)


def padding(oh, ow, h, w):
    """The extra ``(bottom, right)`` zero padding :func:`conv3x3` needs on an ``h x w`` padded
    input for ``oh x ow`` outputs (odd output sizes: the last 2x2 block reaches past)."""
    return max(0, 2 * -(-oh // 2) + 2 - h), max(0, 2 * -(-ow // 2) + 2 - w)


def _workspace(nbytes):
    if nbytes > _WORK_LIMIT:
        return np.empty(nbytes, np.uint8)
    buf = getattr(_WORK, "buf", None)
    if buf is None or buf.nbytes < nbytes:
        buf = _WORK.buf = np.empty(max(nbytes, 1 << 22), np.uint8)
    return buf


def conv3x3(xp, u, oh, ow, out=None, block=None, run=None):
    """The ``[N, oh, ow, O]`` float32 correlation of padded ``xp`` ``[N, H, W, C]`` (``H >=
    oh + 2``, ``W >= ow + 2``, see :func:`padding`) with the filter whose
    :func:`filter_transform` is ``u``, stride 1, no dilation.

    ``out``: an ``[N, oh, ow, O]`` float32 array to write into (a new one when None).
    ``block``: images per pass (default: as many as keep a pass's intermediates near
    :data:`BLOCK_BYTES`, so they stay in cache between the steps). ``run``: a
    ``run(fn, chunks)`` that calls ``fn(*chunk)`` for every chunk (``ops/_parallel.run``:
    on two threads); blocks then are at most a quarter of the batch."""
    n, h, w, c = xp.shape
    o = u.shape[2]
    th, tw = -(-oh // 2), -(-ow // 2)
    if h < 2 * th + 2 or w < 2 * tw + 2:
        raise ValueError(f"conv3x3: input {xp.shape} too small for {oh}x{ow} outputs in "
                         f"2x2 blocks (pad it by {padding(oh, ow, h, w)})")
    if out is None:
        out = np.empty((n, oh, ow, o), np.float32)
    if block is None:
        block = max(1, BLOCK_BYTES // (th * tw * (32 * c + 28 * o) * 4))
    if run is None or n < 2:
        for b in range(0, n, block):
            _blocks(xp[b:b + block], u, oh, ow, th, tw, out[b:b + block])
        return out
    block = min(block, -(-n // 4))
    run(lambda a, b: _blocks(xp[a:b], u, oh, ow, th, tw, out[a:b]),
        [(b, min(b + block, n)) for b in range(0, n, block)])
    return out


BLOCK_BYTES = 1 << 22


def _blocks(xp, u, oh, ow, th, tw, out):
    n, c, o = xp.shape[0], xp.shape[3], u.shape[2]
    p = n * th * tw
    sizes = (16 * p * c, 16 * p * c, 16 * p * o, 8 * p * o, 4 * p * o)
    buf = _workspace(sum(sizes) * 4)
    parts, at = [], 0
    for s in sizes:
        parts.append(buf[at:at + s * 4].view(np.float32))
        at += s * 4
    d, t1, m, y1, y = parts
    s0, s1, s2, s3 = xp.strides
    tiles = np.lib.stride_tricks.as_strided(
        xp, (4, 4, n, th, tw, c), (s1, s2, s0, 2 * s1, 2 * s2, s3), writeable=False)
    d = d.reshape(tiles.shape)
    np.copyto(d, tiles)
    # V = B^T d B: rows, then columns (d's second axis), of every tile at once
    t1 = np.matmul(_BT, d.reshape(4, 4 * p * c), out=t1.reshape(4, 4 * p * c))
    v = np.matmul(_BT, t1.reshape(4, 4, p * c), out=d.reshape(4, 4, p * c))
    m = np.matmul(v.reshape(16, p, c), u, out=m.reshape(16, p, o))
    # Y = A^T M A: columns, then rows
    y1 = np.matmul(_AT, m.reshape(4, 4, p * o), out=y1.reshape(4, 2, p * o))
    y = np.matmul(_AT, y1.reshape(4, 2 * p * o), out=y.reshape(2, 2 * p * o))
    y = y.reshape(2, 2, n, th, tw, o)
    # output [b, 2t + i, 2s + j] is y[i, j, b, t, s]: four strided copies (the blocks past
    # an odd size are dropped)
    for i in (0, 1):
        for j in (0, 1):
            np.copyto(out[:, i::2, j::2], y[i, j, :, :(oh - i + 1) // 2, :(ow - j + 1) // 2])
