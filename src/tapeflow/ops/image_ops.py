"""Image ops (``tf.image``): patches, flips, rotations, crops, resizing, colour adjustments.

``ExtractImagePatches`` copies each output position's window into one row; its transpose
``ExtractImagePatchesTranspose`` adds rows back into their windows. The two are linear and
each is the other's derivative, so patches get derivatives of any order. Both run on the
strided patch view that backs ``tf.nn``'s convolutions (``nn_conv_ops._patches``).
"""
import builtins

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import defvjp, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import _helpers as _h
from . import array_ops as _a
from . import indexing_ops as _ix
from . import manip_ops as _mn
from . import math_ops as _m
from . import nn_conv_ops as _nc
from . import reduction_ops as _r
from ._helpers import to_tensor

__all__ = ["extract_patches", "flip_left_right", "flip_up_down", "random_flip_left_right",
           "random_flip_up_down", "stateless_random_flip_left_right",
           "stateless_random_flip_up_down", "rot90", "central_crop", "resize",
           "adjust_brightness", "adjust_contrast", "per_image_standardization",
           "convert_image_dtype", "random_brightness", "stateless_random_brightness",
           "random_contrast", "stateless_random_contrast", "random_crop",
           "stateless_random_crop", "resize_with_crop_or_pad", "rgb_to_grayscale",
           "grayscale_to_rgb", "ResizeMethod"]


def _extract_forward(x, ksizes, strides, rates, pads):
    (kh, kw), (sh, sw), (rh, rw) = ksizes, strides, rates
    n, _, _, c = x.shape
    pads = _nc._resolve(pads, x.shape[1:3], ksizes, strides, rates)
    oh = builtins.max(_nc._out_size(x.shape[1], kh, sh, rh, *pads[0]), 0)
    ow = builtins.max(_nc._out_size(x.shape[2], kw, sw, rw, *pads[1]), 0)
    if oh == 0 or ow == 0:
        return np.zeros((n, oh, ow, kh * kw * c), x.dtype)
    view = _nc._patches(_nc._pad(x, pads), kh, kw, sh, sw, rh, rw, oh, ow)
    return np.ascontiguousarray(view).reshape(n, oh, ow, kh * kw * c)


def _extract_transpose_forward(g, input_shape, ksizes, strides, rates, pads):
    pads = _nc._resolve(pads, input_shape[1:3], ksizes, strides, rates)
    (kh, kw), (sh, sw), (rh, rw), ((pt, pb), (pl, pr)) = ksizes, strides, rates, pads
    n, h, w, c = input_shape
    oh, ow = g.shape[1:3]
    dxp = np.zeros((n, h + pt + pb, w + pl + pr, c), g.dtype)
    if g.size:
        g6 = g.reshape(n, oh, ow, kh, kw, c)
        for i in builtins.range(kh):
            for j in builtins.range(kw):
                _nc._window(dxp, i, j, rh, rw, sh, sw, oh, ow)[...] += g6[:, :, :, i, j, :]
    return dxp[:, pt:pt + h, pl:pl + w, :]


# The transpose takes the input whose shape it produces as an input it reads only for its
# shape, so a program traced with relaxed sizes computes each call's gradient shape.
_PATCHES = primitive("ExtractImagePatches", _extract_forward)
_PATCHES_T = primitive("ExtractImagePatchesTranspose", lambda g, x, **a: (
    _extract_transpose_forward(g, x.shape, **a)), save_inputs=False, shape_inputs=(1,))
defvjp(_PATCHES, lambda g, y, x, **a: apply(_PATCHES_T, (g, x), a))
defvjp(_PATCHES_T, lambda g, y, g_shape, x_shape, **a: apply(_PATCHES, (g,), a), None)


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Each output position's window, flattened in (row, column, channel) order.

    TensorFlow counterpart: ``tf.image.extract_patches``.

    Args:
        images: ``[batch, height, width, channels]``.
        sizes: ``[1, size_rows, size_cols, 1]`` (or 1 or 2 ints).
        strides: ``[1, stride_rows, stride_cols, 1]``, the step between windows.
        rates: ``[1, rate_rows, rate_cols, 1]``, the step between a window's cells
            (dilation).
        padding: ``'VALID'`` (windows inside the image) or ``'SAME'`` (zero padding as
            ``tf.nn.conv2d`` pads, ``ceil(size / stride)`` windows).

    Returns:
        ``[batch, out_rows, out_cols, size_rows * size_cols * channels]``, ``images``' dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``images`` is not 4-dimensional or ``sizes``,
            ``strides`` or ``rates`` move along the batch or channel axis.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> p = tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID')
        >>> print(p.shape, p[0, 0, 1].numpy())
        (1, 2, 2, 4) [2. 3. 6. 7.]
    """
    x = to_tensor(images)
    op = "ExtractImagePatches"
    if x._value.ndim != 4:
        raise _nc._err(f"input must be 4-dimensional{_h._show(x._value.shape)}", op)
    k = _nc._spatial(sizes, 2, "ksizes", op)
    st = _nc._spatial(strides, 2, "strides", op)
    rt = _nc._spatial(rates, 2, "rates", op)
    pads = _nc._pads(padding, x._value.shape[1:3], k, st, rt, op)
    return apply(_PATCHES, (x,), {"ksizes": k, "strides": st, "rates": rt, "pads": pads})


# ------------------------------------------------------------------ flips, rotations, crops


def _image(image, name="image"):
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    if x._value.ndim not in (3, 4):
        raise ValueError(f"'{name}' (shape {x.shape}) must be at least three-dimensional.")
    return x


def flip_left_right(image):
    """The image mirrored left to right (``tf.image.flip_left_right``).

    Args:
        image: ``[height, width, channels]`` or ``[batch, height, width, channels]``.

    Returns:
        The flipped image, same shape and dtype (differentiable).

    Raises:
        ValueError: if ``image`` has fewer than three dimensions.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(4), (2, 2, 1))
        >>> tf.image.flip_left_right(x)[:, :, 0].numpy()
        array([[1, 0],
               [3, 2]], dtype=int32)
    """
    x = _image(image)
    return _mn.reverse(x, [x._value.ndim - 2])


def flip_up_down(image):
    """The image mirrored top to bottom (``tf.image.flip_up_down``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.flip_up_down(tf.reshape(tf.range(4), (2, 2, 1)))[:, :, 0].numpy()
        array([[2, 3],
               [0, 1]], dtype=int32)
    """
    x = _image(image)
    return _mn.reverse(x, [x._value.ndim - 3])


def _flip_where(x, u, axis):
    # As TensorFlow decides: one image flips if its draw is below one half, a batch's
    # images where their draws round to 1 (above one half).
    flipped = _mn.reverse(x, [axis])
    if x._value.ndim == 3:
        return _a.where(_m.less(u, 0.5), flipped, x)
    mask = _a.reshape(_m.greater(u, 0.5), (-1, 1, 1, 1))
    return _a.where(_a.broadcast_to(mask, _a.shape(x)), flipped, x)


def _batch(x):
    return [] if x._value.ndim == 3 else [x._value.shape[0]]


def random_flip_left_right(image, seed=None):
    """Each image mirrored left to right with probability 1/2
    (``tf.image.random_flip_left_right``; tapeflow's random stream).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_flip_left_right(tf.ones((2, 2, 3))).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    x = _image(image)
    return _flip_where(x, uniform(_batch(x), 0, 1.0, seed=seed), x._value.ndim - 2)


def random_flip_up_down(image, seed=None):
    """Each image mirrored top to bottom with probability 1/2
    (``tf.image.random_flip_up_down``; tapeflow's random stream).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_flip_up_down(tf.ones((2, 2, 3))).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    x = _image(image)
    return _flip_where(x, uniform(_batch(x), 0, 1.0, seed=seed), x._value.ndim - 3)


def stateless_random_flip_left_right(image, seed):
    """Each image mirrored left to right where its ``stateless_uniform`` draw is below 1/2
    (``tf.image.stateless_random_flip_left_right``: TensorFlow's exact choice).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_flip_left_right(tf.reshape(tf.range(2), (1, 2, 1)), seed=[1,
        ...     2])[0, :, 0].numpy()
        array([0, 1], dtype=int32)
    """
    from .stateless_random_ops import stateless_uniform
    x = _image(image)
    return _flip_where(x, stateless_uniform(_batch(x), seed), x._value.ndim - 2)


def stateless_random_flip_up_down(image, seed):
    """Each image mirrored top to bottom where its ``stateless_uniform`` draw is below 1/2
    (``tf.image.stateless_random_flip_up_down``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_flip_up_down(tf.reshape(tf.range(2), (2, 1, 1)), seed=[1,
        ...     2])[:, 0, 0].numpy()
        array([0, 1], dtype=int32)
    """
    from .stateless_random_ops import stateless_uniform
    x = _image(image)
    return _flip_where(x, stateless_uniform(_batch(x), seed), x._value.ndim - 3)


def rot90(image, k=1, name=None):
    """The image rotated ``k`` quarter turns counter-clockwise (``tf.image.rot90``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rot90(tf.reshape(tf.range(4), (2, 2, 1)))[:, :, 0].numpy()
        array([[1, 3],
               [0, 2]], dtype=int32)
    """
    x = _image(image)
    h = x._value.ndim - 3
    perm = list(range(x._value.ndim))
    perm[h], perm[h + 1] = perm[h + 1], perm[h]
    k = int(k._value if isinstance(k, _TensorLike) else k) % 4
    if k == 1:
        return _a.transpose(_mn.reverse(x, [h + 1]), perm)
    if k == 2:
        return _mn.reverse(x, [h, h + 1])
    if k == 3:
        return _mn.reverse(_a.transpose(x, perm), [h + 1])
    return x


def central_crop(image, central_fraction):
    """The central ``central_fraction`` of the image, as ``tf.image.central_crop`` cuts it.

    Raises:
        ValueError: if ``central_fraction`` is not in (0, 1].

    Example:
        >>> import tapeflow as tf
        >>> tf.image.central_crop(tf.ones((4, 4, 3)), 0.5).shape
        TensorShape([2, 2, 3])
    """
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    x = _image(image)
    if central_fraction == 1.0:
        return x
    h_ax = x._value.ndim - 3
    if ACTIVE[0] and current_tracer() is not None:
        # traced: the bounds are computed from each call's sizes, as TensorFlow's ops do
        hw = _a.shape(x)[h_ax:h_ax + 2]
        f = _a.cast(hw, _dt.float64)
        start = _a.cast(_m.divide(_m.subtract(f, _m.multiply(f, float(central_fraction))),
                                  2.0), _dt.int32)
        zeros = Tensor(np.zeros(h_ax, np.int32))
        begin = _a.concat([zeros, start, Tensor(np.zeros(1, np.int32))], 0)
        size = _a.concat([Tensor(np.full(h_ax, -1, np.int32)),
                          _m.subtract(hw, _m.multiply(start, 2)),
                          Tensor(np.full(1, -1, np.int32))], 0)
        return _ix.traced_slice(x, begin, size)
    h, w = x._value.shape[h_ax], x._value.shape[h_ax + 1]
    top = int((h - h * central_fraction) / 2)
    left = int((w - w * central_fraction) / 2)
    key = (slice(None),) * h_ax + (slice(top, h - top), slice(left, w - left))
    return _ix.strided_slice_getitem(x, key)


# ----------------------------------------------------------------------------- resize


class ResizeMethod:
    """The names of ``tf.image.resize``'s methods (``tf.image.ResizeMethod``)."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _bilinear_axis(in_size, out_size):
    # TensorFlow's half-pixel weights (compute_interpolation_weights), in float32.
    scale = np.float32(in_size) / np.float32(out_size)
    pos = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    return lower, upper, (pos - floor).astype(np.float32)


def _nearest_axis(in_size, out_size):
    scale = np.float32(in_size) / np.float32(out_size)
    pos = np.floor((np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale)
    return np.clip(pos.astype(np.int64), 0, in_size - 1)


def resize(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False,
           name=None):
    """Images resized to ``size`` (``tf.image.resize``), with TensorFlow 2's half-pixel
    centres; ``'bilinear'``, ``'bicubic'`` and ``'area'`` give float32, ``'nearest'`` keeps
    the dtype. Differentiable, except ``'area'`` (TF registers no gradient for ResizeArea).

    Args:
        images: ``[height, width, channels]`` or ``[batch, height, width, channels]``.
        size: ``[new_height, new_width]``.
        method: ``'bilinear'`` (default), ``'nearest'``, ``'bicubic'`` (Keys' cubic,
            a = -0.5, TF's coefficient table), ``'area'``, or a ``ScaleAndTranslate``
            kernel: ``'lanczos3'``, ``'lanczos5'``, ``'gaussian'``, ``'mitchellcubic'``.
        antialias: widen the kernel by the downscale factor (bilinear, bicubic and the
            ``ScaleAndTranslate`` kernels; ignored for nearest and area, as TF).

    Raises:
        ValueError: for another method, antialiasing, or a bad ``size``.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([0.0, 1.0, 2.0, 3.0]), (2, 2, 1))
        >>> tf.image.resize(x, [1, 1])[0, 0, 0].numpy()
        np.float32(1.5)
    """
    x = _image(images, "images")
    method = getattr(method, "value", method)
    methods = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
               "mitchellcubic")
    if method not in methods:
        raise ValueError(f"Resize method is not implemented: {method}")
    size = [int(d) for d in (size._value.tolist() if isinstance(size, _TensorLike) else size)]
    if len(size) != 2 or min(size) <= 0:
        raise ValueError(f"'size' must be a 1-D Tensor of 2 positive elements, got {size}")
    squeeze = x._value.ndim == 3
    if squeeze:
        x = _a.expand_dims(x, 0)
    h, w = x._value.shape[1:3]
    if preserve_aspect_ratio:
        scale = min(size[0] / h, size[1] / w)
        size = [int(round(h * scale)), int(round(w * scale))]
    from . import image_resize_ops as _rz
    kernel = {"lanczos3": "lanczos3", "lanczos5": "lanczos5", "gaussian": "gaussian",
              "mitchellcubic": "mitchellcubic"}.get(method)
    if antialias and method in ("bilinear", "bicubic"):
        kernel = "triangle" if method == "bilinear" else "keyscubic"
    if kernel is not None:
        scale = [float(np.float32(np.float32(n) / np.float32(o))) for n, o in zip(size, (h, w))]
        out = _rz.scale_and_translate(x, size, scale, (0.0, 0.0), kernel, antialias)
    elif method in ("bicubic", "area"):
        out = (_rz.resize_bicubic if method == "bicubic" else _rz.resize_area)(x, size)
    elif method == "nearest":
        out = _ix._gather_dense(x, Tensor(_nearest_axis(h, size[0])), axis=1)
        out = _ix._gather_dense(out, Tensor(_nearest_axis(w, size[1])), axis=2)
    else:
        if x.dtype != _dt.float32:
            x = _a.cast(x, _dt.float32)
        ylo, yhi, ylerp = _bilinear_axis(h, size[0])
        xlo, xhi, xlerp = _bilinear_axis(w, size[1])
        top, bottom = (_ix._gather_dense(x, Tensor(i), axis=1) for i in (ylo, yhi))
        xl = Tensor(xlerp.reshape(1, 1, -1, 1))

        def across(rows):
            left = _ix._gather_dense(rows, Tensor(xlo), axis=2)
            right = _ix._gather_dense(rows, Tensor(xhi), axis=2)
            return _m.add(left, _m.multiply(_m.subtract(right, left), xl))
        t, b = across(top), across(bottom)
        out = _m.add(t, _m.multiply(_m.subtract(b, t), Tensor(ylerp.reshape(1, -1, 1, 1))))
    return _a.squeeze(out, [0]) if squeeze else out


# ------------------------------------------------------------------------------ colour


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Pixel values rescaled between dtypes: integers span their range, floats ``[0, 1)``
    (``tf.image.convert_image_dtype``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32).numpy()
        array([0., 1.], dtype=float32)
    """
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    dtype = _dt.as_dtype(dtype)
    src = x.dtype
    if src == dtype:
        return x
    if src.is_integer and dtype.is_integer:
        sbits, dbits = src._np.itemsize * 8, dtype._np.itemsize * 8
        v = x._value.astype(np.int64)
        shift = (sbits - (1 if src._np.kind == "i" else 0)) - \
            (dbits - (1 if dtype._np.kind == "i" else 0))
        out = v >> shift if shift > 0 else v << -shift
        return Tensor(out.astype(dtype._np))
    if src.is_integer:
        scale = 1.0 / np.iinfo(src._np).max
        return _m.multiply(_a.cast(x, dtype), Tensor(dtype._np.type(scale)))
    if dtype.is_integer:
        scaled = _m.multiply(x, Tensor(src._np.type(np.iinfo(dtype._np).max + 0.5)))
        if saturate:
            info = np.iinfo(dtype._np)
            scaled = _m.maximum(_m.minimum(scaled, Tensor(src._np.type(info.max))),
                                Tensor(src._np.type(info.min)))
        return _a.cast(scaled, dtype)
    return _a.cast(x, dtype)


def adjust_brightness(image, delta):
    """``image + delta``, computed in float for integer images
    (``tf.image.adjust_brightness``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_brightness(tf.constant([[[0.25]]]), 0.5).numpy()
        array([[[0.75]]], dtype=float32)
    """
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    orig = x.dtype
    # As TensorFlow: float16/float32 images stay, others go through float32 and back.
    flt = x if orig in (_dt.float16, _dt.float32) else convert_image_dtype(x, _dt.float32)
    out = _m.add(flt, _a.cast(delta, flt.dtype) if isinstance(delta, _TensorLike) else
                 Tensor(flt._value.dtype.type(delta)))
    return convert_image_dtype(out, orig, saturate=True)


def _contrast_forward(x, factor):
    mean = x.mean(axis=(-3, -2), keepdims=True, dtype=np.float64).astype(x.dtype)
    return ((x - mean) * np.asarray(factor, x.dtype) + mean).astype(x.dtype)


def _no_gradient(op_type):
    # TensorFlow registers no gradient for these: its tape raises LookupError, so does ours.
    def rule(g, y, *inputs, **attrs):
        raise LookupError(f"gradient registry has no entry for: {op_type}")
    return rule


_CONTRAST = primitive("AdjustContrastv2", _contrast_forward, save_inputs=False)
defvjp(_CONTRAST, _no_gradient("AdjustContrastv2"), _no_gradient("AdjustContrastv2"))


def adjust_contrast(images, contrast_factor):
    """Each channel pushed away from (or towards) its mean: ``(x - mean) * factor + mean``,
    the mean over height and width (``tf.image.adjust_contrast``).

    As in TensorFlow the op has no registered gradient: a tape asked to differentiate
    through it raises ``LookupError``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_contrast(tf.constant([[[1.0], [3.0]]]), 2.0).numpy()[:, :, 0]
        array([[0., 4.]], dtype=float32)
    """
    x = _image(images, "images")
    orig = x.dtype
    flt = x if orig.is_floating else convert_image_dtype(x, _dt.float32)
    # The factor is an input (a random one is drawn anew when a traced program replays).
    factor = _a.cast(contrast_factor, flt.dtype) if isinstance(contrast_factor, _TensorLike) \
        else Tensor(flt._value.dtype.type(contrast_factor))
    out = apply(_CONTRAST, (flt, factor))
    return out if orig.is_floating else convert_image_dtype(out, orig, saturate=True)


def per_image_standardization(image):
    """Each image scaled to mean 0 and variance 1: ``(x - mean) / max(stddev,
    1/sqrt(N))`` over its pixels and channels (``tf.image.per_image_standardization``).
    Differentiable; the result is float32 whatever the input's dtype, as in TensorFlow.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.per_image_standardization(tf.constant([[[1.0], [3.0]]])).numpy()[:, :, 0]
        array([[-1.,  1.]], dtype=float32)
    """
    x = _a.cast(_image(image), _dt.float32)  # float32 whatever the input, as TensorFlow
    axes = [-1, -2, -3]
    n = int(np.prod(x._value.shape[-3:]))
    mean = _r.reduce_mean(x, axis=axes, keepdims=True)
    std = _r.reduce_std(x, axis=axes, keepdims=True)
    floor = Tensor(x._value.dtype.type(1.0 / np.sqrt(n)))
    return _m.divide(_m.subtract(x, mean), _m.maximum(std, floor))




# ---------------------------------------------------------------- random augmentation


def random_brightness(image, max_delta, seed=None):
    """``adjust_brightness`` by a delta drawn from ``[-max_delta, max_delta)``
    (``tf.image.random_brightness``; tapeflow's random stream).

    Raises:
        ValueError: if ``max_delta`` is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_brightness(tf.ones((2, 2, 3)), 0.1).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_brightness(image, max_delta, seed):
    """``adjust_brightness`` by ``stateless_uniform([], seed, -max_delta, max_delta)``
    (``tf.image.stateless_random_brightness``: TensorFlow's exact delta).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_brightness(tf.zeros((1, 1, 1)), 0.5, seed=[1,
        ...     2]).numpy().round(4)
        array([[[0.3441]]], dtype=float32)
    """
    from .stateless_random_ops import stateless_uniform
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, stateless_uniform([], seed, -max_delta, max_delta))


def _check_contrast(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_contrast(image, lower, upper, seed=None):
    """``adjust_contrast`` by a factor drawn from ``[lower, upper)``
    (``tf.image.random_contrast``; tapeflow's random stream).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_contrast(tf.ones((2, 2, 3)), 0.5, 1.5).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    _check_contrast(lower, upper)
    return adjust_contrast(image, uniform([], lower, upper, seed=seed))


def stateless_random_contrast(image, lower, upper, seed):
    """``adjust_contrast`` by ``stateless_uniform([], seed, lower, upper)``
    (``tf.image.stateless_random_contrast``: TensorFlow's exact factor).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_contrast(tf.ones((2, 2, 1)), 0.5, 1.5, seed=[1, 2]).shape
        TensorShape([2, 2, 1])
    """
    from .stateless_random_ops import stateless_uniform
    _check_contrast(lower, upper)
    return adjust_contrast(image, stateless_uniform([], seed, lower, upper))


def _crop_at(x, size, draws, limit):
    # Offsets stay tensors (draw % limit) and the crop is a gather per axis: a replayed
    # program crops where its new draws say, and the gradient reaches the image.
    offsets = _m.floormod(draws, Tensor(np.array(limit, np.int32)))
    out = x
    for ax, s in enumerate(size):
        if s == x._value.shape[ax]:
            continue
        idx = _m.add(Tensor(np.arange(s, dtype=np.int32)), offsets[ax])
        out = _ix._gather_dense(out, idx, axis=ax)
    return out


def _crop_size(x, size):
    size = [int(d) for d in (size._value.tolist() if isinstance(size, _TensorLike) else size)]
    shape = x._value.shape
    if len(size) != len(shape) or any(s > d for s, d in zip(size, shape)):
        # TensorFlow's Assert op text (its data follows on further lines).
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            "Summarized data: b'Need value.shape >= size, got '")
    return size, [d - s + 1 for s, d in zip(size, shape)]


def random_crop(value, size, seed=None, name=None):
    """A ``size`` slice of ``value`` at a random offset (``tf.image.random_crop``;
    tapeflow's random stream).

    Raises:
        tf.errors.InvalidArgumentError: if ``size`` exceeds ``value``'s shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_crop(tf.ones((4, 4, 3)), [2, 2, 3]).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    x = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
    size, limit = _crop_size(x, size)
    draws = uniform([len(size)], 0, np.iinfo(np.int32).max, dtype=_dt.int32, seed=seed)
    return _crop_at(x, size, draws, limit)


def stateless_random_crop(value, size, seed, name=None):
    """A ``size`` slice of ``value`` at TensorFlow's offset for ``seed``
    (``tf.image.stateless_random_crop``): ``stateless_uniform(int32 full range) % limit``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_crop(tf.reshape(tf.range(9), (3, 3, 1)), [2, 2, 1], seed=[1,
        ...     2])[:, :, 0].numpy()
        array([[1, 2],
               [4, 5]], dtype=int32)
    """
    from .stateless_random_ops import stateless_uniform
    x = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
    size, limit = _crop_size(x, size)
    draws = stateless_uniform([len(size)], seed, 0, np.iinfo(np.int32).max, dtype=_dt.int32)
    return _crop_at(x, size, draws, limit)


def resize_with_crop_or_pad(image, target_height, target_width):
    """The image centred in a ``target_height x target_width`` frame: cropped where larger,
    zero-padded where smaller (``tf.image.resize_with_crop_or_pad``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.resize_with_crop_or_pad(tf.ones((2, 2, 1)), 4, 1)[:, :, 0].numpy()
        array([[0.],
               [1.],
               [1.],
               [0.]], dtype=float32)
    """
    x = _image(image)
    h_ax = x._value.ndim - 3
    h, w = x._value.shape[h_ax:h_ax + 2]
    th, tw = int(target_height), int(target_width)
    top, left = max((h - th) // 2, 0), max((w - tw) // 2, 0)
    key = (slice(None),) * h_ax + (slice(top, top + min(h, th)), slice(left, left + min(w, tw)))
    x = _ix.strided_slice_getitem(x, key)
    pt, pl = max((th - h) // 2, 0), max((tw - w) // 2, 0)
    pads = [[0, 0]] * h_ax + [[pt, th - min(h, th) - pt], [pl, tw - min(w, tw) - pl], [0, 0]]
    return _mn.pad(x, pads)


def rgb_to_grayscale(images, name=None):
    """Luma ``0.2989 R + 0.587 G + 0.114 B`` with one channel kept
    (``tf.image.rgb_to_grayscale``; integer images computed in float32 and converted back).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_grayscale(tf.constant([[[1.0, 1.0, 1.0]]])).shape
        TensorShape([1, 1, 1])
    """
    x = images if isinstance(images, _TensorLike) else convert_to_tensor(images)
    orig = x.dtype
    flt = convert_image_dtype(x, _dt.float32)
    weights = Tensor(np.array([0.2989, 0.5870, 0.1140], np.float32))
    gray = _r.reduce_sum(_m.multiply(flt, weights), axis=-1, keepdims=True)
    return convert_image_dtype(gray, orig)


def grayscale_to_rgb(images, name=None):
    """The one channel repeated three times (``tf.image.grayscale_to_rgb``).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.grayscale_to_rgb(tf.constant([[[0.5]]])).numpy()
        array([[[0.5, 0.5, 0.5]]], dtype=float32)
    """
    x = images if isinstance(images, _TensorLike) else convert_to_tensor(images)
    return _a.concat([x, x, x], axis=-1)
