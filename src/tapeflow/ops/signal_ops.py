"""Signal processing built on the transforms (``tf.signal``): framing and overlap-add,
windows, the short-time Fourier transform and its inverse, DCT types I-IV, the MDCT, mel
filterbanks and MFCCs.

Everything here is a composition of tapeflow's differentiable ops (``gather``,
``unsorted_segment_sum``, ``rfft``/``irfft``, element-wise arithmetic), so gradients, forward
mode and tracing come from their rules; windows and filterbanks are constants computed in the
requested dtype, in the order of operations TensorFlow uses, so float32 values agree to the
last bits. References: DCT via an FFT of twice the length (J. Makhoul, "A fast cosine
transform in one and two dimensions", IEEE TASSP 28(1), 1980); the MDCT as a DCT-IV of folded
frames (Princen & Bradley, IEEE TASSP 34(5), 1986); the mel scale ``1127 ln(1 + f/700)``
(O'Shaughnessy, *Speech Communication*, 1987), as TensorFlow's ``mel_ops`` uses it.
"""
import math as _math

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.tensor import _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import creation_ops as _c
from . import fft_ops as _fft
from . import indexing_ops as _idx
from . import manip_ops as _manip
from . import math_ops as _m
from . import segment_ops as _seg
from .complex_ops import complex as _complex
from .fft_ops import _const

__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window", "kaiser_window",
           "kaiser_bessel_derived_window", "vorbis_window", "stft", "inverse_stft",
           "inverse_stft_window_fn", "dct", "idct", "mdct", "inverse_mdct",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"]


def _t(x, dtype=None):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x, dtype)


def _int(v, what):
    if isinstance(v, _TensorLike):
        if v.shape.rank not in (0, None):
            raise ValueError(f"Shape {v.shape} must have rank 0")
        v = v.numpy()
    if np.ndim(v) != 0:
        raise ValueError(f"Shape {np.shape(v)} must have rank 0")
    return int(v)


# ------------------------------------------------------------------ framing
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Slide a window of ``frame_length`` samples by ``frame_step`` along ``axis``
    (``tf.signal.frame``).

    Args:
        signal: a tensor of rank >= 1, any dtype.
        frame_length, frame_step: positive Python ints or scalar int tensors.
        pad_end: if true, pad the end with ``pad_value`` so every sample starts a frame
            (``ceil(n / frame_step)`` frames); else ``max(0, 1 + (n - frame_length) //
            frame_step)`` frames.
        axis: the axis to frame.

    Returns:
        ``signal``'s shape with ``axis`` replaced by ``[num_frames, frame_length]``.

    Raises:
        ValueError: for a scalar signal or non-scalar lengths.
    """
    x = _t(signal)
    nd = x._value.ndim
    if nd < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    length, step = _int(frame_length, "frame_length"), _int(frame_step, "frame_step")
    ax = _int(axis, "axis")
    ax = range(nd)[ax]
    n = x._value.shape[ax]
    if pad_end:
        frames = max(0, -(-n // step))
        extra = max(0, length + step * (frames - 1) - n)
        if extra:
            pads = [[0, 0]] * nd
            pads[ax] = [0, extra]
            x = _manip.pad(x, pads, constant_values=_t(pad_value, x.dtype))
    else:
        frames = max(0, 1 + (n - length) // step)
    index = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).astype(np.int32)
    # Through identity: a Variable's gradient is dense, as TF's frame gives (it slices first).
    return _idx.gather(_a.identity(x), index, axis=ax)


def overlap_and_add(signal, frame_step, name=None):
    """Sum frames ``[..., frames, frame_length]`` placed ``frame_step`` apart
    (``tf.signal.overlap_and_add``): the inverse of ``frame`` up to the window's overlap.

    Returns:
        ``[..., frame_length + frame_step * (frames - 1)]``, ``signal``'s dtype.

    Raises:
        ValueError: for rank < 2 or a non-integer ``frame_step``.
    """
    x = _t(signal)
    if isinstance(frame_step, _TensorLike) and not frame_step.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
    if isinstance(frame_step, float):
        raise ValueError("frame_step must be an integer. Got <dtype: 'float32'>")
    step = _int(frame_step, "frame_step")
    shape = x._value.shape
    if len(shape) < 2:
        raise ValueError(f"Shape {x.shape} must have rank at least 2")
    outer, frames, length = list(shape[:-2]), shape[-2], shape[-1]
    out_len = length + step * (frames - 1)
    if step == length:
        return _a.reshape(x, outer + [out_len])
    batch = int(np.prod(outer, dtype=np.int64))
    flat = _a.transpose(_a.reshape(x, [batch, frames * length]))
    ids = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1)
    summed = _seg.unsorted_segment_sum(flat, ids.astype(np.int32), max(out_len, 0))
    return _a.reshape(_a.transpose(summed), outer + [max(out_len, 0)])


# ------------------------------------------------------------------ windows
def _window_dtype(dtype):
    dt = _dt.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found <dtype: '{dt.name}'>")
    return dt


def _raised_cosine(window_length, periodic, dtype, a, b):
    dt = _window_dtype(dtype)
    n = _int(window_length, "window_length")
    npdt = dt._np
    if n == 1:
        return _c.ones([1], dt)
    periodic = bool(periodic.numpy() if isinstance(periodic, _TensorLike) else periodic)
    denom = npdt.type(n - 1 + (1 if periodic and n % 2 == 0 else 0))
    arg = npdt.type(2 * np.pi) * np.arange(n, dtype=npdt) / denom
    return convert_to_tensor((npdt.type(a) - npdt.type(b) * np.cos(arg)).astype(npdt))


def hann_window(window_length, periodic=True, dtype=_dt.float32, name=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)`` (``tf.signal.hann_window``); ``N`` is
    ``window_length`` for a periodic window of even length, else ``window_length - 1`` (TF's
    rule).

    Raises:
        ValueError: for a non-floating ``dtype``.
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dt.float32, name=None):
    """The Hamming window ``0.54 - 0.46 cos(2 pi n / N)`` (``tf.signal.hamming_window``).

    Raises:
        ValueError: for a non-floating ``dtype``.
    """
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def _i0e(x):
    """The exponentially scaled modified Bessel function of order 0, in float64."""
    x = np.abs(np.asarray(x, np.float64))
    return np.i0(x) * np.exp(-x)


def kaiser_window(window_length, beta=12.0, dtype=_dt.float32, name=None):
    """The Kaiser window ``I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)``
    (``tf.signal.kaiser_window``), computed with the scaled ``i0e`` to avoid overflow.

    Raises:
        ValueError: for a non-floating ``dtype``.
    """
    dt = _window_dtype(dtype)
    n = _int(window_length, "window_length")
    if n == 1:
        return _c.ones([1], dt)
    half = np.float32((n - 1) / 2.0)
    pos = np.arange(-half, half + np.float32(0.1), dtype=np.float32).astype(np.float64)
    beta = float(beta)
    with np.errstate(invalid="ignore", divide="ignore"):
        num = beta * np.sqrt(np.maximum(0.0, 1.0 - np.square(pos / float(half))))
        w = np.exp(num - beta) * (_i0e(num) / _i0e(beta))
    return convert_to_tensor(w.astype(dt._np))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=_dt.float32, name=None):
    """The Kaiser-Bessel-derived window (``tf.signal.kaiser_bessel_derived_window``): the
    square root of the normalised running sum of a Kaiser window of ``n // 2 + 1`` points,
    mirrored.

    Raises:
        ValueError: for a non-floating ``dtype``.
    """
    dt = _window_dtype(dtype)
    n = _int(window_length, "window_length")
    k = kaiser_window(n // 2 + 1, beta, dt).numpy().astype(np.float64)
    c = np.cumsum(k)
    half = np.sqrt(c[:-1] / c[-1])
    return convert_to_tensor(np.concatenate([half, half[::-1]]).astype(dt._np))


def vorbis_window(window_length, dtype=_dt.float32, name=None):
    """The Vorbis power-complementary window ``sin(pi/2 sin^2(pi (n + 1/2) / N))``
    (``tf.signal.vorbis_window``).

    Raises:
        ValueError: for a non-floating ``dtype``.
    """
    dt = _window_dtype(dtype)
    n = _int(window_length, "window_length")
    npdt = dt._np
    arg = np.arange(n, dtype=npdt)
    inner = np.sin(npdt.type(np.pi) / npdt.type(n) * (arg + npdt.type(0.5)))
    return convert_to_tensor(np.sin(npdt.type(np.pi / 2.0) * inner * inner).astype(npdt))


# ------------------------------------------------------------------ STFT
def _power_of_two(n):
    return int(2 ** np.ceil(np.log(n) / np.log(2.0)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform (``tf.signal.stft``): frames of the innermost axis,
    each multiplied by ``window_fn(frame_length)`` and ``rfft``-ed.

    Args:
        signals: float32/float64 ``[..., samples]``.
        frame_length, frame_step: ints.
        fft_length: default the smallest power of two >= ``frame_length``.
        window_fn: ``fn(length, dtype=...)`` or None for no window.
        pad_end: as ``frame``.

    Returns:
        complex ``[..., frames, fft_length // 2 + 1]``.
    """
    x = _t(signals)
    if x._value.ndim < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    length = _int(frame_length, "frame_length")
    n_fft = _power_of_two(length) if fft_length is None else _int(fft_length, "fft_length")
    framed = frame(x, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = _m.multiply(framed, window_fn(length, dtype=framed.dtype))
    return _fft.rfft(framed, [n_fft])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window for ``inverse_stft`` that undoes ``forward_window_fn``'s overlap
    (``tf.signal.inverse_stft_window_fn``): the forward window divided by the sum of its
    squares over the frames that overlap each sample (0 where that sum is 0).

    Returns:
        A callable ``fn(frame_length, dtype)``.
    """
    def window(frame_length, dtype):
        step = _int(frame_step, "frame_step")
        length = _int(frame_length, "frame_length")
        fw = forward_window_fn(length, dtype=dtype)
        w = fw.numpy()
        sq = np.square(w)
        overlaps = -(-length // step)
        sq = np.pad(sq, (0, overlaps * step - length)).reshape(overlaps, step)
        denom = np.tile(sq.sum(axis=0, keepdims=True), (overlaps, 1)).reshape(-1)[:length]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(denom == 0.0, np.zeros_like(w), w / denom)
        return convert_to_tensor(out.astype(w.dtype))
    return window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The inverse of ``stft`` by windowed overlap-add (``tf.signal.inverse_stft``); for a
    perfect reconstruction pass ``window_fn=inverse_stft_window_fn(frame_step)``.

    Args:
        stfts: complex ``[..., frames, fft_length // 2 + 1]``.

    Returns:
        real ``[..., samples]``.
    """
    z = _t(stfts)
    if z._value.ndim < 2:
        raise ValueError(f"Shape {z.shape} must have rank at least 2")
    length = _int(frame_length, "frame_length")
    n_fft = _power_of_two(length) if fft_length is None else _int(fft_length, "fft_length")
    frames = _fft.irfft(z, [n_fft])
    have = frames._value.shape[-1]
    if have > length:
        frames = frames[..., :length]
    elif have < length:
        frames = _manip.pad(frames, [[0, 0]] * (frames._value.ndim - 1) + [[0, length - have]])
    if window_fn is not None:
        frames = _m.multiply(frames, window_fn(length, dtype=frames.dtype))
    return overlap_and_add(frames, frame_step)


# ------------------------------------------------------------------ DCT
def _check_dct(x, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if x._value.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if x._value.dtype.kind in "biu":  # TF builds a float constant of the input's dtype
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {x.dtype.name}")


def _twiddle(count, sign, dtype):
    """``2 exp(sign i pi k / (2 N))`` for ``k < N = count``, complex of ``dtype``'s width,
    in ``dtype``'s arithmetic."""
    real = dtype._np
    ang = convert_to_tensor(
        real.type(sign) * np.arange(count, dtype=real) * real.type(_math.pi * 0.5)
        / real.type(count))
    z = _m.exp(_complex(_a.zeros_like(ang), ang))
    return _m.multiply(z, _const(2.0, z.dtype))


def _dct(x, dct_type, n, norm):
    size = x._value.shape[-1]
    if n is not None:
        if n <= size:
            x = x[..., :n]
        else:
            x = _manip.pad(x, [[0, 0]] * (x._value.ndim - 1) + [[0, n - size]])
    size = x._value.shape[-1]
    real = x.dtype._np
    if size == 0 and norm == "ortho" and dct_type in (2, 3):
        # TF pads its weight vector by size - 1
        raise errors.op_error(errors.InvalidArgumentError,
                              "Paddings must be non-negative: 0 -1", "PadV2")
    if dct_type == 1:
        mirrored = _a.concat([x, _manip.reverse(x[..., 1:size - 1], [-1])], -1)
        return _m.real(_fft.rfft(mirrored))
    if dct_type == 2:
        scale = _twiddle(size, -1.0, x.dtype)
        spectrum = _fft.rfft(x, [2 * size])[..., :size]
        out = _m.real(_m.multiply(spectrum, scale))
        if norm == "ortho":
            first = real.type(0.5) / np.sqrt(real.type(size))
            weights = np.full(size, first * real.type(np.sqrt(2.0)), real)
            weights[:1] = first
            out = _m.multiply(out, convert_to_tensor(weights))
        return out
    if dct_type == 3:
        if norm == "ortho":
            first = np.sqrt(real.type(size))
            weights = np.full(size, first * real.type(np.sqrt(0.5)), real)
            weights[:1] = first
            x = _m.multiply(x, convert_to_tensor(weights))
        else:
            x = _m.multiply(x, _const(float(size), x.dtype))
        scale = _twiddle(size, 1.0, x.dtype)
        z = _m.multiply(scale, _complex(x, _a.zeros_like(x)))
        return _fft.irfft(z, [2 * size])[..., :size]
    out = _dct(x, 2, 2 * size, None)[..., 1::2]
    if norm == "ortho":
        out = _m.multiply(out, _const(np.sqrt(0.5) / np.sqrt(float(size)), out.dtype))
    return out


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The discrete cosine transform of types I-IV over the innermost axis
    (``tf.signal.dct``), by an FFT (Makhoul 1980); ``norm="ortho"`` scales type II-IV to
    orthonormal.

    Args:
        input: float32/float64 ``[..., N]``.
        type: 1, 2, 3 or 4.
        n: cut or zero-pad the innermost axis to ``n`` first.
        axis: must be -1.
        norm: None or ``"ortho"`` (not for type I).

    Raises:
        ValueError: for an unknown type or norm, ``n < 1``, type I with ``norm`` or N < 2.
        NotImplementedError: for ``axis != -1``.
    """
    x = _t(input)
    _check_dct(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse DCT (``tf.signal.idct``): the DCT of the inverse type (I<->I, II<->III,
    IV<->IV); with ``norm="ortho"`` an exact inverse, else scaled by ``2N`` (``2(N-1)`` for
    type I).

    Raises:
        ValueError, NotImplementedError: as ``dct``.
    """
    x = _t(input)
    _check_dct(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of frames with 50% overlap (``tf.signal.mdct``): each windowed frame
    of ``frame_length`` (a multiple of 4) folded to half length and DCT-IV-ed.

    Returns:
        ``[..., frames, frame_length // 2]``.

    Raises:
        ValueError: if ``frame_length`` is not a multiple of 4.
    """
    x = _t(signals)
    if x._value.ndim < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    length = _int(frame_length, "frame_length")
    if length % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = frame(x, length, length // 2, pad_end=pad_end)
    if window_fn is not None:
        framed = _m.multiply(framed, window_fn(length, dtype=framed.dtype))
    else:
        framed = _m.multiply(framed, _const(1.0 / np.sqrt(2), framed.dtype))
    q = length // 4
    a, b, c, d = (framed[..., i * q:(i + 1) * q] for i in range(4))
    first = _m.subtract(_m.negative(_manip.reverse(c, [-1])), d)
    second = _m.subtract(a, _manip.reverse(b, [-1]))
    return dct(_a.concat([first, second], -1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The inverse of ``mdct`` by unfolding and overlap-add (``tf.signal.inverse_mdct``).

    Returns:
        ``[..., samples]``.
    """
    z = _t(mdcts)
    if z._value.ndim < 2:
        raise ValueError(f"Shape {z.shape} must have rank at least 2")
    half = z._value.shape[-1]
    if norm is None:
        y = _m.multiply(dct(z, type=4), _const(0.5 / half, z.dtype))
    else:
        y = dct(z, type=4, norm="ortho")
    lo, hi = y[..., :half // 2], y[..., half // 2:]
    rev = lambda t: _manip.reverse(t, [-1])  # noqa: E731
    frames = _a.concat([hi, _m.negative(rev(hi)), _m.negative(rev(lo)), _m.negative(lo)], -1)
    if window_fn is not None:
        frames = _m.multiply(frames, window_fn(2 * half, dtype=z.dtype))
    else:
        frames = _m.multiply(frames, _const(1.0 / np.sqrt(2), frames.dtype))
    return overlap_and_add(frames, half)


# ------------------------------------------------------------------ mel and MFCC
def _hz_to_mel(f):
    return _m.multiply(_const(1127.0, f.dtype), _m.log(_m.add(
        _const(1.0, f.dtype), _m.divide(f, _const(700.0, f.dtype)))))


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=_dt.float32, name=None):
    """A ``[num_spectrogram_bins, num_mel_bins]`` matrix of triangular mel filters
    (``tf.signal.linear_to_mel_weight_matrix``): multiply a magnitude spectrogram by it.
    Bin 0 (DC) gets no weight; bands are spaced evenly on the mel scale
    ``1127 ln(1 + f / 700)`` between the edges.

    Raises:
        ValueError: for ``num_mel_bins <= 0``, a negative or inverted edge, a non-positive
            ``sample_rate``, an upper edge above Nyquist, or a non-floating ``dtype``.
    """
    if isinstance(sample_rate, _TensorLike):
        sample_rate = sample_rate.numpy().item()
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                         f"{upper_edge_hertz:.1f}")
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                         f"{sample_rate}")
    dt = _dt.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: <dtype: '{dt.name}'>")
    rate = _const(sample_rate, dt)
    zero = convert_to_tensor(0.0, dt)
    nyquist = _m.divide(rate, _const(2.0, dt))
    freqs = _c.linspace(zero, nyquist, num_spectrogram_bins)[1:]
    bins_mel = _a.expand_dims(_hz_to_mel(freqs), 1)
    edges = _c.linspace(_hz_to_mel(convert_to_tensor(lower_edge_hertz, dt)),
                     _hz_to_mel(convert_to_tensor(upper_edge_hertz, dt)), num_mel_bins + 2)
    lower = _a.reshape(edges[:-2], [1, num_mel_bins])
    center = _a.reshape(edges[1:-1], [1, num_mel_bins])
    upper = _a.reshape(edges[2:], [1, num_mel_bins])
    up = _m.divide(_m.subtract(bins_mel, lower), _m.subtract(center, lower))
    down = _m.divide(_m.subtract(upper, bins_mel), _m.subtract(upper, center))
    weights = _m.maximum(zero, _m.minimum(up, down))
    return _manip.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients (``tf.signal.mfccs_from_log_mel_spectrograms``):
    the orthonormal-scaled DCT-II of log-mel spectrograms ``[..., num_mel_bins]``, i.e.
    ``dct(x, type=2) / sqrt(2 * num_mel_bins)``.

    Raises:
        ValueError: if ``num_mel_bins`` is 0.
    """
    x = _t(log_mel_spectrograms)
    bins = x._value.shape[-1] if x._value.ndim else None
    if bins == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {x!r}")
    out = dct(x, type=2)
    return _m.multiply(out, _m.rsqrt(_const(float(bins) * 2.0, out.dtype)))
