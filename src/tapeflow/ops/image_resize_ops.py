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
- ``ScaleAndTranslate`` (``resize`` with lanczos3/5, gaussian, mitchellcubic, or
  ``antialias=True``): per axis a span of input pixels per output, weighted by a sampling
  kernel widened by the downscale factor when antialiasing and renormalized; rows first, then
  columns (``scale_and_translate_op.cc``, kernels of ``sampling_kernels.h``). Its gradient,
  ``ScaleAndTranslateGrad``, runs the transposed spans the same way.
All return float32 for any real input dtype, as TF.
"""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, primitive

__all__ = ["resize_bicubic", "resize_area", "scale_and_translate"]

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
       lambda g, y, grads, x, size: apply(_BICUBIC, (g,), {"size": tuple(grads._value.shape[1:3])}),
       None)


def resize_bicubic(x, size):
    """``[batch, h, w, c]`` real images resized to ``size = (new_h, new_w)`` by TF's bicubic
    kernel; float32; differentiable.

    Raises:
        InvalidArgumentError: for images that are not 4-D (``tf.image.resize``, the public
            entry, checks the rank and the size first).
        ValueError: for a size that is not two integers.
    """
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
    gradient (as TF).

    Raises:
        InvalidArgumentError: for images that are not 4-D (``tf.image.resize`` checks
            first).
        ValueError: for a size that is not two integers.
        LookupError: when a gradient is asked for (TF registers none).
    """
    return apply(_AREA, (x,), {"size": (int(size[0]), int(size[1]))})


# ---------------------------------------------------------------- ScaleAndTranslate
def _lanczos(radius):
    r = np.float32(radius)
    pi = np.float32(3.14159265359)

    def k(x):
        x = np.float32(abs(x))
        if x > r:
            return np.float32(0)
        if x <= np.float32(1e-3):
            return np.float32(1)
        # sinf as glibc computes it: correctly rounded (double sin, then float)
        a = np.float32(np.sin(float(pi * x)))
        b = np.float32(np.sin(float(pi * x / r)))
        return np.float32(r * a * b / (pi * pi * x * x))
    return k, r


def _gaussian(x):
    x = np.float32(abs(x))
    if x >= np.float32(1.5):
        return np.float32(0)
    sigma = float(np.float32(1.5) / np.float32(3.0))
    return np.float32(np.exp(float(-x * x) / (2.0 * sigma * sigma)))


def _triangle(x):
    x = np.float32(abs(x))
    return np.float32(1) - x if x < np.float32(1) else np.float32(0)


def _keys_cubic(x):
    x = np.float32(abs(x))
    f = np.float32
    if x >= f(2):
        return f(0)
    if x >= f(1):
        return ((f(-0.5) * x + f(2.5)) * x - f(4)) * x + f(2)
    return ((f(1.5) * x - f(2.5)) * x) * x + f(1)


def _mitchell_cubic(x):
    x = np.float32(abs(x))
    f = np.float32
    if x >= f(2):
        return f(0)
    if x >= f(1):
        return ((f(-7.0 / 18.0) * x + f(2)) * x - f(10.0 / 3.0)) * x + f(16.0 / 9.0)
    return ((f(7.0 / 6.0) * x - f(2)) * x) * x + f(8.0 / 9.0)


_KERNELS = {"lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
            "gaussian": (_gaussian, np.float32(1.5)), "triangle": (_triangle, np.float32(1)),
            "keyscubic": (_keys_cubic, np.float32(2)),
            "mitchellcubic": (_mitchell_cubic, np.float32(2))}


def _spans(kernel_type, out_size, in_size, scale, translate, antialias):
    """TF's ``ComputeSpansCore``: per output, the first input pixel and the span's weights
    ([out, span] float32, zero past the span), all in float32."""
    kernel, radius = _KERNELS[kernel_type]
    f = np.float32
    inv_scale = f(1.0 / float(f(scale)))
    inv_translate = f(-inv_scale * f(translate))
    kernel_scale = max(inv_scale, f(1)) if antialias else f(1)
    reach = f(radius * kernel_scale)
    span = min(2 * int(np.ceil(reach)) + 1, in_size)
    one_over = f(f(1) / kernel_scale)
    starts = np.zeros(out_size, np.int64)
    weights = np.zeros((out_size, span), np.float32)
    for o in range(out_size):
        sample = f(f(f(o) + f(0.5)) * inv_scale + inv_translate)
        if sample < 0 or sample > in_size:
            continue
        lo = min(max(int(np.ceil(f(f(sample - reach) - f(0.5)))), 0), in_size - 1)
        hi = min(max(int(np.floor(f(f(sample + reach) - f(0.5)))), 0), in_size - 1) + 1
        ws = [kernel(f(f(f(src) + f(0.5)) - sample) * one_over) for src in range(lo, hi)]
        total = f(0)
        for w in ws:
            total = f(total + w)
        if abs(total) >= f(1000) * np.finfo(np.float32).tiny:
            inv = f(f(1) / total)
            weights[o, :len(ws)] = [f(w * inv) for w in ws]
        starts[o] = lo
    return starts, weights


def _grad_spans(starts, weights, in_size):
    """TF's ``ComputeGradSpansCore``: the spans transposed (per input pixel, the outputs it
    feeds, from the first to the last, in order)."""
    out_size, span = weights.shape
    comps = [[] for _ in range(in_size)]
    for o in range(out_size):
        for j in range(span):
            i = starts[o] + j
            if weights[o, j] != 0 and i < in_size:
                comps[i].append((o, weights[o, j]))
    size = max([c[-1][0] - c[0][0] + 1 for c in comps if c] or [0])
    g_starts = np.zeros(in_size, np.int64)
    g_weights = np.zeros((in_size, size), np.float32)
    for i, c in enumerate(comps):
        if c:
            g_starts[i] = c[0][0]
            for o, w in c:
                g_weights[i, o - c[0][0]] = np.float32(g_weights[i, o - c[0][0]] + w)
    return g_starts, g_weights


def _gather(x, axis, starts, weights, limit):
    """``out[.., o, ..] = sum_k weights[o, k] * x[.., starts[o] + k, ..]``, added in order of
    ``k`` from 0 in float32 (TF's GatherRows/GatherColumns), over each real span."""
    shape = [1] * x.ndim
    shape[axis] = len(starts)
    out = None
    for k in range(weights.shape[1]):
        idx = starts + k
        valid = idx < limit
        w = np.where(valid, weights[:, k], np.float32(0)).reshape(shape)
        term = w * np.take(x, np.minimum(idx, limit - 1), axis=axis)
        out = term if out is None else out + term
    if out is None:
        out_shape = list(x.shape)
        out_shape[axis] = len(starts)
        return np.zeros(out_shape, np.float32)
    return out.astype(np.float32, copy=False)


def _st_forward(x, size, scale, translation, kernel_type, antialias):
    x = np.asarray(x).astype(np.float32, copy=False)
    rs, rw = _spans(kernel_type, size[0], x.shape[1], scale[0], translation[0], antialias)
    cs, cw = _spans(kernel_type, size[1], x.shape[2], scale[1], translation[1], antialias)
    rows = _gather(x, 1, rs, rw, x.shape[1])
    return _gather(rows, 2, cs, cw, x.shape[2])


def _st_grad_forward(g, x, size, scale, translation, kernel_type, antialias):
    g = np.asarray(g).astype(np.float32, copy=False)
    h, w = x.shape[1], x.shape[2]
    rs, rw = _grad_spans(*_spans(kernel_type, g.shape[1], h, scale[0], translation[0],
                                 antialias), h)
    cs, cw = _grad_spans(*_spans(kernel_type, g.shape[2], w, scale[1], translation[1],
                                 antialias), w)
    rows = _gather(g, 1, rs, rw, g.shape[1])
    out = _gather(rows, 2, cs, cw, g.shape[2])
    return out.astype(x.dtype if x.dtype.kind == "f" else np.float32, copy=False)


_ST = primitive("ScaleAndTranslate", _st_forward)
_ST_GRAD = primitive("ScaleAndTranslateGrad", _st_grad_forward)
defvjp(_ST, lambda g, y, x, **a: apply(_ST_GRAD, (g, x), a))


def _st_grad_grad(g, y, grads, x, size, **a):
    return apply(_ST, (g,), dict(a, size=tuple(grads._value.shape[1:3])))


defvjp(_ST_GRAD, _st_grad_grad, None)


def scale_and_translate(x, size, scale, translation, kernel_type, antialias):
    """``[batch, h, w, c]`` real images sampled onto a ``size`` grid scaled by ``scale`` and
    shifted by ``translation`` (each ``(rows, columns)``) with a sampling kernel
    (``'lanczos3'``, ``'lanczos5'``, ``'gaussian'``, ``'triangle'``, ``'keyscubic'``,
    ``'mitchellcubic'``), as TF's ``ScaleAndTranslate``; float32; differentiable.

    Raises:
        InvalidArgumentError: for an unknown ``kernel_type`` or images that are not 4-D
            (``tf.image.resize`` and ``tf.raw_ops.ScaleAndTranslate`` check first).
        ValueError: for a size, scale or translation that is not two numbers.
    """
    return apply(_ST, (x,), {"size": (int(size[0]), int(size[1])),
                             "scale": (float(scale[0]), float(scale[1])),
                             "translation": (float(translation[0]), float(translation[1])),
                             "kernel_type": kernel_type, "antialias": bool(antialias)})
