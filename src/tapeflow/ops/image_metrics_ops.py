"""Image metrics and derivatives (``tf.image``): PSNR, SSIM, multi-scale SSIM, total
variation, finite-difference gradients and Sobel edges.

Each is a composition of tapeflow's differentiable ops (differences, reductions, a Gaussian
or Sobel convolution run as ``conv2d`` with each channel moved into the batch), so the
gradients come from those ops. Integer images are first scaled to ``[0, 1]`` float32 by
``convert_image_dtype``, as TensorFlow does.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import image_ops as _io
from . import indexing_ops as _ix
from . import manip_ops as _mn
from . import math_ops as _m
from . import nn_conv_ops as _nc
from . import nn_ops as _nn
from . import reduction_ops as _r

__all__ = ["psnr", "ssim", "ssim_multiscale", "total_variation", "image_gradients",
           "sobel_edges"]

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _t(x):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x)


def _compatible(a, b):
    """TensorFlow's ``_verify_compatible_image_shapes``: rank >= 3, equal inner three
    dimensions, broadcastable batch dimensions."""
    s1, s2 = a._value.shape, b._value.shape
    for s in (s1, s2):
        if len(s) < 3:
            raise ValueError(f"Shape {_shape(s)} must have rank at least 3")
    if s1[-3:] != s2[-3:]:
        raise ValueError(f"Shapes {_shape(s1[-3:])} and {_shape(s2[-3:])} are incompatible")
    for d1, d2 in zip(reversed(s1[:-3]), reversed(s2[:-3])):
        if not (d1 == 1 or d2 == 1 or d1 == d2):
            raise ValueError(f"Two images are not compatible: {_shape(s1)} and {_shape(s2)}")


def _shape(s):
    return "(" + ", ".join(map(str, s)) + ("," if len(s) == 1 else "") + ")"


def _max_val(max_val, dtype):
    """``max_val`` cast to the images' dtype, then to float32 on the image scale."""
    m = _a.cast(_t(max_val), dtype)
    return _io.convert_image_dtype(m, _dt.float32)


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio ``20 log10(max_val) - 10 log10(mse)`` per image
    (``tf.image.psnr``). Differentiable in ``a`` and ``b``.

    Args:
        a, b: images ``[..., height, width, channels]`` of one dtype (integers are scaled to
            ``[0, 1]``).
        max_val: the dynamic range (e.g. 255 for uint8, 1.0 for float images), in the
            images' scale.

    Returns:
        float32, shape ``a.shape[:-3]`` (broadcast with ``b``'s); ``inf`` for equal images.

    Raises:
        tf.errors.InvalidArgumentError: if the shapes do not broadcast (the difference's
            error); ValueError if the inner three dimensions differ.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.zeros((2, 2, 1))
        >>> float(tf.image.psnr(a, a + 0.1, 1.0).numpy().round(3))
        20.0
    """
    a, b = _t(a), _t(b)
    mv = _max_val(max_val, a.dtype)
    a = _io.convert_image_dtype(a, _dt.float32)
    b = _io.convert_image_dtype(b, _dt.float32)
    mse = _r.reduce_mean(_m.squared_difference(a, b), [-3, -2, -1])
    ten = Tensor(np.float32(10.0))
    first = _m.divide(_m.multiply(Tensor(np.float32(20.0)), _m.log(mv)), _m.log(ten))
    out = _m.subtract(first, _m.multiply(Tensor(np.float32(10 / np.log(10))), _m.log(mse)))
    _compatible(a, b)
    return out


def _gauss(size, sigma):
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / np.float32(2.0)
    g = np.square(coords) * (np.float32(-0.5) / np.square(np.float32(sigma)))
    g = (g.reshape(1, -1) + g.reshape(-1, 1)).reshape(-1)
    g = np.exp(g - g.max())
    return (g / g.sum()).astype(np.float32).reshape(size, size, 1, 1)


def _blur(x, kernel):
    """Each channel of ``x`` (``[..., h, w, c]``) convolved with ``kernel`` (VALID)."""
    s = x._value.shape
    k = kernel.shape[0]
    flat = _a.reshape(x, (-1,) + s[-3:])
    per = _a.reshape(_a.transpose(flat, [0, 3, 1, 2]), (-1, s[-3], s[-2], 1))
    y = _nc.conv2d(per, Tensor(kernel), [1, 1, 1, 1], "VALID")
    oh, ow = s[-3] - k + 1, s[-2] - k + 1
    y = _a.transpose(_a.reshape(y, (-1, s[-1], oh, ow)), [0, 2, 3, 1])
    return _a.reshape(y, tuple(s[:-3]) + (oh, ow, s[-1]))


def _ssim_per_channel(x, y, max_val, filter_size, filter_sigma, k1, k2, index_map=False):
    for s in (x._value.shape, y._value.shape):
        if s[-3] < filter_size or s[-2] < filter_size:
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                f"Summarized data: {', '.join(map(str, s))}")
    kernel = _gauss(int(filter_size), float(filter_sigma))
    c1 = _m.square(_m.multiply(Tensor(np.float32(k1)), max_val))
    c2 = _m.square(_m.multiply(Tensor(np.float32(k2)), max_val))
    mean0, mean1 = _blur(x, kernel), _blur(y, kernel)
    num0 = _m.multiply(_m.multiply(mean0, mean1), 2.0)
    den0 = _m.add(_m.square(mean0), _m.square(mean1))
    lum = _m.divide(_m.add(num0, c1), _m.add(den0, c1))
    num1 = _m.multiply(_blur(_m.multiply(x, y), kernel), 2.0)
    den1 = _blur(_m.add(_m.square(x), _m.square(y)), kernel)
    cs = _m.divide(_m.add(_m.subtract(num1, num0), c2), _m.add(_m.subtract(den1, den0), c2))
    if index_map:
        return _m.multiply(lum, cs), cs
    return (_r.reduce_mean(_m.multiply(lum, cs), [-3, -2]), _r.reduce_mean(cs, [-3, -2]))


def _prepare(img1, img2, max_val):
    a, b = _t(img1), _t(img2)
    _compatible(a, b)
    mv = _max_val(max_val, a.dtype)
    return (_io.convert_image_dtype(a, _dt.float32), _io.convert_image_dtype(b, _dt.float32),
            mv)


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of two images, a Gaussian-windowed (VALID) mean of
    luminance times contrast-structure, averaged over channels (``tf.image.ssim``).
    Differentiable.

    Args:
        img1, img2: ``[..., height, width, channels]`` of one dtype (integers scaled to
            ``[0, 1]``), height and width at least ``filter_size``.
        max_val: the dynamic range in the images' scale.
        filter_size, filter_sigma: the Gaussian window.
        k1, k2: the stabilising constants.
        return_index_map: True for the per-position map
            ``[..., height - filter_size + 1, width - filter_size + 1]``.

    Returns:
        float32 ``img1.shape[:-3]`` (or the map).

    Raises:
        ValueError: if the inner three dimensions differ.
        tf.errors.InvalidArgumentError: if an image is smaller than the filter.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(144.0) / 144.0, (12, 12, 1))
        >>> float(tf.image.ssim(x, x, 1.0).numpy())
        1.0
    """
    a, b, mv = _prepare(img1, img2, max_val)
    per, _ = _ssim_per_channel(a, b, mv, filter_size, filter_sigma, k1, k2, return_index_map)
    return _r.reduce_mean(per, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM: contrast-structure at ``len(power_factors) - 1`` scales halved by
    2x2 average pooling (odd sizes first padded symmetrically) and SSIM at the last, each
    clipped at 0 and raised to its power factor, multiplied, averaged over channels
    (``tf.image.ssim_multiscale``). Differentiable.

    Args:
        img1, img2: ``[..., height, width, channels]``; the smallest scale must still hold
            ``filter_size`` (161 x 161 for the defaults).
        max_val, filter_size, filter_sigma, k1, k2: as :func:`ssim`.
        power_factors: one weight per scale (TensorFlow's defaults, 5 scales).

    Returns:
        float32 ``img1.shape[:-3]``.

    Raises:
        ValueError: if the inner three dimensions differ.
        tf.errors.InvalidArgumentError: if a scale is smaller than the filter.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(64.0) / 64.0, (8, 8, 1))
        >>> float(tf.image.ssim_multiscale(x, x, 1.0, power_factors=(0.5, 0.5),
        ...     filter_size=3).numpy())
        1.0
    """
    a, b, mv = _prepare(img1, img2, max_val)
    imgs = [a, b]
    head = a._value.shape[:-3], b._value.shape[:-3]
    mcs = []
    per = None
    for k in range(len(power_factors)):
        if k > 0:
            tail = imgs[0]._value.shape[-3:]
            flat = [_a.reshape(x, (-1,) + tuple(x._value.shape[-3:])) for x in imgs]
            rh, rw = tail[0] % 2, tail[1] % 2
            if rh or rw:
                flat = [_mn.pad(x, [[0, 0], [0, rh], [0, rw], [0, 0]], mode="SYMMETRIC")
                        for x in flat]
            down = [_nc.avg_pool2d(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") for x in flat]
            imgs = [_a.reshape(x, tuple(h) + tuple(x._value.shape[1:]))
                    for x, h in zip(down, head)]
        per, cs = _ssim_per_channel(imgs[0], imgs[1], mv, filter_size, filter_sigma, k1, k2)
        mcs.append(_nn.relu(cs))
    mcs.pop()
    stacked = _a.stack(mcs + [_nn.relu(per)], axis=-1)
    weights = Tensor(np.asarray(power_factors, np.float32))
    return _r.reduce_mean(_r.reduce_prod(_m.pow(stacked, weights), [-1]), [-1])


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels, down and across
    (``tf.image.total_variation``). Differentiable (the subgradient of ``abs``).

    Args:
        images: ``[batch, height, width, channels]`` or ``[height, width, channels]``.

    Returns:
        ``[batch]`` (or a scalar), ``images``' dtype.

    Raises:
        ValueError: if ``images`` is not 3-D or 4-D.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.total_variation(tf.constant([[[0.0], [1.0]], [[3.0], [1.0]]])).numpy()
        np.float32(6.0)
    """
    x = _t(images)
    nd = x._value.ndim
    if nd not in (3, 4):
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    lead = (slice(None),) * (nd - 3)
    g = _ix.strided_slice_getitem

    def diff(axis):
        hi = lead + (slice(None),) * axis + (slice(1, None),)
        lo = lead + (slice(None),) * axis + (slice(None, -1),)
        return _m.abs(_m.subtract(g(x, hi), g(x, lo)))
    axes = None if nd == 3 else [1, 2, 3]
    return _m.add(_r.reduce_sum(diff(0), axis=axes), _r.reduce_sum(diff(1), axis=axes))


def image_gradients(image):
    """Forward differences ``(dy, dx)``: ``dy[:, i] = image[:, i + 1] - image[:, i]`` with
    a zero last row, ``dx`` likewise across columns (``tf.image.image_gradients``).
    Differentiable.

    Args:
        image: ``[batch, height, width, channels]``.

    Returns:
        ``(dy, dx)``, each ``image``'s shape and dtype.

    Raises:
        ValueError: if ``image`` is not 4-D.

    Example:
        >>> import tapeflow as tf
        >>> dy, dx = tf.image.image_gradients(tf.reshape(tf.range(4.0), (1, 2, 2, 1)))
        >>> dy[0, :, :, 0].numpy()
        array([[2., 2.],
               [0., 0.]], dtype=float32)
    """
    x = _t(image)
    if x._value.ndim != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{x.shape}.")
    n, h, w, c = x._value.shape
    g = _ix.strided_slice_getitem
    dy = _m.subtract(g(x, (slice(None), slice(1, None))), g(x, (slice(None), slice(None, -1))))
    dx = _m.subtract(g(x, (slice(None), slice(None), slice(1, None))),
                     g(x, (slice(None), slice(None), slice(None, -1))))
    dy = _a.concat([dy, Tensor(np.zeros((n, 1, w, c), x._value.dtype))], 1)
    dx = _a.concat([dx, Tensor(np.zeros((n, h, 1, c), x._value.dtype))], 2)
    return _a.reshape(dy, (n, h, w, c)), _a.reshape(dx, (n, h, w, c))


_SOBEL = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                   [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])


def sobel_edges(image):
    """The vertical and horizontal Sobel responses of each channel, the image reflected by
    one pixel at its borders (``tf.image.sobel_edges``). Differentiable.

    Args:
        image: ``[batch, height, width, channels]``, a floating dtype.

    Returns:
        ``[batch, height, width, channels, 2]``: ``[..., 0]`` the vertical (dy) response,
        ``[..., 1]`` the horizontal (dx) one.

    Raises:
        tf.errors.InvalidArgumentError: for a non-floating dtype or a rank other than 4
            (TensorFlow's padding error).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
        >>> tf.image.sobel_edges(x)[0, 1, 1, 0].numpy()
        array([24.,  8.], dtype=float32)
    """
    x = _t(image)
    if not x.dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
            "values: half, bfloat16, float, double")
    s = x._value.shape
    if len(s) != 4:
        raise errors.InvalidArgumentError(
            None, None, "The first dimension of paddings must be the rank of inputs[4,2], "
            f"[{','.join(map(str, s))}] [Op:MirrorPad]")
    n, h, w, c = s
    padded = _mn.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    per = _a.reshape(_a.transpose(padded, [0, 3, 1, 2]), (n * c, h + 2, w + 2, 1))
    kernel = Tensor(np.transpose(_SOBEL, (1, 2, 0))[:, :, None, :].astype(x._value.dtype))
    y = _nc.conv2d(per, kernel, [1, 1, 1, 1], "VALID")  # [n*c, h, w, 2]
    return _a.transpose(_a.reshape(y, (n, c, h, w, 2)), [0, 2, 3, 1, 4])
