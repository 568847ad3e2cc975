"""Dropout and SpatialDropout1D/2D: zero a random fraction of inputs while training."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from .. import random as _kr
from ..backend import standardize_data_format
from . import _spec
from .layer import Layer

__all__ = ["ActivityRegularization", "AlphaDropout", "Dropout", "GaussianDropout", "GaussianNoise",
           "SpatialDropout1D", "SpatialDropout2D"]


class Dropout(Layer):
    """Inverted dropout (Srivastava et al. 2014), as ``tf.keras.layers.Dropout``.

    With ``training=True`` each element is kept with probability ``1 - rate`` and scaled by
    ``1 / (1 - rate)``; otherwise the input passes unchanged. As Keras 3 on TensorFlow, the
    layer owns a ``keras.random.SeedGenerator(seed)`` (made when ``rate > 0``; without a
    seed its seed comes from Python's ``random``) and each call draws the mask with
    ``keras.random.dropout`` from the generator's next state: TensorFlow's masks, and a new
    one on every call of a traced function.

    Args:
        rate: the fraction to drop, in ``[0, 1]``.
        noise_shape: optional shape of the mask, broadcast against the input (``None``
            entries take the input's size).
        seed: optional int seed of the layer's SeedGenerator.

    Raises:
        ValueError: for a rate outside ``[0, 1]``.

    >>> import tapeflow as tf
    >>> y = tf.keras.layers.Dropout(0.5)(tf.ones((1, 1000)), training=True)
    >>> sorted(set(y.numpy().ravel().tolist()))
    [0.0, 2.0]
    """

    supports_masking = True
    _built_at_init = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        if rate > 0:
            self.seed_generator = _kr.SeedGenerator(seed)
        self.built = True

    def _noise_shape(self, inputs):
        return self.noise_shape

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        return _kr.dropout(inputs, self.rate, noise_shape=self._noise_shape(inputs),
                           seed=self.seed_generator)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), rate=self.rate, seed=self.seed,
                    noise_shape=self.noise_shape)


class SpatialDropout1D(Dropout):
    """Dropout of whole feature maps of ``(batch, steps, channels)``
    (``tf.keras.layers.SpatialDropout1D``; Tompson et al. 2014): one draw per example and
    channel, shared by all steps.

    Args:
        rate: the fraction of channels to drop, in ``[0, 1]``.
        seed: optional op-level seed.

    Raises:
        ValueError: for a rate outside ``[0, 1]``, or an input that is not 3-dimensional.

    >>> import tapeflow as tf
    >>> y = tf.keras.layers.SpatialDropout1D(0.5)(tf.ones((4, 6, 3)), training=True)
    >>> bool(tf.reduce_all(y == y[:, :1, :]))  # each channel kept or dropped for all steps
    True
    """

    _ndim = 3

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)

    def _noise_shape(self, inputs):
        shape = _spec.static_shape(inputs)
        # None: the batch size of each call (tf.nn.dropout fills it from the input)
        return (None,) + (1,) * (len(shape) - 2) + (shape[-1],)

    def call(self, inputs, training=False):
        _spec.check_input(self, inputs, ndim=self._ndim)
        return super().call(inputs, training=training)

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype}


class SpatialDropout2D(SpatialDropout1D):
    """Dropout of whole channels of ``(batch, rows, cols, channels)`` images
    (``tf.keras.layers.SpatialDropout2D``): one draw per example and channel.

    Args:
        rate: the fraction of channels to drop, in ``[0, 1]``.
        data_format: 'channels_last' (the only layout tapeflow supports).
        seed: optional op-level seed.

    Raises:
        ValueError: for a rate outside ``[0, 1]``, or an input that is not 4-dimensional.

    >>> import tapeflow as tf
    >>> tf.keras.layers.SpatialDropout2D(0.5)(tf.ones((2, 3, 3, 4)), training=False).shape
    TensorShape([2, 3, 3, 4])
    """

    _ndim = 4

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        if standardize_data_format(data_format) != "channels_last":
            raise ValueError("tapeflow's SpatialDropout2D supports "
                             "data_format='channels_last' only")
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = "channels_last"

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)


class GaussianNoise(Layer):
    """Add zero-mean Gaussian noise of standard deviation ``stddev`` while training
    (``tf.keras.layers.GaussianNoise``); the input passes unchanged otherwise.

    Raises:
        ValueError: for a negative ``stddev``.
    """

    supports_masking = True
    _built_at_init = True

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= stddev:
            raise ValueError("Invalid value received for argument `stddev`. Expected a "
                             f"float value >= 0. Received: stddev={stddev}")
        self.stddev, self.seed = stddev, seed
        if stddev > 0:
            self.seed_generator = _kr.SeedGenerator(seed)
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        noise = _kr.normal(_kr.shape_of(inputs), 0.0, self.stddev, dtype=inputs.dtype,
                           seed=self.seed_generator)
        return _m.add(inputs, noise)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), stddev=self.stddev, seed=self.seed)


class GaussianDropout(Layer):
    """Multiply by Gaussian noise of mean 1 and standard deviation
    ``sqrt(rate / (1 - rate))`` while training (``tf.keras.layers.GaussianDropout``;
    Srivastava et al. 2014, section 10).

    Raises:
        ValueError: for a rate outside ``[0, 1]``.
    """

    supports_masking = True
    _built_at_init = True

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate, self.seed = rate, seed
        if rate > 0:
            self.seed_generator = _kr.SeedGenerator(seed)
        self.built = True

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = (self.rate / (1.0 - self.rate)) ** 0.5
        noise = _kr.normal(_kr.shape_of(inputs), 1.0, stddev, dtype=inputs.dtype,
                           seed=self.seed_generator)
        return _m.multiply(inputs, noise)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), rate=self.rate, seed=self.seed)


class ActivityRegularization(Layer):
    """Pass the input through and add ``l1 * sum|x| + l2 * sum x^2`` (over the batch's mean,
    as every activity regularizer) to the layer's losses
    (``tf.keras.layers.ActivityRegularization``)."""

    supports_masking = True
    _built_at_init = True

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        from .. import regularizers
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = dict(super().get_config(), l1=self.l1, l2=self.l2)
        config.pop("activity_regularizer", None)
        return config


class AlphaDropout(Layer):
    """Dropout for self-normalizing networks (``tf.keras.layers.AlphaDropout``; Klambauer et
    al. 2017, "Self-Normalizing Neural Networks", section on alpha dropout): while training,
    each dropped unit is set to SELU's negative saturation ``-alpha * scale`` and the result
    is affinely rescaled (``a * x + b``) so that inputs of zero mean and unit variance keep
    them; otherwise the input passes unchanged.

    Raises:
        ValueError: for a rate outside ``[0, 1]``.
    """

    supports_masking = True
    _built_at_init = True
    # SELU's constants (Klambauer et al. 2017, eq. 14)
    _ALPHA = 1.6732632423543772848170429916717
    _SCALE = 1.0507009873554804934193349852946

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        if rate > 0:
            self.seed_generator = _kr.SeedGenerator(seed)
        self.built = True

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        shape = _kr.shape_of(inputs, self.noise_shape)
        alpha_p = -self._ALPHA * self._SCALE
        kept = _a.cast(_m.greater_equal(_kr.uniform(shape, seed=self.seed_generator),
                                        self.rate), inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        x = _m.add(_m.multiply(inputs, kept), _m.multiply(alpha_p, _m.subtract(1.0, kept)))
        return _m.add(_m.multiply(x, a), b)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):   # (Keras 3 leaves noise_shape out)
        return dict(super().get_config(), rate=self.rate, seed=self.seed)
