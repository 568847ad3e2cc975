"""Cases of ``tf.signal`` run the same way under TensorFlow (by tools/record_signal.py) and
under tapeflow (by tests/ops/test_signal.py): ``run(tf, case)`` takes the library module.

A case is ``(key, fn, args, kwargs, grad)``: ``fn`` a name in ``tf.signal``, ``args`` NumPy
arrays or Python values, ``grad`` whether to record the gradient of
``sum(Re(y) * u + Im(y) * v)`` (``u``, ``v`` fixed pseudo-random weights) with respect to the
first argument, and a second derivative (the gradient of ``sum(g * w)`` with respect to that
argument, ``g`` the first gradient) where it exists.
"""
import numpy as np

_RNG = np.random.default_rng(7)


def _r(*shape, dtype=np.float32):
    return _RNG.standard_normal(shape).astype(dtype)


def _c(*shape, dtype=np.complex64):
    return (_RNG.standard_normal(shape) + 1j * _RNG.standard_normal(shape)).astype(dtype)


CASES = []


def _add(key, fn, args, kwargs=None, grad=True):
    CASES.append((key, fn, args, kwargs or {}, grad))


for _dt in (np.complex64, np.complex128):
    _n = np.dtype(_dt).name
    _add(f"fft_{_n}", "fft", [_c(3, 5, dtype=_dt)])
    _add(f"ifft_{_n}", "ifft", [_c(2, 6, dtype=_dt)])
    _add(f"fft2d_{_n}", "fft2d", [_c(2, 3, 4, dtype=_dt)])
    _add(f"ifft2d_{_n}", "ifft2d", [_c(3, 4, dtype=_dt)])
    _add(f"fft3d_{_n}", "fft3d", [_c(2, 3, 2, dtype=_dt)])
    _add(f"ifft3d_{_n}", "ifft3d", [_c(1, 2, 3, 2, dtype=_dt)])
for _dt in (np.float32, np.float64):
    _n = np.dtype(_dt).name
    _add(f"rfft_{_n}", "rfft", [_r(2, 7, dtype=_dt)])
    _add(f"rfft_pad_{_n}", "rfft", [_r(5, dtype=_dt)], {"fft_length": [8]})
    _add(f"rfft_crop_{_n}", "rfft", [_r(3, 6, dtype=_dt)], {"fft_length": [4]})
    _add(f"rfft2d_{_n}", "rfft2d", [_r(2, 4, 5, dtype=_dt)])
    _add(f"rfft2d_len_{_n}", "rfft2d", [_r(3, 5, dtype=_dt)], {"fft_length": [4, 6]})
    _add(f"rfft3d_{_n}", "rfft3d", [_r(2, 3, 4, dtype=_dt)])
_add("irfft_even", "irfft", [_c(2, 5)])
_add("irfft_odd", "irfft", [_c(4)], {"fft_length": [7]})
_add("irfft_pad", "irfft", [_c(3)], {"fft_length": [10]})
_add("irfft_c128", "irfft", [_c(2, 4, dtype=np.complex128)], {"fft_length": [6]})
_add("irfft2d", "irfft2d", [_c(3, 4)])
_add("irfft2d_len", "irfft2d", [_c(2, 3, 4)], {"fft_length": [4, 5]})
_add("irfft3d", "irfft3d", [_c(2, 2, 3)], {"fft_length": [2, 2, 4]})
_add("fftshift", "fftshift", [np.arange(10, dtype=np.float32).reshape(2, 5)], grad=False)
_add("fftshift_axes", "fftshift", [np.arange(12, dtype=np.float32).reshape(3, 4)],
     {"axes": 1}, grad=False)
_add("ifftshift", "ifftshift", [np.arange(7, dtype=np.int32)], grad=False)
_add("frame", "frame", [np.arange(10, dtype=np.int32), 4, 3], grad=False)
_add("frame_pad", "frame", [np.arange(10, dtype=np.int32), 4, 3], {"pad_end": True},
     grad=False)
_add("frame_f", "frame", [_r(2, 9), 3, 2])
_add("frame_axis0", "frame", [_r(8, 2), 4, 2], {"axis": 0, "pad_end": True, "pad_value": 1.5})
_add("frame_short", "frame", [_r(3), 5, 2], grad=False)
_add("overlap_and_add", "overlap_and_add", [_r(2, 4, 6), 2])
_add("overlap_and_add_fast", "overlap_and_add", [_r(3, 4), 4])
_add("overlap_and_add_wide", "overlap_and_add", [_r(3, 3), 5])
_add("overlap_and_add_int", "overlap_and_add", [np.arange(12, dtype=np.int32).reshape(3, 4),
                                               3], grad=False)
for _w in ("hann_window", "hamming_window"):
    for _len in (1, 6, 7):
        for _p in (True, False):
            _add(f"{_w}_{_len}_{_p}", _w, [_len], {"periodic": _p}, grad=False)
    _add(f"{_w}_f64", _w, [9], {"dtype": "float64"}, grad=False)
_add("kaiser_window", "kaiser_window", [8], grad=False)
_add("kaiser_window_beta", "kaiser_window", [9], {"beta": 4.0, "dtype": "float64"}, grad=False)
_add("kaiser_bessel_derived_window", "kaiser_bessel_derived_window", [10], grad=False)
_add("vorbis_window", "vorbis_window", [8], grad=False)
_add("vorbis_window_f64", "vorbis_window", [5], {"dtype": "float64"}, grad=False)
_add("stft", "stft", [_r(40), 16, 8])
_add("stft_batch", "stft", [_r(2, 30), 10, 5], {"fft_length": 16, "pad_end": True})
_add("stft_nowindow", "stft", [_r(20, dtype=np.float64), 8, 4], {"window_fn": None})
_add("inverse_stft", "inverse_stft", [_c(4, 9), 16, 8])
_add("inverse_stft_crop", "inverse_stft", [_c(3, 5), 6, 3], {"fft_length": 8})
_add("inverse_stft_window", "inverse_stft", [_c(3, 9), 16, 4],
     {"window_fn": "inverse_stft_window_fn(4)"})
for _t in (1, 2, 3, 4):
    _add(f"dct{_t}", "dct", [_r(2, 6)], {"type": _t})
    _add(f"idct{_t}", "idct", [_r(5, dtype=np.float64)], {"type": _t})
    if _t != 1:
        _add(f"dct{_t}_ortho", "dct", [_r(3, 5)], {"type": _t, "norm": "ortho"})
        _add(f"idct{_t}_ortho", "idct", [_r(4)], {"type": _t, "norm": "ortho"})
_add("dct2_n_pad", "dct", [_r(4)], {"n": 7})
_add("dct2_n_cut", "dct", [_r(2, 6)], {"n": 3})
_add("mdct", "mdct", [_r(32), 8])
_add("mdct_ortho", "mdct", [_r(2, 24), 8], {"norm": "ortho", "pad_end": True})
_add("inverse_mdct", "inverse_mdct", [_r(5, 4)])
_add("inverse_mdct_ortho", "inverse_mdct", [_r(2, 3, 6, dtype=np.float64)], {"norm": "ortho"})
_add("mel_default", "linear_to_mel_weight_matrix", [], grad=False)
_add("mel_small", "linear_to_mel_weight_matrix", [6, 17, 16000, 20.0, 7000.0], grad=False)
_add("mel_f64", "linear_to_mel_weight_matrix", [4, 9],
     {"sample_rate": 1000, "lower_edge_hertz": 0.0, "upper_edge_hertz": 500.0,
      "dtype": "float64"}, grad=False)
_add("mfccs", "mfccs_from_log_mel_spectrograms", [_r(3, 8)])
# Errors: TF's exception class (and message where user-facing).
_add("err_fft_float", "fft", [_r(4)], grad=False)
_add("err_fft_scalar", "fft", [np.complex64(1 + 2j)], grad=False)
_add("err_fft2d_rank1", "fft2d", [_c(4)], grad=False)
_add("err_rfft_int", "rfft", [np.arange(3, dtype=np.int32)], grad=False)
_add("err_rfft_scalar", "rfft", [np.float32(1.0)], grad=False)
_add("err_irfft_float", "irfft", [_r(4)], grad=False)
_add("err_window_int", "hann_window", [4], {"dtype": "int32"}, grad=False)
_add("err_dct_type", "dct", [_r(4)], {"type": 5}, grad=False)
_add("err_dct_axis", "dct", [_r(4)], {"axis": 0}, grad=False)
_add("err_dct1_ortho", "dct", [_r(4)], {"type": 1, "norm": "ortho"}, grad=False)
_add("err_dct_norm", "dct", [_r(4)], {"norm": "bad"}, grad=False)
_add("err_mdct_len", "mdct", [_r(20), 6], grad=False)
_add("err_mel_bins", "linear_to_mel_weight_matrix", [0], grad=False)
_add("err_mel_edges", "linear_to_mel_weight_matrix", [4, 9, 8000, 300.0, 200.0], grad=False)
_add("err_mel_nyquist", "linear_to_mel_weight_matrix", [4, 9, 8000, 100.0, 5000.0],
     grad=False)
_add("err_overlap_rank", "overlap_and_add", [_r(4), 2], grad=False)


def _weights(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape)


def _kwargs(tf, kwargs):
    out = {}
    for k, v in kwargs.items():
        if k == "dtype":
            v = getattr(tf, v)
        elif k == "window_fn" and isinstance(v, str):
            v = tf.signal.inverse_stft_window_fn(int(v[v.index("(") + 1:-1]))
        out[k] = v
    return out


def loss(tf, y):
    """``sum(Re(y) * u + Im(y) * v)`` with the fixed weights: the gradient's seed."""
    u = tf.constant(_weights(y.shape, 1), y.dtype.real_dtype)
    if y.dtype.is_complex:
        v = tf.constant(_weights(y.shape, 2), y.dtype.real_dtype)
        return tf.reduce_sum(tf.math.real(y) * u + tf.math.imag(y) * v)
    return tf.reduce_sum(y * u)


def run(tf, case):
    """Run ``case`` through library ``tf``: a dict of NumPy results, or the error class and
    first message line (``error`` for the forward, ``grad_error`` for the gradient)."""
    key, fn, args, kwargs, grad = case
    f = getattr(tf.signal, fn)
    kw = _kwargs(tf, kwargs)
    tensors = [tf.constant(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args]
    try:
        y = f(*tensors, **kw)
    except Exception as exc:  # noqa: BLE001 - the class is the answer
        return {"error": type(exc).__name__, "message": str(exc).split("\n")[0]}
    out = {"value": np.asarray(y.numpy())}
    if not grad:
        return out
    try:
        x = tf.Variable(tensors[0])
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                l1 = loss(tf, f(x, *tensors[1:], **kw))
            g = inner.gradient(l1, x)
            w = tf.constant(_weights(g.shape, 3), g.dtype.real_dtype)
            if g.dtype.is_complex:
                w = tf.complex(w, w)
            second = tf.reduce_sum(tf.math.real(g * w))
        gg = outer.gradient(second, x)
    except Exception as exc:  # noqa: BLE001 - TF's own gradient may fail (docs/ops.md)
        out.update(grad_error=type(exc).__name__, grad_message=str(exc).split("\n")[0])
        return out
    out.update(grad=np.asarray(g.numpy()), grad2=None if gg is None else np.asarray(gg.numpy()))
    return out
