"""``tf.audio``: 16-bit PCM WAV decoding and encoding."""
from .ops.io_ops import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
