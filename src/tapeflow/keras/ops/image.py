"""``keras.ops.image``: Keras 3's image functions (channels-last) over ``tf.image``."""
import itertools

import numpy as np

from ._base import cast, dt, family, float_of, result_type, tensor, tf

__all__ = ["resize", "extract_patches", "rgb_to_grayscale", "pad_images", "crop_images",
           "rgb_to_hsv", "hsv_to_rgb", "gaussian_blur", "sobel_edges", "ssim",
           "extract_patches_3d", "map_coordinates", "affine_transform",
           "perspective_transform", "scale_and_translate", "elastic_transform"]


def _batched(images):
    x = tensor(images)
    if len(x.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         f"(batch of images). Received input with shape: images.shape={x.shape}")
    single = len(x.shape) == 3
    return (tf.expand_dims(x, 0) if single else x), single


def _unbatch(x, single):
    return tf.squeeze(x, 0) if single else x


def _channels_first(x, data_format, back=False):
    if data_format != "channels_first":
        return x
    return tf.transpose(x, [0, 3, 1, 2] if back else [0, 2, 3, 1])


def _pad_to_aspect_ratio(x, height, width, fill_value=0.0):
    """``x`` ``(batch, h, w, c)`` padded with ``fill_value`` to the aspect ratio
    ``height / width`` as Keras's TensorFlow backend pads it: the same band on both sides
    (an odd remainder is dropped), sizes by integer truncation (also ``Resizing``'s)."""
    h, w = x.shape[1], x.shape[2]
    ph = max(h, int(w * height / width))
    pw = max(w, int(h * width / height))
    top, left = (ph - h) // 2, (pw - w) // 2
    if not (top or left):
        return x
    return tf.pad(x, [[0, 0], [top, top], [left, left], [0, 0]],
                  constant_values=cast(fill_value, dt(x)))


def resize(images, size, interpolation="bilinear", antialias=False,
           crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, fill_mode="constant",
           fill_value=0.0, data_format=None):
    """Images resized to ``size`` = (height, width) (``keras.ops.image.resize``).

    Args:
        images: (height, width, channels) or (batch, height, width, channels).
        size: (height, width).
        interpolation: "bilinear", "nearest", "bicubic", "area", ...
        antialias: whether to filter when downsampling.
        crop_to_aspect_ratio: crop the centre to the target aspect ratio first.
        pad_to_aspect_ratio: pad with ``fill_value`` to the target aspect ratio first.
        data_format: "channels_last" (default) or "channels_first".

    Returns:
        Images of the new size; float inputs keep their dtype, integers give float32.

    Raises:
        ValueError: for images of rank other than 3 or 4, or a bad ``size``.
    """
    if len(size) != 2:
        raise ValueError("Expected `size` to be a tuple of 2 integers. "
                         f"Received: size={size}")
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    h, w = x.shape[1], x.shape[2]
    th, tw = size
    if crop_to_aspect_ratio:
        ch = min(h, int(round(w * th / tw)))
        cw = min(w, int(round(h * tw / th)))
        top, left = (h - ch) // 2, (w - cw) // 2
        x = x[:, top:top + ch, left:left + cw, :]
    elif pad_to_aspect_ratio:
        x = _pad_to_aspect_ratio(x, th, tw, fill_value)
    d = dt(x)
    out = tf.image.resize(x, [th, tw], method=interpolation, antialias=antialias)
    if family(d) == "f":
        out = cast(out, d)
    out = _channels_first(out, data_format, back=True)
    return _unbatch(out, single)


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """Patches of ``size`` flattened into the channel axis
    (``keras.ops.image.extract_patches``).

    Args:
        images: (h, w, c) or (batch, h, w, c).
        size: an int or (ph, pw).
        strides: default ``size``.
        dilation_rate: an int.
        padding: "valid" or "same".

    Returns:
        (batch, out_h, out_w, ph * pw * c).
    """
    ph, pw = (size, size) if isinstance(size, int) else size
    if strides is None:
        strides = (ph, pw)
    sh, sw = (strides, strides) if isinstance(strides, int) else strides
    r = dilation_rate if isinstance(dilation_rate, int) else dilation_rate[0]
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    out = tf.image.extract_patches(x, [1, ph, pw, 1], [1, sh, sw, 1], [1, r, r, 1],
                                   padding.upper())
    out = _channels_first(out, data_format, back=True)
    return _unbatch(out, single)


def rgb_to_grayscale(images, data_format=None):
    """RGB images as one-channel luminance (``keras.ops.image.rgb_to_grayscale``)."""
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    d = dt(x)
    xf = float_of(x)
    w = tf.constant([0.2989, 0.587, 0.114], dtype=xf.dtype)
    out = tf.reduce_sum(xf * w, axis=-1, keepdims=True)
    out = cast(out, d)
    return _unbatch(_channels_first(out, data_format, back=True), single)


def _sides(size, before, after, target, what):
    if before is None and after is None:
        return 0, 0
    if before is None:
        before = target - size - after
    if after is None:
        after = target - size - before if target is not None else 0
    if before < 0 or after < 0:
        raise ValueError(f"The {what} would be negative.")
    return before, after


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None,
               data_format=None):
    """Images padded with zeros on each side (``keras.ops.image.pad_images``)."""
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    h, w = x.shape[1], x.shape[2]
    top, bottom = _sides(h, top_padding, bottom_padding, target_height, "padding")
    left, right = _sides(w, left_padding, right_padding, target_width, "padding")
    out = tf.pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    return _unbatch(_channels_first(out, data_format, back=True), single)


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None,
                data_format=None):
    """Images cropped on each side (``keras.ops.image.crop_images``)."""
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    h, w = x.shape[1], x.shape[2]
    top = top_cropping or 0
    left = left_cropping or 0
    th = target_height if target_height is not None else h - top - (bottom_cropping or 0)
    tw = target_width if target_width is not None else w - left - (right_cropping or 0)
    out = x[:, top:top + th, left:left + tw, :]
    return _unbatch(_channels_first(out, data_format, back=True), single)


def _need_float_images(x):
    if family(dt(x)) != "f":
        raise ValueError("Invalid images dtype: expected float dtype. "
                         f"Received: images.dtype={dt(x)}")


def rgb_to_hsv(images, data_format=None):
    """RGB images in [0, 1] as hue, saturation, value in [0, 1]
    (``keras.ops.image.rgb_to_hsv``).

    Raises:
        ValueError: for images of rank other than 3 or 4, or not float.
    """
    x, single = _batched(images)
    _need_float_images(x)
    x = _channels_first(x, data_format)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = tf.reduce_max(x, axis=-1)
    delta = v - tf.reduce_min(x, axis=-1)
    zero = tf.zeros_like(v)
    safe_v = tf.where(v > 0, v, tf.ones_like(v))
    s = tf.where(v > 0, delta / safe_v, zero)
    safe_d = tf.where(delta > 0, delta, tf.ones_like(delta))
    h = tf.where(tf.equal(v, r), (g - b) / safe_d,
                 tf.where(tf.equal(v, g), (b - r) / safe_d + 2.0, (r - g) / safe_d + 4.0))
    h = tf.where(delta > 0, h / 6.0, zero)
    h = tf.where(h < 0, h + 1.0, h)
    out = tf.stack([h, s, v], axis=-1)
    return _unbatch(_channels_first(out, data_format, back=True), single)


def hsv_to_rgb(images, data_format=None):
    """Hue, saturation, value images as RGB (``keras.ops.image.hsv_to_rgb``).

    Raises:
        ValueError: for images of rank other than 3 or 4, or not float.
    """
    x, single = _batched(images)
    _need_float_images(x)
    x = _channels_first(x, data_format)
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    # each channel is v - v s w(k), w the piecewise-linear hue wheel, k = (n + 6 h) mod 6
    chans = []
    for n in (5.0, 3.0, 1.0):
        k = tf.math.floormod(h * 6.0 + n, 6.0)
        w = tf.clip_by_value(tf.minimum(k, 4.0 - k), 0.0, 1.0)
        chans.append(v - v * s * w)
    out = tf.stack(chans, axis=-1)
    return _unbatch(_channels_first(out, data_format, back=True), single)


def _gaussian_1d(size, sigma):
    x = np.arange(size) - (size - 1) / 2
    k = np.exp(-0.5 * (x / sigma) ** 2)
    return k / k.sum()


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Images blurred by a Gaussian kernel, zero-padded to keep their size
    (``keras.ops.image.gaussian_blur``).

    Args:
        images: (h, w, c) or (batch, h, w, c) floats.
        kernel_size: (kh, kw).
        sigma: the standard deviations (y, x).

    Returns:
        Images of the same shape and dtype.
    """
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    kh, kw = kernel_size
    # Keras lays the (y, x) outer product out as (kh, kw): the same for square kernels
    k2 = np.outer(_gaussian_1d(kw, sigma[1]), _gaussian_1d(kh, sigma[0])).reshape(kh, kw)
    c = x.shape[-1]
    kernel = np.tile(k2.reshape(kh, kw, 1, 1), (1, 1, c, 1)).astype(dt(x))
    out = tf.nn.depthwise_conv2d(x, tf.constant(kernel), [1, 1, 1, 1], "SAME")
    return _unbatch(_channels_first(out, data_format, back=True), single)


def sobel_edges(images, data_format=None):
    """The Sobel gradients (dy, dx) of each channel, reflect-padded
    (``keras.ops.image.sobel_edges``).

    Args:
        images: (batch, h, w, c) floats.

    Returns:
        (batch, h, w, c, 2): the vertical then the horizontal response.
    """
    x = tensor(images)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 1])
    h, w = x.shape[1], x.shape[2]
    p = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float64)
    outs = []
    for k in (ky, ky.T):
        acc = None
        for i in range(3):
            for j in range(3):
                if k[i, j]:
                    term = p[:, i:i + h, j:j + w, :] * tf.cast(k[i, j], x.dtype)
                    acc = term if acc is None else acc + term
        outs.append(acc)
    edges = tf.stack(outs, axis=-1)
    if data_format == "channels_first":
        edges = tf.transpose(edges, [0, 3, 1, 2, 4])
    return edges


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         data_format=None):
    """The structural similarity of two images, Gaussian-weighted local statistics over
    the valid window positions, averaged over positions and channels
    (``keras.ops.image.ssim``).

    Args:
        image1, image2: (h, w, c) or (batch, h, w, c), at least ``filter_size`` wide.
        max_val: the dynamic range of the pixels.
        filter_size, filter_sigma: the Gaussian window.
        k1, k2: the stabilising constants' factors.

    Returns:
        (batch,) values, or a scalar for single images, in ``image1``'s dtype.

    Raises:
        ValueError: for images of rank other than 3 or 4.
    """
    a, single = _batched(image1)
    b, _ = _batched(image2)
    d = dt(a)
    compute = result_type(d, float)
    a, b = cast(a, compute), cast(b, compute)
    if data_format == "channels_first":
        a, b = _channels_first(a, data_format), _channels_first(b, data_format)
    g = _gaussian_1d(filter_size, filter_sigma)
    c = a.shape[-1]
    kernel = tf.constant(np.tile(np.outer(g, g).reshape(filter_size, filter_size, 1, 1),
                                 (1, 1, c, 1)).astype(compute))

    def local(v):
        return tf.nn.depthwise_conv2d(v, kernel, [1, 1, 1, 1], "VALID")
    mu1, mu2 = local(a), local(b)
    s11 = local(a * a) - mu1 * mu1
    s22 = local(b * b) - mu2 * mu2
    s12 = local(a * b) - mu1 * mu2
    c1 = tf.cast((k1 * max_val) ** 2, a.dtype)
    c2 = tf.cast((k2 * max_val) ** 2, a.dtype)
    two = tf.cast(2.0, a.dtype)
    smap = (two * mu1 * mu2 + c1) * (two * s12 + c2) / \
        ((mu1 * mu1 + mu2 * mu2 + c1) * (s11 + s22 + c2))
    out = tf.reduce_mean(smap, axis=[1, 2, 3])
    return cast(out[0] if single else out, d)


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid",
                       data_format=None):
    """Patches of ``size`` from volumes, flattened into the channel axis in (pd, ph, pw, c)
    order (``keras.ops.image.extract_patches_3d``), gathered by strided slices.

    Args:
        volumes: (d, h, w, c) or (batch, d, h, w, c).
        size: an int or (pd, ph, pw); strides default ``size``.
        padding: "valid" or "same".

    Returns:
        (batch, out_d, out_h, out_w, pd * ph * pw * c) (no batch axis for one volume).

    Raises:
        TypeError: for a ``size`` that is not an int or a triple.
    """
    if isinstance(size, int):
        size = (size, size, size)
    elif len(size) != 3:
        raise TypeError("Invalid `size` argument. Expected an int or a tuple of length 3. "
                        f"Received: size={size}")
    strides = size if strides is None else strides
    if isinstance(strides, int):
        strides = (strides,) * 3
    x = tensor(volumes)
    single = len(x.shape) == 4
    if single:
        x = tf.expand_dims(x, 0)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 4, 1])
    rates = (dilation_rate,) * 3 if isinstance(dilation_rate, int) else tuple(dilation_rate)
    spatial = x.shape.as_list()[1:4]
    outs, pads = [], []
    for n, k, s, r in zip(spatial, size, strides, rates):
        span = r * (k - 1) + 1
        if padding.lower() == "same":
            o = -(-n // s)
            total = max((o - 1) * s + span - n, 0)
            pads.append([total // 2, total - total // 2])
        else:
            o = (n - span) // s + 1
            pads.append([0, 0])
        outs.append(o)
    x = tf.pad(x, [[0, 0]] + pads + [[0, 0]])
    pieces = []
    for i in range(size[0]):
        for j in range(size[1]):
            for k in range(size[2]):
                a, b, c = i * rates[0], j * rates[1], k * rates[2]
                pieces.append(x[:, a:a + (outs[0] - 1) * strides[0] + 1:strides[0],
                                b:b + (outs[1] - 1) * strides[1] + 1:strides[1],
                                c:c + (outs[2] - 1) * strides[2] + 1:strides[2], :])
    out = tf.concat(pieces, axis=-1)
    if data_format == "channels_first":
        out = tf.transpose(out, [0, 4, 1, 2, 3])
    return tf.squeeze(out, 0) if single else out


_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _fold_index(index, size, fill_mode):
    """An integer index brought inside [0, size) by ``fill_mode``, and where it is valid."""
    everywhere = tf.ones_like(index, dtype=tf.bool)
    if fill_mode == "constant":
        return tf.clip_by_value(index, 0, size - 1), tf.logical_and(index >= 0, index < size)
    if fill_mode == "nearest":
        return tf.clip_by_value(index, 0, size - 1), everywhere
    if fill_mode == "wrap":
        return tf.math.floormod(index, size), everywhere
    a = tf.abs(index)
    m = tf.math.floormod(a, 2 * size)
    inside = m < size
    folded = tf.where(inside, m, 2 * size - m)
    if fill_mode == "reflect":
        folded = tf.where(inside, folded, folded - 1)
    return folded, everywhere


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """``inputs`` sampled at ``coordinates`` by nearest (order 0) or linear (order 1)
    interpolation (``keras.ops.image.map_coordinates``), as SciPy's ``map_coordinates``.

    Args:
        inputs: a tensor of rank n.
        coordinates: (n, ...) sample positions, one row per axis of ``inputs``.
        order: 0 or 1.
        fill_mode: "constant", "nearest", "wrap", "mirror" or "reflect".
        fill_value: the value outside for "constant".

    Returns:
        A tensor of ``coordinates.shape[1:]`` in ``inputs``' dtype (integers rounded).

    Raises:
        ValueError: for coordinates that do not match ``inputs``' rank, another order or
            fill mode.
    """
    x = tensor(inputs)
    coords = tensor(coordinates)
    if coords.shape[0] != len(x.shape):
        raise ValueError("First dim of `coordinates` must be the same as the rank of "
                         f"`inputs`. Received inputs with shape: {x.shape} and coordinate "
                         f"leading dim of {coords.shape[0]}")
    if len(coords.shape) < 2:
        raise ValueError("Invalid coordinates rank: expected at least rank 2. Received "
                         f"input with shape: {coords.shape}")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of "
                         f"{set(_FILL_MODES)}. Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    axes_nodes = []
    for c, size in zip(tf.unstack(coords, axis=0), x.shape.as_list()):
        if order == 0:
            pos = c if family(dt(c)) in "iu" else tf.round(c)
            nodes = [(cast(pos, "int32"), tf.ones_like(c))]
        else:
            lo = tf.math.floor(c)
            up = c - lo
            nodes = [(cast(lo, "int32"), 1 - up), (cast(lo, "int32") + 1, up)]
        axes_nodes.append([_fold_index(i, size, fill_mode) + (w,) for i, w in nodes])
    total = None
    for corner in itertools.product(*axes_nodes):
        idx = tf.stack([n[0] for n in corner], axis=-1)
        ok = corner[0][1]
        weight = corner[0][2]
        for n in corner[1:]:
            ok = tf.logical_and(ok, n[1])
            weight = weight * n[2]
        vals = cast(tf.gather_nd(x, idx), dt(weight))
        if fill_mode == "constant":
            vals = tf.where(ok, vals, cast(fill_value, dt(weight)) * tf.ones_like(vals))
        term = weight * vals
        total = term if total is None else total + term
    if family(dt(x)) in "iu":
        total = tf.round(total)
    return cast(total, dt(x))


def _map_float_coord(c, n, fill_mode):
    """TensorFlow's ImageProjectiveTransform coordinate folding for one axis of size n."""
    n_f = tf.cast(n, c.dtype)
    if fill_mode == "reflect" and n > 1:
        sz2 = 2 * n_f
        low = tf.where(c < -sz2, sz2 * tf.cast(cast(-c / sz2, "int32"), c.dtype) + c, c)
        low = tf.where(low < -n_f, low + sz2, -low - 1)
        high = tf.where(c >= sz2, c - sz2 * tf.cast(cast(c / sz2, "int32"), c.dtype), c)
        high = tf.where(high >= n_f, sz2 - high - 1, high)
        c = tf.where(c < 0, low, tf.where(c > n_f - 1, high, c))
        return tf.clip_by_value(c, tf.zeros_like(c), n_f - 1)
    if fill_mode == "wrap" and n > 1:
        sz = n_f - 1  # TensorFlow divides by len - 1 and shifts by whole lengths
        low = c + n_f * (tf.cast(cast(-c / sz, "int32"), c.dtype) + 1)
        high = c - n_f * tf.cast(cast(c / sz, "int32"), c.dtype)
        c = tf.where(c < 0, low, tf.where(c > n_f - 1, high, c))
        return tf.clip_by_value(c, tf.zeros_like(c), n_f - 1)
    if fill_mode in ("nearest", "reflect", "wrap"):
        return tf.clip_by_value(c, tf.zeros_like(c), n_f - 1)
    return c


def _sample(images, ys, xs, interpolation, fill_value):
    """images (b, h, w, c) read at float rows ys and columns xs (b, oh, ow), each corner
    outside the image reading ``fill_value``."""
    b, h, w = images.shape[0], images.shape[1], images.shape[2]
    bidx = tf.broadcast_to(tf.reshape(tf.range(b), [b, 1, 1]), tf.shape(ys))

    def read(yi, xi):
        ok = tf.logical_and(tf.logical_and(yi >= 0, yi < h), tf.logical_and(xi >= 0, xi < w))
        idx = tf.stack([bidx, tf.clip_by_value(yi, 0, h - 1), tf.clip_by_value(xi, 0, w - 1)],
                       -1)
        v = tf.gather_nd(images, idx)
        fill = tf.cast(fill_value, v.dtype) * tf.ones_like(v)
        return tf.where(tf.expand_dims(ok, -1), v, fill)
    if interpolation == "nearest":
        # std::round: halves away from zero
        ry = tf.sign(ys) * tf.math.floor(tf.abs(ys) + 0.5)
        rx = tf.sign(xs) * tf.math.floor(tf.abs(xs) + 0.5)
        return read(cast(ry, "int32"), cast(rx, "int32"))
    y0, x0 = tf.math.floor(ys), tf.math.floor(xs)
    wy, wx = tf.expand_dims(ys - y0, -1), tf.expand_dims(xs - x0, -1)
    y0i, x0i = cast(y0, "int32"), cast(x0, "int32")
    top = (1 - wx) * read(y0i, x0i) + wx * read(y0i, x0i + 1)
    bottom = (1 - wx) * read(y0i + 1, x0i) + wx * read(y0i + 1, x0i + 1)
    return (1 - wy) * top + wy * bottom


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """Images resampled through projective transforms ``[a0, a1, a2, b0, b1, b2, c0, c1]``
    that map each output point (x, y) to the input point
    ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``
    (``keras.ops.image.affine_transform``, TensorFlow's ImageProjectiveTransformV3).

    Args:
        images: (h, w, c) or (batch, h, w, c).
        transform: (8,) or (batch, 8).
        interpolation: "nearest" or "bilinear".
        fill_mode: "constant", "nearest", "wrap" or "reflect".
        fill_value: the value outside for "constant".

    Returns:
        Images of the same shape and dtype.

    Raises:
        ValueError: for a bad interpolation, fill mode or rank.
    """
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{{'nearest', 'bilinear'}}. Received: interpolation={interpolation}")
    if fill_mode not in ("constant", "nearest", "wrap", "reflect"):
        raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                         "{'constant', 'nearest', 'wrap', 'reflect'}. "
                         f"Received: fill_mode={fill_mode}")
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    t = cast(transform, "float32")
    if len(t.shape) == 1:
        t = tf.expand_dims(t, 0)
    b, h, w = x.shape[0], x.shape[1], x.shape[2]
    t = tf.broadcast_to(t, [b, 8])
    gy, gx = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32),
                         indexing="ij")
    gx, gy = tf.constant(gx[None]), tf.constant(gy[None])

    def col(i):
        return tf.reshape(t[:, i], [b, 1, 1])
    k = col(6) * gx + col(7) * gy + 1.0
    xs = (col(0) * gx + col(1) * gy + col(2)) / k
    ys = (col(3) * gx + col(4) * gy + col(5)) / k
    xs = _map_float_coord(xs, w, fill_mode)
    ys = _map_float_coord(ys, h, fill_mode)
    d = dt(x)
    out = _sample(cast(x, "float32"), ys, xs, interpolation, fill_value)
    if family(d) in "iu":
        out = tf.round(out)
    out = cast(out, d)
    return _unbatch(_channels_first(out, data_format, back=True), single)


def _homography(start, end):
    """The 8 projective coefficients mapping each end point to its start point, (b, 8)."""
    rows, rhs = [], []
    zero = tf.zeros_like(end[:, 0, 0])
    one = tf.ones_like(zero)
    for i in range(4):
        ex, ey = end[:, i, 0], end[:, i, 1]
        sx, sy = start[:, i, 0], start[:, i, 1]
        rows.append(tf.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(tf.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
        rhs += [sx, sy]
    a = tf.stack(rows, 1)
    b = tf.expand_dims(tf.stack(rhs, 1), -1)
    return tf.squeeze(tf.linalg.solve(a, b), -1)


def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0, data_format=None):
    """Images warped so the four ``start_points`` land on the ``end_points``
    (``keras.ops.image.perspective_transform``).

    Args:
        images: (h, w, c) or (batch, h, w, c).
        start_points, end_points: (4, 2) or (batch, 4, 2) (x, y) corners.
        interpolation: "nearest" or "bilinear".
        fill_value: the value outside the source image.

    Returns:
        Images of the same shape and dtype.

    Raises:
        ValueError: for points not of shape (..., 4, 2) or of different shapes.
    """
    s = cast(start_points, "float32")
    e = cast(end_points, "float32")
    if len(s.shape) not in (2, 3) or s.shape.as_list()[-2:] != [4, 2]:
        raise ValueError("Invalid start_points shape: expected (4, 2) for a single image or "
                         f"(N, 4, 2) for a batch. Received shape: {s.shape}")
    if len(e.shape) not in (2, 3) or e.shape.as_list()[-2:] != [4, 2]:
        raise ValueError("Invalid end_points shape: expected (4, 2) for a single image or "
                         f"(N, 4, 2) for a batch. Received shape: {e.shape}")
    if s.shape.as_list() != e.shape.as_list():
        raise ValueError("start_points and end_points must have the same shape. "
                         f"Received start_points.shape={s.shape}, end_points.shape={e.shape}")
    if len(s.shape) == 2:
        s, e = tf.expand_dims(s, 0), tf.expand_dims(e, 0)
    return affine_transform(images, _homography(s, e), interpolation=interpolation,
                            fill_mode="constant", fill_value=fill_value,
                            data_format=data_format)


def _lanczos(radius):
    def kernel(x):
        safe = tf.where(tf.equal(x, 0), tf.ones_like(x), x)
        y = radius * tf.sin(np.pi * safe) * tf.sin(np.pi * safe / radius) / \
            (np.pi ** 2 * safe * safe)
        y = tf.where(x > 1e-3, y, tf.ones_like(x))
        return tf.where(x > radius, tf.zeros_like(x), y)
    return kernel


def _keys(x):
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return tf.where(x >= 2.0, tf.zeros_like(x), tf.where(x >= 1.0, far, near))


_SCALE_KERNELS = {
    "linear": lambda x: tf.maximum(tf.zeros_like(x), 1 - tf.abs(x)),
    "cubic": _keys, "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0),
}
_SCALE_ALIASES = {"bilinear": "linear", "trilinear": "linear", "triangle": "linear",
                  "bicubic": "cubic", "tricubic": "cubic"}


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method,
                        antialias=True):
    """Images resampled along ``spatial_dims`` to ``output_shape``, scaled by ``scale`` and
    shifted by ``translation``, with a kernel widened by the downscale factor when
    ``antialias`` (``keras.ops.image.scale_and_translate``, JAX's algorithm).

    Args:
        images: a tensor of any rank.
        output_shape: the full output shape.
        scale, translation: one number per spatial axis.
        spatial_dims: the axes to resample.
        method: "linear" (also "bilinear", "trilinear", "triangle"), "cubic" ("bicubic",
            "tricubic"), "lanczos3" or "lanczos5".

    Returns:
        A tensor of ``output_shape``; integer images are rounded and clipped to their range.

    Raises:
        ValueError: for another method.
    """
    name = _SCALE_ALIASES.get(method, method)
    if name not in _SCALE_KERNELS:
        raise ValueError("Invalid value for argument `method`. Expected of one "
                         f"{sorted(set(_SCALE_KERNELS) | set(_SCALE_ALIASES))}. "
                         f"Received: method={method}")
    kernel = _SCALE_KERNELS[name]
    x = tensor(images)
    sc, tr = tensor(scale), tensor(translation)
    d = result_type(dt(sc), dt(tr))
    sc, tr = cast(sc, d), cast(tr, d)
    integer = family(dt(x)) in "iu"
    out = cast(x, "float32") if integer else x
    nd = len(x.shape)
    for i, axis in enumerate(spatial_dims):
        axis = axis % nd
        m, n = x.shape[axis], output_shape[axis]
        inv = 1.0 / sc[i]
        width = tf.maximum(inv, tf.ones_like(inv)) if antialias else tf.ones_like(inv)
        sample = (tf.cast(tf.range(n), d) + 0.5) * inv - tr[i] * inv - 0.5
        dist = tf.abs(tf.expand_dims(sample, 0) - tf.expand_dims(tf.cast(tf.range(m), d), 1))
        wts = kernel(dist / width)
        total = tf.reduce_sum(wts, axis=0, keepdims=True)
        big = tf.abs(total) > 1000.0 * float(np.finfo(np.float32).eps)
        wts = tf.where(big, wts / tf.where(tf.equal(total, 0), tf.ones_like(total), total),
                       tf.zeros_like(wts))
        inside = tf.logical_and(sample >= -0.5, sample <= m - 0.5)
        wts = tf.where(tf.expand_dims(inside, 0), wts, tf.zeros_like(wts))
        out = tf.tensordot(out, cast(wts, dt(out)), [[axis], [0]])
        perm = list(range(axis)) + [nd - 1] + list(range(axis, nd - 1))
        out = tf.transpose(out, perm)
    if integer:
        out = tf.clip_by_value(tf.round(out), cast(tf.reduce_min(x), "float32"),
                               cast(tf.reduce_max(x), "float32"))
        out = cast(out, dt(x))
    return out


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None, data_format=None):
    """Images displaced by a smooth random field (``keras.ops.image.elastic_transform``):
    one normal draw (Keras draws the same for x and y) blurred by a Gaussian of ``sigma``
    and scaled by ``alpha * sigma``, then sampled by ``map_coordinates``.

    Args:
        images: (h, w, c) or (batch, h, w, c) floats.
        alpha: the displacement scale; sigma: the smoothness.
        interpolation: "nearest" or "bilinear".
        fill_mode: "constant", "nearest", "wrap", "mirror" or "reflect".
        seed: an int, a ``keras.random.SeedGenerator`` or None (the global generator).

    Returns:
        Images of the same shape and dtype.

    Raises:
        ValueError: for a bad interpolation, fill mode or rank.
    """
    from ..random import draw_seed

    if interpolation not in ("nearest", "bilinear"):
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{{'nearest', 'bilinear'}}. Received: interpolation={interpolation}")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one "
                         f"{set(_FILL_MODES)}. Received: fill_mode={fill_mode}")
    x, single = _batched(images)
    x = _channels_first(x, data_format)
    d = dt(x)
    b, h, w, c = x.shape.as_list()
    k = (6 * int(sigma)) | 1
    noise = tf.random.stateless_normal([b, h, w], seed=draw_seed(seed), dtype=d) * \
        tf.cast(sigma, x.dtype)
    field = tf.squeeze(gaussian_blur(tf.expand_dims(noise, -1), (k, k), (sigma, sigma)), -1)
    gx, gy = np.meshgrid(np.arange(w), np.arange(h), indexing="xy")
    ys = tf.constant(gy[None].astype(d)) + tf.cast(alpha, x.dtype) * field
    xs = tf.constant(gx[None].astype(d)) + tf.cast(alpha, x.dtype) * field
    order = 0 if interpolation == "nearest" else 1
    chans = []
    for ch in range(c):
        chans.append(tf.stack([map_coordinates(x[i, :, :, ch], tf.stack([ys[i], xs[i]]), order,
                                               fill_mode, fill_value) for i in range(b)]))
    out = cast(tf.stack(chans, axis=-1), d)
    return _unbatch(_channels_first(out, data_format, back=True), single)
