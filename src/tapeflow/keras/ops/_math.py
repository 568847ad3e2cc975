"""Keras 3's ``keras.ops`` maths functions (``keras.src.ops.math``): special functions,
segments, top-k, Fourier transforms as real DFT products, framing."""
import math

import numpy as np

from ._base import cast, dt, family, float_of, tensor, tf

__all__ = ["logsumexp", "cdist", "erf", "erfinv", "erfc", "rsqrt", "logdet", "top_k",
           "in_top_k", "segment_sum",
           "segment_max", "segment_min", "segment_prod", "extract_sequences", "fft", "fft2",
           "ifft2", "rfft", "irfft", "view_as_complex", "view_as_real", "stft", "istft"]


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis``, computed stably (``keras.ops.logsumexp``).

    Args:
        x: a float tensor.
        axis: None, an int or a tuple of ints.
        keepdims: whether reduced axes stay with size 1.

    Returns:
        A tensor of ``x``'s dtype.
    """
    axis = list(axis) if isinstance(axis, (list, tuple)) else axis
    return tf.reduce_logsumexp(tensor(x), axis=axis, keepdims=keepdims)


def cdist(x1, x2, p=2):
    """The ``p``-norm distances between the rows of ``x1`` and ``x2`` (``keras.ops.cdist``):
    (..., m, d) and (..., n, d) give (..., m, n)."""
    a, b = float_of(x1), float_of(x2)
    diff = tf.abs(tf.expand_dims(a, -2) - tf.expand_dims(b, -3))
    if p == 2:
        return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))
    if p == 1:
        return tf.reduce_sum(diff, axis=-1)
    if p == float("inf"):
        return tf.reduce_max(diff, axis=-1)
    pp = tf.cast(p, diff.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(diff, pp), axis=-1), tf.ones_like(pp) / pp)


def erf(x):
    """The error function element-wise (``keras.ops.erf``); float input."""
    return tf.math.erf(tensor(x))


def erfc(x):
    """``1 - erf(x)`` element-wise (``keras.ops.erfc``)."""
    return tf.math.erfc(float_of(x))


def _erfinv_value(y):
    # Giles' single-precision approximation, then two Newton steps on erf in float64
    a = np.asarray(y, np.float64)
    with np.errstate(all="ignore"):
        return _erfinv_refined(a)


def _erfinv_refined(a):
    w = -np.log((1.0 - a) * (1.0 + a))
    small = w < 5.0
    ws = w - 2.5
    wl = np.sqrt(np.where(small, 5.0, w)) - 3.0
    ps = np.polyval([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                     0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941],
                    ws)
    pl = np.polyval([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                     0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682], wl)
    x = np.where(small, ps, pl) * a
    from scipy.special import erf as _erf  # noqa: PLC0415 - scipy only for the refinement
    for _ in range(2):
        x = x - (_erf(x) - a) / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    x = np.where(a == 1, np.inf, np.where(a == -1, -np.inf, x))
    return x


def erfinv(x):
    """The inverse error function element-wise (``keras.ops.erfinv``); float input, the
    gradient ``sqrt(pi) / 2 * exp(erfinv(x) ** 2)``.

    Raises:
        tf.errors.InvalidArgumentError: for an integer ``x`` (as TensorFlow).
    """
    x = tensor(x)
    if family(dt(x)) != "f":
        raise tf.errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {dt(x)} is not in the list of allowed values: "
            "bfloat16, half, float, double")

    @tf.custom_gradient
    def inverse(v):
        y = tf.numpy_function(lambda a: _erfinv_value(a).astype(a.dtype), [v], v.dtype)
        y = tf.reshape(y, tf.shape(v))

        def grad(g):
            return g * tf.cast(math.sqrt(math.pi) / 2, v.dtype) * tf.exp(tf.square(y))
        return y, grad
    return inverse(x)


def rsqrt(x):
    """``1 / sqrt(x)`` element-wise (``keras.ops.rsqrt``); float input."""
    return tf.math.rsqrt(tensor(x))


def logdet(x):
    """The log-determinant of Hermitian positive-definite matrices (``keras.ops.logdet``)."""
    return tf.linalg.logdet(float_of(x))


def top_k(x, k, sorted=True):  # noqa: A002 - Keras's name
    """The ``k`` largest entries along the last axis and their int32 indices
    (``keras.ops.top_k``)."""
    v, i = tf.math.top_k(tensor(x), k=k, sorted=sorted)
    return v, i


def in_top_k(targets, predictions, k):
    """Whether each target's prediction is among the row's ``k`` largest
    (``keras.ops.in_top_k``); bool."""
    return tf.math.in_top_k(cast(targets, "int32"), tensor(predictions), k)


def _segments(ids, num_segments):
    ids = cast(ids, "int32")
    if num_segments is None:
        # a tensor, so a traced call reads the count at run time
        return ids, tf.reduce_max(ids) + 1
    return ids, int(num_segments)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """Sums of ``data``'s rows by segment id (``keras.ops.segment_sum``).

    Args:
        data: (n, ...); segment_ids: (n,) ints.
        num_segments: the number of segments (default ``max(segment_ids) + 1``).
    """
    ids, n = _segments(segment_ids, num_segments)
    return tf.math.unsorted_segment_sum(tensor(data), ids, n)


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """Maxima of ``data``'s rows by segment id (``keras.ops.segment_max``); empty segments
    give the dtype's lowest value."""
    ids, n = _segments(segment_ids, num_segments)
    return tf.math.unsorted_segment_max(tensor(data), ids, n)


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """Minima of ``data``'s rows by segment id (``keras.ops.segment_min``)."""
    ids, n = _segments(segment_ids, num_segments)
    return tf.math.unsorted_segment_min(tensor(data), ids, n)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """Products of ``data``'s rows by segment id (``keras.ops.segment_prod``); empty
    segments give 1."""
    data = tensor(data)
    ids, n = _segments(segment_ids, num_segments)
    extra = [1] * (len(data.shape) - 1)
    rows = []
    for s in range(n):
        mask = tf.reshape(tf.equal(ids, s), [-1] + extra)
        rows.append(tf.reduce_prod(tf.where(tf.broadcast_to(mask, tf.shape(data)), data,
                                            tf.ones_like(data)), axis=0))
    return tf.stack(rows)


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` every ``sequence_stride`` along the last axis
    (``keras.ops.extract_sequences``): (..., n) -> (..., frames, sequence_length)."""
    x = tensor(x)
    n = x.shape[-1]
    frames = 1 + (n - sequence_length) // sequence_stride
    idx = (np.arange(frames)[:, None] * sequence_stride + np.arange(sequence_length)[None])
    return tf.gather(x, tf.constant(idx.astype(np.int32)), axis=len(x.shape) - 1)


def _pair(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary. "
                         f"Received: x={x}")
    re, im = tensor(x[0]), tensor(x[1])
    if family(dt(re)) != "f" or family(dt(im)) != "f":
        raise ValueError("At least one tensor in input `x` is not of type float."
                         f"Received: x={x}.")
    if re.shape.as_list() != im.shape.as_list():
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary."
                         "Both the real and imaginary parts should have the same shape. "
                         f"Received: x[0].shape = {re.shape}, x[1].shape = {im.shape}")
    return re, im


def _dft(n_in, n_out, inverse, dtype):
    k = np.arange(n_out)[None, :]
    j = np.arange(n_in)[:, None]
    ang = 2.0 * np.pi * j * k / max(n_out if inverse else n_in, 1)
    sign = 1.0 if inverse else -1.0
    return (tf.constant(np.cos(ang).astype(dtype)), tf.constant((sign * np.sin(ang))
                                                                .astype(dtype)))


def _last_axis_dft(re, im, inverse=False):
    n = re.shape[-1]
    c, s = _dft(n, n, False, dt(re))
    if inverse:
        s = -s
    out_re = tf.tensordot(re, c, 1) - tf.tensordot(im, s, 1)
    out_im = tf.tensordot(re, s, 1) + tf.tensordot(im, c, 1)
    if inverse:
        scale = tf.cast(1.0 / n, re.dtype)
        out_re, out_im = out_re * scale, out_im * scale
    return out_re, out_im


def fft(x):
    """The discrete Fourier transform along the last axis of a (real, imag) pair
    (``keras.ops.fft``).

    Returns:
        (real, imag) of the same shape and dtype.

    Raises:
        ValueError: for an input that is not a pair of float tensors of one shape.
    """
    return _last_axis_dft(*_pair(x))


def _swap(t):
    nd = len(t.shape)
    perm = list(range(nd))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return tf.transpose(t, perm)


def fft2(x):
    """The 2-D discrete Fourier transform over the last two axes of a (real, imag) pair
    (``keras.ops.fft2``)."""
    re, im = _last_axis_dft(*_pair(x))
    re, im = _last_axis_dft(_swap(re), _swap(im))
    return _swap(re), _swap(im)


def ifft2(x):
    """The inverse 2-D discrete Fourier transform (``keras.ops.ifft2``)."""
    re, im = _last_axis_dft(*_pair(x), inverse=True)
    re, im = _last_axis_dft(_swap(re), _swap(im), inverse=True)
    return _swap(re), _swap(im)


def rfft(x, fft_length=None):
    """The DFT of a real signal along the last axis, the ``n // 2 + 1`` non-negative
    frequencies (``keras.ops.rfft``).

    Returns:
        (real, imag), each (..., fft_length // 2 + 1).
    """
    x = float_of(x)
    n = x.shape[-1] if fft_length is None else fft_length
    if n > x.shape[-1]:
        x = tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[0, n - x.shape[-1]]])
    elif n < x.shape[-1]:
        x = x[..., :n]
    m = n // 2 + 1
    j = np.arange(n)[:, None]
    k = np.arange(m)[None, :]
    ang = 2.0 * np.pi * j * k / n
    c = tf.constant(np.cos(ang).astype(dt(x)))
    s = tf.constant((-np.sin(ang)).astype(dt(x)))
    return tf.tensordot(x, c, 1), tf.tensordot(x, s, 1)


def irfft(x, fft_length=None):
    """The inverse of ``rfft``: a real signal from its non-negative frequencies
    (``keras.ops.irfft``).

    Args:
        x: (real, imag), each (..., m).
        fft_length: the output length (default ``2 * (m - 1)``).
    """
    re, im = _pair(x)
    m = re.shape[-1]
    n = 2 * (m - 1) if fft_length is None else fft_length
    keep = min(m, n // 2 + 1)
    re, im = re[..., :keep], im[..., :keep]
    k = np.arange(keep)[:, None]
    j = np.arange(n)[None, :]
    w = np.full((keep, 1), 2.0)
    w[0] = 1.0
    if n % 2 == 0 and keep == n // 2 + 1:
        w[-1] = 1.0
    ang = 2.0 * np.pi * k * j / n
    c = tf.constant((w * np.cos(ang) / n).astype(dt(re)))
    s = tf.constant((-w * np.sin(ang) / n).astype(dt(re)))
    return tf.tensordot(re, c, 1) + tf.tensordot(im, s, 1)


def view_as_complex(x):
    """A (..., 2) real tensor as complex (``keras.ops.view_as_complex``).

    Raises:
        ValueError: when the last axis is not 2.
    """
    x = tensor(x)
    if x.shape[-1] != 2:
        raise ValueError("Last dimension of input must be size 2 (real and imaginary). "
                         f"Received shape: {x.shape}")
    return tf.complex(x[..., 0], x[..., 1])


def view_as_real(x):
    """A complex tensor as (..., 2) real (``keras.ops.view_as_real``)."""
    x = tensor(x)
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform along the last axis (``keras.ops.stft``).

    Args:
        x: a float32 or float64 tensor (..., samples).
        sequence_length: the window length; sequence_stride: the hop.
        fft_length: the FFT size (>= ``sequence_length``; the window is centred in it).
        window: "hann", "hamming" (periodic), a 1-D tensor of ``sequence_length``, or None.
        center: reflect-pad ``fft_length // 2`` on both sides first.

    Returns:
        (real, imag), each (..., frames, fft_length // 2 + 1).

    Raises:
        TypeError: for another input dtype. ValueError: for a bad window or fft_length.
    """
    x = tensor(x)
    if dt(x) not in ("float32", "float64"):
        raise TypeError("Invalid input type. Expected `float32` or `float64`. "
                        f"Received: input type={x.dtype}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. "
                         f"Received: sequence_length={sequence_length}, "
                         f"fft_length={fft_length}")
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError('If a string is passed to `window`, it must be one of `"hann"`, '
                         f'`"hamming"`. Received: window={window}')
    if center:
        half = fft_length // 2
        x = tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[half, half]], mode="REFLECT")
    left = (fft_length - sequence_length) // 2
    if window is None:
        win = np.ones(sequence_length)
    elif isinstance(window, str):
        k = np.arange(sequence_length)
        a = 0.5 if window == "hann" else 0.54
        win = a - (1 - a) * np.cos(2 * np.pi * k / sequence_length)
    else:
        win = np.asarray(tensor(window), np.float64)
        if win.shape != (sequence_length,):
            raise ValueError("The shape of `window` must be equal to [sequence_length]."
                             f"Received: window shape={win.shape}")
    full = np.zeros(fft_length)
    full[left:left + sequence_length] = win
    frames = extract_sequences(x, fft_length, sequence_stride)
    return rfft(frames * tf.constant(full.astype(dt(x))))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """The inverse of ``stft``: overlap-add of the inverse real FFTs of the frames, with the
    window's dual for resynthesis (``keras.ops.istft``).

    Args:
        x: (real, imag), each (..., frames, fft_length // 2 + 1).
        sequence_length, sequence_stride, fft_length, window, center: as given to ``stft``.
        length: the number of samples to return (default: all, less the centre padding).

    Returns:
        A real tensor (..., samples).

    Raises:
        ValueError: for a bad pair or window.
    """
    re, im = _pair(x)
    d = dt(re)
    frames = re.shape[-2]
    expected = fft_length + sequence_stride * (frames - 1)
    left = (fft_length - sequence_length) // 2
    if window is not None:
        if isinstance(window, str):
            k = np.arange(sequence_length)
            a = 0.5 if window == "hann" else 0.54
            win = a - (1 - a) * np.cos(2 * np.pi * k / sequence_length)
        else:
            win = np.asarray(tensor(window), np.float64)
        if win.shape != (sequence_length,):
            raise ValueError("The shape of `window` must be equal to [sequence_length]."
                             f"Received: window shape={win.shape}")
        full = np.zeros(fft_length)
        full[left:left + sequence_length] = win
        # the dual window: the window over the sum of the squared windows overlapping there
        hops = -(-fft_length // sequence_stride)
        sq = np.zeros(hops * sequence_stride)
        sq[:fft_length] = full * full
        denom = np.tile(sq.reshape(hops, sequence_stride).sum(0), hops)[:fft_length]
        dual = tf.constant((full / denom).astype(d))

        def windowed(n, dtype):
            return dual
    else:
        windowed = None
    out = tf.signal.inverse_stft(tf.complex(re, im), fft_length, sequence_stride,
                                 fft_length=fft_length, window_fn=windowed)
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = out.shape[-1] - fft_length // 2
    else:
        end = expected
    return out[..., start:end]
