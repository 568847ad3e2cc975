"""``tf.io``: file contents and media codecs (``read_file``, ``decode_png``, ...), the
file-system helpers ``tf.io.gfile``, byte decoding, and TFRecord files (``TFRecordWriter``,
``TFRecordOptions``; read them with ``tf.data.TFRecordDataset``), ``tf.train.Example``
parsing (``parse_single_example``, ``parse_example`` and the feature specs) and
``serialize_tensor``/``parse_tensor``."""
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
from .ops.parsing_ops import (
    FixedLenFeature,
    FixedLenSequenceFeature,
    RaggedFeature,
    VarLenFeature,
    parse_example,
    parse_single_example,
    parse_tensor,
    serialize_tensor,
)
from .ops.string_ops import decode_raw

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "TFRecordOptions",
           "TFRecordWriter", "VarLenFeature", "decode_bmp", "decode_csv", "decode_gif",
           "decode_image", "decode_jpeg", "decode_png", "decode_raw", "encode_jpeg",
           "encode_png", "gfile", "parse_example", "parse_single_example", "parse_tensor",
           "read_file", "serialize_tensor", "write_file"]
