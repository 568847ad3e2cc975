"""Colour spaces and colour adjustments (``tf.image``): HSV, YUV, YIQ, saturation, hue,
gamma, and their random forms.

``rgb_to_hsv``, the YUV/YIQ conversions and ``adjust_gamma`` are compositions of tapeflow's
differentiable ops (TensorFlow differentiates them too). ``hsv_to_rgb`` has no gradient in
TensorFlow (a tape gives ``None``), and ``AdjustHue``/``AdjustSaturation`` no registered
gradient (a tape raises ``LookupError``): they are NumPy kernels written after TensorFlow's,
in float32, with the same no-gradient behaviour.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import defvjp, nondifferentiable, primitive
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import image_ops as _io
from . import math_ops as _m
from . import reduction_ops as _r

__all__ = ["rgb_to_hsv", "hsv_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "rgb_to_yiq",
           "yiq_to_rgb", "adjust_saturation", "adjust_hue", "adjust_gamma", "random_hue",
           "random_saturation", "stateless_random_hue", "stateless_random_saturation"]

_FLOAT_TYPES = (_dt.float16, _dt.bfloat16, _dt.float32, _dt.float64)


def _t(x):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x)


def _three(x, op, text="input only has"):
    c = x._value.shape[-1] if x._value.ndim else 0
    if c != 3:
        raise errors.op_error(errors.FailedPreconditionError if op in ("RGBToHSV", "HSVToRGB")
                              else errors.InvalidArgumentError,
                              f"input must have 3 channels but {text} {c} channels.", op)


def _float_only(x):
    if x.dtype not in _FLOAT_TYPES:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
            "values: half, bfloat16, float, double")


def rgb_to_hsv(images, name=None):
    """RGB pixels (last axis, values in ``[0, 1]``) as hue, saturation, value, each in
    ``[0, 1]`` (``tf.image.rgb_to_hsv``). Differentiable (away from ties between channels,
    where TensorFlow's rule breaks ties its own way).

    Args:
        images: ``[..., 3]``, a floating dtype.

    Returns:
        ``[..., 3]`` (hue, saturation, value), same dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a non-floating dtype.
        tf.errors.FailedPreconditionError: if the last axis is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_hsv(tf.constant([[0.0, 1.0, 0.0]])).numpy()
        array([[0.33333334, 1.        , 1.        ]], dtype=float32)
    """
    x = _t(images)
    _float_only(x)
    _three(x, "RGBToHSV")
    r, g, b = _a.unstack(x, axis=-1)
    dt = x._value.dtype.type
    v = _r.reduce_max(x, axis=-1)
    rng = _m.subtract(v, _r.reduce_min(x, axis=-1))
    zero = _a.zeros_like(v)
    s = _a.where(_m.greater(v, zero), _m.divide_no_nan(rng, v), zero)
    norm = _m.divide_no_nan(Tensor(dt(1.0)), _m.multiply(rng, Tensor(dt(6.0))))
    h = _a.where(_m.equal(r, v), _m.multiply(norm, _m.subtract(g, b)),
                 _a.where(_m.equal(g, v),
                          _m.add(_m.multiply(norm, _m.subtract(b, r)), Tensor(dt(2.0 / 6.0))),
                          _m.add(_m.multiply(norm, _m.subtract(r, g)), Tensor(dt(4.0 / 6.0)))))
    h = _a.where(_m.greater(rng, zero), h, zero)
    h = _a.where(_m.less(h, zero), _m.add(h, Tensor(dt(1.0))), h)
    return _a.stack([h, s, v], axis=-1)


def _hsv_to_rgb_forward(x):
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    one = x.dtype.type(1)
    dh = h * x.dtype.type(6)
    dr = np.clip(np.abs(dh - x.dtype.type(3)) - one, 0, 1)
    dg = np.clip(x.dtype.type(2) - np.abs(dh - x.dtype.type(2)), 0, 1)
    db = np.clip(x.dtype.type(2) - np.abs(dh - x.dtype.type(4)), 0, 1)
    one_s = one - s
    return np.stack([(one_s + s * c) * v for c in (dr, dg, db)], axis=-1).astype(x.dtype)


_HSV_TO_RGB = nondifferentiable("HSVToRGB", _hsv_to_rgb_forward)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value pixels (last axis, each in ``[0, 1]``) as RGB
    (``tf.image.hsv_to_rgb``). As in TensorFlow it has no gradient: a tape gives ``None``.

    Args:
        images: ``[..., 3]``, a floating dtype.

    Returns:
        ``[..., 3]`` RGB, same dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a non-floating dtype.
        tf.errors.FailedPreconditionError: if the last axis is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.hsv_to_rgb(tf.constant([[1 / 3, 1.0, 1.0]])).numpy().round(4)
        array([[0., 1., 0.]], dtype=float32)
    """
    x = _t(images)
    _float_only(x)
    _three(x, "HSVToRGB")
    return apply(_HSV_TO_RGB, (x,))


def _matrix(images, kernel):
    x = _t(images)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"Cannot convert {kernel} to EagerTensor of dtype {x.dtype.name}")
    k = Tensor(np.asarray(kernel, x._value.dtype))
    s = x._value.shape
    if s[-1] != 3:
        rows = int(np.prod(s[:-1]))
        raise errors.static_shape(errors.op_error(
            errors.InvalidArgumentError,
            f"Matrix size-incompatible: In[0]: [{rows},{s[-1]}], In[1]: [3,3]", "MatMul"))
    flat = _a.reshape(x, (-1, 3))
    return _a.reshape(_m.matmul(flat, k), s)


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def rgb_to_yiq(images):
    """RGB pixels as YIQ: ``images @ K`` over the last axis with TensorFlow's kernel
    (``tf.image.rgb_to_yiq``). Differentiable.

    Args:
        images: ``[..., 3]``, a floating dtype.

    Returns:
        ``[..., 3]``, same dtype.

    Raises:
        TypeError: for an integer dtype; tf.errors.InvalidArgumentError if the last axis is
        not 3.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.image.rgb_to_yiq(tf.constant([[1.0, 1.0, 1.0]]))[0, 0])
        1.0
    """
    return _matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """YIQ pixels as RGB, the inverse of :func:`rgb_to_yiq` (``tf.image.yiq_to_rgb``).
    Differentiable. Arguments, result and errors as :func:`rgb_to_yiq`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.yiq_to_rgb(tf.constant([[1.0, 0.0, 0.0]])).numpy()
        array([[1., 1., 1.]], dtype=float32)
    """
    return _matrix(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """RGB pixels as YUV (``tf.image.rgb_to_yuv``). Differentiable. Arguments, result and
    errors as :func:`rgb_to_yiq`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_yuv(tf.constant([[1.0, 1.0, 1.0]])).numpy().round(4)
        array([[1., 0., 0.]], dtype=float32)
    """
    return _matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """YUV pixels as RGB, the inverse of :func:`rgb_to_yuv` (``tf.image.yuv_to_rgb``).
    Differentiable. Arguments, result and errors as :func:`rgb_to_yiq`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.yuv_to_rgb(tf.constant([[1.0, 0.0, 0.0]])).numpy()
        array([[1., 1., 1.]], dtype=float32)
    """
    return _matrix(images, _YUV_TO_RGB)


# ------------------------------------------------------------------- hue and saturation
# TensorFlow's CPU kernels, vectorised: all arithmetic in float32.

def _hue_forward(x, delta):
    f = np.float32
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    rg = r < g
    cat = np.where(rg, np.where(b < r, 1, np.where(b > g, 3, 2)),
                   np.where(b < g, 0, np.where(b > r, 4, 5)))
    vmax = np.choose(cat, [r, g, g, b, b, r])
    vmid = np.choose(cat, [g, r, b, g, r, b])
    vmin = np.choose(cat, [b, b, r, r, g, g])
    span = vmax - vmin
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (vmid - vmin) / span
    h = cat.astype(f) + np.where(cat % 2 == 0, ratio, f(1) - ratio)
    h = np.where(span == 0, f(0), h).astype(f)
    h = h + f(delta) * f(6)
    h = np.where(h < 0, h + f(6), h)
    h = np.where(h < 0, h + f(6), h)
    h = np.where(h >= f(6), h - f(6), h)
    h = np.where(h >= f(6), h - f(6), h)
    hc = np.clip(h.astype(np.int64), 0, 5)
    rt = h - hc.astype(f)
    rt = np.where(hc % 2 == 0, rt, f(1) - rt)
    mid = vmin + rt * (vmax - vmin)
    out = [np.choose(hc, [vmax, mid, vmin, vmin, mid, vmax]),
           np.choose(hc, [mid, vmax, vmax, mid, vmin, vmin]),
           np.choose(hc, [vmin, vmin, mid, vmax, vmax, mid])]
    return np.stack(out, axis=-1).astype(x.dtype)


def _saturation_forward(x, scale):
    f = np.float32
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(r, np.maximum(g, b))
    span = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, span / v, f(0))
        norm = f(1) / (f(6) * span)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + f(2.0 / 6.0), norm * (r - g) + f(4.0 / 6.0)))
    h = np.where(span <= 0, f(0), h)
    h = np.where(h < 0, h + f(1), h).astype(f)
    s = np.clip(s * f(scale), f(0), f(1)).astype(f)
    c = s * v
    m = v - c
    dh = h * f(6)
    cat = dh.astype(np.int64)
    fm = np.where(dh <= 0, dh + f(2), dh)
    fm = np.mod(fm, f(2)).astype(f)
    xx = c * (f(1) - np.abs(fm - f(1)))
    z = np.zeros_like(c)
    sel = np.clip(cat, 0, 6)
    rr = np.choose(sel, [c, xx, z, z, xx, c, z])
    gg = np.choose(sel, [xx, c, c, xx, z, z, z])
    bb = np.choose(sel, [z, z, xx, c, c, xx, z])
    return np.stack([rr + m, gg + m, bb + m], axis=-1).astype(x.dtype)


_HUE = primitive("AdjustHue", lambda x, d: _hue_forward(x, d), save_inputs=False)
defvjp(_HUE, _io._no_gradient("AdjustHue"), _io._no_gradient("AdjustHue"))
_SATURATION = primitive("AdjustSaturation", lambda x, s: _saturation_forward(x, s),
                        save_inputs=False)
defvjp(_SATURATION, _io._no_gradient("AdjustSaturation"), _io._no_gradient("AdjustSaturation"))


def _rgb_input(image, op):
    x = _t(image)
    if x._value.ndim < 3:
        dims = ",".join(map(str, x._value.shape))
        raise errors.op_error(errors.InvalidArgumentError,
                              f"input must be at least 3-D, got shape[{dims}]", op)
    _three(x, op, "instead has")
    return x


def _float_image(x):
    return x if x.dtype in (_dt.float16, _dt.float32) else _io.convert_image_dtype(
        x, _dt.float32)


def _scalar(v):
    return _a.cast(v, _dt.float32) if isinstance(v, _TensorLike) else Tensor(np.float32(v))


def adjust_saturation(image, saturation_factor, name=None):
    """RGB images with their HSV saturation multiplied by ``saturation_factor`` and clipped
    to ``[0, 1]`` (``tf.image.adjust_saturation``). Computed in float32; integer images are
    converted and back. As in TensorFlow it has no registered gradient (``LookupError``).

    Args:
        image: ``[..., 3]`` RGB, at least 3-D.
        saturation_factor: a float scalar (or tensor).

    Returns:
        ``image``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``image`` is not at least 3-D or has not 3
            channels.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_saturation(tf.constant([[[1.0, 0.5, 0.5]]]), 0.0).numpy()
        array([[[1., 1., 1.]]], dtype=float32)
    """
    x = _rgb_input(image, "AdjustSaturation")
    flt = _float_image(x)
    out = apply(_SATURATION, (flt, _scalar(saturation_factor)))
    return _io.convert_image_dtype(out, x.dtype)


def adjust_hue(image, delta, name=None):
    """RGB images with their hue rotated by ``delta`` (a fraction of the colour wheel),
    value and chroma kept (``tf.image.adjust_hue``). Computed in float32; other dtypes are
    converted and back. As in TensorFlow it has no registered gradient (``LookupError``).

    Args:
        image: ``[..., 3]`` RGB, at least 3-D.
        delta: a float in ``[-1, 1]``.

    Returns:
        ``image``'s shape and dtype.

    Raises:
        ValueError: if ``delta`` is outside ``[-1, 1]``.
        tf.errors.InvalidArgumentError: if ``image`` is not at least 3-D or has not 3
            channels.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_hue(tf.constant([[[1.0, 0.0, 0.0]]]), 1 / 3).numpy().round(4)
        array([[[0., 1., 0.]]], dtype=float32)
    """
    # As TensorFlow: the range is checked eagerly only (a traced delta may be a random draw)
    tracing = ACTIVE[0] and current_tracer() is not None
    d = 0.0 if isinstance(delta, _TensorLike) and tracing else float(
        delta._value if isinstance(delta, _TensorLike) else delta)
    if d < -1 or d > 1:
        raise ValueError("delta must be in the interval [-1, 1]")
    x = _t(image)
    orig = x.dtype
    flt = _float_image(x)
    x = _rgb_input(flt, "AdjustHue")
    out = apply(_HUE, (x, _scalar(delta)))
    return _io.convert_image_dtype(out, orig)


def adjust_gamma(image, gamma=1, gain=1):
    """``gain * image ** gamma`` (``tf.image.adjust_gamma``), computed in float32 for
    non-float16/32 images and converted back with saturation. Differentiable.

    Args:
        image: any shape; integer images are scaled to ``[0, 1]`` first.
        gamma: a non-negative real.
        gain: a real multiplier.

    Returns:
        ``image``'s shape and dtype.

    Raises:
        ValueError: if ``gamma`` is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_gamma(tf.constant([0.25, 1.0]), 0.5).numpy()
        array([0.5, 1. ], dtype=float32)
    """
    x = _t(image)
    orig = x.dtype
    flt = x if orig in (_dt.float16, _dt.float32) else _io.convert_image_dtype(x, _dt.float32)
    tracing = ACTIVE[0] and current_tracer() is not None
    g = 0.0 if isinstance(gamma, _TensorLike) and tracing else float(
        gamma._value if isinstance(gamma, _TensorLike) else gamma)
    if not g >= 0:
        raise ValueError("Gamma should be a non-negative real number.")

    def like(v):
        return _a.cast(v, flt.dtype) if isinstance(v, _TensorLike) else \
            Tensor(flt._value.dtype.type(v))
    out = _m.multiply(like(gain), _m.pow(flt, like(gamma)))
    return _io.convert_image_dtype(out, orig, saturate=True)


def _check_hue_delta(max_delta):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def random_hue(image, max_delta, seed=None):
    """``adjust_hue`` by a delta drawn from ``[-max_delta, max_delta)``
    (``tf.image.random_hue``; tapeflow's random stream, as the other ``random_*`` ops).

    Raises:
        ValueError: if ``max_delta`` is negative or above 0.5.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_hue(tf.ones((2, 2, 3)), 0.1).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    _check_hue_delta(max_delta)
    return adjust_hue(image, uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_hue(image, max_delta, seed):
    """``adjust_hue`` by ``stateless_uniform([], seed, -max_delta, max_delta)``
    (``tf.image.stateless_random_hue``: TensorFlow's exact delta).

    Raises:
        ValueError: if ``max_delta`` is negative or above 0.5.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_hue(tf.ones((2, 2, 3)), 0.1, seed=[1, 2]).shape
        TensorShape([2, 2, 3])
    """
    from .stateless_random_ops import stateless_uniform
    _check_hue_delta(max_delta)
    return adjust_hue(image, stateless_uniform([], seed, -max_delta, max_delta))


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_saturation(image, lower, upper, seed=None):
    """``adjust_saturation`` by a factor drawn from ``[lower, upper)``
    (``tf.image.random_saturation``; tapeflow's random stream).

    Raises:
        ValueError: if ``upper <= lower`` or ``lower < 0``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_saturation(tf.ones((2, 2, 3)), 0.5, 1.5).shape
        TensorShape([2, 2, 3])
    """
    from .random_ops import uniform
    _check_range(lower, upper)
    return adjust_saturation(image, uniform([], lower, upper, seed=seed))


def stateless_random_saturation(image, lower, upper, seed=None):
    """``adjust_saturation`` by ``stateless_uniform([], seed, lower, upper)``
    (``tf.image.stateless_random_saturation``: TensorFlow's exact factor).

    Raises:
        ValueError: if ``upper <= lower`` or ``lower < 0``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_saturation(tf.ones((2, 2, 3)), 0.5, 1.5,
        ...     seed=[1, 2]).shape
        TensorShape([2, 2, 3])
    """
    from .stateless_random_ops import stateless_uniform
    _check_range(lower, upper)
    return adjust_saturation(image, stateless_uniform([], seed, lower, upper))
