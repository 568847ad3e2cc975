"""``tf.train.Example`` and its parts as protobuf-style classes on the schema codec
``_protobuf`` (bound lazily by ``tapeflow.train``).

The classes are the codec's message classes for ``tensorflow.Example``, ``Features``,
``Feature``, ``BytesList``, ``FloatList``, ``Int64List``, ``FeatureList``, ``FeatureLists``
and ``SequenceExample``, given the part of the protobuf message API real programs use:
keyword constructors, attribute access, ``SerializeToString`` (TF's bytes),
``ParseFromString``/``FromString``, ``HasField``/``WhichOneof``, ``CopyFrom``, ``Clear``,
``==``, and ``print`` in protobuf's text format.

    >>> import tapeflow as tf
    >>> f = tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))
    >>> ex = tf.train.Example(features=tf.train.Features(feature={"x": f}))
    >>> tf.train.Example.FromString(ex.SerializeToString()).features.feature["x"].int64_list.value
    [1, 2]
"""
import struct

from . import _protobuf as pb

__all__ = ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features",
           "FloatList", "Int64List", "SequenceExample"]

_NAMES = __all__
_F32 = struct.Struct("<f")


def _f32(v):
    return _F32.unpack(_F32.pack(v))[0]


def _shortest_float(v):
    """upb's text form of a float field: ``%.6g``, or ``%.9g`` when that does not read back
    as the same float32."""
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    text = f"{v:.6g}"
    return text if _f32(float(text)) == v else f"{v:.9g}"


def _escape(data):
    out = []
    for b in data:
        c = chr(b)
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c in "\"'\\":
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return "".join(out)


def _scalar_text(kind, v):
    if kind == pb._FLOAT:
        return _shortest_float(_f32(v))
    if kind == pb._DOUBLE:
        return str(float(v))
    if kind == pb._BOOL:
        return "true" if v else "false"
    if kind == pb._BYTES:
        return '"' + _escape(bytes(v)) + '"'
    if kind == pb._STRING:
        return '"' + _escape(v.encode("utf-8")) + '"'
    return str(int(v))


def _checked(kind, v):
    """``v`` as protobuf stores an element of a repeated field of ``kind``."""
    if kind == pb._BYTES:
        if not isinstance(v, (bytes, bytearray)) and not hasattr(v, "tobytes"):
            raise TypeError(f"expected bytes, {type(v).__name__} found")
        return bytes(v)
    if kind == pb._FLOAT:
        if isinstance(v, (str, bytes)):
            raise TypeError(f"must be real number, not {type(v).__name__}")
        return _f32(float(v))
    if kind == pb._INT64:
        if isinstance(v, bool):
            raise TypeError("Field tensorflow.Int64List.value: Expected an int, got a "
                            "boolean.")
        if isinstance(v, (float, str, bytes)) or hasattr(v, "dtype") and v.dtype.kind in "fbc":
            t = type(v)
            tname = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"
            raise TypeError(f"'{tname}' object cannot be interpreted as an integer")
        return int(v)
    return v


def _text(msg, indent, out):
    pad = " " * indent
    d = msg.__dict__
    for f in type(msg)._fields:
        if f.name not in d:
            continue
        value = d[f.name]
        if f.kind == pb._MAP:
            # upb prints map entries in the reverse of its deterministic wire order
            for key in sorted(value, key=pb._MAP_ORDER[f.key_kind], reverse=True):
                out.append(f"{pad}{f.name} {{\n")
                out.append(f"{pad}  key: {_scalar_text(f.key_kind, key)}\n")
                item = value[key]
                if f.value_kind == pb._MSG:
                    out.append(f"{pad}  value {{\n")
                    _text(item, indent + 4, out)
                    out.append(f"{pad}  }}\n")
                else:
                    out.append(f"{pad}  value: {_scalar_text(f.value_kind, item)}\n")
                out.append(f"{pad}}}\n")
        elif f.kind == pb._MSG:
            for item in (value if f.repeated else [value]):
                out.append(f"{pad}{f.name} {{\n")
                _text(item, indent + 2, out)
                out.append(f"{pad}}}\n")
        elif f.repeated:
            for item in value:
                out.append(f"{pad}{f.name}: {_scalar_text(f.kind, item)}\n")
        elif f.oneof is not None or value != pb._DEFAULT[f.kind]:
            out.append(f"{pad}{f.name}: {_scalar_text(f.kind, value)}\n")


class _MessageAPI:
    """The protobuf message methods the Example classes gain (bound onto each class)."""

    def SerializeToString(self, deterministic=None):  # noqa: N802 - protobuf's name
        """The wire bytes. Map entries are always in protobuf's deterministic order: TF's
        bytes with ``deterministic=True``; without it protobuf orders a map by a hash seeded
        per process, so TF's own bytes differ from run to run (any order parses)."""
        return pb.encode(self)

    def ParseFromString(self, serialized):  # noqa: N802 - protobuf's name
        """Replace this message's fields with those decoded from ``serialized``.

        Returns the number of bytes read. Raises ``google.protobuf``'s DecodeError
        counterpart ``tapeflow._protobuf.DecodeError`` (a ValueError) on bad bytes."""
        parsed = pb.decode(type(self)._name, serialized)
        self.__dict__.clear()
        self.__dict__.update(parsed.__dict__)
        return len(serialized)

    def MergeFromString(self, serialized):  # noqa: N802 - protobuf's name
        """Merge the fields decoded from ``serialized`` (repeated fields append)."""
        return self.ParseFromString(pb.encode(self) + bytes(serialized))

    def CopyFrom(self, other):  # noqa: N802 - protobuf's name
        """Make this message a copy of ``other`` (also a ``google.protobuf`` message of the
        same type)."""
        self.ParseFromString(pb.encode(other) if isinstance(other, pb.Message)
                             else other.SerializeToString())
        self.SetInParent()

    def MergeFrom(self, other):  # noqa: N802 - protobuf's name
        """Merge ``other`` (this type, or a ``google.protobuf`` message of it) into this."""
        self.MergeFromString(pb.encode(other) if isinstance(other, pb.Message)
                             else other.SerializeToString())
        self.SetInParent()

    def SetInParent(self):  # noqa: N802 - protobuf's name
        """Mark this sub-message, read from an unset field, as set in its parent (protobuf's
        ``SetInParent``; ``google.protobuf.text_format`` calls it)."""
        link = self.__dict__.pop("_link", None)
        if link is not None:
            parent, name = link
            if name not in parent.__dict__:
                pb.Message.__setattr__(parent, name, self)
                parent.SetInParent()

    def __getattr__(self, name):
        value = pb.Message.__getattr__(self, name)
        field = type(self)._by_name[name]
        if field.kind == pb._MSG and not field.repeated:
            # an unset sub-message: detached until SetInParent (protobuf's semantics)
            value.__dict__["_link"] = (self, name)
        elif field.kind == pb._MAP and field.value_kind == pb._MSG:
            # protobuf's message maps make a missing key's value on access
            value = self.__dict__[name] = _MessageMap(field, type(self)._name)
        return value

    def Clear(self):  # noqa: N802 - protobuf's name
        """Unset every field."""
        self.__dict__.clear()

    def HasField(self, name):  # noqa: N802 - protobuf's name
        """Whether sub-message or oneof member ``name`` is set."""
        return self.has(name)

    def WhichOneof(self, group):  # noqa: N802 - protobuf's name
        """The name of the set member of oneof ``group`` (``"kind"``), or None."""
        return self.which_oneof(group)

    def ByteSize(self):  # noqa: N802 - protobuf's name
        """The length of the serialized message."""
        return len(pb.encode(self))

    def __setattr__(self, name, value):
        field = type(self)._by_name.get(name)
        if field is not None and field.repeated:
            value = [_checked(field.kind, v) for v in value]
        pb.Message.__setattr__(self, name, value)

    def __str__(self):
        out = []
        _text(self, 0, out)
        return "".join(out)

    def __repr__(self):
        return self.__str__()

    @classmethod
    def FromString(cls, serialized):  # noqa: N802 - protobuf's name
        """A new message decoded from ``serialized``."""
        return pb.decode(cls._name, serialized)


class _MessageMap(dict):
    """A map field of message values: a missing key's value is made (and kept) on access,
    as protobuf's message maps do."""

    __slots__ = ("_field", "_owner")

    def __init__(self, field, owner):
        super().__init__()
        self._field = field
        self._owner = owner

    def GetEntryClass(self):  # noqa: N802 - protobuf's name
        """The ``google.protobuf`` class of this map's entries (``text_format`` parses an
        entry into one)."""
        from google.protobuf import message_factory
        entry = "".join(w.capitalize() for w in self._field.name.split("_")) + "Entry"
        return message_factory.GetMessageClass(
            _descriptor_pool().FindMessageTypeByName(f"{self._owner}.{entry}"))

    def __missing__(self, key):
        sub = self._field.sub
        value = self[key] = (sub() if isinstance(sub, type) else pb._class(sub)())
        return value


class _Descriptor:
    """``Example.DESCRIPTOR``: the ``google.protobuf`` descriptor of the message type, built
    on first use from the codec's schema into a private descriptor pool (so
    ``google.protobuf.text_format.Merge``/``Parse`` fill tapeflow's messages). Needs the
    ``protobuf`` package, imported only here."""

    _pool = None

    def __get__(self, obj, cls):
        return _descriptor_pool().FindMessageTypeByName(cls._name)


def _descriptor_pool():
    if _Descriptor._pool is not None:
        return _Descriptor._pool
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError:
        raise ImportError("DESCRIPTOR of tf.train messages needs the protobuf package "
                          "(pip install protobuf)") from None
    fd = descriptor_pb2.FileDescriptorProto(name="tapeflow/example.proto",
                                            package="tensorflow", syntax="proto3")
    kinds = {pb._INT64: "TYPE_INT64", pb._FLOAT: "TYPE_FLOAT", pb._STRING: "TYPE_STRING",
             pb._BYTES: "TYPE_BYTES", pb._MSG: "TYPE_MESSAGE"}
    F = descriptor_pb2.FieldDescriptorProto  # noqa: N806 - protobuf's class

    def type_name(sub):
        return "." + (sub._name if isinstance(sub, type) else sub)

    for name in _NAMES:
        cls = _CLASSES[name]
        msg = fd.message_type.add(name=name)
        oneofs = []
        for f in cls._fields:
            field = msg.field.add(name=f.name, number=f.number,
                                  label=F.LABEL_REPEATED if f.repeated or f.kind == pb._MAP
                                  else F.LABEL_OPTIONAL)
            if f.kind == pb._MAP:
                entry_name = "".join(w.capitalize() for w in f.name.split("_")) + "Entry"
                entry = msg.nested_type.add(name=entry_name)
                entry.options.map_entry = True
                entry.field.add(name="key", number=1, label=F.LABEL_OPTIONAL,
                                type=getattr(F, kinds[f.key_kind]))
                value = entry.field.add(name="value", number=2, label=F.LABEL_OPTIONAL,
                                        type=getattr(F, kinds[f.value_kind]))
                if f.value_kind == pb._MSG:
                    value.type_name = type_name(f.sub)
                field.type = F.TYPE_MESSAGE
                field.type_name = f".tensorflow.{name}.{entry_name}"
            else:
                field.type = getattr(F, kinds[f.kind])
                if f.kind == pb._MSG:
                    field.type_name = type_name(f.sub)
            if f.oneof is not None:
                if f.oneof not in oneofs:
                    oneofs.append(f.oneof)
                    msg.oneof_decl.add(name=f.oneof)
                field.oneof_index = oneofs.index(f.oneof)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    for name in _NAMES:   # the entries' classes (text_format makes map entries with them)
        message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow." + name))
    _Descriptor._pool = pool
    return pool


def _bind():
    classes = {}
    for name in _NAMES:
        cls = pb._class("tensorflow." + name)
        for attr, value in vars(_MessageAPI).items():
            if not attr.startswith("__") or attr in ("__str__", "__repr__", "__setattr__",
                                                     "__getattr__"):
                setattr(cls, attr, value)
        cls.DESCRIPTOR = _Descriptor()
        cls.__module__ = "tensorflow.core.example"
        cls.__doc__ = (f"The ``tensorflow.{name}`` protobuf message (``tf.train.{name}``): "
                       "construct with its fields as keywords.")
        classes[name] = cls
    return classes


_CLASSES = _bind()
BytesList = _CLASSES["BytesList"]
Example = _CLASSES["Example"]
Feature = _CLASSES["Feature"]
FeatureList = _CLASSES["FeatureList"]
FeatureLists = _CLASSES["FeatureLists"]
Features = _CLASSES["Features"]
FloatList = _CLASSES["FloatList"]
Int64List = _CLASSES["Int64List"]
SequenceExample = _CLASSES["SequenceExample"]
