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
        if dtype is None:
            from ..backend import floatx
            dtype = floatx()  # Keras's InputLayer takes floatx, not the dtype policy
        super().__init__(name=name, dtype=dtype)
        if sparse or ragged or optional:
            raise ValueError("tapeflow's InputLayer has no sparse, ragged or optional inputs")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if batch_size is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the same "
                             "time.")
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


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,  # noqa: N802
          batch_shape=None, name=None, tensor=None, optional=False):
    """A symbolic input of ``shape`` (``tf.keras.Input``): the start of a functional model,
    or the first entry of a ``Sequential``.

    Args:
        shape: the shape of one example (no batch axis), ``None`` for unknown dimensions.
        batch_size: optional fixed batch size.
        dtype: the input dtype (default the float policy's, ``float32``).
        batch_shape: instead of ``shape`` and ``batch_size``, the whole shape
            (``Input(batch_shape=(16, 10, 5))``).
        name: the input layer's name (default ``input_layer``, ``input_layer_1``, ...).
        sparse, ragged, optional: not supported (only ``None``/False).
        tensor: not supported (only ``None``).

    Returns:
        A KerasTensor of shape ``(batch_size,) + shape`` (``None`` batch by default), or
        ``batch_shape``.

    Raises:
        ValueError: for both ``shape`` and ``batch_shape``, or an unsupported option.
    """
    if tensor is not None:
        raise ValueError("tapeflow's Input does not wrap an existing tensor (`tensor=`).")
    return InputLayer(shape, batch_size, dtype, name, batch_shape=batch_shape,
                      sparse=bool(sparse), ragged=bool(ragged), optional=optional).output
