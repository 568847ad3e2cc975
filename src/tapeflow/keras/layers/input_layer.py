"""Input and InputLayer: declare the shape of one example ahead of the first call."""
from .._symbolic import KerasTensor
from .layer import Layer

__all__ = ["Input", "InputLayer", "KerasTensor"]


class InputLayer(Layer):
    """The layer behind :func:`Input` (``tf.keras.layers.InputLayer``): passes inputs through.

    Args:
        shape: the shape of one example (no batch axis).
        batch_size: optional fixed batch size.
        dtype: the input dtype.
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, batch_shape=None,
                 sparse=False, ragged=False, optional=False, **kwargs):
        super().__init__(name=name, dtype=dtype)
        if sparse or ragged or optional:
            raise ValueError("tapeflow's InputLayer has no sparse, ragged or optional inputs")
        if batch_shape is not None:
            self.batch_shape = tuple(batch_shape)
        else:
            self.batch_shape = (batch_size,) + tuple(shape or ())
        self.output = KerasTensor(self.batch_shape, self.dtype, name=name)
        self.output._input_layer = self
        self._output_shape = self.batch_shape
        self.built = True

    def get_config(self) -> dict:
        return {"batch_shape": list(self.batch_shape), "dtype": self.dtype, "sparse": False,
                "ragged": False, "name": self.name, "optional": False}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self):
        return None


def Input(shape=None, batch_size=None, dtype=None, name=None, **kwargs):  # noqa: N802
    """A symbolic input of ``shape`` (``tf.keras.Input``): the start of a functional model,
    or the first entry of a ``Sequential``.

    Returns:
        A KerasTensor whose shape has a leading ``None`` (or ``batch_size``).
    """
    return InputLayer(shape, batch_size, dtype, name).output
