"""``tf.keras.preprocessing.sequence``: padding sequences."""
from ..utils.sequence_utils import pad_sequences

__all__ = ["pad_sequences"]
