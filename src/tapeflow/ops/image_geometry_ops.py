"""Image geometry (``tf.image``): crops and pads to a bounding box, resize with padding,
transpose. All are slices, pads and transposes of tapeflow's differentiable ops, so their
gradients are those ops' gradients.

The checks follow TensorFlow's: a Python-int argument that fails raises ``ValueError`` with
TensorFlow's text; a tensor argument fails as TensorFlow's runtime ``Assert`` does,
``InvalidArgumentError`` carrying the same text as its data.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from . import array_ops as _a
from . import image_ops as _io
from . import indexing_ops as _ix
from . import manip_ops as _mn

__all__ = ["crop_to_bounding_box", "pad_to_bounding_box", "resize_with_pad", "transpose",
           "extract_glimpse"]


def _value(v):
    """(Python int, whether ``v`` was a tensor)."""
    if isinstance(v, _TensorLike):
        return int(static_value(v)), True
    return int(v), False


def _check(ok, is_tensor, msg):
    """TensorFlow's polymorphic ``_assert``: ValueError for Python conditions, the ``Assert``
    op's InvalidArgumentError for tensor ones."""
    if ok:
        return
    if is_tensor:
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            f"Summarized data: b'{msg}'")
    raise ValueError(msg)


def _batched(image):
    """``image`` as a 4-D tensor and whether it was one already; TensorFlow's rank and
    non-empty checks."""
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    nd = x._value.ndim
    if nd not in (3, 4):
        raise ValueError(f"'image' (shape {x.shape}) must have either 3 or 4 dimensions.")
    shape = x._value.shape if nd == 4 else (1,) + x._value.shape
    if 0 in shape[-3:]:
        dims = ", ".join(map(str, shape))
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: ({dims})")
    return (x if nd == 4 else _a.expand_dims(x, 0)), nd == 4


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The ``target_height x target_width`` window of ``image`` whose top-left corner is at
    ``(offset_height, offset_width)`` (``tf.image.crop_to_bounding_box``). Differentiable.

    Args:
        image: ``[batch, height, width, channels]`` or ``[height, width, channels]``, any dtype.
        offset_height, offset_width: ints (or int32 scalar tensors), the window's corner.
        target_height, target_width: ints (or int32 scalar tensors), the window's size.

    Returns:
        ``[batch, target_height, target_width, channels]`` (or without the batch axis),
        ``image``'s dtype.

    Raises:
        ValueError: if ``image`` is not 3-D or 4-D or has an empty inner dimension, an
            offset is negative, a target size is not positive, or the window leaves the image
            (TensorFlow's messages, checked in TensorFlow's order).
        tf.errors.InvalidArgumentError: for those same failures when the offending argument
            is a tensor (TensorFlow's runtime assertion).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(9.0), (3, 3, 1))
        >>> tf.image.crop_to_bounding_box(x, 1, 0, 2, 2)[:, :, 0].numpy()
        array([[3., 4.],
               [6., 7.]], dtype=float32)
    """
    x, is_batch = _batched(image)
    _, h, w, _ = x._value.shape
    oh, oh_t = _value(offset_height)
    ow, ow_t = _value(offset_width)
    th, th_t = _value(target_height)
    tw, tw_t = _value(target_width)
    _check(ow >= 0, ow_t, "offset_width must be >= 0.")
    _check(oh >= 0, oh_t, "offset_height must be >= 0.")
    _check(tw > 0, tw_t, "target_width must be > 0.")
    _check(th > 0, th_t, "target_height must be > 0.")
    _check(w >= tw + ow, tw_t or ow_t, "width must be >= target + offset.")
    _check(h >= th + oh, th_t or oh_t, "height must be >= target + offset.")
    out = _ix.strided_slice_getitem(x, (slice(None), slice(oh, oh + th), slice(ow, ow + tw)))
    return out if is_batch else _a.squeeze(out, [0])


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """``image`` placed with its top-left corner at ``(offset_height, offset_width)`` in a
    zero ``target_height x target_width`` frame (``tf.image.pad_to_bounding_box``).
    Differentiable.

    Args:
        image: ``[batch, height, width, channels]`` or ``[height, width, channels]``.
        offset_height, offset_width: ints (or int32 scalar tensors), rows/columns of zeros
            above/left of the image.
        target_height, target_width: ints (or int32 scalar tensors), the frame's size.

    Returns:
        ``[batch, target_height, target_width, channels]`` (or without the batch axis),
        ``image``'s dtype.

    Raises:
        ValueError: if ``image`` is not 3-D or 4-D or has an empty inner dimension, an
            offset is negative, or the image does not fit (TensorFlow's messages and order);
            ``tf.errors.InvalidArgumentError`` when the offending argument is a tensor.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.pad_to_bounding_box(tf.ones((1, 1, 1)), 1, 0, 2, 2)[:, :, 0].numpy()
        array([[0., 0.],
               [1., 0.]], dtype=float32)
    """
    x, is_batch = _batched(image)
    _, h, w, _ = x._value.shape
    oh, oh_t = _value(offset_height)
    ow, ow_t = _value(offset_width)
    th, th_t = _value(target_height)
    tw, tw_t = _value(target_width)
    after_w, after_h = tw - ow - w, th - oh - h
    _check(oh >= 0, oh_t, "offset_height must be >= 0")
    _check(ow >= 0, ow_t, "offset_width must be >= 0")
    _check(after_w >= 0, tw_t or ow_t, "width must be <= target - offset")
    _check(after_h >= 0, th_t or oh_t, "height must be <= target - offset")
    out = _mn.pad(x, [[0, 0], [oh, after_h], [ow, after_w], [0, 0]])
    return out if is_batch else _a.squeeze(out, [0])


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """``image`` resized to fit ``target_height x target_width`` keeping its aspect ratio,
    then centred with zero padding (``tf.image.resize_with_pad``). The sizes are computed in
    float32 as TensorFlow computes them. Differentiable through ``tf.image.resize``.

    Args:
        image: ``[batch, height, width, channels]`` or ``[height, width, channels]``.
        target_height, target_width: positive ints.
        method: ``'bilinear'`` (float32 result) or ``'nearest'`` (``image``'s dtype), as
            ``tf.image.resize``.
        antialias: as ``tf.image.resize`` (only False).

    Returns:
        ``[batch, target_height, target_width, channels]`` (or without the batch axis).

    Raises:
        ValueError: if ``image`` is not 3-D or 4-D or a target size is not positive.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.resize_with_pad(tf.ones((2, 4, 1)), 4, 4)[:, :, 0].numpy()
        array([[0., 0., 0., 0.],
               [1., 1., 1., 1.],
               [1., 1., 1., 1.],
               [0., 0., 0., 0.]], dtype=float32)
    """
    x, is_batch = _batched(image)
    th, th_t = _value(target_height)
    tw, tw_t = _value(target_width)
    _check(tw > 0, tw_t, "target_width must be > 0.")
    _check(th > 0, th_t, "target_height must be > 0.")
    f32 = np.float32
    _, h, w, _ = x._value.shape
    ratio = max(f32(w) / f32(tw), f32(h) / f32(th))
    rh_f, rw_f = f32(h) / ratio, f32(w) / ratio
    rh, rw = int(np.floor(rh_f)), int(np.floor(rw_f))
    ph = max(0, int(np.floor((f32(th) - rh_f) / f32(2))))
    pw = max(0, int(np.floor((f32(tw) - rw_f) / f32(2))))
    resized = _io.resize(x, [rh, rw], method=method, antialias=antialias)
    out = pad_to_bounding_box(resized, ph, pw, th, tw)
    return out if is_batch else _a.squeeze(out, [0])


def transpose(image, name=None):
    """``image`` with its height and width axes swapped (``tf.image.transpose``).
    Differentiable.

    Args:
        image: ``[batch, height, width, channels]`` or ``[height, width, channels]``.

    Returns:
        ``[batch, width, height, channels]`` (or without the batch axis), same dtype.

    Raises:
        ValueError: if ``image`` has fewer than three dimensions or more than four.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.transpose(tf.ones((2, 3, 1))).shape
        TensorShape([3, 2, 1])
    """
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    nd = x._value.ndim
    if nd < 3:
        raise ValueError(f"'image' (shape {x.shape}) must be at least three-dimensional.")
    if nd == 3:
        return _a.transpose(x, [1, 0, 2])
    if nd == 4:
        return _a.transpose(x, [0, 2, 1, 3])
    raise ValueError(f"'image' (shape {x.shape}) must have either 3 or 4 dimensions.")



def _glimpse_forward(x, size, offsets, noise_draw, centered, normalized, noise):
    n, ih, iw, c = x.shape
    gh, gw = int(size[0]), int(size[1])
    out = np.zeros((n, gh, gw, c), x.dtype)
    f = np.float32
    for i in range(n):
        y, xo = f(offsets[i, 0]), f(offsets[i, 1])
        if normalized:
            xo, y = xo * f(iw), y * f(ih)
            if centered:
                xo, y = xo / f(2) + f(iw) / f(2), y / f(2) + f(ih) / f(2)
                xo, y = xo - f(gw) / f(2), y - f(gh) / f(2)
        elif centered:
            xo, y = xo + f(iw) / f(2), y + f(ih) / f(2)
        ox, oy = int(xo), int(y)   # truncation toward zero, as the kernel's cast
        partial = False
        src_x, dst_x, ext_x = ox, 0, gw
        if ox < 0:
            src_x, ext_x, dst_x, partial = 0, max(0, gw + ox), gw - max(0, gw + ox), True
        elif ox + gw >= iw:
            ext_x, partial = max(0, iw - ox), True
        src_y, dst_y, ext_y = oy, 0, gh
        if oy < 0:
            src_y, ext_y, dst_y, partial = 0, max(0, gh + oy), gh - max(0, gh + oy), True
        elif oy + gh >= ih:
            ext_y, partial = max(0, ih - oy), True
        ext_x, ext_y = min(ext_x, iw - src_x), min(ext_y, ih - src_y)
        if partial:
            img = x[i]
            if noise == "uniform":
                lo = img.min()
                span = np.float32(img.max() - lo)
                out[i] = (lo + (noise_draw[i] * span).astype(x.dtype)).astype(x.dtype)
            elif noise == "gaussian":
                mean = img.astype(np.float32).mean()
                std = img.astype(np.float32).std()
                out[i] = (mean + noise_draw[i] * std).astype(x.dtype)
            if ext_x <= 0 or ext_y <= 0:
                continue
        out[i, dst_y:dst_y + ext_y, dst_x:dst_x + ext_x] = \
            x[i, src_y:src_y + ext_y, src_x:src_x + ext_x]
    return out


_GLIMPSE = nondifferentiable("ExtractGlimpseV2", _glimpse_forward)


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise="uniform", name=None):
    """A ``size`` window of each image at ``offsets`` (``tf.image.extract_glimpse``).

    Offsets are ``(y, x)``: with ``normalized`` and ``centered``, in ``[-1, 1]`` from the
    image centre to the window's centre; with ``normalized`` only, fractions of the image
    size giving the window's top-left corner; otherwise pixels (from the centre when
    ``centered``). The corner is truncated to whole pixels. Where the window leaves the
    image it is filled with noise: ``'uniform'`` in the image's ``[min, max]``,
    ``'gaussian'`` with its mean and deviation (drawn from tapeflow's random stream, so not
    TensorFlow's values), or ``'zero'``. Not differentiable (no gradient in TensorFlow).

    Args:
        input: float32 ``[batch, height, width, channels]``.
        size: int32 ``[glimpse_height, glimpse_width]``.
        offsets: float32 ``[batch, 2]``.

    Returns:
        ``[batch, glimpse_height, glimpse_width, channels]``, ``input``'s dtype.

    Raises:
        tf.errors.InvalidArgumentError: for bad ranks or sizes or an unknown noise.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
        >>> tf.image.extract_glimpse(x, [2, 2], [[0.0, 0.0]], noise='zero')[0, :, :, 0].numpy()
        array([[ 5.,  6.],
               [ 9., 10.]], dtype=float32)
    """
    x = input if isinstance(input, _TensorLike) else convert_to_tensor(input)
    op = "ExtractGlimpseV2"
    sz = size if isinstance(size, _TensorLike) else convert_to_tensor(size, dtype=_dt.int32)
    off = offsets if isinstance(offsets, _TensorLike) else convert_to_tensor(
        offsets, dtype=_dt.float32)

    def fail(text):
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")

    def dims(s):
        return "[" + ",".join(map(str, s)) + "]"
    if noise not in ("uniform", "gaussian", "zero", ""):
        raise fail(f"The noise could only be uniform, gaussian, or zero, got{noise}")
    s = x._value.shape
    if len(s) != 4:
        raise fail(f"input must be 4-dimensional (batch_size, height, width, depth){dims(s)}")
    if sz._value.shape != (2,):
        raise fail(f"input must be a vector of size 2 (height, width){dims(sz._value.shape)}")
    os_ = off._value.shape
    if len(os_) != 2:
        raise fail(f"input must be a matrix{dims(os_)}")
    if os_[0] != s[0]:
        raise fail(f"first dimension should be batch{dims(os_)}")
    if os_[1] != 2:
        raise fail(f"second dimension should be of size 2 (y,x){dims(os_)}")
    gh, gw = (int(v) for v in static_value(sz))
    shape = [s[0], gh, gw, s[3]]
    if noise == "uniform":
        from .random_ops import uniform
        draw = uniform(shape, 0, 1.0)
    elif noise == "gaussian":
        from .random_ops import normal
        draw = normal(shape)
    else:
        draw = _a.zeros_like(Tensor(np.zeros(shape, np.float32)))
    return apply(_GLIMPSE, (x, sz, _a.cast(off, _dt.float32), draw),
                 {"centered": bool(centered), "normalized": bool(normalized),
                  "noise": noise or "uniform"})
