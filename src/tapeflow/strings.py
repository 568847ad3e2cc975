"""``tf.strings``: re-exports of the string ops."""
from .ops.string_ops import (
    as_string,
    bytes_split,
    format,
    join,
    length,
    lower,
    reduce_join,
    regex_full_match,
    regex_replace,
    split,
    strip,
    substr,
    to_hash_bucket_fast,
    to_hash_bucket_strong,
    to_number,
    unicode_decode,
    unicode_encode,
    unicode_split,
    upper,
)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "reduce_join",
           "regex_full_match", "regex_replace", "split", "strip", "substr", "to_hash_bucket_fast",
           "to_hash_bucket_strong", "to_number",
           "unicode_decode", "unicode_encode", "unicode_split", "upper"]
