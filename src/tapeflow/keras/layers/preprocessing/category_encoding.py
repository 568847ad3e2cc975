"""``tf.keras.layers.CategoryEncoding``: integer ids to one-hot, multi-hot or count rows."""
from ...._core.dispatch import apply
from ..layer import Layer
from ._utils import _ENCODE, _as_tensor

__all__ = ["CategoryEncoding"]


class CategoryEncoding(Layer):
    """Integer categories to one_hot / multi_hot / count vectors
    (``tf.keras.layers.CategoryEncoding``), dtype the layer's (float32).

    one_hot appends an axis of size ``num_tokens`` (replacing a last axis of size 1; a
    scalar gives shape ``(1, num_tokens)``); multi_hot and count reduce the last axis.
    ``call(inputs, count_weights=None)`` weights the counts. Values >= num_tokens are
    dropped (as TensorFlow's bincount).

    Raises:
        ValueError: no ``num_tokens`` or an unknown ``output_mode`` (Keras's texts).
        InvalidArgumentError: a negative value (``DenseBincount``'s text).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of "
                             "tokens is not known beforehand, use the IntegerLookup layer "
                             "instead.")
        if sparse:
            raise ValueError("tapeflow's CategoryEncoding does not support `sparse=True`.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def call(self, inputs, count_weights=None):
        x = _as_tensor(inputs)
        args = (x,) if count_weights is None else (x, _as_tensor(count_weights))
        return apply(_ENCODE, args, {"depth": self.num_tokens, "mode": self.output_mode,
                                     "idf": None, "dtype": self.dtype_policy._np,
                                     "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "one_hot" and (not input_shape or input_shape[-1] != 1):
            return tuple(input_shape) + (self.num_tokens,)
        return tuple(input_shape[:-1]) + (self.num_tokens,)

    def get_config(self):
        return dict(super().get_config(), num_tokens=self.num_tokens,
                    output_mode=self.output_mode)
