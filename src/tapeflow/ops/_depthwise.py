"""The depthwise convolution of one filter per channel (``DepthwiseConv2dNative`` with a
channel multiplier of 1, float32/float64: MobileNet's) tile by tile of output rows, for
``nn_conv_ops``: each tile's input rows padded into the thread's scratch buffer, then its
``kh * kw`` products and sums over the tile alone, in the core's L2 cache, large ones on two
threads (``_parallel``). The same operations per element, in the same order, as one pass per
kernel offset over the whole output: the same bits (``tests/ops/test_conv_tiles.py``)."""
from .._core.backend import np
from . import _parallel as _par
from ._pool_kernels import scratch

__all__ = ["forward", "tiles", "TILE_BYTES", "PARALLEL"]


def _window(xp, i, j, dh, dw, sh, sw, oh, ow):
    """The (N, oh, ow, C) view of padded input ``xp`` at kernel offset (i, j)."""
    return xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]


# bytes a depthwise tile's output, scratch plane and input rows may take: its kh*kw passes
# then stay in the core's L2 cache (1 MB here)
TILE_BYTES = 3 << 18
PARALLEL = 1 << 17     # output elements from which the tiles run on two threads


def tiles(n, oh, row_bytes):
    """``[(i0, i1, r0, r1)]``: output rows ``r0:r1`` of images ``i0:i1``, each tile about
    :data:`TILE_BYTES` (``row_bytes`` per output row: output, scratch and input rows),
    whole images grouped when one is smaller; equal tiles, no small last one."""
    image = oh * row_bytes
    if image >= TILE_BYTES:
        count = -(-oh // max(1, TILE_BYTES // row_bytes))
        step = -(-oh // count)
        return [(i, i + 1, r, min(r + step, oh))
                for i in range(n) for r in range(0, oh, step)]
    count = -(-n // max(1, TILE_BYTES // image))
    per = -(-n // count)
    return [(i, min(i + per, n), 0, oh) for i in range(0, n, per)]


def forward(x, wc, strides, pads, dilations, oh, ow):
    """The depthwise convolution of one filter per channel (``wc`` [kh, kw, C], ``x`` float32
    or float64 of ``wc``'s dtype) tile by tile of output rows: each tile's input rows are
    padded into a scratch buffer, then its ``kh * kw`` products and sums run over the tile
    alone, in the core's L2 cache (not one pass each over a multi-megabyte output); large
    ones on two threads (``_parallel``). Each element is ``x0*w0``, then ``+= x_k*w_k`` in
    kernel-offset order, as the whole-array passes compute it: the same bits."""
    kh, kw, c = wc.shape
    n, h, wd = x.shape[:3]
    (sh, sw), (dh, dw) = strides, dilations
    ((pt, _), (pl, _)) = pads
    dtype = x.dtype
    out = np.empty((n, oh, ow, c), dtype)
    # the padded input columns the windows read
    cols = (ow - 1) * sw + (kw - 1) * dw + 1
    padded = any(sum(pads, ()))

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
        np.multiply(_window(src, 0, 0, dh, dw, sh, sw, r1 - r0, ow), wc[0, 0], out=o)
        for k in range(1, kh * kw):
            i, j = divmod(k, kw)
            np.multiply(_window(src, i, j, dh, dw, sh, sw, r1 - r0, ow), wc[i, j], out=tmp)
            np.add(o, tmp, out=o)

    parts = tiles(n, oh, (2 * ow + sh * cols) * c * dtype.itemsize)
    if len(parts) > 1 and out.size >= PARALLEL and _par.enabled():
        _par.run(tile, parts)
    else:
        for t in parts:
            tile(*t)
    return out
