"""Weight initialisers (``tf.keras.initializers``), Keras 3's on the TensorFlow backend.

A random initializer keeps an int seed (a default one from Python's ``random`` when none
is given, as Keras's ``make_default_seed``, so ``keras.utils.set_random_seed`` fixes it) or
a ``SeedGenerator``, and draws through ``keras.random`` (TensorFlow's stateless ops): a
seeded model's initial weights are TensorFlow's. An int-seeded initializer gives the same
values on every call, as in Keras. ``Orthogonal`` takes a float32 QR decomposition, which
matches TensorFlow's only to rounding.
Formulas: Glorot & Bengio 2010 (Glorot*), He et al. 2015 (He*), LeCun et al. 1998 (Lecun*).
"""
import math

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, convert_to_tensor
from ..ops import array_ops as _a
from ..ops import linalg_ops as _linalg
from ..ops import math_ops as _m
from . import _variable
from . import random as _r
from .backend import floatx

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomNormal", "RandomUniform",
           "TruncatedNormal", "GlorotUniform", "GlorotNormal", "HeUniform", "HeNormal",
           "LecunUniform", "LecunNormal", "VarianceScaling", "get", "serialize", "deserialize",
           "zeros", "ones",
           "constant", "random_normal", "random_uniform", "truncated_normal",
           "glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform",
           "lecun_normal", "Orthogonal", "orthogonal", "STFT", "STFTInitializer", "stft"]


def _fans(shape, input_axes=None, output_axes=None):
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return (math.prod(shape[a] for a in input_axes),
                math.prod(shape[a] for a in output_axes))
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: ``init(shape, dtype=None)`` returns a Tensor of that shape."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def get_config(self) -> dict:
        """The constructor's arguments (Keras 3's keys)."""
        from .saving.serialization import signature_config
        return signature_config(self)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Constant(Initializer):
    """Every element equal to ``value`` (``keras.initializers.Constant``)."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dtype = _dt.as_dtype(dtype or floatx())
        return Tensor(np.full(tuple(shape), self.value, dtype=dtype._np))


class Zeros(Constant):
    """All zeros (``keras.initializers.Zeros``)."""

    def __init__(self):
        super().__init__(0.0)


class Ones(Constant):
    """All ones (``keras.initializers.Ones``)."""

    def __init__(self):
        super().__init__(1.0)


class RandomInitializer(Initializer):
    """Base of the random initializers (Keras 3's ``RandomInitializer``): ``seed`` is an int,
    a ``keras.random.SeedGenerator`` or None (a default int seed from Python's ``random``).

    Raises:
        ValueError: for any other seed.
    """

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = _r.make_default_seed()
        elif isinstance(seed, dict):
            from .saving.serialization import deserialize_keras_object
            seed = deserialize_keras_object(seed)
        elif not isinstance(seed, (int, _r.SeedGenerator)):
            raise ValueError("`seed` argument should be an instance of "
                             "`keras.random.SeedGenerator()` or an integer. "
                             f"Received: seed={seed}")
        self.seed = seed

    def get_config(self) -> dict:
        config = super().get_config()
        seed = self._init_seed
        if isinstance(seed, _r.SeedGenerator):
            from .saving.serialization import serialize_keras_object
            seed = serialize_keras_object(seed)
        config["seed"] = seed
        return config


class RandomNormal(RandomInitializer):
    """Samples of N(mean, stddev**2) (``keras.initializers.RandomNormal``)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return _r.normal(shape, self.mean, self.stddev, dtype or floatx(), seed=self.seed)


class TruncatedNormal(RandomInitializer):
    """Normal samples within two standard deviations (``keras.initializers.TruncatedNormal``)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return _r.truncated_normal(shape, self.mean, self.stddev, dtype or floatx(),
                                   seed=self.seed)


class RandomUniform(RandomInitializer):
    """Samples of U[minval, maxval) (``keras.initializers.RandomUniform``)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return _r.uniform(shape, self.minval, self.maxval, dtype or floatx(), seed=self.seed)


class VarianceScaling(RandomInitializer):
    """Samples with variance ``scale / n`` where n is fan_in, fan_out or their mean.

    Args:
        scale: the variance scale.
        mode: 'fan_in', 'fan_out' or 'fan_avg'.
        distribution: 'truncated_normal', 'untruncated_normal' or 'uniform'.
        seed: optional op-level seed.
        input_axes, output_axes: optional lists of axes whose sizes multiply into fan_in
            and fan_out (both given, or the usual rule of the kernel's last two axes).
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        dtype = dtype or floatx()
        fan_in, fan_out = _fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out}.get(self.mode, (fan_in + fan_out) / 2.0)
        scale = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            return _r.uniform(shape, -limit, limit, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return _r.normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        # 0.879... is the stddev of a unit normal truncated to [-2, 2].
        stddev = math.sqrt(scale) / 0.87962566103423978
        return _r.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)


class GlorotUniform(VarianceScaling):
    """U[-l, l] with ``l = sqrt(6 / (fan_in + fan_out))`` (Glorot & Bengio 2010)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)


class GlorotNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out))`` (Glorot & Bengio 2010)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)


class HeUniform(VarianceScaling):
    """U[-l, l] with ``l = sqrt(6 / fan_in)`` (He et al. 2015)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)


class HeNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(2 / fan_in)`` (He et al. 2015)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class LecunUniform(VarianceScaling):
    """U[-l, l] with ``l = sqrt(3 / fan_in)`` (LeCun et al. 1998)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)


class LecunNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(1 / fan_in)`` (LeCun et al. 1998)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class Orthogonal(RandomInitializer):
    """A (semi-)orthogonal matrix times ``gain``, from the QR decomposition of a normal
    sample (``keras.initializers.Orthogonal``; Saxe et al. 2014). The sample is
    TensorFlow's; the QR is NumPy's (LAPACK), equal to TensorFlow's (Eigen) to rounding."""

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = (max(rows, cols), min(rows, cols))
        dtype = _dt.as_dtype(dtype or floatx())
        a = _r.normal(flat, dtype=dtype, seed=self.seed)
        q, r = _linalg.qr(a)
        q = _m.multiply(q, _m.sign(_linalg.diag_part(r)))
        if rows < cols:
            q = _a.transpose(q)
        return _m.multiply(convert_to_tensor(float(self.gain), dtype), _a.reshape(q, shape))


zeros, ones, constant = Zeros, Ones, Constant
orthogonal = Orthogonal
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_uniform, he_normal, lecun_uniform, lecun_normal = HeUniform, HeNormal, LecunUniform, LecunNormal

_BY_NAME = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
    "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_uniform": HeUniform,
    "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
    "variance_scaling": VarianceScaling, "orthogonal": Orthogonal,
}


def _get_window(window, length, periodic):
    try:
        import scipy.signal  # noqa: PLC0415 - scipy only for named windows
    except ImportError as exc:  # pragma: no cover - scipy is in the test environment
        raise ImportError("Keras's named STFT windows need SciPy: pip install "
                          "'tapeflow[special]'") from exc
    return scipy.signal.get_window(window, length, periodic)


class STFT(Initializer):
    """The kernel of a short-time Fourier transform as a 1-D convolution
    (``tf.keras.initializers.STFT``, also ``STFTInitializer``; what ``STFTSpectrogram``
    builds with): for ``shape = (frame_length, input_channels, fft_bins)`` the real
    (``cos``) or imaginary (``-sin``) part of the DFT, ``-2 pi t f / ((fft_bins - 1) * 2)``,
    times the window and divided by its scaling.

    Args:
        side: 'real' (default) or 'imag'.
        window: a ``scipy.signal.get_window`` name (default 'hann'; SciPy, the ``special``
            extra, is then needed), an array of ``frame_length`` numbers, or None.
        scaling: 'density' (default: the window's L2 norm), 'spectrum' (its L1 norm) or
            None.
        periodic: a periodic rather than symmetric named window (default False).

    Raises:
        ValueError: for another side or scaling, an unknown window name (SciPy's error),
            or a window array whose shape is not ``(frame_length,)`` (when called).
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _get_window(window, 1, False)   # an unknown name fails here, as in Keras
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        dt = np.dtype(getattr(dtype, "as_numpy_dtype", dtype) or np.float32)
        frame_length, _, bins = shape
        win, scale = None, dt.type(1)
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _get_window(win, frame_length, self.periodic)
            win = np.asarray(win, dt)
            if win.ndim != 1 or win.shape[-1] != frame_length:
                raise ValueError("The shape of `window` must be equal to [frame_length]."
                                 f"Received: window shape={win.shape}")
            win = win.reshape(frame_length, 1, 1)
            if self.scaling == "density":
                scale = np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                scale = np.sum(np.abs(win))
        freq = np.arange(bins, dtype=dt).reshape(1, 1, bins) / dt.type((bins - 1) * 2)
        time = np.arange(frame_length, dtype=dt).reshape(frame_length, 1, 1)
        args = (dt.type(-2) * time) * freq * np.arccos(dt.type(-1))
        kernel = np.cos(args) if self.side == "real" else np.sin(args)
        if win is not None:
            kernel = (kernel * win) / scale
        return convert_to_tensor(kernel.astype(dt))

    def get_config(self) -> dict:
        window = self.window
        if isinstance(window, np.ndarray):
            window = window.tolist()
        return {"side": self.side, "window": window, "periodic": self.periodic,
                "scaling": self.scaling}


STFTInitializer = stft = STFT
_BY_NAME.update({"stft": STFT, "STFTInitializer": STFT})


def serialize(initializer) -> dict:
    """The initializer's Keras config: ``{"module", "class_name", "config",
    "registered_name"}`` (``tf.keras.initializers.serialize``)."""
    from .saving.serialization import serialize_keras_object
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """An initializer from :func:`serialize`'s dict, a ``{"class_name", "config"}`` dict or
    a name (``tf.keras.initializers.deserialize``).

    Raises:
        ValueError: for a name that is not an initializer.
    """
    if isinstance(config, str):
        return get(config)
    from .saving.serialization import deserialize_keras_object
    if isinstance(config, dict) and "module" not in config:
        config = dict(config, module="keras.initializers")
    return deserialize_keras_object(config, custom_objects)


def get(identifier):
    """An Initializer from a name (``'glorot_uniform'``, ``'GlorotUniform'``), an instance
    or a callable ``f(shape, dtype)``.

    Raises:
        ValueError: for an unknown identifier.
    """
    if isinstance(identifier, Initializer) or (callable(identifier)
                                               and not isinstance(identifier, type)):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if isinstance(identifier, str):
        from ._naming import to_snake_case
        cls = _BY_NAME.get(to_snake_case(identifier)) or _BY_NAME.get(identifier)
        if cls is not None:
            return cls()
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


_variable.register_initializer_lookup(get)   # KerasVariable(initializer="ones", ...)
