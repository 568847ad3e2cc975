"""``tf.keras.layers.StringLookup``: strings to vocabulary indices (and back)."""
from .index_lookup import _IndexLookup

__all__ = ["StringLookup"]


class StringLookup(_IndexLookup):
    """Strings to integer indices through a vocabulary (``tf.keras.layers.StringLookup``).

    Index layout: ``[mask_token]`` (int mode, when set), ``num_oov_indices`` OOV slots,
    then the vocabulary; with several OOV slots an unknown string goes to slot
    ``Fingerprint64(s) mod num_oov_indices`` (``tf.strings.to_hash_bucket_fast``).
    Output: int64 indices (input shape) for ``output_mode='int'``;
    int64 one_hot (a new last axis unless the last one has size 1) / multi_hot / count
    (the last axis reduced to the vocabulary size); float32 tf_idf. ``invert=True`` maps
    indices back to strings (out of range -> ``oov_token``).

    Raises:
        ValueError: bad ``output_mode``, a repeated vocabulary term, tf_idf vocabulary
            without ``idf_weights`` (Keras's texts).
        FailedPreconditionError: called before a vocabulary is set or adapted.
        InvalidArgumentError: an unknown token with ``num_oov_indices=0``.
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, **kwargs):
        if encoding != "utf-8":
            raise ValueError("tapeflow's StringLookup supports only encoding='utf-8'.")
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def get_config(self):
        return dict(super().get_config(), encoding=self.encoding)
