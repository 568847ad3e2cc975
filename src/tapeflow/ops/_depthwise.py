"""The depthwise convolution of one filter per channel (``DepthwiseConv2dNative`` with a
channel multiplier of 1, float32/float64: MobileNet's) tile by tile of output rows, for
``nn_conv_ops``: each tile's input rows padded into the thread's scratch buffer, then its
``kh * kw`` products and sums over the tile alone, large ones on two threads (``_parallel``),
and a fused epilogue (``_conv_epilogue``) on each tile while it is in cache. The same
operations per element, in the same order, as one pass per kernel offset over the whole
output: the same bits (``tests/ops/test_conv_tiles.py``)."""
from .._core.backend import np
from . import _parallel as _par
from ._pool_kernels import scratch

__all__ = ["forward", "tiles", "TILE_BYTES", "PARALLEL"]


def _window(xp, i, j, dh, dw, sh, sw, oh, ow):
    """The (N, oh, ow, C) view of padded input ``xp`` at kernel offset (i, j)."""
    return xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]


# bytes a depthwise tile's output, scratch plane and input rows may take. Tiles sized for
# the 1 MB L2 cache measured no faster than whole-array passes here (the activations fit the
# 32 MB L3; each tile costs its kh*kw*2 NumPy calls): tiles bound the scratch buffer and give
# the two threads their shares
TILE_BYTES = 1 << 22
PARALLEL = 1 << 17     # output elements from which the tiles run on two threads
SHARES = 4             # tiles at least, on two threads (taken in turn: a late one waits less)


def _widening(ow, c):
    """The pixels ``k`` (dividing ``ow``) a row of ``k * c`` elements takes to reach 256, or
    1 (``c`` of 256 or more, or no such divisor up to 1024 elements)."""
    if c >= 256:
        return 1
    for k in range(-(-256 // c), 1024 // c + 1):
        if ow % k == 0:
            return k
    return 1


def _rows_of(v, k):
    """``v`` [N, R, ow, C] (each ``[ow, C]`` one contiguous run) as a view
    [N, R, ow / k, k * C]; ``v`` itself for ``k`` 1. Never a copy: the shape is set on a
    view, which raises where the strides do not allow it."""
    if k == 1:
        return v
    n, r, ow, c = v.shape
    out = v.view()
    out.shape = (n, r, ow // k, k * c)
    return out


def tiles(n, oh, row_bytes, least=1):
    """``[(i0, i1, r0, r1)]``: output rows ``r0:r1`` of images ``i0:i1``, each tile at most
    about :data:`TILE_BYTES` (``row_bytes`` per output row: output, scratch and input rows),
    ``least`` tiles or more where there are rows enough, whole images grouped when one is
    smaller; equal tiles, no small last one."""
    image = oh * row_bytes
    if image >= TILE_BYTES or n < least:
        count = -(-oh // max(1, TILE_BYTES // row_bytes))
        count = min(max(count, -(-least // n)), oh)
        step = -(-oh // count)
        return [(i, i + 1, r, min(r + step, oh))
                for i in range(n) for r in range(0, oh, step)]
    count = max(-(-n // max(1, TILE_BYTES // image)), least)
    per = -(-n // count)
    return [(i, min(i + per, n), 0, oh) for i in range(0, n, per)]


def forward(x, wc, strides, pads, dilations, oh, ow, post=None):
    """The depthwise convolution of one filter per channel (``wc`` [kh, kw, C], ``x`` float32
    or float64 of ``wc``'s dtype) tile by tile of output rows: each tile's input rows are
    padded into a scratch buffer, then its ``kh * kw`` products and sums run over the tile
    alone; large ones on two threads (``_parallel``). Each element is ``x0*w0``, then
    ``+= x_k*w_k`` in kernel-offset order, as the whole-array passes compute it: the same
    bits. ``post``: None, or an in-place step each tile's output then takes while in cache."""
    kh, kw, c = wc.shape
    n, h, wd = x.shape[:3]
    (sh, sw), (dh, dw) = strides, dilations
    ((pt, _), (pl, _)) = pads
    dtype = x.dtype
    out = np.empty((n, oh, ow, c), dtype)
    # the padded input columns the windows read
    cols = (ow - 1) * sw + (kw - 1) * dw + 1
    padded = any(sum(pads, ()))
    # few channels (MobileNetV2's first layer: 32): with unit column stride a window's row
    # is one contiguous run, seen as rows of ``wide`` pixels against the filter taps repeated
    # ``wide`` times, so NumPy's inner loop runs 256+ elements, not C (2x faster for C = 32)
    wide = _widening(ow, c) if sw == 1 else 1
    wk = wc
    if wide > 1:
        wk = np.empty((kh, kw, wide, c), dtype)
        wk[...] = wc[:, :, None, :]
        wk = wk.reshape(kh, kw, wide * c)

    def tile(i0, i1, r0, r1):
        rows = (r1 - r0 - 1) * sh + (kh - 1) * dh + 1
        p0 = r0 * sh                        # first padded row read
        o = out[i0:i1, r0:r1]
        if padded:
            buf = scratch(((i1 - i0) * rows * cols * c + o.size,), dtype)
            src = buf[:(i1 - i0) * rows * cols * c].reshape(i1 - i0, rows, cols, c)
            tmp = buf[src.size:].reshape(o.shape)
            # input rows a:b land at tile rows a + pt - p0; columns at + pl
            a, b = max(p0 - pt, 0), min(p0 + rows - pt, h)
            ca, cb = 0, max(min(cols - pl, wd), 0)
            ta, tb = a + pt - p0, b + pt - p0
            if ta > 0:
                src[:, :ta].fill(0)
            if tb < rows:
                src[:, tb:].fill(0)
            if b > a:
                if pl:
                    src[:, ta:tb, :pl].fill(0)
                if pl + cb < cols:
                    src[:, ta:tb, pl + cb:].fill(0)
                src[:, ta:tb, pl:pl + cb] = x[i0:i1, a:b, ca:cb]
            else:
                src.fill(0)
        else:
            src = x[i0:i1, p0:p0 + rows]
            tmp = scratch(o.shape, dtype)
        whole = o
        if wide > 1:
            o, tmp = _rows_of(o, wide), _rows_of(tmp, wide)
        np.multiply(_rows_of(_window(src, 0, 0, dh, dw, sh, sw, r1 - r0, ow), wide), wk[0, 0],
                    out=o)
        for k in range(1, kh * kw):
            i, j = divmod(k, kw)
            np.multiply(_rows_of(_window(src, i, j, dh, dw, sh, sw, r1 - r0, ow), wide),
                        wk[i, j], out=tmp)
            np.add(o, tmp, out=o)
        if post is not None:
            post(whole)

    two = out.size >= PARALLEL and _par.enabled()
    parts = tiles(n, oh, (2 * ow + sh * cols) * c * dtype.itemsize, SHARES if two else 1)
    if two and len(parts) > 1:
        _par.run(tile, parts)
    else:
        for t in parts:
            tile(*t)
    return out
