"""float16 convolutions summed as TensorFlow's own CPU kernels sum them (issue 19).

oneDNN has no float16 without AVX-512, so TF 2.21 runs its Eigen kernels for half: each
multiply-add is done in float32 and rounded to float16 (Eigen's half ``pmadd``), in a fixed
order. A partial sum that overflows to inf stays inf even where the whole sum would fit,
and a later product of the other sign no longer meets it as ``inf + -inf = nan``.
``nn_conv_ops`` calls these on the float16 path only (docs/ops.md, "Which CPU kernel
TensorFlow runs").
"""
import builtins

from .._core.backend import np

_HALF_MAX = 65504.0


def depthwise(windows, w):
    """DepthwiseConv2dNative in float16: ``windows`` the float32 ``[N, oh, ow, C]`` views of
    the padded input at each filter tap in row-major order, ``w`` ``[kh, kw, C, M]``; the
    padding is multiplied, each tap added as a float32 multiply-add rounded to float16.
    Returns ``[N, oh, ow, C * M]`` float16."""
    kh, kw, c, m = w.shape
    wf = w.astype(np.float32).reshape(kh * kw, c, m)
    n, oh, ow = windows[0].shape[:3]
    out = np.zeros((n, oh, ow, c, m), np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        for k, win in enumerate(windows):
            out += win[..., None] * wf[k]
            out = out.astype(np.float16).astype(np.float32)
    return out.reshape(n, oh, ow, c * m).astype(np.float16)


def filter_grad(a, b, dwt):
    """Conv2DBackpropFilter in float16, ``a @ b`` (``a`` [kh*kw*C, N*oh*ow], ``b``
    [N*oh*ow, O]) summed over the output positions in row-major order, each step a float32
    multiply-add rounded to float16. Only where a partial sum can overflow (bounded by
    ``|a| @ |b|``); elsewhere ``dwt``, the product as computed, is returned."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        if not (np.abs(a32) @ np.abs(b32) > _HALF_MAX).any():
            return dwt
        acc = np.zeros(dwt.shape, np.float32)
        for k in builtins.range(a32.shape[1]):
            acc += a32[:, k, None] * b32[k]
            acc = acc.astype(np.float16).astype(np.float32)
    return acc.astype(np.float16)


def may_overflow(dy, w):
    """Whether a float16 input gradient of ``dy`` [N, oh, ow, O] and filter ``w`` [kh, kw,
    C, O] can meet inf or overflow in a partial sum (a cheap bound: the largest ``|dy|``
    times the largest per-channel ``sum |w|``; true for any non-finite value)."""
    bound = float(np.abs(dy).max(initial=0)) * float(
        np.abs(w.astype(np.float32)).sum(axis=(0, 1, 3)).max(initial=0))
    return not bound <= _HALF_MAX


def input_grad(dy, w, padded_shape, window):
    """Conv2DBackpropInput in float16 as TF's default CPU kernel (its "custom" one) sums it:
    per image, the product ``dy @ w^T`` over the output channels into a float16 column
    buffer (each product rounded to float16, each partial sum too), then Col2im adds the
    columns into the image by output position, so a pixel receives its filter taps last
    row first and last column first, each addition rounded to float16. A partial sum past
    65504 stays inf even where the whole sum fits, and products overflowing to inf of both
    signs give nan where a float32 sum gives inf. ``window(a, i, j)`` is the [N, oh, ow, C]
    view of ``a`` at tap (i, j). Returns the padded float16 gradient."""
    kh, kw, _, o = w.shape
    acc = np.zeros(padded_shape, np.float32)
    dy32, w32 = dy.astype(np.float32), w.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        for i in builtins.range(kh - 1, -1, -1):
            for j in builtins.range(kw - 1, -1, -1):
                col = None
                for q in builtins.range(o):
                    p = (dy32[..., q, None] * w32[i, j, :, q]).astype(np.float16)
                    col = p if col is None else (col.astype(np.float32) + p).astype(np.float16)
                win = window(acc, i, j)
                win[...] = (win + col).astype(np.float16)
    return acc.astype(np.float16)
