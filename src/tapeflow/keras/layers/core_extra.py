"""Small layers: Lambda (any function), Identity, Masking."""
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .layer import Layer

__all__ = ["Identity", "Lambda", "Masking"]


class Lambda(Layer):
    """Wrap ``function(inputs, **arguments)`` as a layer (``tf.keras.layers.Lambda``).

    A ``.keras`` file keeps a Python lambda as its marshalled code (readable by the same
    Python version only), a named function by its registered name; loading a lambda needs
    ``safe_mode=False`` (or ``keras.config.enable_unsafe_deserialization()``), as in Keras 3.

    Args:
        function: the function of the inputs.
        output_shape: optional output shape (a tuple or a function of the input shape).
        mask: optional mask (or a function ``mask(inputs, previous_mask)``).
        arguments: optional keyword arguments passed to ``function``.

    Raises:
        ValueError: from ``from_config`` for a lambda in safe mode.
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self._lambda_output_shape = output_shape
        self.mask = mask
        self.arguments = dict(arguments or {})

    def get_config(self):
        from ..saving.serialization import serialize_keras_object
        config = {"function": _function_config(self.function)}
        shape = self._lambda_output_shape
        if shape is not None:
            config["output_shape"] = _function_config(shape) if callable(shape) else shape
        if self.mask is not None:
            config["mask"] = (_function_config(self.mask) if callable(self.mask)
                              else serialize_keras_object(self.mask))
        config["arguments"] = serialize_keras_object(self.arguments)
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        from ..saving import serialization as _s
        config = dict(config)
        for key in ("function", "output_shape", "mask"):
            value = config.get(key)
            if isinstance(value, dict) and value.get("class_name") == "__lambda__":
                config[key] = _s.load_lambda(value, safe_mode)
            elif key == "function" or (isinstance(value, dict) and "class_name" in value):
                config[key] = _s.deserialize_keras_object(value, custom_objects)
            elif key == "output_shape" and isinstance(value, list):
                config[key] = tuple(value)
        if "arguments" in config:
            config["arguments"] = _s.deserialize_keras_object(config["arguments"],
                                                              custom_objects)
        return cls(**config)

    def compute_mask(self, inputs, previous_mask=None):
        if callable(self.mask):
            return self.mask(inputs, previous_mask)
        return self.mask if self.mask is not None else previous_mask

    def call(self, inputs):
        return self.function(inputs, **self.arguments)


def _function_config(fn):
    import types

    from ..saving import serialization as _s
    if isinstance(fn, types.LambdaType) and fn.__name__ == "<lambda>":
        return _s.dump_lambda(fn)
    return _s.serialize_keras_object(fn)


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
