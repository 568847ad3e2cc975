"""The summary ops (``tf.summary.scalar/histogram/image/text``), in TensorFlow 2's format.

Each value is written as TF 2 writes it: a ``TensorProto`` tagged with its TensorBoard
plugin (``scalars``: a float32 scalar; ``histograms``: a float64 ``[k, 3]`` tensor of
left edge, right edge and count; ``images``: strings width, height, then PNGs; ``text``: a
string tensor). Histogram buckets and image conversion follow TensorBoard's
``summary_v2`` code.
"""
import struct
import zlib

from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from ..ops import summary_ops as _s
from . import writer as _w

__all__ = ["scalar", "histogram", "image", "text", "write"]

DEFAULT_BUCKET_COUNT = 30


def _proto():
    _w._tensorboardx()
    from tensorboardX.proto import summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2
    return summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2


def _array(data):
    if isinstance(data, _TensorLike):
        return data.numpy()
    return np.asarray(data)


def _tensor_proto(array, dtype_name):
    _, tensor_pb2, shape_pb2, types_pb2 = _proto()
    shape = shape_pb2.TensorShapeProto(
        dim=[shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in array.shape])
    if dtype_name == "string":
        return tensor_pb2.TensorProto(
            dtype=types_pb2.DT_STRING, tensor_shape=shape,
            string_val=[v if isinstance(v, bytes) else str(v).encode() for v in array.ravel()])
    np_dtype = {"float": np.float32, "double": np.float64}[dtype_name]
    dtype = {"float": types_pb2.DT_FLOAT, "double": types_pb2.DT_DOUBLE}[dtype_name]
    return tensor_pb2.TensorProto(dtype=dtype, tensor_shape=shape,
                                  tensor_content=np.ascontiguousarray(array, np_dtype).tobytes())


def _value_encoder(plugin, description, make_tensor, content=b""):
    """``array -> Summary.Value`` (tag filled in by the writer) for one plugin."""
    def encode(array):
        summary_pb2 = _proto()[0]
        metadata = summary_pb2.SummaryMetadata(
            plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name=plugin,
                                                              content=content),
            summary_description=description or "")
        return summary_pb2.Summary.Value(metadata=metadata, tensor=make_tensor(array))
    return encode


def _write(name, data, plugin, step, description, make_tensor, content=b""):
    """Write through the WriteSummary op when recording; TF's bool tensor either way."""
    if not _w.should_record_summaries():
        return convert_to_tensor(False)
    step = _w.resolve_step(step)
    if not isinstance(data, _TensorLike):
        data = convert_to_tensor(np.asarray(data))
    if not isinstance(step, _TensorLike):
        step = convert_to_tensor(np.int64(step))
    return _s.write_summary(data, step, _w.default_writer(), name,
                            _value_encoder(plugin, description, make_tensor, content))


def write(tag, tensor, step=None, metadata=None, name=None) -> bool:
    """Write ``tensor`` (float or string) under ``tag`` (``tf.summary.write``).

    Args:
        metadata: the plugin: a name, or a ``(name, content bytes)`` pair.

    Returns:
        See :func:`scalar`.
    """
    plugin, content = (metadata, b"") if not isinstance(metadata, tuple) else metadata
    value = _array(tensor)
    kind = "string" if value.dtype.kind in "OSU" else "float"
    if kind == "string" and not isinstance(tensor, _TensorLike):
        tensor = Tensor(value.astype(object))
    return _write(tag, tensor, plugin or "", step, None,
                  lambda a: _tensor_proto(np.asarray(a), kind), content)


def scalar(name, data, step=None, description=None) -> bool:
    """Write a scalar (``tf.summary.scalar``).

    Args:
        name: the tag.
        data: a real number or scalar tensor (written as float32).
        step: the step (default ``tf.summary.experimental.get_step()``).
        description: optional text shown in TensorBoard.

    Returns:
        True if written, False when there is no default writer or ``record_if`` is off.

    Raises:
        ValueError: if no step is given or set, or ``data`` is not a scalar.
    """
    ndim = data.ndim if isinstance(data, _TensorLike) else np.ndim(data)
    if ndim:
        raise ValueError(f"Shapes must be equal rank, but are 0 and {ndim}")
    return _write(name, data, "scalars", step, description,
                  lambda a: _tensor_proto(np.asarray(a, np.float32), "float"))


def _buckets(data, bucket_count):
    data = np.asarray(data, np.float64).ravel()
    bucket_count = max(0, int(bucket_count))
    if data.size == 0 or bucket_count == 0:
        return np.zeros((bucket_count, 3), np.float64)
    lo, hi = data.min(), data.max()
    if hi - lo == 0:
        counts = np.zeros(bucket_count)
        counts[-1] = data.size
        edges = np.full(bucket_count, hi)
        return np.stack([edges, edges, counts], axis=1)
    width = (hi - lo) / bucket_count
    index = np.minimum(np.floor((data - lo) / width).astype(np.int32), bucket_count - 1)
    counts = np.bincount(index, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(lo, hi, bucket_count + 1)
    edges[-1] = hi
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def histogram(name, data, step=None, buckets=None, description=None) -> bool:
    """Write a histogram of ``data`` (``tf.summary.histogram``): ``buckets`` (default 30)
    equal-width buckets between its minimum and maximum.

    Returns:
        True if written, False when nothing records.
    """
    count = DEFAULT_BUCKET_COUNT if buckets is None else buckets
    return _write(name, data, "histograms", step, description,
                  lambda a: _tensor_proto(_buckets(a, count), "double"))


def _png(image):
    """A PNG (8-bit, grey, grey+alpha, RGB or RGBA) of ``image`` ``[h, w, c]`` uint8."""
    h, w, c = image.shape
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(h))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def _to_uint8(images):
    if images.dtype == np.uint8:
        return images
    if images.dtype.kind == "f":
        # TF's convert_image_dtype(..., uint8, saturate=True): scale by 255.5, truncate.
        return np.clip(images * 255.5, 0, 255).astype(np.uint8)
    info = np.iinfo(images.dtype)
    return np.clip(images.astype(np.int64) >> max(0, info.bits - 8 - (info.min < 0)),
                   0, 255).astype(np.uint8)


def image(name, data, step=None, max_outputs=3, description=None) -> bool:
    """Write up to ``max_outputs`` images (``tf.summary.image``).

    Args:
        data: ``[k, h, w, c]`` with ``c`` in 1..4; floats in ``[0, 1]`` or integers.

    Raises:
        ValueError: for data not of rank 4 (TensorFlow's text).
    """
    shape = tuple(data.shape) if isinstance(data, _TensorLike) else np.shape(data)
    if len(shape) != 4:
        raise ValueError(f"Tensor  must have rank 4.  Received rank {len(shape)}, shape "
                         f"{tuple(shape)}")

    def encode(images):
        images = _to_uint8(np.asarray(images)[:max_outputs])
        parts = [str(images.shape[2]).encode(), str(images.shape[1]).encode()]
        parts += [_png(im) for im in images]
        return _tensor_proto(np.array(parts, dtype=object), "string")

    return _write(name, data, "images", step, description, encode)


def text(name, data, step=None, description=None) -> bool:
    """Write a string or string tensor (``tf.summary.text``), rendered as Markdown."""
    value = _array(data)
    if value.dtype.kind not in "OSU":
        raise TypeError("Text summaries need string data")
    text_data = data if isinstance(data, _TensorLike) else Tensor(value.astype(object))
    return _write(name, text_data, "text", step, description,
                  lambda a: _tensor_proto(np.asarray(a, dtype=object), "string"))
