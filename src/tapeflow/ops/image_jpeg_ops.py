"""JPEG and WebP helpers of ``tf.image``: sniffing, header shape, decode-and-crop, JPEG
quality adjustment (plain, random, stateless random) and WebP decoding, through the Pillow
codec of ``io_ops``.

Pillow's libjpeg encodes with the same quality tables as TensorFlow's, and ``io_ops`` decodes
with libjpeg's accurate integer DCT; TensorFlow's default decoder uses the fast integer DCT,
so re-encoded pixels can differ from TensorFlow's by a few levels (docs/ops.md). None of
these ops has a gradient in TensorFlow.
"""
import io as _pyio

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import image_ops as _io
from . import io_ops as _codec

__all__ = ["is_jpeg", "extract_jpeg_shape", "decode_and_crop_jpeg", "adjust_jpeg_quality",
           "random_jpeg_quality", "stateless_random_jpeg_quality", "decode_webp"]


def _t(x):
    return x if isinstance(x, _TensorLike) else convert_to_tensor(x)


def _is_jpeg_forward(contents):
    flat = [bytes(v)[:3] == b"\xff\xd8\xff" for v in contents.reshape(-1)]
    return np.array(flat, bool).reshape(contents.shape)


_IS_JPEG = nondifferentiable("IsJpeg", _is_jpeg_forward)


def is_jpeg(contents, name=None):
    """Whether each string starts with JPEG's ``FF D8 FF`` marker (``tf.image.is_jpeg``).

    Args:
        contents: a ``tf.string`` tensor of any shape.

    Returns:
        bool, ``contents``' shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.is_jpeg(tf.constant(b"\\xff\\xd8\\xff\\xe0")).numpy()
        np.True_
    """
    x = _t(contents)
    if x.dtype != _dt.string:
        raise errors.InvalidArgumentError(
            None, None, f"cannot compute Substr as input #0(zero-based) was expected to be a "
            f"string tensor but is a {x.dtype.name} tensor [Op:Substr] name: ")
    return apply(_IS_JPEG, (x,))


def _header(data, op):
    Image = _codec._pil(op)
    try:
        im = Image.open(_pyio.BytesIO(data))
        ok = im.format == "JPEG"
    except Exception:  # noqa: BLE001 - Pillow raises several classes for bad bytes
        ok = False
    if not ok:
        if op == "ExtractJpegShape":
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Invalid JPEG data, size {len(data)}", op)
        raise _codec._op_error(errors.InvalidArgumentError,
                               "jpeg::Uncompress failed. Invalid JPEG data or crop window.", op)
    return im


def _shape_forward(contents, dtype):
    im = _header(_codec._bytes(contents.item()), "ExtractJpegShape")
    w, h = im.size
    return np.array([h, w, len(im.getbands())], np.dtype(dtype))


_SHAPE = nondifferentiable("ExtractJpegShape", _shape_forward)


def extract_jpeg_shape(contents, output_type=_dt.int32, name=None):
    """A JPEG's ``[height, width, channels]`` read from its header, without decoding
    (``tf.image.extract_jpeg_shape``).

    Args:
        contents: scalar ``tf.string``, JPEG bytes.
        output_type: int32 or int64.

    Returns:
        ``[3]`` of ``output_type``.

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no JPEG.
        ImportError: without Pillow.

    Example:
        >>> import tapeflow as tf
        >>> data = tf.io.encode_jpeg(tf.zeros((4, 6, 3), tf.uint8))
        >>> tf.image.extract_jpeg_shape(data).numpy()
        array([4, 6, 3], dtype=int32)
    """
    x = _codec._scalar_bytes(contents, "ExtractJpegShape")
    dtype = _dt.as_dtype(output_type)
    return apply(_SHAPE, (x,), {"dtype": dtype._np.name})


def _decode_crop_forward(contents, window, channels):
    data = _codec._bytes(contents.item())
    im = _header(data, "DecodeAndCropJpeg")
    w, h = im.size
    y, x, ch, cw = (int(v) for v in window)
    if not (y >= 0 and x >= 0 and ch > 0 and cw > 0 and y + ch <= h and x + cw <= w):
        raise _codec._op_error(errors.InvalidArgumentError,
                               "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
                               "DecodeAndCropJpeg")
    full = _codec._decode_jpeg(np.array(data, dtype=object), channels, "")
    return np.ascontiguousarray(full[y:y + ch, x:x + cw])


_DECODE_CROP = nondifferentiable("DecodeAndCropJpeg", _decode_crop_forward)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """The ``crop_window = [y, x, height, width]`` part of a decoded JPEG
    (``tf.image.decode_and_crop_jpeg``), decoded as ``tf.io.decode_jpeg`` decodes.

    Args:
        contents: scalar ``tf.string``.
        crop_window: int32 ``[4]``, inside the image.
        channels: 0, 1 or 3.

    Returns:
        uint8 ``[height, width, channels]``.

    Raises:
        tf.errors.InvalidArgumentError: for bytes that are no JPEG, a window outside the
            image, or a bad ``crop_window`` shape.
        ImportError: without Pillow.

    Example:
        >>> import tapeflow as tf
        >>> data = tf.io.encode_jpeg(tf.zeros((4, 6, 3), tf.uint8))
        >>> tf.image.decode_and_crop_jpeg(data, [1, 2, 2, 3]).shape
        TensorShape([2, 3, 3])
    """
    x = _codec._scalar_bytes(contents, "DecodeAndCropJpeg")
    win = _t(crop_window)
    if win._value.shape != (4,):
        raise _codec._op_error(errors.InvalidArgumentError,
                               f"crop_window must be shape [4], got shape "
                               f"{list(win._value.shape)}".replace(", ", ","),
                               "DecodeAndCropJpeg")
    channels = int(channels)
    _codec._check_channels(channels, "DecodeAndCropJpeg")
    if ratio != 1:
        raise NotImplementedError("decode_and_crop_jpeg(ratio != 1) is not supported by "
                                  "tapeflow")
    return apply(_DECODE_CROP, (x, win), {"channels": channels})


def _requality_forward(image, quality, channels):
    q = int(quality)
    if not 0 <= q <= 100:
        raise _codec._op_error(errors.InvalidArgumentError,
                               f"quality must be in [0,100], got {q}",
                               "EncodeJpegVariableQuality")
    data = _codec._encode_jpeg(image, q, False, False, 2, (300, 300)).item()
    return _codec._decode_jpeg(np.array(data, dtype=object), channels, "")


_REQUALITY = nondifferentiable("AdjustJpegQuality", _requality_forward)


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """``image`` encoded as JPEG at ``jpeg_quality`` and decoded again
    (``tf.image.adjust_jpeg_quality``): the compression artefacts, in ``image``'s dtype
    (through uint8 with saturation). Not differentiable (TensorFlow has no gradient).

    The encoder is Pillow's libjpeg (TensorFlow's quality tables, 4:2:0 chroma); the
    decoder uses the accurate integer DCT where TensorFlow's default is the fast one, so
    pixels may differ from TensorFlow's by a few levels.

    Args:
        image: ``[height, width, 1 or 3]``.
        jpeg_quality: int in ``[0, 100]`` (Python int or int32 scalar tensor).

    Returns:
        ``image``'s shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: if ``image`` is not 3-D with 1 or 3 channels or
            the quality is outside ``[0, 100]``.
        ImportError: without Pillow.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_jpeg_quality(tf.zeros((8, 8, 3)), 75).shape
        TensorShape([8, 8, 3])
    """
    x = _t(image)
    orig = x.dtype
    u8 = _io.convert_image_dtype(x, _dt.uint8, saturate=True)
    shape = u8._value.shape
    if len(shape) != 3 or shape[-1] not in (1, 3):
        raise errors.op_error(errors.InvalidArgumentError,
                              "image must be 3-dimensional[" + ",".join(map(str, shape)) + "]"
                              if len(shape) != 3 else
                              f"image must have 1 or 3 channels, got {shape[-1]}",
                              "EncodeJpegVariableQuality")
    quality = jpeg_quality if isinstance(jpeg_quality, _TensorLike) else \
        Tensor(np.int32(jpeg_quality))
    out = apply(_REQUALITY, (u8, quality), {"channels": int(shape[-1])})
    return _io.convert_image_dtype(out, orig, saturate=True)


def _check_quality(lo, hi):
    if lo < 0 or hi < 0 or lo > 100 or hi > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if lo >= hi:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """:func:`adjust_jpeg_quality` at a quality drawn from ``[min, max)``
    (``tf.image.random_jpeg_quality``; tapeflow's random stream).

    Raises:
        ValueError: if a bound is outside ``[0, 100]`` or ``min >= max``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_jpeg_quality(tf.zeros((8, 8, 3)), 50, 90).shape
        TensorShape([8, 8, 3])
    """
    from .random_ops import uniform
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    q = uniform([], min_jpeg_quality, max_jpeg_quality, dtype=_dt.int32, seed=seed)
    return adjust_jpeg_quality(image, q)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """:func:`adjust_jpeg_quality` at ``stateless_uniform([], seed, min, max, int32)``
    (``tf.image.stateless_random_jpeg_quality``: TensorFlow's quality for ``seed``).

    Raises:
        ValueError: if a bound is outside ``[0, 100]`` or ``min >= max``.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_jpeg_quality(tf.zeros((8, 8, 3)), 50, 90,
        ...     seed=[1, 2]).shape
        TensorShape([8, 8, 3])
    """
    from .stateless_random_ops import stateless_uniform
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    q = stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality, dtype=_dt.int32)
    return adjust_jpeg_quality(image, q)


def _decode_webp_forward(contents, channels):
    op = "DecodeWebP"
    Image = _codec._pil(op)
    try:
        im = Image.open(_pyio.BytesIO(_codec._bytes(contents.item())))
        ok = im.format == "WEBP"
    except Exception:  # noqa: BLE001 - Pillow raises several classes for bad bytes
        ok = False
    if not ok:
        data = _codec._bytes(contents.item())
        raise errors.op_error(errors.InvalidArgumentError,
                              "Failed to decode WebP header." if data[8:12] == b"WEBP" else
                              "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                              "WebP required.", op)
    stored = 4 if "A" in im.getbands() else 3
    if channels and channels != stored:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Number of channels requested does not match input", op)
    frames = []
    for k in range(getattr(im, "n_frames", 1)):
        im.seek(k)
        frames.append(np.asarray(im.convert("RGBA" if stored == 4 else "RGB")))
    return np.stack(frames).astype(np.uint8)


_DECODE_WEBP = nondifferentiable("DecodeWebP", _decode_webp_forward)


def decode_webp(contents, channels=0, dtype=_dt.uint8, name=None):
    """Decode a WebP image (every frame of an animation) to uint8
    ``[num_frames, height, width, channels]`` (``tf.image.decode_webp``), through Pillow's
    libwebp.

    Args:
        contents: scalar ``tf.string``.
        channels: 0 (as stored), 3 or 4; it must match the stored channels.
        dtype: uint8 only.

    Bytes of another format TensorFlow decodes (JPEG, PNG, GIF, BMP) are decoded as
    ``tf.io.decode_image`` decodes them, as TensorFlow's kernel does.

    Raises:
        tf.errors.InvalidArgumentError: for bytes of no known format, a ``channels`` other than
            0, 3, 4 or unlike the stored ones, or another dtype.
        ImportError: without Pillow.

    Example:
        >>> import tapeflow as tf, io
        >>> from PIL import Image
        >>> buf = io.BytesIO()
        >>> Image.new("RGB", (5, 4)).save(buf, format="WEBP", lossless=True)
        >>> tf.image.decode_webp(buf.getvalue()).shape
        TensorShape([1, 4, 5, 3])
    """
    dtype = _dt.as_dtype(dtype)
    if dtype != _dt.uint8:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'dtype' of {dtype.name.replace('float32', 'float')} "
            "is not in the list of allowed values: uint8")
    channels = int(channels)
    if channels not in (0, 3, 4):
        raise errors.op_error(errors.InvalidArgumentError, "WebP only supports 3 or 4 channels",
                              "DecodeWebP")
    x = _codec._scalar_bytes(contents, "DecodeWebP")
    if _codec._bytes(x._value.item())[8:12] != b"WEBP" and \
            _codec._sniff(_codec._bytes(x._value.item())) is not None:
        # TensorFlow's kernel decodes any format it knows, as decode_image does
        return _codec.decode_image(x, channels=channels)
    return apply(_DECODE_WEBP, (x,), {"channels": channels})
