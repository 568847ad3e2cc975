"""Pipeline (``tf.keras.layers.Pipeline``): preprocessing layers applied in sequence."""
import inspect

from ..layer import Layer

__all__ = ["Pipeline"]


def _takes(layer, arg):
    try:
        return arg in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


class Pipeline(Layer):
    """Apply ``layers`` one after another (``tf.keras.layers.Pipeline``); unlike
    ``Sequential`` it is a plain layer, usable in a ``tf.data`` map, and it is not a model.

    Args:
        layers: a list of layers.
        name: the layer's name.

    ``call(inputs, training=True)``: ``training`` (default True, as in Keras) is handed to
    each layer whose ``call`` takes it.

    Raises:
        ValueError (``from_config``): for a config without a list under ``layers``.
    """

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True):
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs = {"training": training} if training is not None and _takes(
                layer, "training") else {}
            outputs = layer(outputs, **kwargs)
        return outputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    @classmethod
    def from_config(cls, config):
        from ...saving.serialization import deserialize_keras_object
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list "
                             f"of serialized layers. Received config with layers={layers}.")
        config = dict(config)
        config["layers"] = [deserialize_keras_object(x) for x in layers]
        return cls(**config)

    def get_config(self):
        from ...saving.serialization import serialize_keras_object
        return {"layers": [serialize_keras_object(x) for x in self._pipeline_layers],
                "name": self.name}
