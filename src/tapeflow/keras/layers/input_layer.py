"""Input and InputLayer: declare the shape of one example ahead of the first call."""
from ..._core import dtypes as _dt
from .. import _naming
from .layer import Layer

__all__ = ["Input", "InputLayer", "KerasTensor"]


class KerasTensor:
    """A symbolic input: a shape with a leading ``None`` batch axis and a dtype.

    tapeflow has no functional graph; ``Sequential`` accepts it as its first entry to learn
    the input shape.
    """

    def __init__(self, shape, dtype="float32", name=None):
        self.shape = tuple(shape)
        self.dtype = _dt.as_dtype(dtype).name
        self.name = name or _naming.uniquify("keras_tensor")

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")


class InputLayer(Layer):
    """The layer behind :func:`Input` (``tf.keras.layers.InputLayer``): passes inputs through.

    Args:
        shape: the shape of one example (no batch axis).
        batch_size: optional fixed batch size.
        dtype: the input dtype.
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, name=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self.batch_shape = (batch_size,) + tuple(shape or ())
        self.output = KerasTensor(self.batch_shape, self.dtype)
        self.built = True


def Input(shape=None, batch_size=None, dtype=None, name=None, **kwargs):  # noqa: N802
    """A symbolic input of ``shape`` (``tf.keras.Input``); use it first in ``Sequential``.

    Returns:
        A KerasTensor whose shape has a leading ``None`` (or ``batch_size``).
    """
    return InputLayer(shape, batch_size, dtype, name).output
