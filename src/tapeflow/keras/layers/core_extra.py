"""Small layers: Lambda (any function), Identity, Masking."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .layer import Layer

__all__ = ["Identity", "Lambda", "Masking"]


class Lambda(Layer):
    """Wrap ``function(inputs, **arguments)`` as a layer (``tf.keras.layers.Lambda``)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})

    def get_config(self):
        raise NotImplementedError(
            f"Layer Lambda (name '{self.name}') cannot be saved by tapeflow: its function is "
            "Python code. Write a Layer subclass with `get_config()` and register it with "
            "`tf.keras.saving.register_keras_serializable()` instead.")

    def call(self, inputs):
        return self.function(inputs, **self.arguments)


class Identity(Layer):
    """Return the input unchanged (``tf.keras.layers.Identity``)."""

    supports_masking = True
    _built_at_init = True

    def call(self, inputs):
        return inputs


class Masking(Layer):
    """Mark time steps whose features all equal ``mask_value`` as padding
    (``tf.keras.layers.Masking``): they are zeroed, and the output carries a Keras mask
    ``(batch, steps)`` that RNNs and ``GlobalAveragePooling1D`` use.

    Args:
        mask_value: the padding value (default 0.0).

    >>> import tapeflow as tf
    >>> x = tf.constant([[[1.0], [0.0], [2.0]]])
    >>> tf.keras.layers.Masking().compute_mask(x).numpy().tolist()
    [[True, False, True]]
    """

    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.built = True

    def compute_mask(self, inputs, previous_mask=None):
        return _r.reduce_any(_m.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = _r.reduce_any(_m.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        return _m.multiply(inputs, _a.cast(keep, inputs.dtype))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), mask_value=self.mask_value)
