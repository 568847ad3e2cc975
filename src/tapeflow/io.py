"""``tf.io``: re-exports of the byte-decoding ops."""
from .ops.string_ops import decode_raw

__all__ = ["decode_raw"]
