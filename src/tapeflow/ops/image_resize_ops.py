"""``tf.image.resize``'s bicubic and area kernels, computed as TensorFlow 2.21's CPU kernels
compute them, in float32 and in their order of operations.

- ``ResizeBicubic`` (half-pixel centres, Keys' cubic with a = -0.5): each output's four taps
  per axis, weights read from TF's 1024-entry coefficient table, taps outside the image
  weighted 0 and the rest renormalized; the four rows are combined first (per column), then
  the four columns (``tensorflow/core/kernels/image/resize_bicubic_op.cc``). Its gradient,
  ``ResizeBicubicGrad``, spreads each output's gradient back with the same weights.
- ``ResizeArea``: each output pixel is the mean of the input area it covers, partly covered
  pixels weighted by the covered fraction (``resize_area_op.cc``); TF registers no gradient
  for it (``LookupError``).
Both return float32 for any real input dtype, as TF.
"""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive

__all__ = ["resize_bicubic", "resize_area"]

_TABLE_SIZE = 1024


def _coeffs_table(a=-0.5):
    """TF's table: entry ``2i`` is the cubic kernel at ``i/1024``, ``2i+1`` at
    ``i/1024 + 1``, each evaluated in double from a float ``x`` and stored as float32."""
    out = np.empty((_TABLE_SIZE + 1) * 2, np.float32)
    for i in range(_TABLE_SIZE + 1):
        x = float(np.float32(i * 1.0 / _TABLE_SIZE))
        out[2 * i] = ((a + 2) * x - (a + 3)) * x * x + 1
        x = float(np.float32(x + 1.0))
        out[2 * i + 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return out


_TABLE = None


def _bicubic_axis(in_size, out_size):
    """(indices [out, 4], float32 weights [out, 4]) of one axis."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _coeffs_table()
    t = _TABLE
    scale = np.float32(np.float32(in_size) / np.float32(out_size))
    pos = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    loc = np.floor(pos).astype(np.int64)
    delta = (pos - loc.astype(np.float32)).astype(np.float32)
    offset = np.rint(delta * np.float32(_TABLE_SIZE)).astype(np.int64)   # lrintf
    taps = loc[:, None] + np.arange(-1, 3)[None, :]
    idx = np.clip(taps, 0, in_size - 1)
    w = np.stack([t[offset * 2 + 1], t[offset * 2], t[(_TABLE_SIZE - offset) * 2],
                  t[(_TABLE_SIZE - offset) * 2 + 1]], axis=1)
    w = np.where(idx == taps, w, np.float32(0)).astype(np.float32)
    total = ((w[:, 0] + w[:, 1]) + w[:, 2]) + w[:, 3]
    ok = np.abs(total) >= np.float32(1000.0) * np.finfo(np.float32).tiny
    inv = np.where(ok, np.float32(1) / np.where(ok, total, np.float32(1)), np.float32(1))
    w = np.where(ok[:, None], w * inv[:, None].astype(np.float32), w).astype(np.float32)
    return idx, w


def _bicubic_forward(x, size):
    x = np.asarray(x).astype(np.float32, copy=False)
    oh, ow = size
    yi, yw = _bicubic_axis(x.shape[1], oh)
    xi, xw = _bicubic_axis(x.shape[2], ow)
    # rows first (each input column), then columns: TF's order of float32 operations
    r = [x[:, yi[:, k]] * yw[None, :, k, None, None] for k in range(4)]
    cols = ((r[0] + r[1]) + r[2]) + r[3]
    c = [cols[:, :, xi[:, k]] * xw[None, None, :, k, None] for k in range(4)]
    return ((c[0] + c[1]) + c[2]) + c[3]


def _bicubic_grad_forward(g, x, size=None):
    """TF's ResizeBicubicGrad: each output's gradient (in the input's dtype) times its row
    and column weights, added into the input's dtype."""
    g = np.asarray(g).astype(np.float32, copy=False)
    h, w = x.shape[1], x.shape[2]
    yi, yw = _bicubic_axis(h, g.shape[1])
    xi, xw = _bicubic_axis(w, g.shape[2])
    acc = x.dtype if x.dtype.kind == "f" else np.float32
    out = np.zeros((g.shape[0], h, w, g.shape[3]), acc)
    for j in range(4):
        rows = g.astype(acc) * yw[None, :, j, None, None]      # [b, oh, ow, c]
        for k in range(4):
            part = rows * xw[None, None, :, k, None]
            # sum the outputs landing on the same input pixel, then add them in
            np.add.at(out, (slice(None), yi[:, j][:, None], xi[:, k][None, :]), part)
    return out


_BICUBIC = primitive("ResizeBicubic", lambda x, size: _bicubic_forward(x, size))
_BICUBIC_GRAD = primitive("ResizeBicubicGrad", _bicubic_grad_forward)
defvjp(_BICUBIC, lambda g, y, x, size: apply(_BICUBIC_GRAD, (g, x), {"size": size}))
defvjp(_BICUBIC_GRAD,
       lambda g, y, grads, x, size: apply(_BICUBIC, (g,), {"size": tuple(grads.shape[1:3])}),
       None)


def resize_bicubic(x, size):
    """``[batch, h, w, c]`` real images resized to ``size = (new_h, new_w)`` by TF's bicubic
    kernel; float32; differentiable."""
    return apply(_BICUBIC, (x,), {"size": (int(size[0]), int(size[1]))})


def _covered(v, a, b, scale):
    """The fraction of input pixel ``v`` inside the output's span ``[a, b)`` (TF's float32
    arithmetic of ``CachedInterpolation``)."""
    if np.float32(v) < a:
        return scale if np.float32(v + 1) > b else np.float32(np.float32(v + 1) - a)
    return np.float32(b - np.float32(v)) if np.float32(v + 1) > b else np.float32(1.0)


def _area_axis(in_size, out_size):
    """The axis's float32 scale and per output index its span ``(a, b)`` and first/last
    input pixels ``(start, end)``."""
    scale = np.float32(np.float32(in_size) / np.float32(out_size))
    out = []
    for o in range(out_size):
        a = np.float32(np.float32(o) * scale)
        b = np.float32(np.float32(o + 1) * scale)
        out.append((int(np.floor(a)), int(np.ceil(b)), a, b))
    return scale, out


def _area_forward(x, size):
    x = np.asarray(x)
    b, h, w, c = x.shape
    oh, ow = size
    hs, yint = _area_axis(h, oh)
    ws, xint = _area_axis(w, ow)
    xf = x.astype(np.float32)
    # per output column, the x-sums of every input row: [b, h, ow, c]
    sums = np.empty((b, h, ow, c), np.float32)
    for o, (start, end, a, b_) in enumerate(xint):
        s0, s1 = _covered(start, a, b_, ws), _covered(end - 1, a, b_, ws)
        acc = xf[:, :, min(max(start, 0), w - 1)] * s0
        if start + 1 != end:
            for v in range(start + 1, end - 1):
                acc = acc + xf[:, :, min(max(v, 0), w - 1)]
            acc = acc + xf[:, :, min(max(end - 1, 0), w - 1)] * s1
        sums[:, :, o] = acc
    out = np.empty((b, oh, ow, c), np.float32)
    scale = np.float32(1.0 / float(np.float32(hs * ws)))
    for o, (start, end, a, b_) in enumerate(yint):
        acc = np.zeros((b, ow, c), np.float32)
        for i in range(start, end):
            acc = acc + sums[:, min(max(i, 0), h - 1)] * _covered(i, a, b_, hs)
        out[:, o] = acc * scale
    return out


def _no_gradient(g, y, x, size):
    raise LookupError("gradient registry has no entry for: ResizeArea")


_AREA = defvjp(primitive("ResizeArea", lambda x, size: _area_forward(x, size)), _no_gradient)


def resize_area(x, size):
    """``[batch, h, w, c]`` real images resized to ``size`` by TF's area kernel; float32; no
    gradient (as TF)."""
    return apply(_AREA, (x,), {"size": (int(size[0]), int(size[1]))})
