"""Keras 3's audio preprocessing layers: STFTSpectrogram (a short-time Fourier transform as a
strided 1-D convolution with trainable cosine/sine kernels) and MelSpectrogram (framing,
window, |STFT|, mel filterbank, decibels).

Named windows other than the periodic Hann/Hamming of MelSpectrogram come from
``scipy.signal.get_window`` as in Keras (the ``special`` extra, imported only then).
"""
import math

from ..._core import errors
from ..._core.backend import np
from ...ops import array_ops as _a
from ...ops import manip_ops as _mn
from ...ops import math_ops as _m
from ...ops import nn_conv_ops as _conv
from ...ops import reduction_ops as _r
from ...ops import signal_ops as _sig
from ...ops import special_math_ops as _sm
from ...ops._helpers import to_tensor
from .. import initializers as _init
from ..backend import epsilon
from .input_spec import InputSpec
from .layer import Layer

__all__ = ["MelSpectrogram", "STFTSpectrogram"]



class STFTSpectrogram(Layer):
    """Spectrograms of ``(batch, time, channels)`` signals by a short-time Fourier transform
    (``tf.keras.layers.STFTSpectrogram``), computed as Keras does: a 1-D convolution with
    stride ``frame_step`` of each channel with the kernels ``real_kernel`` (cosines) and
    ``imag_kernel`` (sines), each ``(frame_length, 1, fft_length // 2 + 1)``, windowed and
    scaled, trainable.

    Args:
        mode: 'log' (log magnitude, default), 'magnitude', 'psd' (power, interior bins
            doubled), 'real', 'imag', 'angle' or 'stft' (real and imaginary stacked on the
            frequency axis).
        frame_length: samples per frame (default 256).
        frame_step: samples between frames (default ``frame_length // 2``).
        fft_length: DFT size (default the next power of two of ``frame_length``).
        window: a scipy window name (default 'hann'), an array of ``frame_length``, or None.
        periodic: a periodic rather than symmetric window.
        scaling: 'density' (default), 'spectrum' or None.
        padding: 'valid' or 'same' for the framing.
        expand_dims: keep the channels apart: ``(batch, frames, freq, channels)`` rather than
            ``(batch, frames, channels * freq)``.
        data_format: 'channels_last' only works on the CPU, as TensorFlow's (its Conv2D has
            no NCHW CPU kernel).

    Raises:
        ValueError: a bad ``frame_step``, ``fft_length``, ``mode``, ``scaling`` or
            ``padding`` (Keras's texts); scipy's error for an unknown window.
        TypeError: non-float inputs.
        tf.errors.UnimplementedError: 'channels_first' when called (as TensorFlow on a CPU).
    """

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None,
                 window="hann", periodic=False, scaling="density", padding="valid",
                 expand_dims=False, data_format=None, **kwargs):
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError("`frame_step` should be a positive integer not greater than "
                             f"`frame_length`. Received frame_step={frame_step}, "
                             f"frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError("`fft_length` should be not less than `frame_length`. Received "
                             f"fft_length={fft_length}, frame_length={frame_length}")
        if fft_length is not None and (fft_length & -fft_length) != fft_length:
            import warnings
            warnings.warn("`fft_length` is recommended to be a power of two. Received "
                          f"fft_length={fft_length}", stacklevel=2)
        modes = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]
        if mode not in modes:
            raise ValueError("Output mode is invalid, it must be one of "
                             f"{', '.join(modes)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or "
                             f"'spectrum'. Received scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError("Padding is invalid, it should be 'valid', 'same'. Received: "
                             f"padding={padding}")
        if isinstance(window, str):
            _init._get_window(window, 1, False)
        super().__init__(**kwargs)
        self.mode, self.frame_length, self.frame_step = mode, frame_length, frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic, self.scaling = window, periodic, scaling
        self.padding, self.expand_dims = padding, expand_dims
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(
                name="real_kernel", shape=shape,
                initializer=_init.STFT("real", self.window, self.scaling, self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(
                name="imag_kernel", shape=shape,
                initializer=_init.STFT("imag", self.window, self.scaling, self.periodic))
        self.built = True

    def _apply_conv(self, inputs, kernel):
        if self.data_format != "channels_last":
            raise errors.UnimplementedError(
                None, None, "The Conv2D op currently only supports the NHWC tensor format on "
                "the CPU. The op was given the format: NCHW [Op:Conv2D]")
        _, time, channels = inputs.shape
        x = _a.reshape(_a.transpose(inputs, [0, 2, 1]), [-1, 1, time, 1])
        w = _a.expand_dims(_a.cast(kernel, inputs.dtype), 0)
        y = _conv.conv2d(x, w, (1, self._frame_step), self.padding.upper())
        y = _a.squeeze(y, [1])                          # (batch * channels, frames, freq)
        frames, freq = y.shape[1], y.shape[2]
        return _a.reshape(_a.transpose(y, [0, 2, 1]), [-1, channels, freq, frames])

    def _adjust(self, outputs):
        _, channels, freq, frames = outputs.shape
        if self.expand_dims:
            return _a.transpose(outputs, [0, 3, 2, 1])
        return _a.transpose(_a.reshape(outputs, [-1, channels * freq, frames]), [0, 2, 1])

    def call(self, inputs):
        if inputs.dtype.name not in ("float16", "float32", "float64"):
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype.name}")
        real = imag = None
        if self.mode != "imag":
            real = self._apply_conv(inputs, self.real_kernel)
        if self.mode != "real":
            imag = self._apply_conv(inputs, self.imag_kernel)
        if self.mode == "real":
            return self._adjust(real)
        if self.mode == "imag":
            return self._adjust(imag)
        if self.mode == "angle":
            return self._adjust(_m.atan2(imag, real))
        if self.mode == "stft":
            return self._adjust(_a.concat([real, imag], axis=2))
        power = _m.add(_m.square(real), _m.square(imag))
        if self.mode == "psd":
            return self._adjust(_m.add(power, _mn.pad(power[:, :, 1:-1, :],
                                                      [[0, 0], [0, 0], [1, 1], [0, 0]])))
        linear = self._adjust(_m.sqrt(_m.maximum(power, epsilon())))
        if self.mode == "magnitude":
            return linear
        return _m.log(_m.maximum(linear, epsilon()))

    def compute_output_shape(self, input_shape):
        channels = input_shape[-1]
        freq = self._fft_length // 2 + 1
        if self.mode == "stft":
            freq *= 2
        n = input_shape[1]
        if n is None:
            frames = None
        elif self.padding == "same":
            frames = (n - 1) // self._frame_step + 1
        else:
            frames = (n - self.frame_length) // self._frame_step + 1
        if self.expand_dims:
            return (input_shape[0], frames, freq, channels)
        return (input_shape[0], frames, freq * channels)

    def get_config(self):
        return dict(super().get_config(), mode=self.mode, frame_length=self.frame_length,
                    frame_step=self.frame_step, fft_length=self.fft_length,
                    window=self.window, periodic=self.periodic, scaling=self.scaling,
                    padding=self.padding, data_format=self.data_format,
                    expand_dims=self.expand_dims)


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hz):
    return _MEL_HIGH_FREQUENCY_Q * np.log(1.0 + hz / _MEL_BREAK_FREQUENCY_HERTZ)


class MelSpectrogram(Layer):
    """Mel spectrograms of ``(batch, samples)`` (or ``(samples,)``) audio
    (``tf.keras.layers.MelSpectrogram``), as Keras 3 computes them: the signal is padded by
    ``fft_length // 2`` on both sides (reflecting), cut in frames of ``fft_length`` every
    ``sequence_stride`` samples, windowed (a periodic ``window`` of ``sequence_length``
    centred in the frame), Fourier transformed; ``|STFT| ** mag_exp`` is mapped to
    ``num_mel_bins`` triangular mel bands between ``min_freq`` and ``max_freq`` (HTK mel
    scale, Keras's filterbank) and, with ``power_to_db``, to decibels
    ``10 log10(max(x, min_power) / max(|ref_power|, min_power))`` floored ``top_db`` below
    the largest value of the whole batch.

    Args:
        fft_length: samples per frame and DFT size (default 2048).
        sequence_stride: samples between frames (default 512).
        sequence_length: the window's length (default ``fft_length``).
        window: 'hann' (default), 'hamming', an array of ``sequence_length`` or None.
        sampling_rate: the audio's sampling rate in Hz (default 16000).
        num_mel_bins: the number of mel bands (default 128).
        min_freq, max_freq: the band edges in Hz (default 20 and ``sampling_rate / 2``).
        power_to_db, top_db, mag_exp, min_power, ref_power: as above (defaults True, 80.0,
            2.0, 1e-10, 1.0).

    Returns:
        float32 ``(batch, num_mel_bins, frames)``.

    Raises:
        ValueError: ``fft_length`` smaller than ``sequence_length`` or an unknown window
            name (Keras's texts).
    """

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None,
                 window="hann", sampling_rate=16000, num_mel_bins=128, min_freq=20.0,
                 max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10,
                 ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   "
                             f"`sequence_length`. Received: `sequence_length`="
                             f"{self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def _window(self, dtype):
        n = self.sequence_length
        if self.window is None:
            return None
        if isinstance(self.window, str):
            if self.window not in ("hann", "hamming"):
                raise ValueError('If a string is passed to `window`, it must be one of '
                                 f'`"hann"`, `"hamming"`. Received: window={self.window}')
            fn = _sig.hann_window if self.window == "hann" else _sig.hamming_window
            win = fn(n, periodic=True, dtype=dtype).numpy()
        else:
            win = np.asarray(self.window, dtype.as_numpy_dtype)
            if win.ndim != 1 or win.shape[-1] != n:
                raise ValueError("The shape of `window` must be equal to [sequence_length]."
                                 f"Received: window shape={win.shape}")
        left = (self.fft_length - n) // 2
        return np.pad(win, (left, self.fft_length - n - left))

    def _mel_matrix(self, bins, dtype):
        f = np.dtype(dtype.as_numpy_dtype).type
        nyquist = f(self.sampling_rate) / f(2.0)
        linear = np.linspace(f(0), nyquist, bins, dtype=f)[1:]
        spectrogram_mel = _hertz_to_mel(linear).astype(f)[:, None]
        edges = np.linspace(_hertz_to_mel(f(self.min_freq)), _hertz_to_mel(f(self.max_freq)),
                            self.num_mel_bins + 2).astype(f)
        lower, center, upper = (edges[i:i + self.num_mel_bins][None, :] for i in range(3))
        lower_slopes = (spectrogram_mel - lower) / (center - lower)
        upper_slopes = (upper - spectrogram_mel) / (upper - center)
        weights = np.maximum(f(0), np.minimum(lower_slopes, upper_slopes))
        return np.pad(weights, [[1, 0], [0, 0]]).astype(f)

    def call(self, inputs):
        compute = self.dtype_policy._compute
        dtype = compute if getattr(compute, "name", compute) in ("float32", "float64") \
            else "float32"
        x = _a.cast(to_tensor(inputs), dtype)
        half = self.fft_length // 2
        x = _mn.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[half, half]], mode="REFLECT")
        win = self._window(x.dtype)
        stft = _sig.stft(x, self.fft_length, self.sequence_stride, self.fft_length,
                         window_fn=None if win is None else
                         (lambda length, dtype=None: to_tensor(win.astype(
                             x.dtype.as_numpy_dtype))))
        real, imag = _m.real(stft), _m.imag(stft)
        spec = _m.pow(_m.sqrt(_m.add(_m.square(real), _m.square(imag))), self.mag_exp)
        matrix = to_tensor(self._mel_matrix(spec.shape[-1], x.dtype))
        out = _sm.tensordot(spec, matrix, axes=1)
        if self.power_to_db:
            out = self._dbscale(out)
        out = _a.transpose(out, list(range(len(out.shape) - 2)) + [len(out.shape) - 1,
                                                                  len(out.shape) - 2])
        return _a.cast(out, compute)

    def _dbscale(self, x):
        log_spec = _m.multiply(10.0, _m.divide(_m.log(_m.maximum(x, self.min_power)),
                                              math.log(10.0)))
        ref = max(abs(self.ref_power), self.min_power)
        log_spec = _m.subtract(log_spec, np.asarray(10.0 * np.log10(np.float32(ref)),
                                                    x.dtype.as_numpy_dtype))
        return _m.maximum(log_spec, _m.subtract(_r.reduce_max(log_spec), self.top_db))

    def compute_output_shape(self, input_shape):
        n = input_shape[-1]
        frames = None if n is None else (n + self.sequence_stride + 1) // self.sequence_stride
        if len(input_shape) == 1:
            return [self.num_mel_bins, frames]
        return [input_shape[0], self.num_mel_bins, frames]

    def get_config(self):
        return dict(super().get_config(), fft_length=self.fft_length,
                    sequence_stride=self.sequence_stride,
                    sequence_length=self.sequence_length, window=self.window,
                    sampling_rate=self.sampling_rate, num_mel_bins=self.num_mel_bins,
                    min_freq=self.min_freq, max_freq=self.max_freq,
                    power_to_db=self.power_to_db, top_db=self.top_db, mag_exp=self.mag_exp,
                    min_power=self.min_power, ref_power=self.ref_power)
