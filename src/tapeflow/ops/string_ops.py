"""String ops (``tf.strings``, ``tf.io.decode_raw``): element-wise work on byte strings.

A string tensor holds ``bytes`` in a NumPy object array, as TensorFlow's numpy() shows it.
Each op is a non-differentiable primitive whose forward loops over the elements; results
of splitting are RaggedTensors, as in TensorFlow.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, string_value
from .ragged.ragged_tensor import RaggedTensor

__all__ = ["length", "upper", "lower", "strip", "split", "join", "reduce_join", "substr",
           "regex_replace", "regex_full_match", "to_number", "as_string", "format",
           "unicode_decode", "unicode_encode", "unicode_split", "bytes_split", "decode_raw",
           "to_hash_bucket_fast", "to_hash_bucket_strong"]


def _strings(x, op_name="StringOp"):
    t = x if isinstance(x, _TensorLike) else convert_to_tensor(x, _dt.string)
    if t.dtype != _dt.string:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"cannot compute {op_name} as input #0(zero-based) was expected to be a string "
            f"tensor but is a {t.dtype.name} tensor", op_name)
    return t


def _map(fn, out_dtype=object):
    """An element-wise forward: ``fn`` on each bytes element."""
    def forward(x, **attrs):
        flat = [fn(v, **attrs) for v in np.asarray(x, object).reshape(-1)]
        out = np.array(flat, dtype=out_dtype) if flat else np.zeros(0, out_dtype)
        out = out.reshape(np.shape(x))
        if out_dtype is object:
            return string_value(out)
        return out if out.ndim else out[()]
    return forward


def _ragged_aware(fn):
    """``fn`` mapped over the flat values of a RaggedTensor first argument (TensorFlow
    dispatches the element-wise string ops so)."""
    import functools

    @functools.wraps(fn)
    def op(input, *args, **kwargs):  # noqa: A002 - TensorFlow's name
        if type(input) is RaggedTensor:
            return input.with_flat_values(fn(input.flat_values, *args, **kwargs))
        return fn(input, *args, **kwargs)
    return op


def _text(b):
    return b.decode("utf-8", errors="replace") if isinstance(b, bytes) else str(b)


def _utf8_len(b, unit):
    return len(b) if unit == "BYTE" else len(b.decode("utf-8", errors="replace"))


_LENGTH = nondifferentiable("StringLength", _map(_utf8_len, np.int32))
_UPPER = nondifferentiable("StringUpper", _map(lambda b: bytes(
    c - 32 if 97 <= c <= 122 else c for c in b)))
_LOWER = nondifferentiable("StringLower", _map(lambda b: bytes(
    c + 32 if 65 <= c <= 90 else c for c in b)))
_STRIP = nondifferentiable("StringStrip", _map(lambda b: b.strip()))


@_ragged_aware
def length(input, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's name
    """The length of each string, in bytes or (``unit='UTF8_CHAR'``) characters.

    TensorFlow counterpart: ``tf.strings.length``.

    Args:
        input: a string tensor.
        unit: ``'BYTE'`` (default) or ``'UTF8_CHAR'``.

    Returns:
        An int32 tensor of ``input``'s shape.

    Raises:
        ValueError: for another ``unit``.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.length(tf.constant(['ab', 'café']), unit='UTF8_CHAR').numpy()
        array([2, 4], dtype=int32)
    """
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return apply(_LENGTH, (_strings(input, "StringLength"),), {"unit": unit})


@_ragged_aware
def upper(input, encoding="", name=None):  # noqa: A002 - TensorFlow's name
    """ASCII letters upper-cased (``tf.strings.upper``); other bytes unchanged.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.upper(tf.constant(['ab', 'Cd'])).numpy()
        array([b'AB', b'CD'], dtype=object)
    """
    return apply(_UPPER, (_strings(input, "StringUpper"),))


@_ragged_aware
def lower(input, encoding="", name=None):  # noqa: A002 - TensorFlow's name
    """ASCII letters lower-cased (``tf.strings.lower``); other bytes unchanged.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.lower(tf.constant(['AB', 'Cd'])).numpy()
        array([b'ab', b'cd'], dtype=object)
    """
    return apply(_LOWER, (_strings(input, "StringLower"),))


@_ragged_aware
def strip(input, name=None):  # noqa: A002 - TensorFlow's name
    """Leading and trailing whitespace removed (``tf.strings.strip``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.strip(tf.constant(' a b ')).numpy()
        b'a b'
    """
    return apply(_STRIP, (_strings(input, "StringStrip"),))


def _split_one(b, sep, maxsplit):
    if sep is None or sep == b"":
        return b.split(None, maxsplit) if maxsplit >= 0 else b.split()
    return b.split(sep, maxsplit)


@_ragged_aware
def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TensorFlow's name
    """Each string split at ``sep`` (default: runs of whitespace) (``tf.strings.split``).

    Args:
        input: a string scalar or vector.
        sep: the separator (bytes or str); ``None`` splits on whitespace and drops empties.
        maxsplit: at most this many splits per string (-1: no limit).

    Returns:
        A string vector for a scalar input, else a RaggedTensor with one row per string.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.split(tf.constant(['a b', 'c d e']))
        <tf.RaggedTensor [[b'a', b'b'], [b'c', b'd', b'e']]>
    """
    x = _strings(input, "StringSplitV2")
    sep = sep.encode() if isinstance(sep, str) else (
        sep.numpy() if isinstance(sep, _TensorLike) else sep)
    v = x._value
    if v.ndim == 0:
        return Tensor(string_value(np.array(_split_one(v[()], sep, maxsplit) or [], object)))
    rows = [_split_one(b, sep, maxsplit) for b in v.reshape(-1)]
    flat = np.array([p for r in rows for p in r], object)
    if v.ndim > 1:
        raise ValueError(f"tf.strings.split takes a scalar or a vector, got shape {x.shape}")
    return RaggedTensor.from_row_lengths(Tensor(flat.reshape(-1)),
                                         np.array([len(r) for r in rows], np.int64))


def bytes_split(input, name=None):  # noqa: A002 - TensorFlow's name
    """Each string split into single bytes (``tf.strings.bytes_split``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.bytes_split(tf.constant('abc')).numpy()
        array([b'a', b'b', b'c'], dtype=object)
    """
    x = _strings(input, "BytesSplit")
    v = x._value
    if v.ndim == 0:
        b = v[()]
        return Tensor(string_value(np.array([b[i:i + 1] for i in range(len(b))], object)))
    rows = [[b[i:i + 1] for i in range(len(b))] for b in v.reshape(-1)]
    return RaggedTensor.from_row_lengths(
        Tensor(np.array([p for r in rows for p in r], object).reshape(-1)),
        np.array([len(r) for r in rows], np.int64))


def join(inputs, separator="", name=None):
    """Element-wise concatenation of string tensors (broadcast) (``tf.strings.join``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.join([tf.constant(['a', 'b']), 'x'], separator='-').numpy()
        array([b'a-x', b'b-x'], dtype=object)
    """
    if any(type(t) is RaggedTensor for t in inputs):
        from .ragged.ragged_dispatch import string_join
        return string_join(join, inputs, separator)
    sep = separator.encode() if isinstance(separator, str) else separator
    parts = [_strings(t, "StringJoin")._value for t in inputs]
    shape = np.broadcast_shapes(*(np.shape(p) for p in parts))
    arrs = [np.broadcast_to(np.asarray(p, object), shape).reshape(-1) for p in parts]
    out = np.array([sep.join(items) for items in zip(*arrs)], object) if arrs else \
        np.array(b"", object)
    return Tensor(string_value(out.reshape(shape)))


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """The strings of ``inputs`` joined along ``axis`` (all axes by default).

    TensorFlow counterpart: ``tf.strings.reduce_join``.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.reduce_join(tf.constant([['a', 'b'], ['c', 'd']]), axis=1).numpy()
        array([b'ab', b'cd'], dtype=object)
    """
    if type(inputs) is RaggedTensor:
        if axis is None:
            return reduce_join(inputs.flat_values, None, keepdims, separator)
        rows = [reduce_join(inputs[i], int(axis) - 1 if int(axis) > 0 else int(axis),
                            False, separator) for i in range(int(inputs.nrows()._value))]
        if rows and type(rows[0]) is RaggedTensor:
            from .ragged.ragged_dispatch import stack
            return stack(rows, 0)
        from .array_ops import stack as _stack
        return _stack(rows, 0) if rows else Tensor(string_value(np.zeros(0, object)))
    x = _strings(inputs, "ReduceJoin")
    sep = separator.encode() if isinstance(separator, str) else separator
    v = np.asarray(x._value, object)
    axes = tuple(range(v.ndim)) if axis is None else tuple(
        int(a) % v.ndim for a in np.atleast_1d(axis))
    moved = np.moveaxis(v, axes, tuple(range(v.ndim - len(axes), v.ndim)))
    lead = moved.shape[:v.ndim - len(axes)]
    flat = moved.reshape(lead + (-1,))
    out = np.empty(lead, object)
    for idx in np.ndindex(*lead):
        out[idx] = sep.join(flat[idx])
    if keepdims:
        out = np.expand_dims(out, axes)
    return Tensor(string_value(out))


def _substr(b, pos, length, unit):
    s = b.decode("utf-8") if unit == "UTF8_CHAR" else b
    n = len(s)
    p = pos + n if pos < 0 else pos
    if p < 0 or p > n:
        raise IndexError(f"pos {pos} out of range for string b'{_text(b)}' at index 0")
    out = s[p:p + length]
    return out.encode("utf-8") if unit == "UTF8_CHAR" else out


_SUBSTR = nondifferentiable("Substr", _map(_substr),
                            error=lambda v, a, e: (errors.InvalidArgumentError, str(e)))


@_ragged_aware
def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's names
    """``len`` bytes (or characters) from ``pos`` on; a negative ``pos`` counts from the end.

    TensorFlow counterpart: ``tf.strings.substr`` (scalar ``pos`` and ``len``).

    Raises:
        tf.errors.InvalidArgumentError: if ``pos`` is outside a string.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.substr(tf.constant('hello'), 1, 3).numpy()
        b'ell'
    """
    p = int(pos._value) if isinstance(pos, _TensorLike) else int(pos)
    n = int(len._value) if isinstance(len, _TensorLike) else int(len)
    return apply(_SUBSTR, (_strings(input, "Substr"),), {"pos": p, "length": n, "unit": unit})


def _regex(pattern):
    import re  # here: ``re`` costs 5 ms of import
    pattern = pattern.numpy() if isinstance(pattern, _TensorLike) else pattern
    return re.compile(pattern.encode() if isinstance(pattern, str) else pattern)


_REGEX_REPLACE = nondifferentiable("StaticRegexReplace", _map(
    lambda b, pattern, rewrite, count: pattern.sub(rewrite, b, count=count)))
_REGEX_MATCH = nondifferentiable("StaticRegexFullMatch", _map(
    lambda b, pattern: pattern.fullmatch(b) is not None, np.bool_))


@_ragged_aware
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Matches of ``pattern`` replaced by ``rewrite`` (``tf.strings.regex_replace``; RE2
    syntax, run by Python's ``re``, which agrees on the common subset; ``\\1`` groups).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.regex_replace(tf.constant('a1b22'), '[0-9]+', '#').numpy()
        b'a#b#'
    """
    rewrite = rewrite.numpy() if isinstance(rewrite, _TensorLike) else rewrite
    rewrite = rewrite.encode() if isinstance(rewrite, str) else rewrite
    return apply(_REGEX_REPLACE, (_strings(input, "RegexReplace"),),
                 {"pattern": _regex(pattern), "rewrite": rewrite,
                  "count": 0 if replace_global else 1})


@_ragged_aware
def regex_full_match(input, pattern, name=None):  # noqa: A002 - TensorFlow's name
    """Whether each whole string matches ``pattern`` (``tf.strings.regex_full_match``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.regex_full_match(tf.constant(['abc', 'a1']), '[a-z]+').numpy()
        array([ True, False])
    """
    return apply(_REGEX_MATCH, (_strings(input, "RegexFullMatch"),),
                 {"pattern": _regex(pattern)})


def _bucket_fast(x, num_buckets):
    from ._fingerprint import fingerprint64
    flat = [fingerprint64(v) % num_buckets for v in np.asarray(x, object).reshape(-1)]
    return np.array(flat, np.int64).reshape(np.shape(x))


def _bucket_strong(x, num_buckets, key):
    from ._fingerprint import siphash24
    k0, k1 = (int(k) & (2 ** 64 - 1) for k in key)
    flat = [siphash24(k0, k1, v) % num_buckets for v in np.asarray(x, object).reshape(-1)]
    return np.array(flat, np.int64).reshape(np.shape(x))


_HASH_FAST = nondifferentiable("StringToHashBucketFast", _bucket_fast)
_HASH_STRONG = nondifferentiable("StringToHashBucketStrong", _bucket_strong)


def _check_buckets(num_buckets, op_name):
    n = int(num_buckets)
    if n < 1:
        sig = "input:string -> output:int64; attr=num_buckets:int,min=1"
        if op_name == "StringToHashBucketStrong":
            sig += "; attr=key:list(int)"
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'num_buckets' of {n} must be at least minimum 1\n\t"
            f"; NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}; signature={sig}> "
            f"[Op:{op_name}]")
    return n


@_ragged_aware
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's name
    """Each string's FarmHash ``Fingerprint64`` modulo ``num_buckets``, int64
    (``tf.strings.to_hash_bucket_fast``); the same buckets as TensorFlow's.

    Raises:
        tf.errors.InvalidArgumentError: ``num_buckets < 1`` or a non-string input.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_hash_bucket_fast(['Hello', 'TensorFlow', '2.x'], 3).numpy()
        array([0, 2, 2])
    """
    n = _check_buckets(num_buckets, "StringToHashBucketFast")
    return apply(_HASH_FAST, (_strings(input, "StringToHashBucketFast"),),
                 {"num_buckets": n})


@_ragged_aware
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's SipHash-2-4 under ``key`` (two integers, the 128-bit key's two 64-bit
    words) modulo ``num_buckets``, int64 (``tf.strings.to_hash_bucket_strong``).

    Raises:
        ValueError: ``key`` not of two integers.
        tf.errors.InvalidArgumentError: ``num_buckets < 1`` or a non-string input.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_hash_bucket_strong(['Hello', 'TF'], 3, [1, 2]).numpy()
        array([2, 0])
    """
    n = _check_buckets(num_buckets, "StringToHashBucketStrong")
    key = [int(k) for k in key]
    if len(key) != 2:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Key must have 2 elements", "StringToHashBucketStrong")
    return apply(_HASH_STRONG, (_strings(input, "StringToHashBucketStrong"),),
                 {"num_buckets": n, "key": tuple(key)})


def _to_number(b, out_type):
    text = _text(b).strip()
    try:
        if np.dtype(out_type).kind in "iu":
            return out_type(int(text))
        return out_type(float(text))
    except ValueError:
        raise ValueError(f"StringToNumberOp could not correctly convert string: "
                         f"{_text(b)}") from None


_TO_NUMBER = nondifferentiable("StringToNumber", lambda x, out_type: _map(
    _to_number, out_type)(x, out_type=out_type),
    error=lambda v, a, e: (errors.InvalidArgumentError, str(e)))


@_ragged_aware
def to_number(string_tensor, out_type=_dt.float32, name=None):
    """Each string parsed as a number (``tf.strings.to_number``).

    Raises:
        tf.errors.InvalidArgumentError: for a string that is not a number.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_number(tf.constant(['1.5', '-2'])).numpy()
        array([ 1.5, -2. ], dtype=float32)
    """
    dt = _dt.as_dtype(out_type)
    return apply(_TO_NUMBER, (_strings(string_tensor, "StringToNumber"),),
                 {"out_type": dt._np.type})


def _as_string(v, precision, scientific, shortest, width, fill):
    if isinstance(v, (bool, np.bool_)):
        text = "true" if v else "false"
    elif isinstance(v, (float, np.floating)):
        if shortest:
            text = f"{v:g}"
        elif scientific:
            text = f"{v:.{6 if precision < 0 else precision}e}"
        else:
            text = f"{v:.{6 if precision < 0 else precision}f}"
    elif isinstance(v, (complex, np.complexfloating)):
        p = 6 if precision < 0 else precision
        text = f"({v.real:.{p}f},{v.imag:.{p}f})"
    else:
        text = str(v)
    if width > 0:
        text = text.rjust(width, fill or " ")
    return text.encode()


@_ragged_aware
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
              fill="", name=None):
    """Each number (or bool) as a string, formatted as TensorFlow's ``AsString``.

    TensorFlow counterpart: ``tf.strings.as_string``.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.as_string(tf.constant([1.5, 2.0]), precision=1).numpy()
        array([b'1.5', b'2.0'], dtype=object)
    """
    x = input if isinstance(input, _TensorLike) else convert_to_tensor(input)
    v = np.asarray(x._value)
    out = np.array([_as_string(e, precision, scientific, shortest, width, fill)
                    for e in v.reshape(-1).tolist()], object).reshape(v.shape)
    return Tensor(string_value(out))


def _element(e):
    if isinstance(e, bytes):
        return f'"{_text(e)}"'
    if isinstance(e, (bool, np.bool_)):
        return "1" if e else "0"
    if isinstance(e, (float, np.floating)):
        return f"{float(e):.6g}" if np.isfinite(e) else str(float(e))
    return str(e)


def _summary(t, summarize):
    # TensorFlow's SummarizeValue: shortest element text, nested brackets, "..." beyond
    # ``summarize`` elements at each end of an axis.
    if not isinstance(t, _TensorLike):
        return str(t)
    v = np.asarray(t._value, object if t.dtype == _dt.string else None)
    if v.ndim == 0:
        return _element(v[()])

    def nest(a, depth):
        if a.ndim == 1:
            items = [_element(e) for e in a.tolist()] if a.dtype != object else \
                [_element(e) for e in a]
            if summarize >= 0 and len(items) > 2 * summarize:
                items = items[:summarize] + ["..."] + items[-summarize:]
            return "[" + " ".join(items) + "]"
        rows = [nest(r, depth + 1) for r in a]
        if summarize >= 0 and len(rows) > 2 * summarize:
            rows = rows[:summarize] + ["..."] + rows[-summarize:]
        return "[" + ("\n" + " " * (depth + 1)).join(rows) + "]"
    return nest(v, 0)


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001
    """``template`` with each ``{}`` replaced by an input's printed value, as
    ``tf.strings.format`` prints tensors (a scalar string tensor).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.format('x={}', tf.constant([1, 2])).numpy()
        b'x=[1 2]'
    """
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: "
                         f"{len(pieces) - 1} vs. {len(inputs)}")
    out = pieces[0]
    for t, rest in zip(inputs, pieces[1:]):
        out += _summary(t, summarize) + rest
    return Tensor(string_value(out.encode()))


@_ragged_aware
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Each string's Unicode code points (int32): a vector for a scalar, else ragged.

    TensorFlow counterpart: ``tf.strings.unicode_decode``.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_decode(tf.constant('héllo'), 'UTF-8').numpy()
        array([104, 233, 108, 108, 111], dtype=int32)
    """
    x = _strings(input, "UnicodeDecode")
    codec = input_encoding.replace("-", "").lower()
    mode = "strict" if errors == "strict" else "replace"

    def points(b):
        return [ord(c) for c in b.decode(codec.replace("utf8", "utf-8"), errors=mode)]
    v = x._value
    if v.ndim == 0:
        return Tensor(np.array(points(v[()]), np.int32).reshape(-1))
    rows = [points(b) for b in v.reshape(-1)]
    return RaggedTensor.from_row_lengths(
        Tensor(np.array([p for r in rows for p in r], np.int32)),
        np.array([len(r) for r in rows], np.int64))


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """Code points (int32 vector, or ragged rows) encoded as strings
    (``tf.strings.unicode_encode``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_encode(tf.constant([104, 105]), 'UTF-8').numpy()
        b'hi'
    """
    enc = output_encoding.lower()
    if isinstance(input, RaggedTensor):
        return Tensor(string_value(np.array(
            ["".join(chr(c) for c in row).encode(enc) for row in input.to_list()], object)))
    x = input if isinstance(input, _TensorLike) else convert_to_tensor(input)
    v = np.asarray(x._value)
    if v.ndim == 1:
        return Tensor(string_value("".join(chr(c) for c in v.tolist()).encode(enc)))
    return Tensor(string_value(np.array(["".join(chr(c) for c in row).encode(enc)
                                         for row in v.reshape(-1, v.shape[-1]).tolist()],
                                        object).reshape(v.shape[:-1])))


@_ragged_aware
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """Each string split into its characters, as UTF-8 strings
    (``tf.strings.unicode_split``).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_split(tf.constant('añ'), 'UTF-8').numpy()
        array([b'a', b'\xc3\xb1'], dtype=object)
    """
    x = _strings(input, "UnicodeSplit")
    v = x._value

    def chars(b):
        return [c.encode("utf-8") for c in b.decode("utf-8", errors="replace")]
    if v.ndim == 0:
        return Tensor(string_value(np.array(chars(v[()]), object)))
    rows = [chars(b) for b in v.reshape(-1)]
    return RaggedTensor.from_row_lengths(
        Tensor(np.array([p for r in rows for p in r], object).reshape(-1)),
        np.array([len(r) for r in rows], np.int64))


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes read as numbers of ``out_type`` (``tf.io.decode_raw``).

    Returns:
        ``input.shape + [n]``: ``n`` numbers per string (all strings the same length).

    Raises:
        tf.errors.InvalidArgumentError: if the strings' lengths differ or are not a
            multiple of the dtype's size.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.decode_raw(tf.constant(b'\\x01\\x02'), tf.uint8).numpy()
        array([1, 2], dtype=uint8)
    """
    x = _strings(input_bytes, "DecodeRaw")
    dt = np.dtype(_dt.as_dtype(out_type)._np).newbyteorder("<" if little_endian else ">")
    v = x._value
    flat = list(np.asarray(v, object).reshape(-1))
    sizes = {len(b) for b in flat}
    if len(sizes) > 1:
        raise errors.op_error(errors.InvalidArgumentError,
                              "DecodeRaw requires input strings to all be the same size, "
                              f"but element 1 has size {len(flat[1])} != {len(flat[0])}",
                              "DecodeRaw")
    size = sizes.pop() if sizes else 0
    if size % dt.itemsize:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Input to DecodeRaw has length {size} that is not a multiple "
                              f"of {dt.itemsize}, the size of {_dt.as_dtype(out_type).name}",
                              "DecodeRaw")
    rows = [np.frombuffer(b, dt).astype(dt.newbyteorder("=")) for b in flat]
    out = np.stack(rows) if rows else np.zeros((0, size // dt.itemsize), dt)
    return Tensor(out.reshape(v.shape + (size // dt.itemsize,)))
