"""The protobuf messages a checkpoint holds, as the small objects the checkpoint code
reads and writes; their bytes come from the one schema codec, ``tapeflow._protobuf``
(messages of tensorflow/core/protobuf/tensor_bundle.proto and
trackable_object_graph.proto), so they equal TensorFlow's.

- ``BundleHeader``: ``BundleHeaderProto`` (shard count, byte order, format version).
- ``BundleEntry``: ``BundleEntryProto`` (dtype, shape, shard, offset, size, CRC32C).
- ``ObjectGraph`` of ``Node``: ``TrackableObjectGraph`` of ``TrackableObject``.

Bytes that do not decode raise ``DataLossError`` (TensorFlow's class for a corrupt
checkpoint).
"""
from .. import _protobuf as pb
from .._core.errors import DataLossError

__all__ = ["encode_varint", "decode_varint", "BundleHeader", "BundleEntry", "ObjectGraph",
           "Node"]

encode_varint = pb.encode_varint


def decode_varint(buf, pos: int):
    """``(value, next position)``; DataLossError past the end or after 10 bytes."""
    if pos < len(buf):
        b = buf[pos]
        if b < 0x80:      # the common one-byte case, without the codec's call
            return b, pos + 1
    try:
        return pb.decode_varint(buf, pos)
    except pb.DecodeError as e:
        raise DataLossError(None, None, str(e)) from None


def _decode(type_name, buf):
    try:
        return pb.decode(type_name, buf)
    except pb.DecodeError as e:
        raise DataLossError(None, None, str(e)) from None


class BundleHeader:
    """``BundleHeaderProto``: how many shards, the byte order, the format version."""

    def __init__(self, num_shards=1, endianness=0, producer=1, min_consumer=0):
        self.num_shards, self.endianness = num_shards, endianness
        self.producer, self.min_consumer = producer, min_consumer

    def encode(self) -> bytes:
        return pb.encode(pb.Message(
            "BundleHeaderProto", num_shards=self.num_shards, endianness=self.endianness,
            version=pb.Message("VersionDef", producer=self.producer,
                               min_consumer=self.min_consumer)))

    @classmethod
    def decode(cls, buf):
        m = _decode("BundleHeaderProto", buf)
        return cls(m.num_shards, m.endianness, m.version.producer, m.version.min_consumer)


class BundleEntry:
    """``BundleEntryProto``: where one tensor's bytes are and their checksum."""

    def __init__(self, dtype=0, shape=(), shard_id=0, offset=0, size=0, crc32c=0,
                 has_slices=False):
        self.dtype, self.shape, self.shard_id = dtype, tuple(shape), shard_id
        self.offset, self.size, self.crc32c = offset, size, crc32c
        self.has_slices = has_slices

    def encode(self) -> bytes:
        shape = pb.Message("tensorflow.TensorShapeProto",
                           dim=[pb.Message("tensorflow.TensorShapeProto.Dim", size=d)
                                for d in self.shape])
        return pb.encode(pb.Message(
            "tensorflow.BundleEntryProto", dtype=self.dtype, shape=shape, shard_id=self.shard_id,
            offset=self.offset, size=self.size, crc32c=self.crc32c))

    @classmethod
    def decode(cls, buf):
        m = _decode("BundleEntryProto", buf)
        return cls(m.dtype, [d.size for d in m.shape.dim], m.shard_id, m.offset, m.size,
                   m.crc32c, bool(m.slices))


_OBJECT = "tensorflow.TrackableObjectGraph.TrackableObject"
_REF, _TENSOR, _SLOT = (f"{_OBJECT}.ObjectReference", f"{_OBJECT}.SerializedTensor",
                        f"{_OBJECT}.SlotVariableReference")


class Node:
    """One ``TrackableObject``: named children (node ids), saved attributes, slots."""

    __slots__ = ("children", "attributes", "slot_variables", "has_values")

    def __init__(self):
        self.children = []        # [(node_id, local_name)]
        self.attributes = []      # [(name, full_name, checkpoint_key)]
        self.slot_variables = []  # [(original_variable_node_id, slot_name, slot_node_id)]
        self.has_values = None    # None: field absent; else a bool

    def message(self):
        """This node as a ``TrackableObject`` message."""
        m = pb.Message(
            _OBJECT,
            children=[pb.Message(_REF, node_id=i, local_name=n)
                      for i, n in self.children],
            attributes=[pb.Message(_TENSOR, name=a, full_name=f,
                                   checkpoint_key=k) for a, f, k in self.attributes],
            slot_variables=[pb.Message(_SLOT,
                                       original_variable_node_id=o, slot_name=s,
                                       slot_variable_node_id=v)
                            for o, s, v in self.slot_variables])
        if self.has_values is not None:
            m.has_checkpoint_values = pb.Message("google.protobuf.BoolValue",
                                                 value=bool(self.has_values))
        return m

    def encode(self) -> bytes:
        return pb.encode(self.message())

    @classmethod
    def from_message(cls, m):
        node = cls()
        node.children = [(c.node_id, c.local_name) for c in m.children]
        node.attributes = [(a.name, a.full_name, a.checkpoint_key) for a in m.attributes]
        node.slot_variables = [(s.original_variable_node_id, s.slot_name,
                                s.slot_variable_node_id) for s in m.slot_variables]
        if m.has("has_checkpoint_values"):
            node.has_values = bool(m.has_checkpoint_values.value)
        return node

    @classmethod
    def decode(cls, buf):
        return cls.from_message(_decode(_OBJECT, buf))


class ObjectGraph:
    """``TrackableObjectGraph``: node 0 is the root; edges are named children."""

    def __init__(self, nodes=None):
        self.nodes = list(nodes or [])

    def encode(self) -> bytes:
        return pb.encode(pb.Message("tensorflow.TrackableObjectGraph",
                                    nodes=[n.message() for n in self.nodes]))

    @classmethod
    def decode(cls, buf):
        m = _decode("TrackableObjectGraph", buf)
        return cls([Node.from_message(n) for n in m.nodes])
