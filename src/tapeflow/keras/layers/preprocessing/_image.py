"""Image resampling for the Keras image layers, written with tapeflow ops.

``resize`` follows ``tf.image.resize`` (half-pixel centres, no antialiasing) and
``affine_transform`` follows TensorFlow's ``ImageProjectiveTransformV3`` kernel (its fill
modes and interpolations). Sampling positions that depend only on static shapes are
constants; those that depend on random transforms are computed with ops, so gradients reach
the images and a traced function recomputes them on every call.
"""
from ...._core.backend import np
from ...._core.tensor import Tensor
from ....ops import array_ops as _a
from ....ops import creation_ops as _cr
from ....ops import indexing_ops as _ix
from ....ops import math_ops as _m

__all__ = ["resize", "affine_transform", "crop_to_aspect_ratio"]

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")
# what Keras's TensorFlow backend resizes with (``keras.ops.image.resize``)
RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def _resize_axis(x, axis, out_size, method):
    in_size = x.shape[axis]
    if in_size == out_size:
        return x
    scale = in_size / out_size
    centres = (np.arange(out_size, dtype=np.float64) + 0.5) * scale
    shape = [1] * len(x.shape)
    shape[axis] = out_size
    if method == "nearest":
        index = np.minimum(np.floor(centres), in_size - 1).astype(np.int32)
        return _ix.gather(x, Tensor(np.maximum(index, 0)), axis=axis)
    pos = (centres - 0.5).astype(np.float32)
    floor = np.floor(pos)
    lower = np.maximum(floor, 0).astype(np.int32)
    upper = np.minimum(np.ceil(pos), in_size - 1).astype(np.int32)
    lerp = Tensor((pos - floor).astype(x.dtype.as_numpy_dtype).reshape(shape))
    low = _ix.gather(x, Tensor(lower), axis=axis)
    high = _ix.gather(x, Tensor(upper), axis=axis)
    return _m.add(low, _m.multiply(_m.subtract(high, low), lerp))


def resize(images, height, width, interpolation="bilinear", antialias=False):
    """``images`` ``(batch, h, w, c)`` resized to ``(batch, height, width, c)``, as
    ``tf.image.resize``: 'bilinear' and 'nearest' here, the other methods
    (``RESIZE_INTERPOLATIONS``) and ``antialias`` by ``tf.image.resize`` itself.

    Integer images are interpolated in float32, then rounded and cast back with saturation,
    as Keras's ``Resizing`` and ``UpSampling2D`` return them.
    """
    dtype = images.dtype
    integer = interpolation != "nearest" and not dtype.is_floating
    if integer:
        images = _a.cast(images, "float32")
    # integer images are rounded afterwards: their float values must be TF's kernel's to
    # the last bit (its order of operations), so they go through tf.image.resize
    if interpolation in INTERPOLATIONS and not antialias and not integer:
        out = _resize_axis(images, 2, width, interpolation)
        out = _resize_axis(out, 1, height, interpolation)
    else:
        from ....ops.image_ops import resize as _tf_resize
        out = _tf_resize(images, [height, width], method=interpolation, antialias=antialias)
    if integer:
        info = np.iinfo(dtype.as_numpy_dtype) if dtype.is_integer else None
        out = _m.round(out)
        if info is not None:
            out = _m.minimum(_m.maximum(out, float(info.min)), float(info.max))
        out = _a.cast(out, dtype)
    return out


def crop_to_aspect_ratio(images, height, width):
    """The largest centred crop of ``images`` with the aspect ratio ``height / width``,
    computed as Keras's TensorFlow backend does (float32 then truncation)."""
    in_h, in_w = images.shape[1], images.shape[2]
    crop_h = max(min(in_h, int(np.float32(in_w * height) / np.float32(width))), 1)
    crop_w = max(min(in_w, int(np.float32(in_h * width) / np.float32(height))), 1)
    top = int(np.float32(in_h - crop_h) / 2)
    left = int(np.float32(in_w - crop_w) / 2)
    return images[:, top:top + crop_h, left:left + crop_w, :]


def _trunc_div(a, b):
    return _m.floor(_m.divide(a, b))


def _map_coordinate(v, size, mode):
    """TensorFlow's ``MapCoordinate`` for ``fill_mode``: where an output coordinate reads."""
    hi = float(size - 1)
    if mode == "constant":
        return v
    if size <= 1 and mode in ("reflect", "wrap"):
        return _m.multiply(v, 0.0)
    if mode == "reflect":
        sz2 = float(2 * size)
        neg = _m.add(_m.multiply(_trunc_div(_m.negative(v), sz2), sz2), v)
        neg = _a.where(_m.less(neg, -float(size)), _m.add(neg, sz2),
                       _m.subtract(_m.negative(neg), 1.0))
        pos = _m.subtract(v, _m.multiply(_trunc_div(v, sz2), sz2))
        pos = _a.where(_m.greater_equal(pos, float(size)), _m.subtract(sz2 - 1.0, pos), pos)
        v = _a.where(_m.less(v, 0.0), neg, _a.where(_m.greater(v, hi), pos, v))
    elif mode == "wrap":
        sz = float(size - 1)
        neg = _m.add(v, _m.multiply(_m.add(_trunc_div(_m.negative(v), sz), 1.0), float(size)))
        pos = _m.subtract(v, _m.multiply(_trunc_div(v, sz), float(size)))
        v = _a.where(_m.less(v, 0.0), neg, _a.where(_m.greater(v, hi), pos, v))
    return _m.minimum(_m.maximum(v, 0.0), hi)


def _read(flat, b, y, x, h, w, fill):
    """``images[b, y, x]`` for float coordinates holding integers; ``fill`` outside."""
    inside = _m.logical_and(_m.logical_and(_m.greater_equal(y, 0.0), _m.less(y, float(h))),
                            _m.logical_and(_m.greater_equal(x, 0.0), _m.less(x, float(w))))
    yc = _m.minimum(_m.maximum(y, 0.0), float(h - 1))
    xc = _m.minimum(_m.maximum(x, 0.0), float(w - 1))
    index = _a.cast(_m.add(_m.multiply(_m.add(_m.multiply(b, float(h)), yc), float(w)), xc),
                    "int32")
    values = _ix.gather(flat, index)
    keep = _a.expand_dims(inside, -1)
    return _a.where(keep, values, _m.add(_a.zeros_like(values), fill))


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="constant",
                     fill_value=0.0):
    """Resample ``images`` ``(batch, h, w, c)`` through ``transforms`` ``(batch, 8)``.

    A row ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps the output point ``(x, y)`` to the
    input point ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`` with
    ``k = c0 x + c1 y + 1``, as ``tf.raw_ops.ImageProjectiveTransformV3``.
    """
    _, h, w, c = images.shape      # the batch size may be None (a relaxed trace)
    dtype = images.dtype
    ys, xs = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32),
                         indexing="ij")
    xs, ys = Tensor(xs[None]), Tensor(ys[None])
    t = _a.cast(transforms, "float32")
    col = [_a.reshape(t[:, i], (-1, 1, 1)) for i in range(8)]
    k = _m.add(_m.add(_m.multiply(col[6], xs), _m.multiply(col[7], ys)), 1.0)
    x_in = _m.divide(_m.add(_m.add(_m.multiply(col[0], xs), _m.multiply(col[1], ys)), col[2]),
                     k)
    y_in = _m.divide(_m.add(_m.add(_m.multiply(col[3], xs), _m.multiply(col[4], ys)), col[5]),
                     k)
    x = _map_coordinate(x_in, w, fill_mode)
    y = _map_coordinate(y_in, h, fill_mode)
    b = _a.reshape(_cr.range(_a.shape(images)[0], dtype="float32"), (-1, 1, 1))
    flat = _a.reshape(images, (-1, c))
    fill = float(fill_value)
    if interpolation == "nearest":
        def rnd(v):  # std::round: halves away from zero
            return _m.multiply(_m.sign(v), _m.floor(_m.add(_m.abs(v), 0.5)))
        out = _read(flat, b, rnd(y), rnd(x), h, w, fill)
    else:
        y0, x0 = _m.floor(y), _m.floor(x)
        y1, x1 = _m.add(y0, 1.0), _m.add(x0, 1.0)
        wx0 = _a.expand_dims(_a.cast(_m.subtract(x1, x), dtype), -1)
        wx1 = _a.expand_dims(_a.cast(_m.subtract(x, x0), dtype), -1)
        wy0 = _a.expand_dims(_a.cast(_m.subtract(y1, y), dtype), -1)
        wy1 = _a.expand_dims(_a.cast(_m.subtract(y, y0), dtype), -1)
        top = _m.add(_m.multiply(wx0, _read(flat, b, y0, x0, h, w, fill)),
                     _m.multiply(wx1, _read(flat, b, y0, x1, h, w, fill)))
        bottom = _m.add(_m.multiply(wx0, _read(flat, b, y1, x0, h, w, fill)),
                        _m.multiply(wx1, _read(flat, b, y1, x1, h, w, fill)))
        out = _m.add(_m.multiply(wy0, top), _m.multiply(wy1, bottom))
    # A point whose projection is 0 reads the fill value, as in TensorFlow.
    degenerate = _a.expand_dims(_m.equal(k, 0.0), -1)
    return _a.where(degenerate, _m.add(_a.zeros_like(out), fill), out)
