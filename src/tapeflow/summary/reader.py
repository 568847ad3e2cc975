"""Read event files back (for tests and tools): the TFRecord framing, checked, and each
record parsed as tensorboardX's ``Event`` protocol buffer."""
import struct

from .._crc32c import masked_crc32c

__all__ = ["read_events", "scalars"]


def read_events(path):
    """Yield the ``Event`` messages of one event file, in order.

    Raises:
        ValueError: for a truncated record or a checksum that does not match.
    """
    from tensorboardX.proto import event_pb2
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError(f"truncated record header at byte {pos} of {path}")
        (length,) = struct.unpack("<Q", data[pos:pos + 8])
        end = pos + 12 + length + 4
        if end > len(data):
            raise ValueError(f"truncated record at byte {pos} of {path}")
        header, body = data[pos:pos + 8], data[pos + 12:pos + 12 + length]
        (header_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        (body_crc,) = struct.unpack("<I", data[end - 4:end])
        if header_crc != masked_crc32c(header) or body_crc != masked_crc32c(body):
            raise ValueError(f"corrupt record at byte {pos} of {path}")
        yield event_pb2.Event.FromString(body)
        pos = end


def scalars(path) -> dict:
    """``{tag: [(step, value), ...]}`` of the scalar summaries in an event file."""
    import numpy as np
    out = {}
    for event in read_events(path):
        for value in event.summary.value:
            if value.metadata.plugin_data.plugin_name == "scalars" or value.HasField(
                    "simple_value"):
                if value.HasField("tensor"):
                    number = float(np.frombuffer(value.tensor.tensor_content, np.float32)[0]
                                   if value.tensor.tensor_content else
                                   value.tensor.float_val[0])
                else:
                    number = value.simple_value
                out.setdefault(value.tag, []).append((event.step, number))
    return out
