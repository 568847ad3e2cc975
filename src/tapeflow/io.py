"""``tf.io``: the byte-decoding ops, and TFRecord files (``TFRecordWriter``,
``TFRecordOptions``; read them with ``tf.data.TFRecordDataset``)."""
from .data.tfrecord import TFRecordOptions, TFRecordWriter
from .ops.string_ops import decode_raw

__all__ = ["TFRecordOptions", "TFRecordWriter", "decode_raw"]
