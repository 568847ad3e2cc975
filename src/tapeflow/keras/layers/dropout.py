"""Dropout: zero a random fraction of inputs while training, scaling the rest up."""
from ...ops import array_ops as _a
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
        shape = self.noise_shape or inputs.shape
        if self.rate == 1:
            return _m.multiply(inputs, _a.zeros(shape, inputs.dtype))
        # The mask comes from the random op and ops, so a replay draws a fresh one.
        keep = _m.greater_equal(_r.uniform(shape, seed=self.seed), self.rate)
        mask = _m.multiply(_m.cast(keep, inputs.dtype), 1.0 / (1.0 - self.rate))
        return _m.multiply(inputs, mask)
