"""Activation: apply an activation function as a layer."""
from .. import activations as _act
from .layer import Layer, serialize

__all__ = ["Activation", "ReLU", "Softmax"]


class _Weightless(Layer):
    _built_at_init = True


class Activation(_Weightless):
    """``activation(inputs)`` as a layer (``tf.keras.layers.Activation``).

    Args:
        activation: a name ('relu', 'softmax', ...) or a callable.
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _act.get(activation)

    def get_config(self):
        return dict(super().get_config(), activation=serialize(self.activation))

    def call(self, inputs):
        return self.activation(inputs)


class ReLU(_Weightless):
    """``max(inputs, 0)`` as a layer (``tf.keras.layers.ReLU``)."""

    _config_fixed = {"max_value": None, "negative_slope": 0.0, "threshold": 0.0}

    def get_config(self):
        return dict(super().get_config(), max_value=None, negative_slope=0.0, threshold=0.0)

    def call(self, inputs):
        return _act.relu(inputs)


class Softmax(_Weightless):
    """Softmax along ``axis`` as a layer (``tf.keras.layers.Softmax``)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)

    def call(self, inputs):
        return _act.softmax(inputs, axis=self.axis)
