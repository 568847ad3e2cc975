"""Image geometry (``tf.image``): crops and pads to a bounding box, resize with padding,
transpose. All are slices, pads and transposes of tapeflow's differentiable ops, so their
gradients are those ops' gradients.

The checks follow TensorFlow's: a Python-int argument that fails raises ``ValueError`` with
TensorFlow's text; a tensor argument fails as TensorFlow's runtime ``Assert`` does,
``InvalidArgumentError`` carrying the same text as its data.
"""
from .._core import errors
from .._core.tensor import _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import image_ops as _io
from . import indexing_ops as _ix
from . import manip_ops as _mn

__all__ = ["crop_to_bounding_box", "pad_to_bounding_box", "resize_with_pad", "transpose"]


def _value(v):
    """(Python int, whether ``v`` was a tensor)."""
    if isinstance(v, _TensorLike):
        return int(v._value), True
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
    import numpy as np
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

