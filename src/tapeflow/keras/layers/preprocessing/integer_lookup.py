"""``tf.keras.layers.IntegerLookup``: integers to vocabulary indices (and back)."""
from .index_lookup import _IndexLookup

__all__ = ["IntegerLookup"]


class IntegerLookup(_IndexLookup):
    """Integers to contiguous indices through a vocabulary (``tf.keras.layers.IntegerLookup``).

    As :class:`StringLookup` with integer tokens (``oov_token=-1``); inputs of any numeric
    dtype are cast to int64; with ``num_oov_indices > 1`` an unknown value ``v`` goes to
    OOV slot ``v mod num_oov_indices``. ``invert=True`` gives int64 values.
    """

    _strings = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 output_mode="int", sparse=False, vocabulary=None, vocabulary_dtype="int64",
                 idf_weights=None, invert=False, name=None, **kwargs):
        if vocabulary_dtype != "int64":
            raise ValueError("tapeflow's IntegerLookup supports only vocabulary_dtype='int64'.")
        self.vocabulary_dtype = vocabulary_dtype
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         sparse=sparse, name=name, **kwargs)

    def _dtype_config(self):
        return {"vocabulary_dtype": self.vocabulary_dtype}
