"""``tf.io``: file contents and media codecs (``read_file``, ``decode_png``, ...), the
file-system helpers ``tf.io.gfile``, byte decoding, and TFRecord files (``TFRecordWriter``,
``TFRecordOptions``; read them with ``tf.data.TFRecordDataset``)."""
from . import _gfile as gfile
from .data.tfrecord import TFRecordOptions, TFRecordWriter
from .ops.io_ops import (
    decode_bmp,
    decode_csv,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    read_file,
    write_file,
)
from .ops.string_ops import decode_raw

__all__ = ["TFRecordOptions", "TFRecordWriter", "decode_bmp", "decode_csv", "decode_gif",
           "decode_image", "decode_jpeg", "decode_png", "decode_raw", "encode_jpeg",
           "encode_png", "gfile", "read_file", "write_file"]
