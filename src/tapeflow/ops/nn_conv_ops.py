"""Convolutions and pooling of ``tf.nn`` (channels-last: NWC, NHWC).

Three primitives close conv2d under differentiation: ``Conv2D`` (x, w),
``Conv2DBackpropInput`` (dy, w) and ``Conv2DBackpropFilter`` (x, dy). Each is bilinear, so
each one's derivatives are the other two: second derivatives come for free. The NumPy
kernels work on image patches: :func:`_patches` is a zero-copy strided view
``[batch, out_h, out_w, kh, kw, channels]`` of the padded input (dilations and strides are
just strides of the view), so ``Conv2D`` is one copy (im2col) and one matrix product,
``Conv2DBackpropFilter`` is im2col and one product, and ``Conv2DBackpropInput`` is one
product per kernel offset added into the input's window (col2im).

Pooling reduces over the same windows. ``MaxPool``'s gradient goes to each window's first
maximum: ``MaxPoolGrad`` scatters by a saved route mask (a linear map whose derivative is a
``gather`` at the same cells, whose derivative is a scatter again). ``AvgPool``/``AvgPoolGrad``
are a linear map and its transpose. conv1d, pool1d and depthwise_conv2d are compositions.
The same patch view backs ``tf.image.extract_patches`` (``ops/image_ops.py``).

Padding is the ``pads`` attribute ``((top, bottom), (left, right))``. SAME pads depend on the
input and filter sizes, so they are a :class:`_SamePads` that each forward resolves again for
the sizes it is given: a ``tf.function`` program traced with relaxed sizes pads each call as
eager execution does.
"""
import builtins

from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import defvjp, nondifferentiable, primitive
from .._core.tensor import _TensorLike, static_value
from . import _depthwise as _dwk
from . import _half_conv as _hc
from . import _helpers as _h
from . import _parallel as _par
from . import array_ops as _a
from . import indexing_ops as _ix
from . import winograd as _wg
from ._helpers import check_kind, dtype_mismatch, to_tensor
from ._pool_kernels import depthwise_input_nonfinite as _dw_nonfinite
from ._pool_kernels import nan_windows as _nan_windows
from ._pool_kernels import scratch as _scratch
from ._pool_kernels import tiled as _tiled
from ._pool_kernels import tiled_max as _tiled_max
from ._pool_kernels import tiles as _tiles

__all__ = [
    "conv1d", "conv2d", "conv2d_transpose", "conv1d_transpose", "depthwise_conv2d",
    "max_pool", "max_pool1d", "max_pool2d", "avg_pool", "avg_pool1d",
    "avg_pool2d", "separable_conv2d", "atrous_conv2d", "space_to_depth", "depth_to_space",
]

_FLOATS = "half, bfloat16, float, double, int32"


def _err(text, op_name):
    return errors.op_error(errors.InvalidArgumentError, text, op_name)


def _window(xp, i, j, dh, dw, sh, sw, oh, ow):
    """The (N, oh, ow, C) view of padded input ``xp`` at kernel offset (i, j)."""
    return xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]


def _out_size(size, k, s, d, lo, hi):
    return (size + lo + hi - (k - 1) * d - 1) // s + 1


class _SamePads(tuple):
    """``SAME`` padding ``((top, bottom), (left, right))`` as resolved for some sizes.

    The primitives take padding as a ``pads`` attribute. A traced program replays its
    attributes, and a relaxed trace (``reduce_retracing``, a ``None`` dimension in an
    ``input_signature``) replays them at other spatial or filter sizes, where SAME pads
    differ (stride > 1, another filter size). So SAME pads are this tuple, which each
    forward re-resolves from the sizes it receives (:func:`_resolve`); explicit and VALID
    pads are plain tuples, used as they are.
    """
    __slots__ = ()


def _same_pads(in_sizes, k_sizes, strides, dilations):
    """TensorFlow's SAME padding: ``ceil(size / stride)`` outputs, the odd cell of padding
    at the bottom/right."""
    out = []
    for size, k, s, d in zip(in_sizes, k_sizes, strides, dilations, strict=True):
        total = (-(-size // s) - 1) * s + (k - 1) * d + 1 - size
        total = total if total > 0 else 0
        out.append((total // 2, total - total // 2))
    return _SamePads(out)


_SAME_CACHE = {}


def _resolve(pads, in_sizes, k_sizes, strides, dilations):
    """``pads`` for a call on spatial sizes ``in_sizes`` with window ``k_sizes``: SAME pads
    (:class:`_SamePads`) re-resolved for them, other pads unchanged.

    The resolved pads are cached by their sizes (a dict look-up: 0.1 us against 1 us to
    work them out, on every eager convolution and pooling)."""
    if pads.__class__ is not _SamePads:
        return pads
    key = (in_sizes, k_sizes, strides, dilations)
    got = _SAME_CACHE.get(key)
    if got is None:
        if len(_SAME_CACHE) > 4096:
            _SAME_CACHE.clear()
        got = _SAME_CACHE[key] = _same_pads(in_sizes, k_sizes, strides, dilations)
    return got


def _pad(x, pads, value=0):
    """``x`` [N, H, W, C] padded spatially by ``((top, bottom), (left, right))`` with
    ``value`` (``x`` itself when there is no padding)."""
    ((pt, pb), (pl, pr)) = pads
    if not (pt or pb or pl or pr):
        return x
    n, h, w, c = x.shape
    out = np.empty((n, h + pt + pb, w + pl + pr, c), x.dtype)
    # the border only (one pass over the image, not two)
    out[:, :pt].fill(value)
    out[:, pt + h:].fill(value)
    out[:, pt:pt + h, :pl].fill(value)
    out[:, pt:pt + h, pl + w:].fill(value)
    out[:, pt:pt + h, pl:pl + w, :] = x
    return out


def _patches(xp, kh, kw, sh, sw, dh, dw, oh, ow):
    """The read-only strided view ``[N, oh, ow, kh, kw, C]`` of padded ``xp``: element
    ``[b, r, s, i, j, c]`` is ``xp[b, r*sh + i*dh, s*sw + j*dw, c]``. No copy."""
    s0, s1, s2, s3 = xp.strides
    return _strided(xp, (xp.shape[0], oh, ow, kh, kw, xp.shape[3]),
                    (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw, s3))


def _strided(xp, shape, strides):
    """A read-only view of ``xp`` (as_strided; for a C-contiguous ``xp`` the ndarray
    constructor on its buffer: 1 us against 5-8, paid per convolution of a chunk)."""
    if not (xp.flags.c_contiguous and xp.size and not xp.dtype.hasobject):
        return np.lib.stride_tricks.as_strided(xp, shape, strides, writeable=False)
    view = np.ndarray(shape, xp.dtype, buffer=xp, strides=strides)
    view.flags.writeable = False
    return view


def _im2col(x, kh, kw, strides, pads, dilations, oh, ow):
    """The patch matrix of ``x`` (zero padding) in the thread's scratch buffer (use it before
    the next call): ``(cols, False)`` with cols ``[N*oh*ow, kh*kw*C]``, or for C <= 3
    ``(cols, True)`` with cols ``[kh*kw*C, N*oh*ow]``. With few channels the transposed copy
    reads whole output rows at a time: 2.6x faster for C = 1 (22 vs 58 us for 64x8x8x1)."""
    (sh, sw), (dh, dw) = strides, dilations
    n, c = x.shape[0], x.shape[3]
    xp = _pad(x, pads)
    if c <= 3:
        s0, s1, s2, s3 = xp.strides
        view = _strided(xp, (kh, kw, c, n, oh, ow), (s1 * dh, s2 * dw, s3, s0, s1 * sh, s2 * sw))
        cols = _scratch(view.shape, x.dtype)
        np.copyto(cols, view)
        return cols.reshape(kh * kw * c, n * oh * ow), True
    view = _patches(xp, kh, kw, sh, sw, dh, dw, oh, ow)
    cols = _scratch(view.shape, x.dtype)
    np.copyto(cols, view)
    return cols.reshape(n * oh * ow, kh * kw * c), False


_WINO_CACHE = {}


def _immutable(a):
    """Whether nothing can change ``a``'s values: it and every array it views are read-only,
    and the memory at the end of the chain is its own or an immutable ``bytes``."""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        a = a.base
    return a is None or isinstance(a, bytes)


def _winograd_filter(w):
    """:func:`winograd.filter_transform` of ``w``, cached for a read-only ``w`` (a loaded
    program's constant): the cache holds ``w`` itself, so its id stays its own, and NumPy
    refuses writes to it. A writeable array (a variable's value, which may be updated in
    place; only with ``TAPEFLOW_WINOGRAD=1``) is transformed on each call (a few
    microseconds against the convolution's milliseconds where Winograd is chosen)."""
    if not _immutable(w):
        return _wg.filter_transform(w)
    got = _WINO_CACHE.get(id(w))
    if got is None or got[0] is not w:
        if len(_WINO_CACHE) > 256:
            _WINO_CACHE.clear()
        got = _WINO_CACHE[id(w)] = (w, _wg.filter_transform(w))
    return got[1]


def _padded(pads):
    ((pt, pb), (pl, pr)) = pads
    return bool(pt or pb or pl or pr)


def _valid_windows(shape, pads, strides, dilations, oh, ow, kh, kw):
    """Per kernel offset, the [1, oh, ow, 1] mask of output positions whose input element is
    inside the image (not padding)."""
    (sh, sw), (dh, dw) = strides, dilations
    vp = _pad(np.ones((1,) + tuple(shape[1:3]) + (1,), bool), pads, False)
    return {(i, j): _window(vp, i, j, dh, dw, sh, sw, oh, ow)
            for i in builtins.range(kh) for j in builtins.range(kw)}


def _masked_conv(x, w, strides, pads, dilations, oh, ow):
    """A float32 convolution whose filter holds inf or nan, the padding not multiplied:
    TensorFlow's float32 kernels skip it (seen on one-image batches; a batch of several
    images can meet it partly, which this does not follow), so no 0 * inf = nan."""
    kh, kw = w.shape[:2]
    (sh, sw), (dh, dw) = strides, dilations
    valid = _valid_windows(x.shape, pads, strides, dilations, oh, ow, kh, kw)
    xp = _pad(x, pads)
    out = 0
    with np.errstate(invalid="ignore", over="ignore"):
        for i in builtins.range(kh):
            for j in builtins.range(kw):
                win = _window(xp, i, j, dh, dw, sh, sw, oh, ow)
                out = out + np.where(valid[(i, j)], np.matmul(win, w[i, j]), 0)
    return out.astype(x.dtype, copy=False)


def _masked_filter_grad(x, dy, filter_shape, strides, pads, dilations, dtype):
    # a float32 filter gradient holding inf or nan with padding: the padded zeros must not
    # meet an inf or nan of ``dy`` (TF's float32 kernels skip the padding)
    kh, kw = filter_shape[:2]
    oh, ow = dy.shape[1:3]
    (sh, sw), (dh, dw) = strides, dilations
    valid = _valid_windows(x.shape, pads, strides, dilations, oh, ow, kh, kw)
    xp = _pad(x, pads)
    out = np.empty(filter_shape, dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for i in builtins.range(kh):
            for j in builtins.range(kw):
                win = _window(xp, i, j, dh, dw, sh, sw, oh, ow)
                prod = np.where(valid[(i, j)][..., None], win[..., :, None] * dy[..., None, :], 0)
                out[i, j] = prod.sum((0, 1, 2))
    return out


def _conv_forward(x, w, strides, pads, dilations, post=None):
    # post: an in-place step a chunked 1x1 product runs on its blocks (_conv_epilogue)
    kh, kw, c, o = w.shape
    pads = _resolve(pads, x.shape[1:3], (kh, kw), strides, dilations)
    oh = _out_size(x.shape[1], kh, strides[0], dilations[0], *pads[0])
    ow = _out_size(x.shape[2], kw, strides[1], dilations[1], *pads[1])
    n = x.shape[0]
    if oh <= 0 or ow <= 0 or x.size == 0:
        return np.zeros((n, builtins.max(oh, 0), builtins.max(ow, 0), o),
                        np.result_type(x, w))
    if w.dtype == np.float32 and _padded(pads) and not np.isfinite(w).all():
        return _masked_conv(x, w, strides, pads, dilations, oh, ow)
    work = n * oh * ow * kh * kw * c * o
    if (work >= _par.BLAS_THREADED and x.dtype == w.dtype and x.dtype.char in "fd"
            and _par.enabled()):
        if work >= _par.MIN_WORK:
            return _conv_product(x, w, strides, pads, dilations, oh, ow, True, post)
        # a product OpenBLAS would split between its threads: one thread (see _parallel)
        return _par.one_blas_thread(_conv_product, x, w, strides, pads, dilations, oh, ow,
                                    False)
    return _conv_product(x, w, strides, pads, dilations, oh, ow, False)


def _winograd_here(x, w, strides, dilations, oh, ow):
    kh, kw, c, o = w.shape
    return (kh == kw == 3 and strides == (1, 1) and dilations == (1, 1)
            and x.dtype == np.float32 and w.dtype == np.float32
            and _wg.worth_it(x.shape[0], oh, ow, c, o)
            and (_wg.MODE == "all" or _wg.MODE == "constant" and _immutable(w)))


def _pointwise_here(x, w, strides, oh, ow):
    kh, kw, c, _ = w.shape
    return (kh == kw == 1 and c > 3 and strides == (1, 1) and oh == x.shape[1]
            and ow == x.shape[2] and x.flags.c_contiguous)


def _conv_product(x, w, strides, pads, dilations, oh, ow, parallel, post=None):
    """``_conv_forward``'s output by Winograd, the 1x1 product or im2col + product; with
    ``parallel``, cut into chunks for two threads."""
    kh, kw, c, o = w.shape
    n = x.shape[0]
    if _winograd_here(x, w, strides, dilations, oh, ow):
        # Winograd F(2x2, 3x3): 2.25x fewer multiply-adds in the product (ops/winograd.py)
        ((pt, pb), (pl, pr)) = pads
        eh, ew = _wg.padding(oh, ow, x.shape[1] + pt + pb, x.shape[2] + pl + pr)
        return _wg.conv3x3(_pad(x, ((pt, pb + eh), (pl, pr + ew))), _winograd_filter(w), oh, ow,
                           run=_par.run if parallel else None)
    if _pointwise_here(x, w, strides, oh, ow):
        # a 1x1 convolution without stride or padding: the image is its own patch matrix
        if not parallel:
            return np.matmul(x.reshape(n * oh * ow, c), w.reshape(c, o)).reshape(
                n, oh, ow, o).astype(x.dtype, copy=False)
        x2, w2 = x.reshape(n * oh * ow, c), w.reshape(c, o)
        out = np.empty((n * oh * ow, o), x.dtype)
        def rows(a, b):
            np.matmul(x2[a:b], w2, out=out[a:b])
            if post is not None:
                post(out[a:b])
        _par.run(rows, _product_chunks(n * oh * ow, c, o, x.dtype))
        return out.reshape(n, oh, ow, o)
    if parallel:
        return _conv_chunked(x, w, strides, pads, dilations, oh, ow)
    cols, transposed = _im2col(x, kh, kw, strides, pads, dilations, oh, ow)
    # (NumPy's bfloat16 products come back as float32: the input's dtype is kept, as TF's)
    return np.matmul(cols.T if transposed else cols,
                     w.reshape(kh * kw * c, o)).reshape(n, oh, ow, o).astype(x.dtype, copy=False)


_CHUNKS = 8   # pieces a two-thread kernel is cut into (taken in turn: see ops/_parallel.py)


# rows of a product's chunk below which OpenBLAS's packing of the whole right operand, once
# per chunk, costs more than the chunk's own work: MobileNetV2's 7x7 layers (49 rows, 160 x
# 960 weights) took 2x their one-call time cut into 8 chunks of 7 rows
_CHUNK_ROWS = 96
# OpenBLAS (SkylakeX kernels, 0.3.31) runs a float32 product of at most 100**3 multiply-adds,
# or of one row, by other kernels (small-matrix, gemv) whose bits for a row differ from its
# blocked kernel's; above that, a row's bits do not depend on the rows computed with it.
# (float64 rows do depend on them: its chunks are never changed.)
_SMALL_GEMM = 100 ** 3


def _product_chunks(rows, k, n, dtype):
    """Row chunks of a product ``[rows, k] @ [k, n]`` for two threads: :data:`_CHUNKS` of
    them, or fewer, of at least :data:`_CHUNK_ROWS` rows (at least two chunks), where every
    row then gets the same bits as in the :data:`_CHUNKS` chunks (float32, each of those
    chunks of two or more rows and over :data:`_SMALL_GEMM` multiply-adds)."""
    key = (rows, k, n, dtype)
    got = _PRODUCT_CHUNKS.get(key)
    if got is None:
        got = chunks = _row_chunks(rows)
        count = builtins.max(builtins.min(_CHUNKS, rows // _CHUNK_ROWS), 2)
        least = builtins.min(b - a for a, b in chunks)
        if (count < len(chunks) and dtype == np.float32 and least >= 2
                and least * k * n > _SMALL_GEMM):
            got = _row_chunks(rows, count)
        if len(_PRODUCT_CHUNKS) > 4096:
            _PRODUCT_CHUNKS.clear()
        _PRODUCT_CHUNKS[key] = got
    return got


_PRODUCT_CHUNKS = {}


def _row_chunks(rows, chunks=_CHUNKS):
    step = -(-rows // chunks)
    return [(a, builtins.min(a + step, rows)) for a in builtins.range(0, rows, step)]


def _conv_chunked(x, w, strides, pads, dilations, oh, ow):
    """``_conv_forward``'s im2col + product cut into images (or, for one image, output rows)
    that two threads take in turn, each with its own patch buffer."""
    kh, kw, c, o = w.shape
    n = x.shape[0]
    (sh, _), (dh, _) = strides, dilations
    xp = _pad(x, pads)
    w2 = w.reshape(kh * kw * c, o)
    out = np.empty((n, oh, ow, o), x.dtype)
    none = ((0, 0), (0, 0))

    def images(a, b):
        cols, transposed = _im2col(xp[a:b], kh, kw, strides, none, dilations, oh, ow)
        np.matmul(cols.T if transposed else cols, w2, out=out[a:b].reshape(-1, o))

    def rows(a, b):
        part = xp[:, a * sh:(b - 1) * sh + (kh - 1) * dh + 1]
        cols, transposed = _im2col(part, kh, kw, strides, none, dilations, b - a, ow)
        np.matmul(cols.T if transposed else cols, w2, out=out[:, a:b].reshape(-1, o))

    if n >= 2:
        _par.run(images, _row_chunks(n, builtins.min(n, _CHUNKS)))
    else:
        _par.run(rows, _row_chunks(oh, builtins.min(oh, _CHUNKS)))
    return out


def _conv_input_forward(dy, w, input_shape, strides, pads, dilations):
    pads = _resolve(pads, input_shape[1:3], w.shape[:2], strides, dilations)
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = strides, pads, dilations
    n, h, wd, c = input_shape
    kh, kw, _, o = w.shape
    oh, ow = dy.shape[1:3]
    dxp = np.zeros((n, h + pt + pb, wd + pl + pr, c), np.result_type(dy, w))
    if dy.size == 0 or dxp.size == 0:
        return dxp[:, pt:pt + h, pl:pl + wd, :]
    if dxp.dtype == np.float16 and _hc.may_overflow(dy, w):
        acc = _hc.input_grad(dy, w, dxp.shape, lambda a, i, j: _window(
            a, i, j, dh, dw, sh, sw, oh, ow))
        return acc[:, pt:pt + h, pl:pl + wd, :]
    # col2im: one contiguous [positions, C] product per kernel offset, added into its window.
    dy2 = dy.reshape(n * oh * ow, o)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            _window(dxp, i, j, dh, dw, sh, sw, oh, ow)[...] += \
                np.matmul(dy2, w[i, j].T).reshape(n, oh, ow, c)
    return dxp[:, pt:pt + h, pl:pl + wd, :]


def _conv_filter_forward(x, dy, filter_shape, strides, pads, dilations):
    kh, kw, c, o = filter_shape
    pads = _resolve(pads, x.shape[1:3], (kh, kw), strides, dilations)
    dtype = np.result_type(x, dy)
    if dy.size == 0 or x.size == 0:
        return np.zeros(filter_shape, dtype)
    oh, ow = dy.shape[1:3]
    cols, transposed = _im2col(x, kh, kw, strides, pads, dilations, oh, ow)
    dwt = np.matmul(cols if transposed else cols.T, dy.reshape(-1, o))
    if dtype == np.float16:
        dwt = _hc.filter_grad(cols if transposed else cols.T, dy.reshape(-1, o), dwt)
    out = dwt.reshape(filter_shape).astype(dtype, copy=False)
    if _padded(pads) and dtype == np.float32 and not np.isfinite(out).all():
        out = _masked_filter_grad(x, dy, filter_shape, strides, pads, dilations, dtype)
    return out


_CONV = primitive("Conv2D", _conv_forward)
# The gradient ops take the tensor whose shape they produce as an input they read only for
# its shape (as TensorFlow's take ``tf.shape(x)``): a program traced with a relaxed batch
# size computes each call's gradient shapes.
_CONV_IN = primitive("Conv2DBackpropInput", lambda dy, w, x, **a: _conv_input_forward(
    dy, w, x.shape, **a), shape_inputs=(2,))
_CONV_FILT = primitive("Conv2DBackpropFilter", lambda x, dy, w, **a: _conv_filter_forward(
    x, dy, w.shape, **a), shape_inputs=(2,))


def _conv(x, w, **attrs):
    return apply(_CONV, (x, w), attrs)


def _conv_in(dy, w, x, **attrs):
    """The input gradient of a convolution of ``x`` (read for its shape; a tuple is a
    literal shape, as ``conv2d_transpose``'s ``output_shape``)."""
    if isinstance(x, tuple):
        x = _ix.shape_stand_in(x, dy._value.dtype)
    return apply(_CONV_IN, (dy, w, x), attrs)


def _conv_filt(x, dy, w, **attrs):
    """The filter gradient of a convolution with filter ``w`` (read for its shape)."""
    return apply(_CONV_FILT, (x, dy, w), attrs)


defvjp(_CONV,
       lambda g, y, x, w, **a: _conv_in(g, w, x, **a),
       lambda g, y, x, w, **a: _conv_filt(x, g, w, **a))
defvjp(_CONV_IN,
       lambda g, y, dy, w, x, **a: _conv(g, w, **a),
       lambda g, y, dy, w, x, **a: _conv_filt(g, dy, w, **a), None)
defvjp(_CONV_FILT,
       lambda g, y, x, dy, w, **a: _conv_in(dy, g, x, **a),
       lambda g, y, x, dy, w, **a: _conv(x, g, **a), None)


def _spatial(v, n, what, op_name, full_rank=4):
    """An int or list of 1, n or n+2 ints as n spatial values (TF's stride/ksize forms)."""
    if isinstance(v, _TensorLike):
        v = static_value(v).tolist()
    if v is None:
        return (1,) * n
    if isinstance(v, (int, np.integer)):
        return (int(v),) * n
    v = [int(d) for d in v]
    if len(v) == 1:
        return (v[0],) * n
    if len(v) == n:
        return tuple(v)
    if len(v) == n + 2:
        if v[0] != 1 or v[-1] != 1:
            raise _err(f"Current implementation does not yet support {what} in the batch "
                       f"and depth dimensions.", op_name)
        return tuple(v[1:-1])
    raise ValueError(f"{what} should be of length 1, {n} or {n + 2}. Received: "
                     f"{what}={v} of length {len(v)}")


def _pads(padding, in_sizes, k_sizes, strides, dilations, op_name):
    if isinstance(padding, (list, tuple)):
        p = [tuple(int(a) for a in q) for q in padding]
        if len(p) == len(in_sizes) + 2:
            p = p[1:-1]
        return tuple(p)
    padding = str(padding).upper()
    if padding == "VALID":
        return ((0, 0),) * len(in_sizes)
    if padding != "SAME":
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list of "
            f"allowed values: \"SAME\", \"VALID\", \"EXPLICIT\"\n\t; NodeDef: "
            f"{{{{node {op_name}}}}}")
    return _same_pads(in_sizes, k_sizes, strides, dilations)


def _check_pair(x, w, op_name):
    if x._value.dtype is not w._value.dtype:
        raise dtype_mismatch(op_name, 1, x._value.dtype, w._value.dtype)
    check_kind(x, "fi", op_name, _FLOATS)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D cross-correlation of NHWC ``input`` with ``filters`` (``tf.nn.conv2d``).

    Args:
        input: ``[batch, height, width, in_channels]``.
        filters: ``[kh, kw, in_channels, out_channels]``, ``input``'s dtype.
        strides: an int or a list of 1, 2 or 4 ints (``[1, sh, sw, 1]``).
        padding: ``'SAME'`` (output ``ceil(in / stride)``, padding split with the extra row
            at the bottom/right), ``'VALID'``, or explicit ``[[0,0],[t,b],[l,r],[0,0]]``.
        dilations: an int or list like ``strides``.

        data_format: ``'NHWC'`` (default) or ``'NCHW'`` (computed by transposing).

    Returns:
        ``[batch, out_height, out_width, out_channels]`` (empty if the window does not
        fit, as TensorFlow).

    Raises:
        tf.errors.InvalidArgumentError: for mismatched channels, ranks or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.ones([1, 4, 4, 1])
        >>> w = tf.ones([3, 3, 1, 2])
        >>> print(tf.nn.conv2d(x, w, strides=1, padding='SAME').shape)
        (1, 4, 4, 2)
        >>> print(tf.nn.conv2d(x, w, strides=1, padding='VALID')[0, :, :, 0].numpy())
        [[9. 9.]
         [9. 9.]]
    """
    x = to_tensor(input)
    w = to_tensor(filters)
    if data_format == "NCHW":
        def nhwc(v):
            return [v[0], v[2], v[3], v[1]] if isinstance(v, (list, tuple)) and len(v) == 4 \
                else v
        out = conv2d(_a.transpose(x, [0, 2, 3, 1]), w, nhwc(strides), nhwc(padding), "NHWC",
                     nhwc(dilations))
        return _a.transpose(out, [0, 3, 1, 2])
    if data_format not in (None, "NHWC"):
        raise ValueError(f"`data_format` must be 'NHWC' or 'NCHW'. Received: "
                         f"data_format={data_format}")
    _check_pair(x, w, "Conv2D")
    if x._value.ndim != 4:
        raise _err(f"input must be 4-dimensional{_h._show(x._value.shape)}", "Conv2D")
    if w._value.ndim != 4:
        raise _err(f"filter must be 4-dimensional: {_h._show(w._value.shape)}", "Conv2D")
    if x._value.shape[3] % w._value.shape[2] or x._value.shape[3] != w._value.shape[2]:
        raise _err(f"input depth must be evenly divisible by filter depth: "
                   f"{x._value.shape[3]} vs {w._value.shape[2]}", "Conv2D")
    st = _spatial(strides, 2, "strides", "Conv2D")
    dl = _spatial(dilations, 2, "dilations", "Conv2D")
    pads = _pads(padding, x._value.shape[1:3], w._value.shape[:2], st, dl, "Conv2D")
    _check_filter_fits(padding, x._value.shape[1:3], w._value.shape[:2], st, dl, "Conv2D")
    return _conv(x, w, strides=st, pads=pads, dilations=dl)


def _check_filter_fits(padding, sizes, k_sizes, strides, dilations, op_name):
    """A VALID convolution's output size, as a pool's with the dilated filter."""
    if isinstance(padding, str) and padding.upper() == "VALID":
        _check_window_fits(sizes, [(k - 1) * d + 1 for k, d in zip(k_sizes, dilations)],
                           strides, op_name)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None):
    """The transpose (gradient) of :func:`conv2d` (``tf.nn.conv2d_transpose``).

    Args:
        input: ``[batch, h, w, in_channels]``.
        filters: ``[kh, kw, out_channels, in_channels]``.
        output_shape: ``[batch, out_h, out_w, out_channels]``; conv2d of this shape with
            the same strides and padding must give ``input``'s shape.

    Raises:
        tf.errors.InvalidArgumentError: if the shapes do not correspond (float32:
            tf.errors.AbortedError, TF's oneDNN kernel's).
    """
    dy = to_tensor(input)
    w = to_tensor(filters)
    _check_pair(dy, w, "Conv2DBackpropInput")
    out = tuple(_h._int_list(output_shape))
    st = _spatial(strides, 2, "strides", "Conv2DBackpropInput")
    dl = _spatial(dilations, 2, "dilations", "Conv2DBackpropInput")
    pads = _pads(padding, out[1:3], w._value.shape[:2], st, dl, "Conv2DBackpropInput")
    expect = tuple(_out_size(s, k, q, d, lo, hi) for s, k, q, d, (lo, hi) in
                   zip(out[1:3], w._value.shape[:2], st, dl, pads, strict=True))
    if w._value.shape[2] and out[3] % w._value.shape[2]:
        raise _err(f"input depth must be evenly divisible by filter depth: {out[3]} vs "
                   f"{w._value.shape[2]}", "Conv2DBackpropInput")
    if (out[3] != w._value.shape[2] or expect != dy._value.shape[1:3]) and \
            dy._value.dtype == np.float32:
        # TF's float32 kernel (oneDNN) fails building the primitive before its own checks
        raise errors.op_error(
            errors.AbortedError, "Operation received an exception:Status: 2, message: could "
            "not create a primitive descriptor for the convolution forward propagation "
            "primitive.", "Conv2DBackpropInput")
    if out[3] != w._value.shape[2]:
        raise _err(f"Conv2DCustomBackpropInputOp: input and filter must have the same "
                   f"depth: {out[3]} vs {w._value.shape[2]}", "Conv2DBackpropInput")
    if expect != dy._value.shape[1:3]:
        raise _err(f"Conv2DCustomBackpropInputOp: Size of out_backprop doesn't match "
                   f"computed: actual = {dy._value.shape[1]}, computed = {expect[0]} "
                   f"spatial_dim: 1 input: {out[1]} filter: {w._value.shape[0]} output: "
                   f"{dy._value.shape[1]} stride: {st[0]} dilation: {dl[0]}",
                   "Conv2DBackpropInput")
    return _conv_in(dy, w, out, strides=st, pads=pads, dilations=dl)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None):
    """1-D cross-correlation of NWC ``input`` with ``filters [k, in, out]`` (``tf.nn.conv1d``).

    Computed as :func:`conv2d` on a height-1 image, as TensorFlow does.
    """
    x = _a.expand_dims(to_tensor(input), 1)
    w = _a.expand_dims(to_tensor(filters), 0)
    st = _spatial(stride, 1, "stride", "Conv2D")
    dl = _spatial(dilations, 1, "dilations", "Conv2D")
    if isinstance(padding, (list, tuple)):
        padding = [[0, 0], [0, 0]] + [list(p) for p in padding[1:2]] + [[0, 0]]
    out = conv2d(x, w, (1,) + st, padding, dilations=(1,) + dl)
    return _a.squeeze(out, [1])


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of :func:`conv1d` (``tf.nn.conv1d_transpose``)."""
    x = _a.expand_dims(to_tensor(input), 1)
    w = _a.expand_dims(to_tensor(filters), 0)
    out = _h._int_list(output_shape)
    st = _spatial(strides, 1, "strides", "Conv2DBackpropInput")
    dl = _spatial(dilations, 1, "dilations", "Conv2DBackpropInput")
    y = conv2d_transpose(x, w, [out[0], 1, out[1], out[2]], (1,) + st, padding,
                         dilations=(1,) + dl)
    return _a.squeeze(y, [1])


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """Per-channel 2-D convolution (``tf.nn.depthwise_conv2d``).

    Args:
        input: ``[batch, h, w, channels]``.
        filter: ``[kh, kw, channels, multiplier]``.
        strides: ``[1, s, s, 1]`` (equal spatial strides, as TensorFlow requires).

    Returns:
        ``[batch, out_h, out_w, channels * multiplier]``; output channel ``c * m + k``
        comes from input channel ``c`` and filter ``[..., c, k]``.

    Computed per kernel offset on strided views of the padded input (no patch matrix,
    no block-diagonal filter: the cost is ``kh * kw`` multiply-adds per output element);
    ``DepthwiseConv2dNative`` and its two backprop ops are each other's derivatives, as
    conv2d's are.

    Raises:
        tf.errors.InvalidArgumentError: for mismatched channels, ranks or dtypes.
    """
    x = to_tensor(input)
    w = to_tensor(filter)
    _check_pair(x, w, "DepthwiseConv2dNative")
    check_kind(x, "f", "DepthwiseConv2dNative", "half, bfloat16, float, double")
    if x._value.ndim != 4:
        raise _err(f"input must be 4-dimensional{_h._show(x._value.shape)}",
                   "DepthwiseConv2dNative")
    if w._value.ndim != 4:
        raise _err(f"filter must be 4-dimensional: {_h._show(w._value.shape)}",
                   "DepthwiseConv2dNative")
    c = w._value.shape[2]
    if x._value.shape[3] != c:
        raise _err(f"input depth must be evenly divisible by filter depth: "
                   f"{x._value.shape[3]} vs {c}", "DepthwiseConv2dNative")
    st = _spatial(strides, 2, "strides", "DepthwiseConv2dNative")
    dl = _spatial(dilations, 2, "dilations", "DepthwiseConv2dNative")
    pads = _pads(padding, x._value.shape[1:3], w._value.shape[:2], st, dl,
                 "DepthwiseConv2dNative")
    _check_filter_fits(padding, x._value.shape[1:3], w._value.shape[:2], st, dl,
                       "DepthwiseConv2dNative")
    return apply(_DW, (x, w), {"strides": st, "pads": pads, "dilations": dl})


def _dw_forward(x, w, strides, pads, dilations, post=None):
    # post: an in-place step the float32/64 tiles run on their outputs (_conv_epilogue)
    kh, kw, c, m = w.shape
    pads = _resolve(pads, x.shape[1:3], (kh, kw), strides, dilations)
    oh = _out_size(x.shape[1], kh, strides[0], dilations[0], *pads[0])
    ow = _out_size(x.shape[2], kw, strides[1], dilations[1], *pads[1])
    n = x.shape[0]
    dtype = np.result_type(x, w)
    if oh <= 0 or ow <= 0 or x.size == 0 or w.size == 0:
        return np.zeros((n, builtins.max(oh, 0), builtins.max(ow, 0), c * m), dtype)
    (sh, sw), (dh, dw) = strides, dilations
    if x.dtype == np.float32 and c > 1 and _padded(pads) and not np.isfinite(w).all():
        return _dw_masked(x, w, strides, pads, dilations, oh, ow)
    if x.dtype == np.float16:   # TF's own kernel's order and rounding (ops/_half_conv.py)
        xp = _pad(x, pads).astype(np.float32)
        return _hc.depthwise([_window(xp, k // kw, k % kw, dh, dw, sh, sw, oh, ow)
                              for k in builtins.range(kh * kw)], w)
    if m == 1 and x.dtype == w.dtype and x.dtype.char in "fd":
        return _dwk.forward(x, w[..., 0], strides, pads, dilations, oh, ow, post)
    xp = _pad(x, pads)
    if m == 1:
        # one product per kernel offset into a scratch plane, added into the output (no
        # fresh temporary per offset: 2x faster on MobileNetV2's layers)
        wc = w[..., 0]
        out = np.multiply(_window(xp, 0, 0, dh, dw, sh, sw, oh, ow), wc[0, 0])
        tmp = _scratch(out.shape, out.dtype) if kh * kw > 1 else None
        for k in builtins.range(1, kh * kw):
            i, j = divmod(k, kw)
            np.multiply(_window(xp, i, j, dh, dw, sh, sw, oh, ow), wc[i, j], out=tmp)
            out += tmp
        return out.astype(x.dtype, copy=False)
    out = np.zeros((n, oh, ow, c, m), dtype)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            out += _window(xp, i, j, dh, dw, sh, sw, oh, ow)[..., None] * w[i, j]
    return out.reshape(n, oh, ow, c * m).astype(x.dtype, copy=False)


def _dw_masked(x, w, strides, pads, dilations, oh, ow):
    """A float32 depthwise convolution whose filter holds inf or nan, the padding not
    multiplied: TensorFlow runs oneDNN's depthwise kernel for float32, which skips the padded
    taps (no 0 * inf = nan), as ``_masked_conv`` for conv2d. Not for one input channel:
    oneDNN runs that as a plain convolution which skips the padded rows but multiplies the
    padded columns (in part: not followed here, the padding is multiplied)."""
    kh, kw, c, m = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    valid = _valid_windows(x.shape, pads, strides, dilations, oh, ow, kh, kw)
    xp = _pad(x, pads)
    out = np.zeros((x.shape[0], oh, ow, c, m), x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for i in builtins.range(kh):
            for j in builtins.range(kw):
                prod = _window(xp, i, j, dh, dw, sh, sw, oh, ow)[..., None] * w[i, j]
                out += np.where(valid[(i, j)][..., None], prod, 0)
    return out.reshape(x.shape[0], oh, ow, c * m)


def _dw_input_forward(dy, w, input_shape, strides, pads, dilations):
    kh, kw, c, m = w.shape
    pads = _resolve(pads, input_shape[1:3], (kh, kw), strides, dilations)
    (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = strides, pads, dilations
    n, h, wd = input_shape[:3]
    oh, ow = dy.shape[1:3]
    dxp = np.zeros((n, h + pt + pb, wd + pl + pr, c), np.result_type(dy, w))
    if dy.size == 0 or dxp.size == 0:
        if dxp.size and (dy.dtype != np.float32 or c == 1) and not np.isfinite(w).all():
            _dw_nonfinite(dxp, w, strides, dilations, oh, ow)
        return dxp[:, pt:pt + h, pl:pl + wd, :]
    dy5 = dy.reshape(n, oh, ow, c, m)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            _window(dxp, i, j, dh, dw, sh, sw, oh, ow)[...] += (
                dy5[..., 0] * w[i, j, :, 0] if m == 1 else (dy5 * w[i, j]).sum(-1))
    if (dy.dtype != np.float32 or c == 1) and not np.isfinite(w).all():
        _dw_nonfinite(dxp, w, strides, dilations, oh, ow)
    return dxp[:, pt:pt + h, pl:pl + wd, :]


def _dw_filter_forward(x, dy, filter_shape, strides, pads, dilations):
    kh, kw, c, m = filter_shape
    pads = _resolve(pads, x.shape[1:3], (kh, kw), strides, dilations)
    dtype = np.result_type(x, dy)
    if dy.size == 0 or x.size == 0:
        return np.zeros(filter_shape, dtype)
    (sh, sw), (dh, dw) = strides, dilations
    oh, ow = dy.shape[1:3]
    xp = _pad(x, pads)
    dy3 = dy.reshape(-1, c, m)
    out = np.empty(filter_shape, dtype)
    for i in builtins.range(kh):
        for j in builtins.range(kw):
            win = _window(xp, i, j, dh, dw, sh, sw, oh, ow).reshape(-1, c)
            out[i, j] = np.einsum("pc,pcm->cm", win, dy3)
    return out


_DW = primitive("DepthwiseConv2dNative", _dw_forward)
_DW_IN = primitive("DepthwiseConv2dNativeBackpropInput", lambda dy, w, x, **a:
                   _dw_input_forward(dy, w, x.shape, **a), shape_inputs=(2,))
_DW_FILT = primitive("DepthwiseConv2dNativeBackpropFilter", lambda x, dy, w, **a:
                     _dw_filter_forward(x, dy, w.shape, **a), shape_inputs=(2,))
defvjp(_DW,
       lambda g, y, x, w, **a: apply(_DW_IN, (g, w, x), a),
       lambda g, y, x, w, **a: apply(_DW_FILT, (x, g, w), a))
defvjp(_DW_IN,
       lambda g, y, dy, w, x, **a: apply(_DW, (g, w), a),
       lambda g, y, dy, w, x, **a: apply(_DW_FILT, (g, dy, w), a), None)
defvjp(_DW_FILT,
       lambda g, y, x, dy, w, **a: apply(_DW_IN, (dy, g, x), a),
       lambda g, y, x, dy, w, **a: apply(_DW, (x, g), a), None)


# ----------------------------------------------------------------------------- pooling


def _pool_geometry(x, ksize, strides, padding, op_name):
    k = _spatial(ksize, 2, "ksize", op_name)
    st = _spatial(strides, 2, "strides", op_name)
    pads = _pads(padding, x.shape[1:3], k, st, (1, 1), op_name)
    oh = _out_size(x.shape[1], k[0], st[0], 1, *pads[0])
    ow = _out_size(x.shape[2], k[1], st[1], 1, *pads[1])
    return k, st, pads, oh, ow


def _pool_out(shape, ksize, strides, pads):
    oh = _out_size(shape[1], ksize[0], strides[0], 1, *pads[0])
    ow = _out_size(shape[2], ksize[1], strides[1], 1, *pads[1])
    return oh, ow


def _max_pool_forward(x, ksize, strides, pads):
    pads = _resolve(pads, x.shape[1:3], ksize, strides, (1, 1))
    (kh, kw), (sh, sw) = ksize, strides
    oh, ow = _pool_out(x.shape, ksize, strides, pads)
    if oh <= 0 or ow <= 0:
        return np.zeros((x.shape[0], builtins.max(oh, 0), builtins.max(ow, 0), x.shape[3]),
                        x.dtype)
    if _tiles(x.shape, ksize, strides, pads, oh, ow):
        return _nan_windows(_tiled_max(x, kh, kw, oh, ow))
    xp = _pad(x, pads, np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf)
    out = _window(xp, 0, 0, 1, 1, sh, sw, oh, ow).copy()
    for k in builtins.range(1, kh * kw):
        np.fmax(out, _window(xp, k // kw, k % kw, 1, 1, sh, sw, oh, ow), out=out)
    return _nan_windows(out)


def _max_pool_route(x, y, ksize, strides, pads):
    """Where each window's gradient goes: ``[kh * kw, N, oh, ow, C]`` of x's float dtype, 1
    at one cell per window, else 0. As TensorFlow's MaxPoolGrad: the window's first cell
    inside the input, replaced by each later cell that is strictly larger (row-major window
    order). So ties keep the first maximum, and a NaN in first place keeps the gradient (a
    NaN compares larger than nothing). Offsets lead, so every step works on whole planes."""
    (kh, kw), (sh, sw) = ksize, strides
    n, oh, ow, c = y.shape
    pads = _resolve(pads, x.shape[1:3], ksize, strides, (1, 1))
    if y.size == 0:
        return np.zeros((kh * kw,) + y.shape, x.dtype)
    tiles = _tiles(x.shape, ksize, strides, pads, oh, ow)
    if not np.isnan(total := np.sum(x)) and total != -np.inf:
        # Without NaN or -inf (a window of -inf pools to a value no cell equals) that rule
        # picks each window's first maximum: one comparison, then ties (3x faster).
        return _first_maximum(x, y, ksize, strides, pads)
    route = np.zeros((kh * kw,) + y.shape, x.dtype)
    if tiles:
        planes = np.empty((kh, kw, n, oh, ow, c), x.dtype)
        np.copyto(planes, _tiled(x, kh, kw, oh, ow).transpose(2, 4, 0, 1, 3, 5))
        planes = planes.reshape((kh * kw,) + y.shape)
        cells = [(planes[k], None) for k in builtins.range(kh * kw)]
    else:
        xp = _pad(x, pads, 0)
        outside = _pad(np.zeros((1,) + x.shape[1:3] + (1,), bool), pads, True)
        cells = [(_window(xp, k // kw, k % kw, 1, 1, sh, sw, oh, ow),
                  ~_window(outside, k // kw, k % kw, 1, 1, sh, sw, oh, ow))
                 for k in builtins.range(kh * kw)]
    # Forward: which cells replace the running choice; backward: a cell keeps the gradient
    # when no later cell replaced it. Whole-plane boolean steps, no scatter.
    current = cells[0][0].copy()
    started = cells[0][1]
    takes = [None]
    for k in builtins.range(1, kh * kw):
        value, inside = cells[k]
        take = np.greater(value, current)
        if inside is not None:
            take = inside & (take | ~started)
            started = started | inside
        np.copyto(current, value, where=take)
        takes.append(take)
    later = np.zeros(y.shape, bool)
    for k in builtins.range(kh * kw - 1, 0, -1):
        np.logical_and(takes[k], ~later, out=takes[k])
        route[k] = takes[k]
        later |= takes[k]
    np.logical_not(later, out=later)
    route[0] = later
    return route


def _first_maximum(x, y, ksize, strides, pads):
    """``_max_pool_route`` for a NaN-free ``x`` whose padded windows have finite or +inf
    maxima: 1 at each window's first cell equal to its maximum ``y`` (padding is -inf, so it
    never equals)."""
    (kh, kw), (sh, sw) = ksize, strides
    n, oh, ow, c = y.shape
    if _tiles(x.shape, ksize, strides, pads, oh, ow):
        planes = np.empty((kh, kw, n, oh, ow, c), x.dtype)
        np.copyto(planes, _tiled(x, kh, kw, oh, ow).transpose(2, 4, 0, 1, 3, 5))
        route = (planes.reshape((kh * kw,) + y.shape) == y).astype(x.dtype)
    else:
        xp = _pad(x, pads, -np.inf)
        route = np.empty((kh * kw,) + y.shape, x.dtype)
        for k in builtins.range(kh * kw):
            np.equal(_window(xp, k // kw, k % kw, 1, 1, sh, sw, oh, ow), y, out=route[k],
                     casting="unsafe")
    # ties (a window of zeros after a relu): keep the first hit. ``free`` is 1 where no
    # earlier offset took the window.
    free = 1 - route[0]
    for k in builtins.range(1, kh * kw):
        route[k] *= free
        free -= route[k]
    return route


def _max_pool_grad_forward(g, input_shape, route, ksize, strides, pads):
    """Add ``g`` [N, oh, ow, C] into an input-shaped zero at the cells ``route`` marks."""
    pads = _resolve(pads, input_shape[1:3], ksize, strides, (1, 1))
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    n, h, w, c = input_shape
    oh, ow = g.shape[1:3]
    if g.size == 0:
        return np.zeros(input_shape, g.dtype)
    if np.isfinite(g).all():   # a product is fast here; 0 * inf would make NaN
        shares = np.multiply(route, g, dtype=g.dtype)
    else:
        shares = np.where(route != 0, g, np.zeros((), g.dtype))
    if _tiles(input_shape, ksize, strides, pads, oh, ow):
        dx = (np.empty if (oh * kh, ow * kw) == (h, w) else np.zeros)(input_shape, g.dtype)
        np.copyto(_tiled(dx, kh, kw, oh, ow),
                  shares.reshape(kh, kw, n, oh, ow, c).transpose(2, 3, 0, 4, 1, 5))
        return dx
    dxp = np.zeros((n, h + pt + pb, w + pl + pr, c), g.dtype)
    for k in builtins.range(kh * kw):
        _window(dxp, k // kw, k % kw, 1, 1, sh, sw, oh, ow)[...] += shares[k]
    return dxp[:, pt:pt + h, pl:pl + w, :]


def _route_index(route, x, ksize, strides, pads):
    """Flat index into the input ``x`` of the cell each window's gradient goes to, and
    whether the window has one. TF's MaxPoolGradGrad (the second derivative and forward
    mode) takes the cell equal to the window's maximum, where MaxPoolGrad (``route``) can
    take a NaN in first place: such windows go to their first cell equal to the maximum
    (NaN equals nothing; a window of NaN alone has none)."""
    flat, has = _route_flat(route, x.shape, ksize, strides, pads)
    if x.dtype.kind in "fc" and x.size:
        bad = has & np.isnan(x.reshape(-1)[flat])
        if bad.any():
            y = _max_pool_forward(x, ksize, strides, pads)
            rpads = _resolve(pads, x.shape[1:3], ksize, strides, (1, 1))
            with np.errstate(invalid="ignore"):
                eq = _first_maximum(x, y, ksize, strides, rpads)
            flat2, has2 = _route_flat(eq, x.shape, ksize, strides, pads)
            flat, has = np.where(bad, flat2, flat), np.where(bad, has2, has)
    return flat, has


def _route_flat(route, input_shape, ksize, strides, pads):
    pads = _resolve(pads, input_shape[1:3], ksize, strides, (1, 1))
    (_, kw), (sh, sw), ((pt, _), (pl, _)) = ksize, strides, pads
    _, h, w, c = input_shape
    _, n, oh, ow, _ = route.shape
    k = np.argmax(route, axis=0)
    rows = np.arange(oh).reshape(1, oh, 1, 1) * sh - pt + k // kw
    cols = np.arange(ow).reshape(1, 1, ow, 1) * sw - pl + k % kw
    flat = ((np.arange(n).reshape(n, 1, 1, 1) * h + rows) * w + cols) * c + np.arange(c)
    has = route.any(axis=0) & (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    return np.where(has, flat, 0), has


def _max_pool_grad_vjp(gg, y, g, route, x, ksize, strides, pads):
    # MaxPoolGrad is linear in g; its transpose gathers each window's routed cell.
    flat, has = apply(_MAXPOOL_ROUTE_INDEX, (route, x), {"ksize": ksize, "strides": strides,
                                                         "pads": pads})
    picked = _ix._gather_dense(_a.reshape(gg, [-1]), flat)
    return _a.where(has, picked, _a.zeros_like(picked)), None


# The route is a tensor made by an op from x and y (not a value read by the rule), so a
# traced program computes it afresh for every input.
_MAXPOOL = primitive("MaxPool", _max_pool_forward, save_output=True)
_MAXPOOL_ROUTE = nondifferentiable("MaxPoolRoute", _max_pool_route)
# (x, the pooled input: its shape and where it holds NaN)
_MAXPOOL_ROUTE_INDEX = nondifferentiable(
    "MaxPoolRouteIndex", _route_index, n_outputs=2)
_MAXPOOL_GRAD = primitive(
    "MaxPoolGrad", lambda g, route, x, ksize, strides, pads: _max_pool_grad_forward(
        g, x.shape, route, ksize, strides, pads), shape_inputs=(2,))


def _max_pool_rule(g, y, x, ksize, strides, pads):
    attrs = {"ksize": ksize, "strides": strides, "pads": pads}
    route = apply(_MAXPOOL_ROUTE, (x, y), attrs)
    return apply(_MAXPOOL_GRAD, (g, route, x), attrs)


defvjp(_MAXPOOL, _max_pool_rule)
# By the pooled input x it is zero (TensorFlow's MaxPoolGradGrad gives zeros, not None).
defvjp(_MAXPOOL_GRAD, lambda gg, y, g, route, x, **attrs: _max_pool_grad_vjp(
    gg, y, g, route, x, **attrs)[0], None, lambda gg, y, g, route, x, **attrs: _a.zeros_like(x))


def _avg_counts(shape, ksize, strides, pads, dtype):
    ones = np.ones((1,) + tuple(shape[1:3]) + (1,), dtype)
    return _avg_sum(ones, ksize, strides, pads)


def _avg_sum(x, ksize, strides, pads):
    (kh, kw), (sh, sw) = ksize, strides
    oh, ow = _pool_out(x.shape, ksize, strides, pads)
    if oh <= 0 or ow <= 0:
        return np.zeros((x.shape[0], builtins.max(oh, 0), builtins.max(ow, 0), x.shape[3]),
                        x.dtype)
    xp = _pad(x, pads, 0)
    out = _window(xp, 0, 0, 1, 1, sh, sw, oh, ow).copy()
    for k in builtins.range(1, kh * kw):
        out += _window(xp, k // kw, k % kw, 1, 1, sh, sw, oh, ow)
    return out


def _avg_pool_forward(x, ksize, strides, pads):
    pads = _resolve(pads, x.shape[1:3], ksize, strides, (1, 1))
    # Padded cells do not count toward the mean, as TensorFlow's SAME average pooling.
    total = _avg_sum(x, ksize, strides, pads)
    if not builtins.any(builtins.sum(pads, ())):
        return total / np.asarray(ksize[0] * ksize[1], x.dtype)
    return total / _avg_counts(x.shape, ksize, strides, pads, x.dtype)


def _avg_pool_grad_forward(g, input_shape, ksize, strides, pads):
    pads = _resolve(pads, input_shape[1:3], ksize, strides, (1, 1))
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = ksize, strides, pads
    n, h, w, c = input_shape
    oh, ow = g.shape[1:3]
    if g.size == 0:
        return np.zeros(input_shape, g.dtype)
    if builtins.any(builtins.sum(pads, ())):
        share = g / _avg_counts(input_shape, ksize, strides, pads, g.dtype)
    else:
        share = g / np.asarray(kh * kw, g.dtype)
    dxp = np.zeros((n, h + pt + pb, w + pl + pr, c), g.dtype)
    for k in builtins.range(kh * kw):
        _window(dxp, k // kw, k % kw, 1, 1, sh, sw, oh, ow)[...] += share
    return dxp[:, pt:pt + h, pl:pl + w, :]


# AvgPool keeps its input for the gradient, which reads its shape (x, shape only).
_AVGPOOL = primitive("AvgPool", _avg_pool_forward)
_AVGPOOL_GRAD = primitive("AvgPoolGrad", lambda g, x, **a: _avg_pool_grad_forward(
    g, x.shape, **a), save_inputs=False, shape_inputs=(1,))
defvjp(_AVGPOOL, lambda g, y, x, **a: apply(_AVGPOOL_GRAD, (g, x), a))
defvjp(_AVGPOOL_GRAD, lambda g, y, g_shape, x_shape, **a: apply(_AVGPOOL, (g,), a), None)


def _pool2d(prim, input, ksize, strides, padding, data_format):  # noqa: A002
    x = to_tensor(input)
    if data_format not in (None, "NHWC"):
        raise _err(f"Default {prim.name}Op only supports NHWC on device type CPU",
                   prim.name)
    if prim is _MAXPOOL:  # MaxPool has integer kernels too
        if x._value.dtype.kind not in "fiu":
            check_kind(x, "fiu", prim.name, "half, bfloat16, float, double, int32, int64, "
                       "uint8, int16, int8, uint16, qint8")
    else:
        check_kind(x, "f", prim.name, "half, bfloat16, float, double")
    if x._value.ndim != 4:
        raise _err("Input must be 4 or 5-dimensional", prim.name)
    k, st, pads, oh, ow = _pool_geometry(x._value, ksize, strides, padding, prim.name)
    if padding == "VALID":
        _check_window_fits(x._value.shape[1:3], k, st, prim.name)
    # otherwise an empty output when the window does not fit, as TensorFlow
    return apply(prim, (x,), {"ksize": k, "strides": st, "pads": pads})


def _check_window_fits(sizes, ksize, strides, op_name):
    """TF's VALID output size ``(n - k + s) / s``, truncated as C does: an empty output is
    allowed, a negative one raises."""
    for n, k, s in zip(sizes, ksize, strides):
        num = n - k + s
        out = num // s if num >= 0 else -((-num) // s)
        if out < 0:
            raise _err(f"Computed output size would be negative: {out} [input_size: {n}, "
                       f"effective_filter_size: {k}, stride: {s}]", op_name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Maximum over ``ksize`` windows of NHWC ``input`` (``tf.nn.max_pool2d``).

    Args:
        input: ``[batch, h, w, channels]`` floats.
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: ``'SAME'`` (padding never wins the max) or ``'VALID'``.

    Returns:
        ``[batch, out_h, out_w, channels]``; the gradient goes to each window's first
        maximum.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> print(tf.nn.max_pool2d(x, 2, 2, 'VALID')[0, :, :, 0].numpy())
        [[ 5.  7.]
         [13. 15.]]
    """
    return _pool2d(_MAXPOOL, input, ksize, strides, padding, data_format)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Mean over ``ksize`` windows of NHWC ``input`` (``tf.nn.avg_pool2d``).

    With ``'SAME'`` padding the mean is over the window's cells inside the input only.
    """
    return _pool2d(_AVGPOOL, input, ksize, strides, padding, data_format)


def _pool1d(fn, input, ksize, strides, padding):  # noqa: A002
    x = _a.expand_dims(to_tensor(input), 1)
    k = _spatial(ksize, 1, "ksize", "MaxPool")
    st = _spatial(strides, 1, "strides", "MaxPool")
    return _a.squeeze(fn(x, (1,) + k, (1,) + st, padding), [1])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Maximum over windows of NWC ``input`` (``tf.nn.max_pool1d``), via max_pool2d."""
    return _pool1d(max_pool2d, input, ksize, strides, padding)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Mean over windows of NWC ``input`` (``tf.nn.avg_pool1d``), via avg_pool2d."""
    return _pool1d(avg_pool2d, input, ksize, strides, padding)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``max_pool1d`` or ``max_pool2d`` by the rank of ``input`` (``tf.nn.max_pool``)."""
    x = to_tensor(input)
    fn = max_pool1d if x._value.ndim == 3 else max_pool2d
    return fn(x, ksize, strides, padding)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """``avg_pool1d`` or ``avg_pool2d`` by the rank of ``input`` (``tf.nn.avg_pool``)."""
    x = to_tensor(input)
    fn = avg_pool1d if x._value.ndim == 3 else avg_pool2d
    return fn(x, ksize, strides, padding)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution (``tf.nn.separable_conv2d``).

    Args:
        input: ``[batch, h, w, channels]``.
        depthwise_filter: ``[kh, kw, channels, multiplier]``.
        pointwise_filter: ``[1, 1, channels * multiplier, out_channels]``.
    """
    mid = depthwise_conv2d(input, depthwise_filter, strides, padding, dilations=dilations)
    return conv2d(mid, pointwise_filter, 1, "VALID")


def atrous_conv2d(value, filters, rate, padding, name=None):
    """:func:`conv2d` with stride 1 and dilation ``rate`` (``tf.nn.atrous_conv2d``).

    Raises:
        ValueError: for a rate below 1.
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Move ``block_size x block_size`` spatial blocks into channels (``tf.nn.space_to_depth``).

    Raises:
        tf.errors.InvalidArgumentError: if height or width is not divisible by the block.
    """
    x = to_tensor(input)
    n, h, w, c = x._value.shape
    b = int(block_size)
    if h % b or w % b:
        raise _err(f"Image width {w} and height {h} should be divisible by block_size: {b}",
                   "SpaceToDepth")
    y = _a.reshape(x, [n, h // b, b, w // b, b, c])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, [n, h // b, w // b, b * b * c])


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of :func:`space_to_depth` (``tf.nn.depth_to_space``).

    Raises:
        tf.errors.InvalidArgumentError: if channels are not divisible by ``block_size**2``.
    """
    x = to_tensor(input)
    n, h, w, c = x._value.shape
    b = int(block_size)
    if c % (b * b):
        raise _err(f"Input depth dimension {c} should be divisible by: {b * b}",
                   "DepthToSpace")
    y = _a.reshape(x, [n, h, w, b, b, c // (b * b)])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, [n, h * b, w * b, c // (b * b)])
