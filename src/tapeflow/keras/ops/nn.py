"""``keras.ops.nn``: Keras 3's neural-network functions as bindings over tapeflow's ops.

Activations compute in the input's float dtype; integer inputs raise as TensorFlow's kernels
do. Convolutions and pooling take channels-last data (``data_format="channels_last"``).
"""
import math

import numpy as np

from .. import losses as _losses
from ..backend import epsilon as _keras_epsilon
from ._base import axes, cast, dt, family, float_of, floatx, promote, result_type, tensor, tf

__all__ = [
    "relu", "relu6", "sigmoid", "softplus", "softsign", "silu", "swish", "log_sigmoid",
    "leaky_relu", "hard_sigmoid", "hard_silu", "hard_swish", "elu", "selu", "gelu", "celu",
    "glu", "hard_tanh", "hard_shrink", "soft_shrink", "tanh_shrink", "squareplus",
    "sparse_plus", "sparse_sigmoid", "threshold", "softmax", "log_softmax", "sparsemax",
    "one_hot", "multi_hot", "moments", "batch_normalization", "layer_normalization",
    "rms_normalization", "normalize", "binary_crossentropy", "categorical_crossentropy",
    "sparse_categorical_crossentropy", "max_pool", "average_pool", "adaptive_average_pool",
    "adaptive_max_pool", "conv", "conv_transpose", "depthwise_conv", "separable_conv",
    "depth_to_space", "space_to_depth", "psnr", "dot_product_attention", "polar", "unfold",
    "fold", "ctc_loss", "ctc_decode",
]

_ACT_DOC = """{what} (``keras.ops.{name}``, also ``keras.ops.nn.{name}``).

    Args:
        x: a float tensor of any shape.

    Returns:
        A tensor of ``x``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError or TypeError: for an integer ``x`` (as Keras on
            TensorFlow).
    """


def _act(name, what, body):
    def fn(x):
        return body(tensor(x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = _ACT_DOC.format(what=what, name=name)
    return fn


def _c(x, v):
    """The Python number ``v`` in ``x``'s dtype; integers refuse a fraction, as TF."""
    if family(dt(x)) in "iu":
        raise TypeError(f"Cannot convert {float(v)} to EagerTensor of dtype {dt(x)}")
    return tf.cast(tf.constant(v, tf.float64), x.dtype)


def _need_float(x):
    if family(dt(x)) != "f":
        raise tf.errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {dt(x)} is not in the list of allowed values: "
            "bfloat16, half, float, double")
    return x


relu = _act("relu", "``max(x, 0)``", tf.nn.relu)
relu6 = _act("relu6", "``min(max(x, 0), 6)``", tf.nn.relu6)
sigmoid = _act("sigmoid", "``1 / (1 + exp(-x))``", lambda x: tf.sigmoid(_need_float(x)))
softplus = _act("softplus", "``log(1 + exp(x))``", lambda x: tf.nn.softplus(_need_float(x)))
softsign = _act("softsign", "``x / (1 + |x|)``", lambda x: tf.nn.softsign(_need_float(x)))
silu = _act("silu", "``x * sigmoid(x)``", lambda x: tf.nn.silu(_need_float(x)))
swish = _act("swish", "``x * sigmoid(x)``", lambda x: tf.nn.silu(_need_float(x)))
log_sigmoid = _act("log_sigmoid", "``log(sigmoid(x))``",
                   lambda x: tf.math.log_sigmoid(_need_float(x)))
selu = _act("selu", "The scaled exponential linear unit", lambda x: tf.nn.selu(_need_float(x)))
tanh_shrink = _act("tanh_shrink", "``x - tanh(x)``", lambda x: _need_float(x) - tf.tanh(x))


def _hard_sigmoid(x):
    return tf.nn.relu6(x + _c(x, 3.0)) / _c(x, 6.0)


hard_sigmoid = _act("hard_sigmoid", "``relu6(x + 3) / 6``", _hard_sigmoid)
hard_silu = _act("hard_silu", "``x * relu6(x + 3) / 6``", lambda x: x * _hard_sigmoid(x))
hard_swish = _act("hard_swish", "``x * relu6(x + 3) / 6``", lambda x: x * _hard_sigmoid(x))


def leaky_relu(x, negative_slope=0.2):
    """``x`` for ``x >= 0``, ``negative_slope * x`` below (``keras.ops.leaky_relu``).

    Args:
        x: a float tensor.
        negative_slope: the slope below zero.

    Returns:
        A tensor of ``x``'s shape and dtype.
    """
    return tf.nn.leaky_relu(float_of(x), alpha=negative_slope)


def elu(x, alpha=1.0):
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` below (``keras.ops.elu``).

    Args:
        x: a float tensor.
        alpha: the scale of the negative part.
    """
    x = _need_float(tensor(x))
    y = tf.nn.elu(x)
    if alpha == 1.0:
        return y
    return tf.where(x > 0, y, y * _c(x, alpha))


def celu(x, alpha=1.0):
    """``max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)`` (``keras.ops.celu``)."""
    x = tensor(x)
    zero = _c(x, 0.0)
    a = _c(x, alpha)
    return tf.maximum(x, zero) + tf.minimum(a * tf.math.expm1(x / a), zero)


def gelu(x, approximate=True):
    """The Gaussian error linear unit (``keras.ops.gelu``); the tanh approximation by default.

    Raises:
        ValueError: for a non-float ``x``.
    """
    x = tensor(x)
    if family(dt(x)) != "f":
        raise ValueError("`features.dtype` must be a floating point tensor."
                         f"Received:features.dtype={x.dtype!r}")
    return tf.nn.gelu(x, approximate=approximate)


def glu(x, axis=-1):
    """The gated linear unit: ``a * sigmoid(b)`` for the halves of ``x`` along ``axis``
    (``keras.ops.glu``).

    Raises:
        ValueError: for an odd size along ``axis``.
    """
    x = tensor(x)
    if x.shape[axis] % 2:
        raise ValueError("axis size must be divisible by 2. "
                         f"Received: x.shape={x.shape} with axis={axis}")
    a, b = tf.split(x, 2, axis=axis)
    return a * tf.sigmoid(b)


def hard_tanh(x):
    """``x`` clipped to [-1, 1] (``keras.ops.hard_tanh``)."""
    x = tensor(x)
    return tf.clip_by_value(x, _c(x, -1.0), _c(x, 1.0))


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0 (``keras.ops.hard_shrink``)."""
    x = tensor(x)
    t = _c(x, threshold)
    return tf.where(tf.abs(x) > t, x, tf.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    """``x`` moved ``threshold`` toward 0, 0 inside (``keras.ops.soft_shrink``)."""
    x = tensor(x)
    t = _c(x, threshold)
    return tf.where(x > t, x - t, tf.where(x < -t, x + t, tf.zeros_like(x)))


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2`` (``keras.ops.squareplus``)."""
    x = _need_float(tensor(x))
    return (x + tf.sqrt(tf.square(x) + tf.cast(b, x.dtype))) / tf.cast(2.0, x.dtype)


def sparse_plus(x):
    """0 below -1, ``(x + 1)**2 / 4`` on [-1, 1], ``x`` above (``keras.ops.sparse_plus``)."""
    x = tensor(x)
    one = _c(x, 1.0)
    return tf.where(x <= -one, tf.zeros_like(x),
                    tf.where(x >= one, x, tf.square(x + one) * _c(x, 0.25)))


def sparse_sigmoid(x):
    """0 below -1, ``(x + 1) / 2`` on [-1, 1], 1 above (``keras.ops.sparse_sigmoid``)."""
    x = tensor(x)
    half = _c(x, 0.5)
    one = tf.ones_like(x)
    return tf.where(x <= -one, tf.zeros_like(x), tf.where(x >= one, one, half * (x + one)))


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value`` (``keras.ops.threshold``)."""
    x = tensor(x)
    return tf.where(x > cast(threshold, dt(x)), x, cast(default_value, dt(x)) *
                    tf.ones_like(x))


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis`` (an int or a tuple) (``keras.ops.softmax``)."""
    x = _need_float(tensor(x))
    if isinstance(axis, (list, tuple)):
        e = tf.exp(x - tf.stop_gradient(tf.reduce_max(x, axis=list(axis), keepdims=True)))
        return e / tf.reduce_sum(e, axis=list(axis), keepdims=True)
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """``x - logsumexp(x)`` along ``axis`` (``keras.ops.log_softmax``)."""
    x = _need_float(tensor(x))
    if isinstance(axis, (list, tuple)):
        return x - tf.reduce_logsumexp(x, axis=list(axis), keepdims=True)
    return tf.nn.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """The Euclidean projection of ``x`` onto the probability simplex along ``axis``
    (``keras.ops.sparsemax``)."""
    x = float_of(x)
    nd = len(x.shape)
    axis = axis % nd
    x = tf.transpose(x, [a for a in range(nd) if a != axis] + [axis]) if axis != nd - 1 else x
    z = -tf.sort(-x, axis=-1)
    k = tf.cast(tf.range(1, x.shape[-1] + 1), x.dtype)
    cum = tf.math.cumsum(z, axis=-1)
    support = cast(tf.greater(tf.ones_like(z) + k * z, cum), dt(x))
    kz = tf.reduce_sum(support, axis=-1, keepdims=True)
    tau = (tf.reduce_sum(support * z, axis=-1, keepdims=True) - tf.ones_like(kz)) / kz
    out = tf.maximum(x - tau, tf.zeros_like(x))
    if axis != nd - 1:
        perm = [a for a in range(nd) if a != axis] + [axis]
        out = tf.transpose(out, list(np.argsort(perm)))
    return out


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot rows for integer ``x``, out-of-range indices all zero (``keras.ops.one_hot``).

    Args:
        x: an integer tensor.
        num_classes: the depth of the new axis.
        axis: where the new axis goes.
        dtype: the result dtype (default float32).
    """
    return tf.one_hot(cast(x, "int32"), num_classes, axis=axis,
                      dtype=dtype or floatx())


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """1 for each class present in a row of ``inputs`` (``keras.ops.multi_hot``).

    Args:
        inputs: a 1-D or 2-D integer tensor (rows of class ids).
        num_classes: the number of classes.
        dtype: the result dtype (default float32).
    """
    x = cast(inputs, "int32")
    rank1 = len(x.shape) == 1
    if rank1:
        x = tf.expand_dims(x, 0)
    out = tf.reduce_max(tf.one_hot(x, num_classes, axis=axis, dtype=dtype or floatx()),
                        axis=-2 if axis == -1 else 1)
    return tf.squeeze(out, 0) if rank1 else out


def moments(x, axes, keepdims=False, synchronized=False):
    """The mean and variance of ``x`` over ``axes`` (``keras.ops.moments``); float16 inputs
    compute in float32.

    Returns:
        (mean, variance), each of ``x``'s dtype.
    """
    x = tensor(x)
    d = dt(x)
    xc = cast(x, "float32") if d in ("float16", "bfloat16") else x
    m = tf.reduce_mean(xc, axis=list(axes), keepdims=True)
    v = tf.reduce_mean(tf.square(xc - tf.stop_gradient(m)), axis=list(axes), keepdims=True)
    if not keepdims:
        m = tf.squeeze(m, list(axes))
        v = tf.squeeze(v, list(axes))
    return cast(m, d), cast(v, d)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset`` with 1-D statistics along
    ``axis`` (``keras.ops.batch_normalization``)."""
    x = tensor(x)
    nd = len(x.shape)
    axis = axis % nd
    shape = [1] * nd
    shape[axis] = -1

    def b(v):
        return None if v is None else tf.reshape(cast(v, dt(x)), shape)
    inv = tf.math.rsqrt(b(variance) + tf.cast(epsilon, x.dtype))
    if scale is not None:
        inv = inv * b(scale)
    out = x * inv - b(mean) * inv
    if offset is not None:
        out = out + b(offset)
    return out


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """``x`` normalized over ``axis``, then scaled by ``gamma`` and shifted by ``beta``
    (``keras.ops.layer_normalization``)."""
    x = tensor(x)
    eps = _keras_epsilon() if epsilon is None else epsilon
    ax = list(axes(axis, len(x.shape)))
    m, v = moments(x, ax, keepdims=True)
    out = (x - m) * tf.math.rsqrt(v + tf.cast(eps, x.dtype))
    if gamma is not None:
        out = out * cast(gamma, dt(x))
    if beta is not None:
        out = out + cast(beta, dt(x))
    return out


def rms_normalization(x, scale=1, axis=-1, epsilon=None):
    """``x / sqrt(mean(x**2) + epsilon) * scale`` over ``axis``
    (``keras.ops.rms_normalization``)."""
    x = tensor(x)
    eps = _keras_epsilon() if epsilon is None else epsilon
    ax = list(axes(axis, len(x.shape)))
    ms = tf.reduce_mean(tf.square(x), axis=ax, keepdims=True)
    return x * tf.math.rsqrt(ms + tf.cast(eps, x.dtype)) * cast(scale, dt(x))


def normalize(x, axis=-1, order=2, epsilon=None):
    """``x`` divided by its ``order``-norm along ``axis`` (``keras.ops.normalize``)."""
    x = float_of(x)
    eps = _keras_epsilon() if epsilon is None else epsilon
    if order == 2:  # x * min(rsqrt(sum(x**2)), 1 / epsilon), as Keras computes it
        sq = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
        return x * tf.minimum(tf.math.rsqrt(sq), tf.cast(1.0 / eps, x.dtype))
    n = tf.norm(x, ord=order, axis=axis, keepdims=True)
    return x / tf.maximum(n, tf.cast(eps, x.dtype))


def _clip_probs(p):
    eps = tf.cast(_keras_epsilon(), p.dtype)
    return tf.clip_by_value(p, eps, tf.ones_like(eps) - eps)


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy (``keras.ops.binary_crossentropy``).

    Raises:
        ValueError: for shapes that differ.
    """
    t, o = tensor(target), tensor(output)
    if t.shape.as_list() != o.shape.as_list():
        raise ValueError("Arguments `target` and `output` must have the same shape. "
                         f"Received: target.shape={t.shape}, output.shape={o.shape}")
    t = cast(t, dt(o))
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=t, logits=o)
    o = _clip_probs(o)
    return -(t * tf.math.log(o) + (tf.ones_like(t) - t) * tf.math.log(tf.ones_like(o) - o))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of probability rows (``keras.ops.categorical_crossentropy``)."""
    t, o = tensor(target), tensor(output)
    t = cast(t, dt(o))
    if from_logits:
        # TensorFlow's fused op, with its gradient softmax - labels as Keras trains by
        return _losses._xent_as_keras(t, o, axis)
    o = o / tf.reduce_sum(o, axis=axis, keepdims=True)
    o = _clip_probs(o)
    return -tf.reduce_sum(t * tf.math.log(o), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy with integer targets (``keras.ops.sparse_categorical_crossentropy``)."""
    o = tensor(output)
    t = cast(target, "int32")
    return categorical_crossentropy(tf.one_hot(t, o.shape[axis], dtype=o.dtype), o,
                                    from_logits=from_logits, axis=axis)


def _tuple(v, n):
    return [v] * n if isinstance(v, int) else list(v)


def _pool(kind, inputs, pool_size, strides, padding, data_format):
    x = tensor(inputs)
    n = len(x.shape) - 2
    if data_format == "channels_first":
        x = tf.transpose(x, [0] + list(range(2, n + 2)) + [1])
    ksize = _tuple(pool_size, n)
    st = ksize if strides is None else _tuple(strides, n)
    op = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool
    out = op(x, ksize, st, padding.upper())
    if data_format == "channels_first":
        out = tf.transpose(out, [0, n + 1] + list(range(1, n + 1)))
    return out


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Max pooling over windows of ``pool_size`` (``keras.ops.max_pool``).

    Args:
        inputs: (batch, *spatial, channels), 1 to 3 spatial axes.
        pool_size, strides: ints or one int per spatial axis (strides default pool_size).
        padding: "valid" or "same".
        data_format: "channels_last" (default) or "channels_first".
    """
    return _pool("max", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Average pooling over windows of ``pool_size`` (``keras.ops.average_pool``)."""
    return _pool("avg", inputs, pool_size, strides, padding, data_format)


def _adaptive(kind, inputs, output_size, data_format):
    x = tensor(inputs)
    n = len(x.shape) - 2
    if data_format == "channels_first":
        x = tf.transpose(x, [0] + list(range(2, n + 2)) + [1])
    out_size = _tuple(output_size, n)
    reduce = tf.reduce_max if kind == "max" else tf.reduce_mean
    for i in range(n):
        size = x.shape[1 + i]
        parts = []
        for j in range(out_size[i]):
            lo = (j * size) // out_size[i]
            hi = -((-(j + 1) * size) // out_size[i])
            sl = [slice(None)] * (n + 2)
            sl[1 + i] = slice(lo, hi)
            parts.append(reduce(x[tuple(sl)], axis=1 + i, keepdims=True))
        x = tf.concat(parts, 1 + i)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, n + 1] + list(range(1, n + 1)))
    return x


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed ``output_size`` (``keras.ops.adaptive_average_pool``)."""
    return _adaptive("avg", inputs, output_size, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed ``output_size`` (``keras.ops.adaptive_max_pool``)."""
    return _adaptive("max", inputs, output_size, data_format)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (``keras.ops.conv``).

    Args:
        inputs: (batch, *spatial, in_channels).
        kernel: (*kernel_spatial, in_channels, out_channels).
        strides, dilation_rate: ints or one per spatial axis.
        padding: "valid" or "same".
    """
    x, k = tensor(inputs), tensor(kernel)
    n = len(x.shape) - 2
    if data_format == "channels_first":
        x = tf.transpose(x, [0] + list(range(2, n + 2)) + [1])
    out = tf.nn.convolution(x, cast(k, dt(x)), strides=_tuple(strides, n),
                            padding=padding.upper(), dilations=_tuple(dilation_rate, n))
    if data_format == "channels_first":
        out = tf.transpose(out, [0, n + 1] + list(range(1, n + 1)))
    return out


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """The transpose of ``conv`` (``keras.ops.conv_transpose``); 1-D and 2-D.

    Args:
        inputs: (batch, *spatial, in_channels).
        kernel: (*kernel_spatial, out_channels, in_channels).
    """
    x, k = tensor(inputs), tensor(kernel)
    n = len(x.shape) - 2
    st = _tuple(strides, n)
    ks = k.shape.as_list()[:n]
    spatial = x.shape.as_list()[1:n + 1]
    outs = []
    for i in range(n):
        if padding == "same":
            size = spatial[i] * st[i]
        else:
            size = (spatial[i] - 1) * st[i] + ks[i]
        if output_padding is not None:
            size += _tuple(output_padding, n)[i]
        outs.append(size)
    shape = [x.shape[0]] + outs + [ks and k.shape[n]]
    if n == 2:
        return tf.nn.conv2d_transpose(x, k, shape, st, padding.upper())
    if n == 1:
        return tf.nn.conv1d_transpose(x, k, shape, st, padding.upper())
    raise NotImplementedError("conv_transpose supports 1-D and 2-D inputs")


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """Depthwise 2-D convolution (``keras.ops.depthwise_conv``).

    Args:
        inputs: (batch, height, width, channels).
        kernel: (kh, kw, channels, multiplier).
    """
    x = tensor(inputs)
    st = _tuple(strides, 2)
    return tf.nn.depthwise_conv2d(x, cast(kernel, dt(x)), [1] + st + [1], padding.upper(),
                                  dilations=_tuple(dilation_rate, 2))


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """Depthwise then pointwise 2-D convolution (``keras.ops.separable_conv``)."""
    x = tensor(inputs)
    st = _tuple(strides, 2)
    return tf.nn.separable_conv2d(x, cast(depthwise_kernel, dt(x)),
                                  cast(pointwise_kernel, dt(x)), [1] + st + [1],
                                  padding.upper(), dilations=_tuple(dilation_rate, 2))


def depth_to_space(x, block_size, data_format="channels_last"):
    """Channel blocks moved into spatial blocks (``keras.ops.depth_to_space``)."""
    return tf.nn.depth_to_space(tensor(x), block_size)


def space_to_depth(x, block_size, data_format="channels_last"):
    """Spatial blocks moved into channels (``keras.ops.space_to_depth``)."""
    return tf.nn.space_to_depth(tensor(x), block_size)


def psnr(x1, x2, max_val):
    """The peak signal-to-noise ratio in dB (``keras.ops.psnr``).

    Raises:
        ValueError: for shapes that differ.
    """
    a, b = tensor(x1), tensor(x2)
    if a.shape.as_list() != b.shape.as_list():
        raise ValueError("Input shapes must be the same. "
                         f"Received: x1.shape={a.shape}, x2.shape={b.shape}")
    mse = tf.reduce_mean(tf.square(a - b))
    return tf.cast(20.0 * math.log10(max_val), a.dtype) - \
        tf.cast(10.0, a.dtype) * tf.math.log(mse) / tf.cast(math.log(10.0), a.dtype)


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                          is_causal=False, flash_attention=None, attn_logits_soft_cap=None):
    """Scaled dot-product attention (``keras.ops.dot_product_attention``).

    Args:
        query: (batch, q_len, heads, dim); key, value: (batch, kv_len, heads, dim).
        bias: added to the logits (broadcast to (batch, heads, q_len, kv_len)).
        mask: a bool tensor, True where attention is allowed.
        scale: the logit scale (default ``1 / sqrt(dim)``).
        is_causal: whether a position attends only to earlier ones.
        flash_attention: None or False; True is refused, as on Keras's TensorFlow backend
            (``keras.config.enable_flash_attention`` does not change this function).
        attn_logits_soft_cap: must be None (Keras supports it on JAX's TPU backend only).

    Returns:
        (batch, q_len, heads, dim).

    Raises:
        ValueError: for ``flash_attention=True`` or an ``attn_logits_soft_cap`` (Keras's texts).
    """
    if attn_logits_soft_cap is not None:
        raise ValueError("attn_logits_soft_cap is only supported for JAX on TPU. Set "
                         "attn_logits_soft_cap=None when not using JAX on TPU.")
    if flash_attention:
        raise ValueError("Flash attention is not supported in tensorflow backend.")
    q, k, v = tensor(query), tensor(key), tensor(value)
    d = q.shape[-1]
    s = 1.0 / math.sqrt(d) if scale is None else scale
    logits = tf.einsum("bqhd,bkhd->bhqk", q, k) * tf.cast(s, q.dtype)
    if bias is not None:
        logits = logits + cast(bias, dt(q))
    allowed = None
    if mask is not None:
        allowed = cast(mask, "bool")
    if is_causal:
        lq, lk = q.shape[1], k.shape[1]
        causal = tf.constant(np.tril(np.ones((lq, lk), bool)))
        allowed = causal if allowed is None else tf.logical_and(allowed, causal)
    if allowed is not None:
        big = tf.cast(np.finfo(dt(q)).min, q.dtype) if family(dt(q)) == "f" else None
        logits = tf.where(allowed, logits, big * tf.ones_like(logits))
    probs = tf.nn.softmax(logits, axis=-1)
    return tf.einsum("bhqk,bkhd->bqhd", probs, v)


def polar(abs, angle):  # noqa: A002 - Keras's name
    """The complex number ``abs * exp(i * angle)`` (``keras.ops.polar``)."""
    r, t, _ = promote(abs, angle, extra=(float,))
    return tf.complex(r * tf.cos(t), r * tf.sin(t))



def _pair2(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _fold_maps(size_hw, kernel_size, dilation, padding, stride):
    """One-hot (kernel, out, padded) maps of each spatial axis: the im2col index plan."""
    maps, outs = [], []
    for n, k, d, p, s in zip(size_hw, _pair2(kernel_size), _pair2(dilation), _pair2(padding),
                             _pair2(stride)):
        full = n + 2 * p
        o = (full - d * (k - 1) - 1) // s + 1
        pos = np.arange(o)[None, :] * s + np.arange(k)[:, None] * d
        maps.append((pos[:, :, None] == np.arange(full)[None, None, :]).astype(np.float64))
        outs.append(o)
    return maps, outs


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a channels-first batch, flattened (im2col)
    (``keras.ops.unfold``).

    Args:
        x: (N, C, H, W).
        kernel_size, dilation, padding, stride: ints or pairs.

    Returns:
        (N, C * kh * kw, L), L the number of block positions (row-major).
    """
    x = tensor(x)
    n, c, h, w = x.shape.as_list()
    ph, pw = _pair2(padding)
    (mh, mw), (oh, ow) = _fold_maps((h, w), kernel_size, dilation, padding, stride)
    xp = tf.pad(x, [[0, 0], [0, 0], [ph, ph], [pw, pw]])
    blocks = tf.einsum("nchw,koh,lpw->ncklop", xp, tf.constant(mh.astype(dt(x))),
                       tf.constant(mw.astype(dt(x))))
    return tf.reshape(blocks, [n, c * mh.shape[0] * mw.shape[0], oh * ow])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Blocks summed back into a channels-first image, the adjoint of ``unfold`` (col2im)
    (``keras.ops.fold``).

    Args:
        x: (N, C * kh * kw, L).
        output_size: (H, W) of the result.

    Returns:
        (N, C, H, W).
    """
    x = tensor(x)
    h, w = _pair2(output_size)
    kh, kw = _pair2(kernel_size)
    ph, pw = _pair2(padding)
    (mh, mw), (oh, ow) = _fold_maps((h, w), kernel_size, dilation, padding, stride)
    n = x.shape[0]
    blocks = tf.reshape(x, [n, -1, kh, kw, oh, ow])
    full = tf.einsum("ncklop,koh,lpw->nchw", blocks, tf.constant(mh.astype(dt(x))),
                     tf.constant(mw.astype(dt(x))))
    return full[:, :, ph:ph + h, pw:pw + w]


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The connectionist temporal classification loss per sequence (``keras.ops.ctc_loss``),
    the negative log-likelihood of ``target`` under the CTC alignment of ``output``, by the
    forward algorithm in log space (differentiable in ``output``).

    Args:
        target: (batch, max_label_length) integer labels, padded.
        output: (batch, max_time, classes) logits.
        target_length: (batch,) label lengths.
        output_length: (batch,) time lengths.
        mask_index: the blank class.

    Returns:
        (batch,) losses in ``result_type(output.dtype, float32)``.
    """
    out = tensor(output)
    d = "float32"  # Keras computes in float32 (float64 too) and casts the loss back
    logp = tf.nn.log_softmax(cast(out, d), axis=-1)
    labels = cast(target, "int32")
    b, steps = logp.shape[0], logp.shape[1]
    n_lab = labels.shape[1]
    s_len = 2 * n_lab + 1
    blank = tf.fill([b, 1], tf.constant(mask_index, tf.int32))
    # blank, label, blank, label, ..., blank
    ext = tf.reshape(tf.concat([tf.fill([b, n_lab, 1], tf.constant(mask_index, tf.int32)),
                                tf.expand_dims(labels, -1)], -1), [b, 2 * n_lab])
    ext = tf.concat([ext, blank], 1)
    emit = tf.gather(logp, ext, axis=2, batch_dims=1)                     # (b, t, s)
    neg = tf.cast(-1e30, logp.dtype)
    same = tf.concat([tf.ones([b, 2], tf.bool), tf.equal(ext[:, 2:], ext[:, :-2])], 1)
    skip_ok = tf.logical_and(tf.not_equal(ext, mask_index), tf.logical_not(same))
    t_len = cast(output_length, "int32")
    lab_len = cast(target_length, "int32")
    first = tf.concat([emit[:, 0, :2], tf.fill([b, s_len - 2], neg)], 1)
    alpha = first
    pad1 = tf.fill([b, 1], neg)
    pad2 = tf.fill([b, 2], neg)
    for t in range(1, steps):
        a1 = tf.concat([pad1, alpha[:, :-1]], 1)
        a2 = tf.where(skip_ok, tf.concat([pad2, alpha[:, :-2]], 1), neg * tf.ones_like(alpha))
        stacked = tf.stack([alpha, a1, a2], 0)
        new = tf.reduce_logsumexp(stacked, axis=0) + emit[:, t, :]
        alpha = tf.where(tf.expand_dims(t < t_len, 1), new, alpha)
    last = tf.gather(alpha, 2 * lab_len, axis=1, batch_dims=1)
    before = tf.gather(alpha, tf.maximum(2 * lab_len - 1, 0), axis=1, batch_dims=1)
    before = tf.where(lab_len > 0, before, neg * tf.ones_like(before))
    loss = -tf.reduce_logsumexp(tf.stack([last, before], 0), axis=0)
    return cast(loss, result_type(dt(out), "float32"))


def _greedy_paths(best, lengths, merge_repeated, blank):
    """(batch, time) argmax classes to TensorFlow's greedy CTC paths, -1 padded."""
    out = np.full((1,) + best.shape, -1, np.int32)
    for b in range(best.shape[0]):
        prev, k = -1, 0
        for t in range(int(lengths[b])):
            c = int(best[b, t])
            if c != blank and not (merge_repeated and c == prev):
                out[0, b, k] = c
                k += 1
            prev = c
    return out


_GREEDY = None


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """Decode CTC outputs (``keras.ops.ctc_decode``); the "greedy" strategy (best class per
    step, repeats merged, blanks dropped). Not differentiable.

    Args:
        inputs: (batch, time, classes) logits or log-probabilities.
        sequence_lengths: (batch,) lengths.
        strategy: "greedy" ("beam_search" is not built in tapeflow yet).
        merge_repeated: whether consecutive repeats of a class emit once.
        mask_index: the blank class.

    Returns:
        (paths, scores): int32 (1, batch, time) padded with -1, and (batch, 1) the negative
        sum of each step's best logit.

    Raises:
        ValueError: for an unknown strategy. NotImplementedError: for "beam_search".
    """
    global _GREEDY
    if strategy == "beam_search":
        raise NotImplementedError("ctc_decode(strategy='beam_search') is not built in "
                                  "tapeflow yet; use strategy='greedy'")
    if strategy != "greedy":
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and "
                         "'beam_search'.")
    from ..._core.dispatch import apply
    from ..._core.registry import nondifferentiable

    if _GREEDY is None:
        _GREEDY = nondifferentiable(
            "CTCGreedyDecoder",
            lambda best, lengths, merge, blank: _greedy_paths(best, lengths, merge, blank))
    x = cast(inputs, result_type(dt(tensor(inputs)), "float32"))
    lengths = cast(sequence_lengths, "int32")
    best = tf.math.argmax(x, axis=-1, output_type=tf.int32)
    paths = apply(_GREEDY, (best, lengths), {"merge": bool(merge_repeated),
                                             "blank": int(mask_index)})
    steps = x.shape[1]
    live = tf.expand_dims(tf.range(steps), 0) < tf.expand_dims(lengths, 1)
    peak = tf.stop_gradient(tf.reduce_max(x, axis=-1))  # TF's decoder has no gradient
    scores = -tf.reduce_sum(tf.where(live, peak, tf.zeros_like(peak)), axis=1, keepdims=True)
    return paths, scores
