"""Dropout: zero a random fraction of inputs while training, scaling the rest up."""
from ..._core.backend import np
from ..._core.tensor import Tensor
from ...ops import math_ops as _m
from ...ops import random_ops as _r
from .layer import Layer

__all__ = ["Dropout"]


class Dropout(Layer):
    """Inverted dropout (Srivastava et al. 2014), as ``tf.keras.layers.Dropout``.

    With ``training=True`` each element is kept with probability ``1 - rate`` and scaled by
    ``1 / (1 - rate)``; otherwise the input passes unchanged.

    Args:
        rate: the fraction to drop, in ``[0, 1]``.
        noise_shape: optional shape of the mask, broadcast against the input.
        seed: optional op-level seed.

    Raises:
        ValueError: for a rate outside ``[0, 1]``.
    """

    _built_at_init = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def get_config(self):
        return dict(super().get_config(), rate=self.rate, seed=self.seed,
                    noise_shape=self.noise_shape)

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        shape = self.noise_shape or inputs._value.shape
        keep = _r.uniform(shape, seed=self.seed)._value >= self.rate
        dt = inputs._value.dtype
        mask = Tensor((keep / dt.type(1 - self.rate)).astype(dt) if self.rate < 1
                      else np.zeros(keep.shape, dt))
        return _m.multiply(inputs, mask)
