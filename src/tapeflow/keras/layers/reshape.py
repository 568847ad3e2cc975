"""Reshape: a new shape for each example."""
import math

from ...ops import array_ops as _a
from .layer import Layer

__all__ = ["Reshape"]


class Reshape(Layer):
    """Reshape each example to ``target_shape`` (``tf.keras.layers.Reshape``); one entry
    may be -1."""

    _built_at_init = True

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)
        if self.target_shape.count(-1) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={self.target_shape}.")

    def get_config(self):
        return dict(super().get_config(), target_shape=list(self.target_shape))

    def call(self, inputs):
        example_shape = tuple(inputs.shape[1:])
        if None not in example_shape:
            _check_size(example_shape, self.target_shape)
        return _a.reshape(inputs, (inputs.shape[0],) + self.target_shape)


def _check_size(input_shape, target_shape):
    """Keras's check that ``target_shape`` holds exactly the elements of one example."""
    size = math.prod(input_shape)
    known = math.prod(d for d in target_shape if d != -1)
    if -1 not in target_shape and size != known:
        raise ValueError("The total size of the tensor must be unchanged. Received: "
                         f"input_shape={input_shape}, target_shape={target_shape}")
    if -1 in target_shape and (known == 0 or size % known):
        raise ValueError("The total size of the tensor must be unchanged, however, the input "
                         "size cannot by divided by the specified dimensions in target_shape. "
                         f"Received: input_shape={input_shape}, target_shape={target_shape}")
