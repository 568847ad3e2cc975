"""Files and media codecs as ops (``tf.io.read_file``/``write_file``, ``tf.io.decode_png``/
``decode_jpeg``/``decode_bmp``/``decode_gif``/``decode_image``, ``encode_png``/``encode_jpeg``,
``tf.audio.decode_wav``/``encode_wav``).

Reading and decoding are nondifferentiable primitives, so a traced ``tf.function`` (or a
``Dataset.map``) reads and decodes again at every call instead of baking one file in. Writing
is an effect: inside a trace it is recorded as a stateful Python call (``numpy_function``), so
it runs at every replay. Image codecs go through Pillow, an optional dependency
(``pip install "tapeflow[image]"``); WAV through the standard library's ``wave``.

Where the codecs differ from TensorFlow's (libpng/libjpeg-turbo/its own WAV writer), see
docs/ops.md: PNG decoding is bit-exact (TensorFlow's RGB-to-gray is libpng's
``(9797 R + 19234 G + 3737 B) >> 15``, used here too); JPEG decoding uses the accurate integer
DCT (TensorFlow's ``dct_method="INTEGER_ACCURATE"``, bit-exact), while TensorFlow's default is
the fast DCT, which differs by a few levels; encoded PNG/JPEG bytes differ from TensorFlow's but
decode to the same pixels (PNG) or the same quality (JPEG).
"""
import io as _io
import re
import wave as _wave

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply, current_tracer
from .._core.registry import nondifferentiable
from .._core.tensor import _TensorLike, convert_to_tensor
from .script_ops import numpy_function

__all__ = ["read_file", "write_file", "decode_csv", "decode_png", "decode_jpeg", "decode_bmp",
           "decode_gif", "decode_image", "encode_png", "encode_jpeg", "decode_wav", "encode_wav"]


def _op_error(cls, text, op_name):
    """TensorFlow's eager message for these ops: ``<text> [Op:<type>]`` (no ``name:``)."""
    return cls(None, None, f"{text} [Op:{op_name}]")


def _pil(function):
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError(f"`{function}` decodes and encodes images through Pillow: "
                          "`pip install \"tapeflow[image]\"` (or `pip install Pillow`)") from exc
    return Image


def _bytes(value):
    return value if isinstance(value, bytes) else bytes(value)


def _scalar_bytes(x, op_name):
    x = x if isinstance(x, _TensorLike) else convert_to_tensor(x)
    if x.dtype != _dt.string:
        raise _op_error(errors.InvalidArgumentError,
                              f"cannot compute {op_name} as input #0(zero-based) was expected "
                              f"to be a string tensor but is a {x.dtype.name} tensor", op_name)
    if x._value.ndim != 0:
        raise _op_error(errors.InvalidArgumentError,
                              f"contents must be scalar, got shape {list(x._value.shape)}",
                              op_name)
    return x


def _string(value):
    return np.array(value, dtype=object)


# ------------------------------------------------------------------ files
def _read_forward(filename):
    path = _bytes(filename.item()).decode()
    try:
        with open(path, "rb") as f:
            return _string(f.read())
    except FileNotFoundError:
        raise _op_error(errors.NotFoundError, f"{path}; No such file or directory",
                              "ReadFile") from None
    except IsADirectoryError:
        raise _op_error(errors.FailedPreconditionError, f"{path}; Is a directory",
                              "ReadFile") from None


_READ_FILE = nondifferentiable("ReadFile", _read_forward)


def read_file(filename, name=None):
    """The whole contents of a file as a scalar string tensor (``tf.io.read_file``).

    Args:
        filename: a scalar string tensor or Python string: the path.

    Returns:
        A scalar ``tf.string`` tensor of the file's bytes.

    Raises:
        tf.errors.NotFoundError: if the file does not exist.
        tf.errors.FailedPreconditionError: if it is a directory.
    """
    return apply(_READ_FILE, (_scalar_path(filename, "ReadFile"),))


def _scalar_path(filename, op_name):
    f = filename if isinstance(filename, _TensorLike) else convert_to_tensor(filename)
    if f.dtype != _dt.string:
        raise _op_error(errors.InvalidArgumentError,
                              f"cannot compute {op_name} as input #0(zero-based) was expected "
                              f"to be a string tensor but is a {f.dtype.name} tensor", op_name)
    return f


def _write(filename, contents):
    path = _bytes(np.asarray(filename).item()).decode()
    with open(path, "wb") as f:
        f.write(_bytes(np.asarray(contents, dtype=object).item()))


def write_file(filename, contents, name=None):
    """Write ``contents`` to ``filename``, replacing it (``tf.io.write_file``).

    Args:
        filename: scalar string: the path (its directory must exist).
        contents: scalar string: the bytes.

    Returns:
        None in eager mode. Inside a ``tf.function`` the write runs at every call.
    """
    f = _scalar_path(filename, "WriteFile")
    c = _scalar_bytes(contents, "WriteFile")
    if current_tracer() is not None:
        numpy_function(lambda a, b: (_write(a, b), np.int32(0))[1], [f, c], _dt.int32,
                       stateful=True)
        return None
    _write(f._value, c._value)
    return None


# ------------------------------------------------------------------ images
def _gray(rgb):
    """libpng's RGB-to-gray (what TensorFlow's PNG decoder asks for): fixed point, truncated."""
    f = rgb.astype(np.int64)
    return ((f[..., 0] * 9797 + f[..., 1] * 19234 + f[..., 2] * 3737) >> 15).astype(rgb.dtype)


def _channels(arr, channels, op_name):
    """``arr`` ``[h, w, c]`` converted to ``channels`` (0: as stored)."""
    c = arr.shape[-1]
    if channels in (0, None) or channels == c:
        return arr
    full = np.iinfo(arr.dtype).max
    if c in (2, 4):   # drop alpha first
        arr, c = arr[..., :c - 1], c - 1
    if channels == 1:
        return arr if c == 1 else _gray(arr)[..., None]
    rgb = np.repeat(arr, 3, axis=-1) if c == 1 else arr
    if channels == 3:
        return rgb
    return np.concatenate([rgb, np.full(rgb.shape[:-1] + (1,), full, arr.dtype)], -1)


def _check_channels(channels, op_name, allowed=(0, 1, 3, 4)):
    if channels not in allowed:
        raise _op_error(errors.InvalidArgumentError,
                              f"`channels` must be 0, 1, 3 or 4 but got {channels}"
                              if op_name != "DecodeBmp" else
                              f"`channels` must be 0, 3 or 4 but got {channels}", op_name)


def _open(data, op_name):
    Image = _pil(op_name)
    try:
        im = Image.open(_io.BytesIO(data))
        return im
    except Exception:  # noqa: BLE001 - Pillow raises several classes for bad bytes
        raise _op_error(errors.InvalidArgumentError,
                              "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                              "WebP required.", op_name) from None


def _as_array(im):
    """A Pillow image as ``[h, w, c]`` uint8 or uint16 (as stored), channels as stored."""
    mode = im.mode
    if mode in ("I;16", "I;16B", "I;16L", "I"):
        a = np.asarray(im).astype(np.uint16)[..., None]
        src = np.uint16
    elif mode in ("L", "RGB", "RGBA", "LA"):
        a = np.asarray(im)
        a = a[..., None] if a.ndim == 2 else a
        src = np.uint8
    elif mode == "P":
        return _as_array(im.convert("RGBA" if "transparency" in im.info else "RGB"))
    elif mode == "1":
        return _as_array(im.convert("L"))
    else:
        return _as_array(im.convert("RGB"))
    return a.astype(src, copy=False)


def _depth(a, dtype):
    """Samples moved to ``dtype``'s depth as libpng does: 8 -> 16 bits times 257, 16 -> 8
    bits the high byte."""
    if dtype == np.uint16 and a.dtype == np.uint8:
        return a.astype(np.uint16) * 257
    if dtype == np.uint8 and a.dtype == np.uint16:
        return (a >> 8).astype(np.uint8)
    return a


def _decode_png(contents, channels, dtype):
    im = _open(_bytes(contents.item()), "DecodePng")
    if im.format not in ("PNG",):
        im.load()
    return _depth(_channels(_as_array(im), channels, "DecodePng"), np.dtype(dtype))


def _decode_jpeg(contents, channels, dct_method):
    Image = _pil("decode_jpeg")
    data = _bytes(contents.item())
    try:
        im = Image.open(_io.BytesIO(data))
    except Exception:  # noqa: BLE001
        raise _op_error(errors.InvalidArgumentError,
                              "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                              "WebP required.", "DecodeJpeg") from None
    if im.format == "JPEG" and channels == 1:
        im.draft("L", im.size)   # libjpeg's own Y channel, as TensorFlow's decoder gives
    return _channels(_as_array(im), channels, "DecodeJpeg")


def _decode_bmp(contents, channels):
    im = _open(_bytes(contents.item()), "DecodeBmp")
    return _channels(_as_array(im), channels, "DecodeBmp")


def _decode_gif(contents):
    im = _open(_bytes(contents.item()), "DecodeGif")
    frames = []
    try:
        while True:
            frames.append(np.asarray(im.convert("RGB")))
            im.seek(im.tell() + 1)
    except EOFError:
        pass
    return np.stack(frames).astype(np.uint8)


_DECODE_PNG = nondifferentiable("DecodePng", _decode_png)
_DECODE_JPEG = nondifferentiable("DecodeJpeg", _decode_jpeg)
_DECODE_BMP = nondifferentiable("DecodeBmp", _decode_bmp)
_DECODE_GIF = nondifferentiable("DecodeGif", _decode_gif)


def decode_png(contents, channels=0, dtype=_dt.uint8, name=None):
    """Decode a PNG image (``tf.io.decode_png``, also ``tf.image.decode_png``).

    Args:
        contents: scalar ``tf.string``: the PNG bytes (JPEG, GIF and BMP are accepted too, as
            TensorFlow's decoder does).
        channels: 0 (as stored), 1 (gray), 3 (RGB) or 4 (RGBA).
        dtype: ``tf.uint8`` or ``tf.uint16`` (16-bit samples scaled to 8 bits, 8-bit ones
            times 257).

    Returns:
        ``[height, width, channels]`` of ``dtype``.

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no image or a bad ``channels``.
        ImportError: without Pillow.
    """
    channels = int(channels)
    _check_channels(channels, "DecodePng")
    dt = _dt.as_dtype(dtype)
    if dt not in (_dt.uint8, _dt.uint16):
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dt.name} not in list "
                        "of allowed values: uint8, uint16")
    return apply(_DECODE_PNG, (_scalar_bytes(contents, "DecodePng"),),
                 {"channels": channels, "dtype": dt._np.name})


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """Decode a JPEG image to uint8 ``[height, width, channels]`` (``tf.io.decode_jpeg``).

    Decodes with libjpeg's accurate integer DCT (TensorFlow's ``dct_method=
    "INTEGER_ACCURATE"``, equal to it bit for bit); TensorFlow's default fast DCT differs by
    a few levels (docs/ops.md). ``ratio`` other than 1 is not supported.

    Args:
        contents: scalar ``tf.string``.
        channels: 0, 1 (libjpeg's luma) or 3.

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no image or a bad ``channels``.
        ImportError: without Pillow.
    """
    channels = int(channels)
    _check_channels(channels, "DecodeJpeg")
    if ratio != 1:
        raise NotImplementedError("decode_jpeg(ratio != 1) is not supported by tapeflow")
    return apply(_DECODE_JPEG, (_scalar_bytes(contents, "DecodeJpeg"),),
                 {"channels": channels, "dct_method": dct_method})


def decode_bmp(contents, channels=0, name=None):
    """Decode a BMP image to uint8 ``[height, width, channels]`` (``tf.io.decode_bmp``).

    Raises:
        tf.errors.InvalidArgumentError: for bad bytes or ``channels`` not 0, 3 or 4.
    """
    channels = int(channels)
    _check_channels(channels, "DecodeBmp", (0, 3, 4))
    return apply(_DECODE_BMP, (_scalar_bytes(contents, "DecodeBmp"),), {"channels": channels})


def decode_gif(contents, name=None):
    """Decode every frame of a GIF to uint8 ``[frames, height, width, 3]``
    (``tf.io.decode_gif``).

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no image.
    """
    return apply(_DECODE_GIF, (_scalar_bytes(contents, "DecodeGif"),))


def _sniff(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    return None


def decode_image(contents, channels=None, dtype=_dt.uint8, name=None,
                 expand_animations=True):
    """Decode a PNG, JPEG, GIF or BMP by its signature (``tf.io.decode_image``).

    Args:
        contents: scalar ``tf.string``.
        channels: None/0 as stored, 1, 3 or 4.
        dtype: uint8, uint16 or a float dtype (then divided by 255 or 65535 into [0, 1]).
        expand_animations: a GIF gives ``[frames, h, w, 3]``; if False only its first frame.

    Raises:
        tf.errors.InvalidArgumentError: for an unknown format.
    """
    c = _scalar_bytes(contents, "DecodeImage")
    kind = _sniff(_bytes(c._value.item()))
    ch = 0 if channels is None else int(channels)
    dt = _dt.as_dtype(dtype)
    if kind is None:
        raise _op_error(errors.InvalidArgumentError,
                              "Unknown image file format. One of JPEG, PNG, GIF, BMP "
                              "required.", "DecodeImageV2")
    if kind == "gif":
        out = decode_gif(c)
        if not expand_animations:
            out = out[0]
        if ch == 1:
            raise _op_error(errors.InvalidArgumentError,
                                  "channels must be 0 or 3 for GIF, got 1", "DecodeImageV2")
    elif kind == "png":
        out = decode_png(c, ch, _dt.uint16 if dt == _dt.uint16 else _dt.uint8)
    elif kind == "jpeg":
        out = decode_jpeg(c, ch)
    else:
        out = decode_bmp(c, ch)
    if dt == out.dtype:
        return out
    if dt.is_floating:   # the kernel divides (correctly rounded), not times 1/255
        from .array_ops import cast
        from .math_ops import divide
        top = np.iinfo(out.dtype._np).max
        return divide(cast(out, dt), convert_to_tensor(np.asarray(top, dt._np)))
    from .image_ops import convert_image_dtype
    return convert_image_dtype(out, dt)


def _encode_png(a, compression):
    Image = _pil("encode_png")
    if a.dtype == np.uint16:
        if a.shape[-1] != 1:
            raise NotImplementedError("encode_png of 16-bit color images needs libpng")
        im = Image.fromarray(np.ascontiguousarray(a[..., 0]))
    else:
        mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[a.shape[-1]]
        im = Image.fromarray(a[..., 0] if a.shape[-1] == 1 else a, mode)
    buf = _io.BytesIO()
    im.save(buf, format="PNG", compress_level=6 if compression == -1 else compression)
    return _string(buf.getvalue())


_ENCODE_PNG = nondifferentiable("EncodePng", _encode_png)


def encode_png(image, compression=-1, name=None):
    """Encode uint8/uint16 ``[height, width, channels]`` (1-4 channels) as PNG
    (``tf.io.encode_png``). The bytes are Pillow's (zlib), not libpng's; they decode to the
    same pixels.

    Raises:
        tf.errors.InvalidArgumentError: for a rank other than 3 or 1-4 channels.
    """
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    shape = x._value.shape
    if len(shape) != 3 or not 1 <= shape[-1] <= 4:
        raise _op_error(errors.InvalidArgumentError,
                              f"image must be 3-dimensional with 1-4 channels, got shape "
                              f"{list(shape)}", "EncodePng")
    return apply(_ENCODE_PNG, (x,), {"compression": int(compression)})


def _encode_jpeg(a, quality, progressive, optimize, subsampling, dpi):
    Image = _pil("encode_jpeg")
    im = Image.fromarray(a[..., 0] if a.shape[-1] == 1 else a,
                         "L" if a.shape[-1] == 1 else "RGB")
    buf = _io.BytesIO()
    im.save(buf, format="JPEG", quality=quality, progressive=progressive, optimize=optimize,
            subsampling=subsampling, dpi=dpi)
    return _string(buf.getvalue())


_ENCODE_JPEG = nondifferentiable("EncodeJpeg", _encode_jpeg)


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """Encode uint8 ``[height, width, 1 or 3]`` as JPEG (``tf.io.encode_jpeg``), through
    Pillow's libjpeg at ``quality`` (4:2:0 chroma when ``chroma_downsampling``).

    Raises:
        tf.errors.InvalidArgumentError: for a rank other than 3 or 2/4 channels.
    """
    x = image if isinstance(image, _TensorLike) else convert_to_tensor(image)
    shape = x._value.shape
    if len(shape) != 3 or shape[-1] not in (1, 3):
        raise _op_error(errors.InvalidArgumentError,
                              f"image must be 3-dimensional with 1 or 3 channels, got shape "
                              f"{list(shape)}", "EncodeJpeg")
    return apply(_ENCODE_JPEG, (x,), {
        "quality": int(quality), "progressive": bool(progressive),
        "optimize": bool(optimize_size), "subsampling": 2 if chroma_downsampling else 0,
        "dpi": (int(x_density), int(y_density))})


# ------------------------------------------------------------------ audio
def _decode_wav(contents, desired_channels, desired_samples):
    data = _bytes(contents.item())
    try:
        with _wave.open(_io.BytesIO(data), "rb") as w:
            width, n_ch, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (_wave.Error, EOFError, ValueError):
        raise _op_error(errors.InvalidArgumentError,
                        "Data too short when trying to read string", "DecodeWav") from None
    if width != 2:
        raise _op_error(errors.InvalidArgumentError,
                              f"Can only read 16-bit WAV files, but received {8 * width}",
                              "DecodeWav")
    audio = (np.frombuffer(raw, "<i2").astype(np.float32) / np.float32(32768.0)).reshape(
        -1, n_ch)
    if desired_channels > 0 and desired_channels != n_ch:
        if n_ch == 1:
            audio = np.repeat(audio, desired_channels, axis=1)
        else:
            audio = audio[:, :desired_channels] if desired_channels < n_ch else np.concatenate(
                [audio, np.repeat(audio[:, -1:], desired_channels - n_ch, axis=1)], 1)
    if desired_samples >= 0:
        n = audio.shape[0]
        audio = audio[:desired_samples] if desired_samples <= n else np.concatenate(
            [audio, np.zeros((desired_samples - n, audio.shape[1]), np.float32)])
    return audio, np.int32(rate)


_DECODE_WAV = nondifferentiable("DecodeWav", _decode_wav, n_outputs=2)


class DecodeWav(tuple):
    """``(audio, sample_rate)`` with field names, as TensorFlow's op result."""

    __slots__ = ()
    _fields = ("audio", "sample_rate")

    def __new__(cls, audio, sample_rate):
        return tuple.__new__(cls, (audio, sample_rate))

    audio = property(lambda self: self[0])
    sample_rate = property(lambda self: self[1])

    def __repr__(self):
        return f"DecodeWav(audio={self[0]!r}, sample_rate={self[1]!r})"


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """Decode a 16-bit PCM WAV file (``tf.audio.decode_wav``).

    Args:
        contents: scalar ``tf.string``.
        desired_channels: -1 keeps the file's; else mono is repeated, extra channels dropped.
        desired_samples: -1 keeps all; else cut or zero-padded to this many frames.

    Returns:
        ``DecodeWav(audio, sample_rate)``: float32 ``[samples, channels]`` in ``[-1, 1)``
        (sample / 32768) and the int32 scalar rate in Hz.

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no 16-bit PCM WAV.
    """
    audio, rate = apply(_DECODE_WAV, (_scalar_bytes(contents, "DecodeWav"),),
                        {"desired_channels": int(desired_channels),
                         "desired_samples": int(desired_samples)})
    return DecodeWav(audio, rate)


def _encode_wav(a, rate):
    pcm = np.clip(np.round(a.astype(np.float64) * 32768.0), -32768, 32767).astype("<i2")
    buf = _io.BytesIO()
    with _wave.open(buf, "wb") as w:
        w.setnchannels(a.shape[1])
        w.setsampwidth(2)
        w.setframerate(int(rate))
        w.writeframes(pcm.tobytes())
    return _string(buf.getvalue())


_ENCODE_WAV = nondifferentiable("EncodeWav", _encode_wav)


def encode_wav(audio, sample_rate, name=None):
    """Encode float32 ``[samples, channels]`` as 16-bit PCM WAV (``tf.audio.encode_wav``):
    each sample times 32768, rounded to nearest and clamped to [-32768, 32767], as
    TensorFlow's writer does.

    Args:
        audio: float32 ``[samples, channels]``.
        sample_rate: int32 scalar, in Hz.

    Returns:
        A scalar ``tf.string`` of the file's bytes.
    """
    x = audio if isinstance(audio, _TensorLike) else convert_to_tensor(audio, _dt.float32)
    if x._value.ndim != 2:
        raise _op_error(errors.InvalidArgumentError,
                              f"audio must be 2-dimensional (samples x channels), got shape "
                              f"{list(x._value.shape)}", "EncodeWav")
    rate = sample_rate if isinstance(sample_rate, _TensorLike) else convert_to_tensor(
        sample_rate, _dt.int32)
    return apply(_ENCODE_WAV, (x, rate))


# ------------------------------------------------------------------ CSV
_INT = re.compile(rb"\s*[+-]?\d+\s*")
_FLOAT = re.compile(rb"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)"
                    rb"\s*", re.IGNORECASE)
_KINDS = {"int32": ("int32", _INT), "int64": ("int64", _INT), "float32": ("float", _FLOAT),
          "float64": ("double", _FLOAT)}


def split_csv_record(line, delim=b",", use_quote=True):
    """The fields of one CSV record (bytes), with TensorFlow's quoting rules: a field that
    starts with ``"`` runs to the closing quote, ``""`` inside it is one quote, and a quote
    anywhere else is an error.

    Raises:
        tf.errors.InvalidArgumentError: for a stray quote (TensorFlow's messages).
    """
    fields, i, n = [], 0, len(line)
    while True:
        if use_quote and i < n and line[i:i + 1] == b'"':
            buf, i = bytearray(), i + 1
            while True:
                j = line.find(b'"', i)
                if j < 0:
                    raise _op_error(errors.InvalidArgumentError,
                                    "Quoted field has to end with quote followed by delim or "
                                    "end", "DecodeCSV")
                buf += line[i:j]
                if line[j + 1:j + 2] == b'"':
                    buf += b'"'
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and line[i:i + 1] != delim:
                raise _op_error(errors.InvalidArgumentError,
                                "Quote inside a string has to be escaped by another quote",
                                "DecodeCSV")
            fields.append(bytes(buf))
        else:
            j = line.find(delim, i)
            field = line[i:] if j < 0 else line[i:j]
            if use_quote and (b'"' in field or b"\n" in field or b"\r" in field):
                raise _op_error(errors.InvalidArgumentError,
                                "Unquoted fields cannot have quotes/CRLFs inside", "DecodeCSV")
            fields.append(field)
            i = n if j < 0 else j
        if i >= n:
            return fields
        i += 1   # past the delimiter
        if i == n:
            fields.append(b"")
            return fields


def parse_csv_field(field, default, dtype, column, record, na_value, op_name="DecodeCSV"):
    """One field as ``dtype`` (a NumPy dtype name or "object"), ``default`` (a 0-d array or
    None) when it is empty or ``na_value``; ``record`` None leaves the record number out of
    messages (as TensorFlow's CSV dataset does).

    Raises:
        tf.errors.InvalidArgumentError: for a missing required field or a bad number.
    """
    where = "record" if record is None else f"record {record}"
    fail = errors.op_error if op_name == "IteratorGetNext" else _op_error
    if field == b"" or (na_value and field == na_value):
        if default is None:
            raise fail(errors.InvalidArgumentError,
                            f"Field {column} is required but missing in {where}!", op_name)
        return default
    if dtype == "object":
        return field
    name, pattern = _KINDS[dtype]
    bad = pattern.fullmatch(field) is None
    if not bad and dtype in ("int32", "int64"):
        info = np.iinfo(dtype)
        bad = not info.min <= int(field) <= info.max
    if bad:
        raise fail(errors.InvalidArgumentError,
                        f"Field {column} in {where} is not a valid {name}: "
                        f"{field.decode(errors='replace')}", op_name)
    return int(field) if dtype in ("int32", "int64") else float(field)


def _decode_csv_forward(records, *defaults, dtypes, delim, use_quote, na_value, select_cols):
    flat = records.reshape(-1)
    cols = [[] for _ in dtypes]
    want = len(dtypes) if select_cols is None else None
    for r, rec in enumerate(flat):
        fields = split_csv_record(_bytes(rec), delim, use_quote)
        if want is not None and len(fields) != want:
            raise _op_error(errors.InvalidArgumentError,
                            f"Expect {want} fields but have {len(fields)} in record {r}",
                            "DecodeCSV")
        picked = fields if select_cols is None else [
            fields[c] if c < len(fields) else b"" for c in select_cols]
        for k, (field, default, dt) in enumerate(zip(picked, defaults, dtypes, strict=True)):
            d = default.reshape(-1)[0] if default.size else None
            cols[k].append(parse_csv_field(field, d, dt, k, r, na_value))
    return tuple(np.array(c, dtype=dt).reshape(records.shape) for c, dt in zip(cols, dtypes,
                                                                              strict=True))


# A variable number of outputs (one per column): any n_outputs other than 1 means a tuple.
_DECODE_CSV = nondifferentiable("DecodeCSV", _decode_csv_forward, n_outputs=-1)


def csv_defaults(record_defaults):
    """``record_defaults`` as 0- or 1-element tensors (TF: a list per column, or a dtype for
    a required column)."""
    out = []
    for d in record_defaults:
        if isinstance(d, _dt.DType):
            out.append(convert_to_tensor(np.zeros(0, d._np if d != _dt.string else object)))
            continue
        t = d if isinstance(d, _TensorLike) else convert_to_tensor(d)
        if t._value.ndim > 1 or t._value.size > 1:
            raise ValueError(f"Shape of a default must be a length-0 or length-1 vector, or "
                             f"a scalar, got shape {list(t._value.shape)}")
        out.append(t)
    return out


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """Parse CSV records into one tensor per column (``tf.io.decode_csv``).

    Args:
        records: a string tensor of any shape: one record per element.
        record_defaults: per column a 0- or 1-element list/tensor: its dtype (int32, int64,
            float32, float64, string) and the value of an empty field; an empty one makes the
            column required.
        field_delim: a one-character delimiter.
        use_quote_delim: treat ``"..."`` as a quoted field (``""`` is a quote inside).
        na_value: a string read as missing.
        select_cols: sorted column indices to keep (``record_defaults`` then has one per kept
            column).

    Returns:
        A list of tensors of ``records``' shape, one per column.

    Raises:
        tf.errors.InvalidArgumentError: for a wrong field count, a missing required field, a
            bad number or a stray quote (TensorFlow's messages).
    """
    recs = records if isinstance(records, _TensorLike) else convert_to_tensor(records,
                                                                               _dt.string)
    defaults = csv_defaults(record_defaults)
    dtypes = tuple("object" if d.dtype == _dt.string else d.dtype._np.name for d in defaults)
    if select_cols is not None:
        select_cols = tuple(int(c) for c in select_cols)
        if list(select_cols) != sorted(set(select_cols)):
            raise errors.InvalidArgumentError(None, None,
                                              "select_cols is not strictly increasing.")
        if len(select_cols) != len(defaults):
            raise errors.InvalidArgumentError(
                None, None, "Expected len(select_cols) to be the same as len(record_defaults)")
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    return list(apply(_DECODE_CSV, (recs, *defaults), {
        "dtypes": dtypes, "delim": delim, "use_quote": bool(use_quote_delim),
        "na_value": na, "select_cols": select_cols}))
