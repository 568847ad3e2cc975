"""The few protobuf messages a checkpoint holds, encoded and decoded by hand.

Wire format (protobuf's encoding guide): a field is a varint key ``(number << 3) | type``
then a varint (type 0), 8 bytes (1), a length-prefixed payload (2) or 4 bytes (5). Fields
are written in field-number order and proto3 defaults are left out, as protobuf does, so
the bytes equal TensorFlow's. Messages (tensorflow/core/protobuf/tensor_bundle.proto,
trackable_object_graph.proto; tensor_shape.proto; versions.proto):

- ``BundleHeaderProto``: num_shards=1, endianness=2, version=3 (VersionDef: producer=1,
  min_consumer=2, bad_consumers=3).
- ``BundleEntryProto``: dtype=1, shape=2 (TensorShapeProto: dim=2 {size=1, name=2},
  unknown_rank=3), shard_id=3, offset=4, size=5, crc32c=6 (fixed32), slices=7.
- ``TrackableObjectGraph``: nodes=1 (TrackableObject: children=1 {node_id=1,
  local_name=2}, attributes=2 {name=1, full_name=2, checkpoint_key=3}, slot_variables=3
  {original_variable_node_id=1, slot_name=2, slot_variable_node_id=3}, registered_saver=4,
  has_checkpoint_values=5 (BoolValue: value=1)).
"""
import functools
import struct

from .._core.errors import DataLossError

__all__ = ["encode_varint", "decode_varint", "fields", "BundleHeader", "BundleEntry",
           "ObjectGraph", "Node"]


_ONE_BYTE = [bytes((i,)) for i in range(128)]


def encode_varint(n: int) -> bytes:
    if 0 <= n < 128:
        return _ONE_BYTE[n]
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def decode_varint(buf, pos: int):
    """``(value, next position)``; DataLossError past the end or after 10 bytes."""
    if pos < len(buf):
        b = buf[pos]
        if b < 0x80:
            return b, pos + 1
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise DataLossError(None, None, "truncated or malformed varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


@functools.lru_cache(maxsize=None)
def _key(number, wire):
    return encode_varint((number << 3) | wire)


def _int(number, value):
    return _key(number, 0) + encode_varint(value) if value else b""


def _bytes(number, payload, always=False):
    if not payload and not always:
        return b""
    return _key(number, 2) + encode_varint(len(payload)) + payload


def _str(number, text):
    return _bytes(number, text.encode("utf-8"))


def fields(buf):
    """Yield ``(number, wire type, value)``: an int, or bytes for types 1, 2 and 5."""
    if not isinstance(buf, bytes):
        buf = bytes(buf)
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = decode_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = decode_varint(buf, pos)
        elif wire == 2:
            size, pos = decode_varint(buf, pos)
            if pos + size > end:
                raise DataLossError(None, None, "truncated length-delimited field")
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        else:
            raise DataLossError(None, None, f"unsupported protobuf wire type {wire}")
        if pos > end:
            raise DataLossError(None, None, "truncated protobuf field")
        yield number, wire, value


class BundleHeader:
    """``BundleHeaderProto``: how many shards, the byte order, the format version."""

    def __init__(self, num_shards=1, endianness=0, producer=1, min_consumer=0):
        self.num_shards, self.endianness = num_shards, endianness
        self.producer, self.min_consumer = producer, min_consumer

    def encode(self) -> bytes:
        version = _int(1, self.producer) + _int(2, self.min_consumer)
        return _int(1, self.num_shards) + _int(2, self.endianness) + _bytes(3, version, True)

    @classmethod
    def decode(cls, buf):
        h = cls(num_shards=0)
        for number, _, value in fields(buf):
            if number == 1:
                h.num_shards = value
            elif number == 2:
                h.endianness = value
            elif number == 3:
                for n, _, v in fields(value):
                    if n == 1:
                        h.producer = v
                    elif n == 2:
                        h.min_consumer = v
        return h


class BundleEntry:
    """``BundleEntryProto``: where one tensor's bytes are and their checksum."""

    def __init__(self, dtype=0, shape=(), shard_id=0, offset=0, size=0, crc32c=0,
                 has_slices=False):
        self.dtype, self.shape, self.shard_id = dtype, tuple(shape), shard_id
        self.offset, self.size, self.crc32c = offset, size, crc32c
        self.has_slices = has_slices

    def encode(self) -> bytes:
        dims = b"".join(_bytes(2, _int(1, d), True) for d in self.shape)
        return (_int(1, self.dtype) + _bytes(2, dims, True) + _int(3, self.shard_id)
                + _int(4, self.offset) + _int(5, self.size)
                + _key(6, 5) + struct.pack("<I", self.crc32c))

    @classmethod
    def decode(cls, buf):
        e = cls()
        for number, _, value in fields(buf):
            if number == 1:
                e.dtype = value
            elif number == 2:
                shape = []
                for n, _, v in fields(value):
                    if n == 2:
                        size = 0
                        for n2, _, v2 in fields(v):
                            if n2 == 1:
                                size = v2 - (1 << 64) if v2 >= 1 << 63 else v2
                        shape.append(size)
                e.shape = tuple(shape)
            elif number == 3:
                e.shard_id = value
            elif number == 4:
                e.offset = value
            elif number == 5:
                e.size = value
            elif number == 6:
                e.crc32c = struct.unpack("<I", value)[0]
            elif number == 7:
                e.has_slices = True
        return e


class Node:
    """One ``TrackableObject``: named children (node ids), saved attributes, slots."""

    __slots__ = ("children", "attributes", "slot_variables", "has_values")

    def __init__(self):
        self.children = []        # [(node_id, local_name)]
        self.attributes = []      # [(name, full_name, checkpoint_key)]
        self.slot_variables = []  # [(original_variable_node_id, slot_name, slot_node_id)]
        self.has_values = None    # None: field absent; else a bool

    def encode(self) -> bytes:
        out = b"".join(_bytes(1, _int(1, i) + _str(2, n), True) for i, n in self.children)
        out += b"".join(_bytes(2, _str(1, a) + _str(2, f) + _str(3, k), True)
                        for a, f, k in self.attributes)
        out += b"".join(_bytes(3, _int(1, o) + _str(2, s) + _int(3, v), True)
                        for o, s, v in self.slot_variables)
        if self.has_values is not None:
            out += _bytes(5, _int(1, int(self.has_values)), True)
        return out

    @classmethod
    def decode(cls, buf):
        node = cls()
        for number, _, value in fields(buf):
            if number == 1:
                ref = dict((n, v) for n, _, v in fields(value))
                node.children.append((ref.get(1, 0), ref.get(2, b"").decode("utf-8")))
            elif number == 2:
                a = dict((n, v) for n, _, v in fields(value))
                node.attributes.append(tuple(a.get(i, b"").decode("utf-8") for i in (1, 2, 3)))
            elif number == 3:
                s = dict((n, v) for n, _, v in fields(value))
                node.slot_variables.append(
                    (s.get(1, 0), s.get(2, b"").decode("utf-8"), s.get(3, 0)))
            elif number == 5:
                node.has_values = bool(dict((n, v) for n, _, v in fields(value)).get(1, 0))
        return node


class ObjectGraph:
    """``TrackableObjectGraph``: node 0 is the root; edges are named children."""

    def __init__(self, nodes=None):
        self.nodes = list(nodes or [])

    def encode(self) -> bytes:
        return b"".join(_bytes(1, n.encode(), True) for n in self.nodes)

    @classmethod
    def decode(cls, buf):
        return cls([Node.decode(v) for number, _, v in fields(buf) if number == 1])
