"""TensorFlow's SavedModel protobuf messages: one schema table and one generic wire codec.

A leaf: imports nothing of tapeflow, and ``import tapeflow`` does not load it (the
SavedModel code and the command line do). The bytes ``encode`` writes equal the ``protobuf``
package's ``SerializeToString(deterministic=True)``: fields in number order, repeated scalars
packed, map entries sorted by key (key and value always written), proto3 scalars left out
when they hold their default, oneof members always written. ``decode`` skips unknown fields
but keeps their bytes, so a message read and written again loses nothing.

    >>> from tapeflow import _protobuf as pb
    >>> node = pb.Message("tensorflow.NodeDef", name="MatMul", op="MatMul", input=["x", "w"],
    ...                   attr={"T": pb.Message("tensorflow.AttrValue", type=1)})
    >>> pb.encode(node)
    b'\\n\\x06MatMul\\x12\\x06MatMul\\x1a\\x01x\\x1a\\x01w*\\x07\\n\\x01T\\x12\\x020\\x01'
    >>> pb.decode("tensorflow.NodeDef", pb.encode(node)).attr["T"].which_oneof("value")
    'type'

Wire format (protobuf's encoding guide): each field is a varint key ``number << 3 | wire``,
then a varint (wire 0), 8 little-endian bytes (1), a length-prefixed payload (2: strings,
bytes, sub-messages, packed scalars, map entries) or 4 bytes (5).
"""
import gc
import struct

__all__ = ["Message", "DecodeError", "encode", "decode", "message_types", "text_format",
           "encode_varint", "decode_varint"]


class DecodeError(ValueError):
    """Bytes that are not a valid encoding of the message type (protobuf's DecodeError)."""


# The schema: message -> "number name type[*]" fields, ';'-separated. Types: the scalar
# names of .proto, `enum` (an int32), a message's full name, `map<key,value>`. `*` marks a
# repeated field (scalars are packed); `|group` names a oneof. All are proto3. Read from
# tensorflow/core/{framework,protobuf}/*.proto (TF 2.21); tools/record_protobuf.py records
# TF's descriptors and tests/saved_model/test_protobuf.py holds this table to them.
_T = "tensorflow."
_OBJREF = "tensorflow.TrackableObjectGraph.TrackableObject.ObjectReference"
_SLOTREF = "tensorflow.TrackableObjectGraph.TrackableObject.SlotVariableReference"
_SCHEMA = {
    "SavedModel": "1 saved_model_schema_version int64; 2 meta_graphs tensorflow.MetaGraphDef*",
    "MetaGraphDef": "1 meta_info_def tensorflow.MetaGraphDef.MetaInfoDef;"
                    " 2 graph_def tensorflow.GraphDef; 3 saver_def tensorflow.SaverDef;"
                    " 4 collection_def map<string,tensorflow.CollectionDef>;"
                    " 5 signature_def map<string,tensorflow.SignatureDef>;"
                    " 6 asset_file_def tensorflow.AssetFileDef*;"
                    " 7 object_graph_def tensorflow.SavedObjectGraph",
    "MetaGraphDef.MetaInfoDef": "1 meta_graph_version string; 2 stripped_op_list tensorflow.OpList;"
                                " 3 any_info google.protobuf.Any; 4 tags string*;"
                                " 5 tensorflow_version string; 6 tensorflow_git_version string;"
                                " 7 stripped_default_attrs bool;"
                                " 8 function_aliases map<string,string>",
    "OpList": "1 op tensorflow.OpDef*",
    "OpDef": "1 name string; 2 input_arg tensorflow.OpDef.ArgDef*;"
             " 3 output_arg tensorflow.OpDef.ArgDef*; 4 attr tensorflow.OpDef.AttrDef*;"
             " 5 summary string; 6 description string; 8 deprecation tensorflow.OpDeprecation;"
             " 16 is_aggregate bool; 17 is_stateful bool; 18 is_commutative bool;"
             " 19 allows_uninitialized_input bool; 20 control_output string*;"
             " 21 is_distributed_communication bool",
    "OpDef.ArgDef": "1 name string; 2 description string; 3 type enum; 4 type_attr string;"
                    " 5 number_attr string; 6 type_list_attr string;"
                    " 7 handle_data tensorflow.ResourceHandleProto.DtypeAndShape*;"
                    " 16 is_ref bool; 17 experimental_full_type tensorflow.FullTypeDef",
    "OpDef.AttrDef": "1 name string; 2 type string; 3 default_value tensorflow.AttrValue;"
                     " 4 description string; 5 has_minimum bool; 6 minimum int64;"
                     " 7 allowed_values tensorflow.AttrValue",
    "OpDeprecation": "1 version int32; 2 explanation string",
    "ResourceHandleProto": "1 device string; 2 container string; 3 name string;"
                           " 4 hash_code uint64; 5 maybe_type_name string;"
                           " 6 dtypes_and_shapes tensorflow.ResourceHandleProto.DtypeAndShape*",
    "ResourceHandleProto.DtypeAndShape": "1 dtype enum; 2 shape tensorflow.TensorShapeProto",
    "TensorShapeProto": "2 dim tensorflow.TensorShapeProto.Dim*; 3 unknown_rank bool",
    "TensorShapeProto.Dim": "1 size int64; 2 name string",
    "FullTypeDef": "1 type_id enum; 2 args tensorflow.FullTypeDef*; 3 s string |attr;"
                   " 4 i int64 |attr",
    "AttrValue": "1 list tensorflow.AttrValue.ListValue |value; 2 s bytes |value;"
                 " 3 i int64 |value; 4 f float |value; 5 b bool |value; 6 type enum |value;"
                 " 7 shape tensorflow.TensorShapeProto |value;"
                 " 8 tensor tensorflow.TensorProto |value; 9 placeholder string |value;"
                 " 10 func tensorflow.NameAttrList |value",
    "AttrValue.ListValue": "2 s bytes*; 3 i int64*; 4 f float*; 5 b bool*; 6 type enum*;"
                           " 7 shape tensorflow.TensorShapeProto*;"
                           " 8 tensor tensorflow.TensorProto*; 9 func tensorflow.NameAttrList*",
    "NameAttrList": "1 name string; 2 attr map<string,tensorflow.AttrValue>",
    "TensorProto": "1 dtype enum; 2 tensor_shape tensorflow.TensorShapeProto;"
                   " 3 version_number int32; 4 tensor_content bytes; 5 float_val float*;"
                   " 6 double_val double*; 7 int_val int32*; 8 string_val bytes*;"
                   " 9 scomplex_val float*; 10 int64_val int64*; 11 bool_val bool*;"
                   " 12 dcomplex_val double*; 13 half_val int32*;"
                   " 14 resource_handle_val tensorflow.ResourceHandleProto*;"
                   " 15 variant_val tensorflow.VariantTensorDataProto*; 16 uint32_val uint32*;"
                   " 17 uint64_val uint64*; 18 float8_val bytes",
    "VariantTensorDataProto": "1 type_name string; 2 metadata bytes;"
                              " 3 tensors tensorflow.TensorProto*",
    "GraphDef": "1 node tensorflow.NodeDef*; 2 library tensorflow.FunctionDefLibrary;"
                " 3 version int32; 4 versions tensorflow.VersionDef",
    "NodeDef": "1 name string; 2 op string; 3 input string*; 4 device string;"
               " 5 attr map<string,tensorflow.AttrValue>;"
               " 6 experimental_debug_info tensorflow.NodeDef.ExperimentalDebugInfo;"
               " 7 experimental_type tensorflow.FullTypeDef",
    "NodeDef.ExperimentalDebugInfo": "1 original_node_names string*;"
                                     " 2 original_func_names string*",
    "VersionDef": "1 producer int32; 2 min_consumer int32; 3 bad_consumers int32*",
    "FunctionDefLibrary": "1 function tensorflow.FunctionDef*; 2 gradient tensorflow.GradientDef*;"
                          " 3 registered_gradients tensorflow.RegisteredGradient*",
    "FunctionDef": "1 signature tensorflow.OpDef; 3 node_def tensorflow.NodeDef*;"
                   " 4 ret map<string,string>; 5 attr map<string,tensorflow.AttrValue>;"
                   " 6 control_ret map<string,string>;"
                   " 7 arg_attr map<uint32,tensorflow.FunctionDef.ArgAttrs>;"
                   " 8 resource_arg_unique_id map<uint32,uint32>",
    "FunctionDef.ArgAttrs": "1 attr map<string,tensorflow.AttrValue>",
    "GradientDef": "1 function_name string; 2 gradient_func string",
    "RegisteredGradient": "1 gradient_func string; 2 registered_op_type string",
    "SaverDef": "1 filename_tensor_name string; 2 save_tensor_name string;"
                " 3 restore_op_name string; 4 max_to_keep int32; 5 sharded bool;"
                " 6 keep_checkpoint_every_n_hours float; 7 version enum",
    "CollectionDef": "1 node_list tensorflow.CollectionDef.NodeList |kind;"
                     " 2 bytes_list tensorflow.CollectionDef.BytesList |kind;"
                     " 3 int64_list tensorflow.CollectionDef.Int64List |kind;"
                     " 4 float_list tensorflow.CollectionDef.FloatList |kind;"
                     " 5 any_list tensorflow.CollectionDef.AnyList |kind",
    "CollectionDef.NodeList": "1 value string*",
    "CollectionDef.BytesList": "1 value bytes*",
    "CollectionDef.Int64List": "1 value int64*",
    "CollectionDef.FloatList": "1 value float*",
    "CollectionDef.AnyList": "1 value google.protobuf.Any*",
    "SignatureDef": "1 inputs map<string,tensorflow.TensorInfo>;"
                    " 2 outputs map<string,tensorflow.TensorInfo>; 3 method_name string;"
                    " 4 defaults map<string,tensorflow.TensorProto>",
    "TensorInfo": "1 name string |encoding; 2 dtype enum;"
                  " 3 tensor_shape tensorflow.TensorShapeProto;"
                  " 4 coo_sparse tensorflow.TensorInfo.CooSparse |encoding;"
                  " 5 composite_tensor tensorflow.TensorInfo.CompositeTensor |encoding",
    "TensorInfo.CooSparse": "1 values_tensor_name string; 2 indices_tensor_name string;"
                            " 3 dense_shape_tensor_name string",
    "TensorInfo.CompositeTensor": "1 type_spec tensorflow.TypeSpecProto;"
                                  " 2 components tensorflow.TensorInfo*",
    "TypeSpecProto": "1 type_spec_class enum; 2 type_state tensorflow.StructuredValue;"
                     " 3 type_spec_class_name string; 4 num_flat_components int32",
    "StructuredValue": "1 none_value tensorflow.NoneValue |kind; 11 float64_value double |kind;"
                       " 12 int64_value sint64 |kind; 13 string_value string |kind;"
                       " 14 bool_value bool |kind;"
                       " 31 tensor_shape_value tensorflow.TensorShapeProto |kind;"
                       " 32 tensor_dtype_value enum |kind;"
                       " 33 tensor_spec_value tensorflow.TensorSpecProto |kind;"
                       " 34 type_spec_value tensorflow.TypeSpecProto |kind;"
                       " 35 bounded_tensor_spec_value tensorflow.BoundedTensorSpecProto |kind;"
                       " 51 list_value tensorflow.ListValue |kind;"
                       " 52 tuple_value tensorflow.TupleValue |kind;"
                       " 53 dict_value tensorflow.DictValue |kind;"
                       " 54 named_tuple_value tensorflow.NamedTupleValue |kind;"
                       " 55 tensor_value tensorflow.TensorProto |kind;"
                       " 56 numpy_value tensorflow.TensorProto |kind",
    "NoneValue": "",
    "TensorSpecProto": "1 name string; 2 shape tensorflow.TensorShapeProto; 3 dtype enum",
    "BoundedTensorSpecProto": "1 name string; 2 shape tensorflow.TensorShapeProto; 3 dtype enum;"
                              " 4 minimum tensorflow.TensorProto; 5 maximum tensorflow.TensorProto",
    "ListValue": "1 values tensorflow.StructuredValue*",
    "TupleValue": "1 values tensorflow.StructuredValue*",
    "DictValue": "1 fields map<string,tensorflow.StructuredValue>",
    "NamedTupleValue": "1 name string; 2 values tensorflow.PairValue*",
    "PairValue": "1 key string; 2 value tensorflow.StructuredValue",
    "AssetFileDef": "1 tensor_info tensorflow.TensorInfo; 2 filename string",
    "SavedObjectGraph": "1 nodes tensorflow.SavedObject*;"
                        " 2 concrete_functions map<string,tensorflow.SavedConcreteFunction>",
    "SavedObject": f"1 children {_OBJREF}*; 3 slot_variables {_SLOTREF}*;"
                   " 4 user_object tensorflow.SavedUserObject |kind;"
                   " 5 asset tensorflow.SavedAsset |kind;"
                   " 6 function tensorflow.SavedFunction |kind;"
                   " 7 variable tensorflow.SavedVariable |kind;"
                   " 8 bare_concrete_function tensorflow.SavedBareConcreteFunction |kind;"
                   " 9 constant tensorflow.SavedConstant |kind;"
                   " 10 resource tensorflow.SavedResource |kind;"
                   " 11 saveable_objects map<string,tensorflow.SaveableObject>;"
                   " 12 captured_tensor tensorflow.CapturedTensor |kind; 13 registered_name string;"
                   " 14 serialized_user_proto google.protobuf.Any;"
                   f" 15 dependencies {_OBJREF}*; 16 registered_saver string",
    "SavedUserObject": "1 identifier string; 2 version tensorflow.VersionDef; 3 metadata string",
    "SavedAsset": "1 asset_file_def_index int32",
    "SavedFunction": "1 concrete_functions string*; 2 function_spec tensorflow.FunctionSpec",
    "FunctionSpec": "1 fullargspec tensorflow.StructuredValue; 2 is_method bool;"
                    " 5 input_signature tensorflow.StructuredValue; 6 jit_compile enum",
    "SavedVariable": "1 dtype enum; 2 shape tensorflow.TensorShapeProto; 3 trainable bool;"
                     " 4 synchronization enum; 5 aggregation enum; 6 name string; 7 device string;"
                     " 8 experimental_distributed_variable_components tensorflow.SavedVariable*",
    "SavedBareConcreteFunction": "1 concrete_function_name string; 2 argument_keywords string*;"
                                 " 3 allowed_positional_arguments int64;"
                                 " 4 function_spec tensorflow.FunctionSpec",
    "SavedConstant": "1 operation string",
    "SavedResource": "1 device string",
    "CapturedTensor": "1 name string; 2 concrete_function string",
    "SaveableObject": "2 save_function int32; 3 restore_function int32",
    "SavedConcreteFunction": "2 bound_inputs int32*;"
                             " 3 canonicalized_input_signature tensorflow.StructuredValue;"
                             " 4 output_signature tensorflow.StructuredValue",
    "FingerprintDef": "1 saved_model_checksum uint64; 2 graph_def_program_hash uint64;"
                      " 3 signature_def_hash uint64; 4 saved_object_graph_hash uint64;"
                      " 5 checkpoint_hash uint64; 6 version tensorflow.VersionDef; 7 uuid string",
    "TrackableObjectGraph": "1 nodes tensorflow.TrackableObjectGraph.TrackableObject*",
    "TrackableObjectGraph.TrackableObject": f"1 children {_OBJREF}*;"
        " 2 attributes tensorflow.TrackableObjectGraph.TrackableObject.SerializedTensor*;"
        f" 3 slot_variables {_SLOTREF}*; 4 registered_saver tensorflow.RegisteredSaver;"
        " 5 has_checkpoint_values google.protobuf.BoolValue",
    "TrackableObjectGraph.TrackableObject.ObjectReference": "1 node_id int32; 2 local_name string",
    "TrackableObjectGraph.TrackableObject.SlotVariableReference":
        "1 original_variable_node_id int32; 2 slot_name string; 3 slot_variable_node_id int32",
    "TrackableObjectGraph.TrackableObject.SerializedTensor":
        "1 name string; 2 full_name string; 3 checkpoint_key string",
    "RegisteredSaver": "1 name string; 2 object_name string",
    "VariableDef": "1 variable_name string; 2 initializer_name string; 3 snapshot_name string;"
                   " 4 save_slice_info_def tensorflow.SaveSliceInfoDef; 5 is_resource bool;"
                   " 6 initial_value_name string; 7 trainable bool; 8 synchronization enum;"
                   " 9 aggregation enum",
    "SaveSliceInfoDef": "1 full_name string; 2 full_shape int64*; 3 var_offset int64*;"
                        " 4 var_shape int64*",
    "BundleHeaderProto": "1 num_shards int32; 2 endianness enum; 3 version tensorflow.VersionDef",
    "BundleEntryProto": "1 dtype enum; 2 shape tensorflow.TensorShapeProto; 3 shard_id int32;"
                        " 4 offset int64; 5 size int64; 6 crc32c fixed32;"
                        " 7 slices tensorflow.TensorSliceProto*",
    "TensorSliceProto": "1 extent tensorflow.TensorSliceProto.Extent*",
    "TensorSliceProto.Extent": "1 start int64; 2 length int64 |has_length_hack",
    # tf.train.Example (tensorflow/core/example/{feature,example}.proto)
    "BytesList": "1 value bytes*",
    "FloatList": "1 value float*",
    "Int64List": "1 value int64*",
    "Feature": "1 bytes_list tensorflow.BytesList |kind; 2 float_list tensorflow.FloatList |kind;"
               " 3 int64_list tensorflow.Int64List |kind",
    "Features": "1 feature map<string,tensorflow.Feature>",
    "FeatureList": "1 feature tensorflow.Feature*",
    "FeatureLists": "1 feature_list map<string,tensorflow.FeatureList>",
    "Example": "1 features tensorflow.Features",
    "SequenceExample": "1 context tensorflow.Features; 2 feature_lists tensorflow.FeatureLists",
}
_GOOGLE = {
    "google.protobuf.Any": "1 type_url string; 2 value bytes",
    "google.protobuf.BoolValue": "1 value bool",
}

# Field kinds. Scalars first; `_MSG`, `_MAP` and the repeated forms are added below.
_INT32, _INT64, _UINT32, _UINT64, _SINT64, _BOOL = 0, 1, 2, 3, 4, 5   # wire 0
_FLOAT, _DOUBLE, _FIXED32, _FIXED64 = 6, 7, 8, 9                      # wire 5/1
_STRING, _BYTES, _MSG, _MAP = 10, 11, 12, 13                          # wire 2
_SCALAR = {"int32": _INT32, "enum": _INT32, "int64": _INT64, "uint32": _UINT32,
           "uint64": _UINT64, "sint64": _SINT64, "bool": _BOOL, "float": _FLOAT,
           "double": _DOUBLE, "fixed32": _FIXED32, "fixed64": _FIXED64, "string": _STRING,
           "bytes": _BYTES}
_WIRE = {_INT32: 0, _INT64: 0, _UINT32: 0, _UINT64: 0, _SINT64: 0, _BOOL: 0, _FLOAT: 5,
         _DOUBLE: 1, _FIXED32: 5, _FIXED64: 1, _STRING: 2, _BYTES: 2, _MSG: 2, _MAP: 2}
_DEFAULT = {_INT32: 0, _INT64: 0, _UINT32: 0, _UINT64: 0, _SINT64: 0, _BOOL: False,
            _FLOAT: 0.0, _DOUBLE: 0.0, _FIXED32: 0, _FIXED64: 0, _STRING: "", _BYTES: b""}
_STRUCT = {_FLOAT: struct.Struct("<f"), _DOUBLE: struct.Struct("<d"),
           _FIXED32: struct.Struct("<I"), _FIXED64: struct.Struct("<Q")}
_PACKED_FMT = {_FLOAT: ("f", 4), _DOUBLE: ("d", 8), _FIXED32: ("I", 4), _FIXED64: ("Q", 8)}


class _Field:
    """One field of a message type, as the codec needs it."""

    __slots__ = ("name", "number", "kind", "repeated", "oneof", "sub", "key_kind",
                 "value_kind", "tag", "type")

    def __init__(self, name, number, kind, repeated=False, oneof=None, sub=None,
                 key_kind=None, value_kind=None):
        self.name, self.number, self.kind, self.repeated = name, number, kind, repeated
        self.oneof, self.sub, self.key_kind, self.value_kind = oneof, sub, key_kind, value_kind
        packed = repeated and kind not in (_STRING, _BYTES, _MSG)
        self.tag = _varint((number << 3) | (2 if packed else _WIRE[kind]))


class Message:
    """A protobuf message of one of the schema's types, its fields as attributes.

    ``Message(type_name, **fields)`` builds one (``"tensorflow.NodeDef"``; the
    ``tensorflow.`` prefix may be left out). Repeated fields are lists, maps dicts,
    sub-messages Messages, enums ints, ``bytes`` fields bytes, ``string`` fields str.
    Reading an unset field gives its default (an empty list or dict that stays attached, an
    empty detached Message for a sub-message). The counterpart of TF's generated ``_pb2``
    classes (``saved_model_pb2.SavedModel``) for the messages tapeflow reads and writes.

    Raises:
        KeyError: an unknown type name. AttributeError: an unknown field name.
    """

    _name = None
    _fields = ()      # _Field objects in number order
    _by_name = {}
    _by_tag = {}      # key varint value -> _Field
    _oneofs = {}      # group -> member names
    _plain = frozenset()   # the names of the fields outside any oneof

    def __new__(cls, type_name=None, /, **fields):
        if cls is Message:
            cls = _CLASSES.get(type_name) or _class(type_name)
        return object.__new__(cls)

    def __init__(self, type_name=None, /, **fields):
        cls = type(self)
        if cls.__setattr__ is not Message.__setattr__:   # an API class that checks values
            for name, value in fields.items():
                setattr(self, name, value)
            return
        if fields.keys() <= cls._plain:    # known fields outside any oneof: stored as given
            self.__dict__.update(fields)
            return
        by_name, d = cls._by_name, self.__dict__
        for name, value in fields.items():
            field = by_name.get(name)
            if field is None or field.oneof is not None:
                setattr(self, name, value)   # raises, or clears the oneof's other members
            else:
                d[name] = value

    def __getattr__(self, name):
        field = type(self)._by_name.get(name)
        if field is None:
            raise AttributeError(f"{type(self)._name} has no field {name!r}")
        d = self.__dict__
        if "_lazy" in d:
            _force(self)
            if name in d:
                return d[name]
        if field.repeated:
            value = self.__dict__[name] = []
        elif field.kind == _MAP:
            value = self.__dict__[name] = {}
        else:
            value = field.sub()
        return value

    def __setattr__(self, name, value):
        field = type(self)._by_name.get(name)
        if field is None:
            raise AttributeError(f"{type(self)._name} has no field {name!r}")
        if "_lazy" in self.__dict__:
            _force(self)
        if field.oneof is not None:
            for other in type(self)._oneofs[field.oneof]:
                self.__dict__.pop(other, None)
        self.__dict__[name] = value

    def __delattr__(self, name):
        if "_lazy" in self.__dict__:
            _force(self)
        self.__dict__.pop(name, None)

    def has(self, name: str) -> bool:
        """Whether sub-message or oneof field ``name`` is set (``HasField``)."""
        field = type(self)._by_name.get(name)
        if field is None:
            raise AttributeError(f"{type(self)._name} has no field {name!r}")
        if "_lazy" in self.__dict__:
            _force(self)
        if field.oneof is not None or field.kind == _MSG and not field.repeated:
            return name in self.__dict__
        raise ValueError(f"{type(self)._name}.{name} has no presence")

    def which_oneof(self, group: str):
        """The name of the member of oneof ``group`` that is set, or None (``WhichOneof``)."""
        members = type(self)._oneofs.get(group)
        if members is None:
            raise ValueError(f"{type(self)._name} has no oneof {group!r}")
        d = self.__dict__
        if "_lazy" in d:
            _force(self)
        for name in members:
            if name in d:
                return name
        return None

    def __eq__(self, other):
        if not isinstance(other, Message):
            return NotImplemented
        return type(self) is type(other) and encode(self) == encode(other)

    __hash__ = None

    def __repr__(self):
        if "_lazy" in self.__dict__:
            _force(self)
        parts = []
        for f in type(self)._fields:
            if f.name in self.__dict__:
                value = self.__dict__[f.name]
                if (f.repeated or f.kind == _MAP) and not value:
                    continue
                parts.append(f"{f.name}={value!r}")
        return f"Message({type(self)._name!r}{''.join(', ' + p for p in parts)})"

    def __str__(self):
        """The message in protobuf's text format (``print(graph_def)``; see
        :func:`text_format` with ``upb=True``)."""
        return text_format(self, upb=True)

    def __reduce__(self):
        return (_rebuild, (type(self)._name, encode(self)))


def _rebuild(type_name, data):
    return decode(type_name, data)


def _lazy(cls, buf, pos, stop):
    """A message of ``cls`` standing for ``buf[pos:stop]``, decoded on first access: any
    field read, ``has``, ``which_oneof``, a write, ``encode``, ``repr`` or text format.
    Bytes inside it that are not a valid encoding raise ``DecodeError`` then, not at
    ``decode``."""
    msg = object.__new__(cls)
    msg.__dict__["_lazy"] = buf[pos:stop]    # a copy: bytes are no work for the collector
    return msg


def _force(msg):
    d = msg.__dict__
    buf = d["_lazy"]
    full = _decode(type(msg), buf, 0, len(buf))    # a DecodeError leaves the message lazy
    del d["_lazy"]
    d.update(full.__dict__)


_CLASSES = {}


def message_types():
    """The full names of the message types the schema holds, sorted."""
    if not _CLASSES:   # built once: a rebuild would orphan the classes already handed out
        _build()
    return sorted(_CLASSES)


def _class(type_name):
    if not _CLASSES:
        _build()
    cls = _CLASSES.get(type_name) or _CLASSES.get(_T + str(type_name))
    if cls is None:
        raise KeyError(f"unknown protobuf message type {type_name!r}")
    return cls


# How _decode handles a field: one code per (kind, repeated) case, in a tuple
# (code, name, message class or kind, oneof siblings).
(_D_STRING, _D_MSG, _D_MSGS, _D_STRINGS, _D_MAP, _D_BYTES, _D_BYTESS, _D_LAZY, _D_PACKED,
 _D_VARINT, _D_VARINTS, _D_FIXED, _D_FIXEDS) = range(13)

# Sub-messages kept as their bytes and decoded on first access (see _lazy): the types a
# SavedModel holds by the thousand that the loader rarely reads. An `AttrValue.ListValue`
# is mostly an `_output_shapes` list (a third of MobileNetV2's messages); debug info, a
# function's argument attributes and the stripped op list are never read. Only types whose
# fields are all repeated, maps or messages qualify: a scalar field reads its class default
# without calling __getattr__, which would not decode. A corrupt lazy sub-message raises
# DecodeError when first read, not at decode (the price of not reading it).
_LAZY_TYPES = ("tensorflow.AttrValue.ListValue", "tensorflow.NodeDef.ExperimentalDebugInfo",
               "tensorflow.FunctionDef.ArgAttrs", "tensorflow.OpList")


def _entry(f, oneofs, packed):
    siblings = tuple(n for n in oneofs.get(f.oneof, ()) if n != f.name) if f.oneof else None
    if f.kind == _MAP:
        return (_D_MAP, f.name, f, None)
    if f.kind in (_STRING, _BYTES, _MSG):
        code = {(_STRING, False): _D_STRING, (_STRING, True): _D_STRINGS,
                (_BYTES, False): _D_BYTES, (_BYTES, True): _D_BYTESS,
                (_MSG, False): _D_MSG, (_MSG, True): _D_MSGS}[f.kind, f.repeated]
        if code == _D_MSG and f.sub._name in _LAZY_TYPES:
            code = _D_LAZY
        return (code, f.name, f.sub, siblings)
    if f.repeated:
        code = _D_PACKED if packed else _D_VARINTS if _WIRE[f.kind] == 0 else _D_FIXEDS
        return (code, f.name, f.kind, None)
    return (_D_VARINT if _WIRE[f.kind] == 0 else _D_FIXED, f.name, f.kind, siblings)


def _parse_kind(text):
    """``(kind, message type or None)`` of a scalar name or a message's full name."""
    if text in _SCALAR:
        return _SCALAR[text], None
    return _MSG, text


def _build():
    specs = {_T + k: v for k, v in _SCHEMA.items()}
    specs.update(_GOOGLE)
    for name in specs:
        _CLASSES[name] = type(name.rsplit(".", 1)[-1], (Message,), {"_name": name})
    for name, spec in specs.items():
        cls = _CLASSES[name]
        fields, oneofs = [], {}
        for item in filter(None, (s.strip() for s in spec.split(";"))):
            number, fname, ftype, *rest = item.split()
            oneof = rest[0][1:] if rest else None
            repeated = ftype.endswith("*")
            ftype = ftype.rstrip("*")
            if ftype.startswith("map<"):
                key, value = ftype[4:-1].split(",")
                value_kind, value_type = _parse_kind(value)
                field = _Field(fname, int(number), _MAP, key_kind=_SCALAR[key],
                               value_kind=value_kind,
                               sub=_CLASSES[value_type] if value_type else None)
            else:
                kind, sub = _parse_kind(ftype)
                field = _Field(fname, int(number), kind, repeated, oneof,
                               _CLASSES[sub] if sub else None)
            field.type = ftype
            fields.append(field)
            if oneof:
                oneofs.setdefault(oneof, []).append(fname)
            if field.kind != _MSG and field.kind != _MAP and not repeated:
                # scalar defaults as class attributes: reading an unset one costs nothing
                setattr(cls, fname, _DEFAULT[field.kind])
        fields.sort(key=lambda f: f.number)
        type.__setattr__(cls, "_fields", tuple(fields))
        type.__setattr__(cls, "_by_name", {f.name: f for f in fields})
        type.__setattr__(cls, "_plain", frozenset(f.name for f in fields if f.oneof is None))
        by_tag = {}
        for f in fields:
            wire = 2 if f.repeated or f.kind in (_STRING, _BYTES, _MSG, _MAP) else _WIRE[f.kind]
            by_tag[(f.number << 3) | wire] = _entry(f, oneofs, packed=True)
            if f.repeated and f.kind not in (_STRING, _BYTES, _MSG):
                by_tag[(f.number << 3) | _WIRE[f.kind]] = _entry(f, oneofs, packed=False)
        type.__setattr__(cls, "_by_tag", by_tag)
        type.__setattr__(cls, "_oneofs", oneofs)
        if name in _LAZY_TYPES and any(f.kind not in (_MSG, _MAP) and not f.repeated
                                       for f in fields):
            raise TypeError(f"{name} has a scalar field: it cannot be decoded lazily")
    _compile_decoders()


# ---------------------------------------------------------------------------------- encode

_ONE_BYTE = [bytes((i,)) for i in range(128)]


def _varint(n):
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


def encode_varint(n: int) -> bytes:
    """The base-128 varint of ``n`` (a negative ``n`` as its 64-bit two's complement): the
    wire format's integers, and LevelDB's (checkpoint index tables)."""
    return _varint(n)


def decode_varint(buf, pos: int):
    """``(value, next position)`` of the varint at ``buf[pos]``.

    Raises:
        DecodeError: the varint runs past the end of ``buf`` or over 10 bytes.
    """
    try:
        return _read_varint(buf, pos)
    except (IndexError, ValueError):
        raise DecodeError("truncated or malformed varint") from None


def _scalar_bytes(kind, value):
    """The payload of one scalar (no key)."""
    if kind <= _UINT64:
        return _varint(int(value))
    if kind == _BOOL:
        return b"\x01" if value else b"\x00"
    if kind == _SINT64:
        value = int(value)
        return _varint(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)
    if kind in _STRUCT:
        return _STRUCT[kind].pack(value)
    if kind == _STRING:
        data = value.encode("utf-8")
    else:
        data = bytes(value)
    return _varint(len(data)) + data


def encode(msg: Message) -> bytes:
    """The wire bytes of ``msg``, equal to protobuf's deterministic serialization."""
    return _ENCODERS[msg._name](msg)


def _encode_generic(msg):
    out = []
    _encode_into(msg, out)
    return b"".join(out)


def _encode_into(msg, out):
    d = msg.__dict__
    if "_lazy" in d:
        _force(msg)
    for f in msg._fields:
        name = f.name
        if name not in d:
            continue
        value = d[name]
        kind = f.kind
        if f.repeated:
            if not value:
                continue
            if kind == _MSG:
                for item in value:
                    data = encode(item)
                    out += (f.tag, _varint(len(data)), data)
            elif kind == _STRING or kind == _BYTES:
                for item in value:
                    out += (f.tag, _scalar_bytes(kind, item))
            else:
                if kind in _PACKED_FMT:
                    fmt, _ = _PACKED_FMT[kind]
                    data = struct.pack(f"<{len(value)}{fmt}", *value)
                else:
                    data = b"".join([_scalar_bytes(kind, v) for v in value])
                out += (f.tag, _varint(len(data)), data)
        elif kind == _MSG:
            data = encode(value)
            out += (f.tag, _varint(len(data)), data)
        elif kind == _MAP:
            for key in sorted(value, key=_MAP_ORDER[f.key_kind]):
                entry = _map_key_bytes(f.key_kind, key)
                item = value[key]
                if f.value_kind == _MSG:
                    data = encode(item)
                    entry += b"\x12" + _varint(len(data)) + data
                else:
                    entry += (_varint(16 | _WIRE[f.value_kind])
                              + _scalar_bytes(f.value_kind, item))
                out += (f.tag, _varint(len(entry)), entry)
        elif f.oneof is not None or value != _DEFAULT[kind] or (
                kind in (_FLOAT, _DOUBLE) and _STRUCT[kind].pack(value) != bytes(
                    _STRUCT[kind].size)):
            out += (f.tag, _scalar_bytes(kind, value))
    unknown = d.get("_unknown")
    if unknown:
        out.append(unknown)


# The order of map entries in protobuf's (upb's) deterministic bytes, measured with protobuf
# 7.36 (tools/record_protobuf.py): integer keys descending; string keys by their UTF-8 bytes
# ascending except that a key comes after every longer key it is a prefix of ("ab" before
# "a", "" last).
_MAP_ORDER = {_STRING: lambda k: (*k.encode("utf-8"), 256), _UINT32: lambda k: -k,
              _INT32: lambda k: -k, _INT64: lambda k: -k, _UINT64: lambda k: -k,
              _FIXED64: lambda k: -k, _BOOL: lambda k: -k}


def _map_key_bytes(kind, key):
    return _varint(8 | _WIRE[kind]) + _scalar_bytes(kind, key)


# A type's first messages are encoded by the field-table loop (_encode_into); after _HOT of
# them (as for decoding), by a function generated from its schema: the fields' tests and tags
# resolved once, each sub-message by its own type's encoder.
_ENCODERS = {}


def _generate_encoder(cls):
    """The source of the encoder of message class ``cls`` (returns the bytes)."""
    fn = "_e_" + cls._name.replace(".", "_")
    out = [f"def {fn}(msg):", "    d = msg.__dict__", "    if '_lazy' in d:",
           "        _force(msg)", "    out = []"]
    for f in cls._fields:
        name, kind, tag = f.name, f.kind, f.tag
        body = []
        if f.repeated:
            if kind == _MSG:
                body = ["for item in v:", "    data = _E[item._name](item)",
                        f"    out += ({tag!r}, _vi(len(data)), data)"]
            elif kind == _STRING or kind == _BYTES:
                body = ["for item in v:", f"    out += ({tag!r}, _sb({kind}, item))"]
            elif kind in _PACKED_FMT:
                body = [f"data = _pack(f'<{{len(v)}}{_PACKED_FMT[kind][0]}', *v)",
                        f"out += ({tag!r}, _vi(len(data)), data)"]
            else:
                body = [f"data = b''.join([_sb({kind}, x) for x in v])",
                        f"out += ({tag!r}, _vi(len(data)), data)"]
            test = "if v:"
        elif kind == _MSG:
            body = ["data = _E[v._name](v)", f"out += ({tag!r}, _vi(len(data)), data)"]
            test = "if v is not None:"
        elif kind == _MAP:
            body = [f"for key in sorted(v, key=_ORDER[{f.key_kind}]):",
                    f"    entry = _mk({f.key_kind}, key)", "    item = v[key]"]
            if f.value_kind == _MSG:
                body += ["    data = _E[item._name](item)",
                         "    entry += b'\\x12' + _vi(len(data)) + data"]
            else:
                body += [f"    entry += {_varint(16 | _WIRE[f.value_kind])!r} + "
                         f"_sb({f.value_kind}, item)"]
            body += [f"    out += ({tag!r}, _vi(len(entry)), entry)"]
            test = "if v is not None:"
        else:
            if kind <= _UINT64:
                body = [f"out += ({tag!r}, _vi(int(v)))"]
            elif kind == _STRING:
                body = ["data = v.encode('utf-8')", f"out += ({tag!r}, _vi(len(data)), data)"]
            elif kind in _STRUCT:
                body = [f"out += ({tag!r}, _ST[{kind}].pack(v))"]
            else:
                body = [f"out += ({tag!r}, _sb({kind}, v))"]
            if f.oneof is not None:
                test = "if v is not None:"
            elif kind in (_FLOAT, _DOUBLE):
                test = (f"if v is not None and (v != 0.0 or _ST[{kind}].pack(v) != "
                        f"{bytes(_STRUCT[kind].size)!r}):")
            else:
                test = f"if v is not None and v != {_DEFAULT[kind]!r}:"
        out += [f"    v = d.get({name!r})", "    " + test] + ["        " + b for b in body]
    out += ["    unknown = d.get('_unknown')", "    if unknown:", "        out.append(unknown)",
            "    return b''.join(out)"]
    return "\n".join(out)


def _encoder_stub(cls):
    calls = [0]

    def encode_then_compile(msg):
        calls[0] += 1
        if calls[0] < _HOT:
            return _encode_generic(msg)
        fn = "_e_" + cls._name.replace(".", "_")
        exec(compile(_generate_encoder(cls), f"<tapeflow._protobuf encode {cls._name}>",
                     "exec"), _NS)
        _ENCODERS[cls._name] = _NS[fn]
        return _NS[fn](msg)
    return encode_then_compile


# ---------------------------------------------------------------------------------- decode

def decode(type_name: str, data) -> Message:
    """Parse ``data`` (bytes) as a message of ``type_name`` (``ParseFromString``).

    Raises:
        DecodeError: truncated or corrupt bytes; the message names the type.
        KeyError: an unknown type name.
    """
    cls = _class(type_name)
    buf = bytes(data)
    if len(buf) < 65536 or not gc.isenabled():
        return _decode(cls, buf, 0, len(buf))
    # A large message is a tree of tens of thousands of objects without cycles: the cyclic
    # collector's passes while they are allocated find nothing (a third of MobileNetV2's
    # decode time); it runs once, after.
    gc.disable()
    try:
        return _decode(cls, buf, 0, len(buf))
    finally:
        gc.enable()


def _fail(cls, why):
    raise DecodeError(f"Error parsing message with type '{cls._name}': {why}")


def _decode(cls, buf, pos, end):
    return _DECODERS[cls._name](buf, pos, end)


# A type's first messages are decoded by one table-driven loop (_decode_generic); after
# _HOT of them, by a function generated from its schema: an if-chain over the type's key
# values with each field's handling inlined (faster per message, but compiling it costs
# about 0.5 ms, which a small SavedModel would not win back).
_DECODERS = {}
_HOT = 64


def _fn_name(type_name):
    return "_d_" + type_name.replace(".", "_")


def _generate(cls):
    """The source of the decoder of message class ``cls``."""
    out = [f"def {_fn_name(cls._name)}(buf, pos, end):",
           "    msg = _new(_C_" + _fn_name(cls._name)[3:] + ")",
           "    d = msg.__dict__",
           "    try:",
           "        while pos < end:",
           "            tag = buf[pos]",
           "            pos += 1",
           "            if tag >= 0x80:",
           "                tag, pos = _rv(buf, pos - 1)"]
    kw = "if"
    for tag in sorted(cls._by_tag):
        code, name, sub, siblings = cls._by_tag[tag]
        out.append(f"            {kw} tag == {tag}:")
        kw = "elif"
        body = []
        if code <= _D_PACKED:
            body += ["n = buf[pos]", "pos += 1", "if n >= 0x80:", "    n, pos = _rv(buf, pos - 1)",
                     "stop = pos + n", "if stop > end:",
                     f"    _fail(_C_{_fn_name(cls._name)[3:]}, 'field {name} runs past the end')"]
        if siblings:
            clear = ["if d:"] + [f"    d.pop({o!r}, None)" for o in siblings]
        else:
            clear = []
        if code == _D_STRING:
            body += clear + [f"d[{name!r}] = buf[pos:stop].decode('utf-8')", "pos = stop"]
        elif code == _D_BYTES:
            body += clear + [f"d[{name!r}] = buf[pos:stop]", "pos = stop"]
        elif code == _D_MSG:
            body += clear + [f"d[{name!r}] = {_fn_name(sub._name)}(buf, pos, stop)", "pos = stop"]
        elif code == _D_LAZY:
            body += clear + [f"d[{name!r}] = _lazy(_C_{_fn_name(sub._name)[3:]}, buf, pos, stop)",
                             "pos = stop"]
        elif code in (_D_MSGS, _D_STRINGS, _D_BYTESS):
            value = {_D_MSGS: f"{_fn_name(sub._name) if code == _D_MSGS else ''}(buf, pos, stop)",
                     _D_STRINGS: "buf[pos:stop].decode('utf-8')",
                     _D_BYTESS: "buf[pos:stop]"}[code]
            body += [f"v = {value}", f"lst = d.get({name!r})", "if lst is None:",
                     f"    d[{name!r}] = [v]", "else:", "    lst.append(v)", "pos = stop"]
        elif code == _D_MAP:
            field = cls._by_name[name]
            body += [f"m = d.get({name!r})", "if m is None:", f"    m = d[{name!r}] = {{}}"]
            if field.key_kind == _STRING and field.value_kind in (_MSG, _STRING):
                value = (("_lazy(_C_" + _fn_name(field.sub._name)[3:] + ", buf, k + 2, stop)"
                          if field.sub._name in _LAZY_TYPES
                          else f"{_fn_name(field.sub._name)}(buf, k + 2, stop)")
                         if field.value_kind == _MSG else "buf[k + 2:stop].decode('utf-8')")
                body += ["if (n > 3 and buf[pos] == 10 and buf[pos + 1] < 0x80",
                         "        and (k := pos + 2 + buf[pos + 1]) + 1 < stop",
                         "        and buf[k] == 18 and buf[k + 1] < 0x80",
                         "        and k + 2 + buf[k + 1] == stop):",
                         f"    m[buf[pos + 2:k].decode('utf-8')] = {value}",
                         "else:",
                         f"    key, v = _entry(_C_{_fn_name(cls._name)[3:]}, _F[{cls._name!r},"
                         f" {name!r}], buf, pos, stop)",
                         "    m[key] = v"]
            else:
                body += [f"key, v = _entry(_C_{_fn_name(cls._name)[3:]}, _F[{cls._name!r}, "
                         f"{name!r}], buf, pos, stop)", "m[key] = v"]
            body.append("pos = stop")
        elif code == _D_PACKED:
            body += [f"items = _unpack({sub}, buf, pos, stop)", f"lst = d.get({name!r})",
                     "if lst is None:", f"    d[{name!r}] = items", "else:", "    lst += items",
                     "pos = stop"]
        elif code == _D_VARINT:
            body += ["v = buf[pos]", "pos += 1", "if v >= 0x80:", "    v, pos = _rv(buf, pos - 1)"]
            if sub in (_BOOL, _SINT64):
                body.append(f"v = _fix({sub}, v)")
            else:
                body.append(f"    v = _fix({sub}, v)")
            body += clear + [f"d[{name!r}] = v"]
        elif code == _D_FIXED:
            body += [f"v, pos = _scalar({sub}, buf, pos, end, {tag & 7})"] + clear + [
                f"d[{name!r}] = v"]
        else:   # one element of a repeated scalar, not packed
            body += [f"v, pos = _scalar({sub}, buf, pos, end, {tag & 7})",
                     f"lst = d.get({name!r})", "if lst is None:", f"    d[{name!r}] = [v]",
                     "else:", "    lst.append(v)"]
        out += ["                " + line for line in body]
    unknown = ["start = pos", f"pos = _skip(_C_{_fn_name(cls._name)[3:]}, buf, pos, end, tag)",
               "d['_unknown'] = d.get('_unknown', b'') + _varint(tag) + buf[start:pos]"]
    if kw == "if":
        out += ["            " + line for line in unknown]
    else:
        out.append("            else:")
        out += ["                " + line for line in unknown]
    out += ["        if pos != end:",
            f"            _fail(_C_{_fn_name(cls._name)[3:]}, 'the last field runs past the end')",
            "    except DecodeError:",
            "        raise",
            "    except (IndexError, UnicodeDecodeError, struct.error, ValueError) as e:",
            f"        _fail(_C_{_fn_name(cls._name)[3:]}, f'truncated or corrupt data ({{e}})')",
            "    return msg"]
    return "\n".join(out)


_NS = {}


def _compile_decoders():
    """Bind every type's decoder name to a stub that decodes with the key table and compiles
    the generated decoder once the type is hot; the same for encoders."""
    _NS.update({"_new": object.__new__, "_rv": _read_varint, "_fix": _fix_int, "_fail": _fail,
                "_entry": _decode_entry, "_unpack": _unpack, "_scalar": _read_scalar,
                "_skip": _skip, "_varint": _varint, "_lazy": _lazy, "DecodeError": DecodeError,
                "struct": struct,
                "_F": {(c._name, f.name): f for c in _CLASSES.values() for f in c._fields}})
    _NS.update({"_E": _ENCODERS, "_vi": _varint, "_sb": _scalar_bytes, "_mk": _map_key_bytes,
                "_ORDER": _MAP_ORDER, "_ST": _STRUCT, "_pack": struct.pack, "_force": _force})
    for name, cls in _CLASSES.items():
        _NS["_C_" + _fn_name(name)[3:]] = cls
        _DECODERS[name] = _NS[_fn_name(name)] = _stub(cls)
        _ENCODERS[name] = _encoder_stub(cls)


def _stub(cls):
    calls = [0]

    def decode_then_compile(buf, pos, end):
        calls[0] += 1
        if calls[0] < _HOT:
            return _decode_generic(cls, buf, pos, end)
        fn_name = _fn_name(cls._name)
        exec(compile(_generate(cls), f"<tapeflow._protobuf {cls._name}>", "exec"), _NS)
        _DECODERS[cls._name] = _NS[fn_name]
        return _NS[fn_name](buf, pos, end)
    return decode_then_compile


def _decode_generic(cls, buf, pos, end):
    """One message by the type's key table: the decoder of a type's first messages."""
    msg = object.__new__(cls)
    d = msg.__dict__
    by_tag = cls._by_tag
    try:
        while pos < end:
            tag = buf[pos]
            pos += 1
            if tag >= 0x80:
                tag, pos = _read_varint(buf, pos - 1)
            entry = by_tag.get(tag)
            if entry is None:
                start = pos
                pos = _skip(cls, buf, pos, end, tag)
                d["_unknown"] = d.get("_unknown", b"") + _varint(tag) + buf[start:pos]
                continue
            code, name, sub, siblings = entry
            if code <= _D_PACKED:     # length-delimited
                n = buf[pos]
                pos += 1
                if n >= 0x80:
                    n, pos = _read_varint(buf, pos - 1)
                stop = pos + n
                if stop > end:
                    _fail(cls, f"field {name!r} runs past the end")
                if code == _D_STRING:
                    value = buf[pos:stop].decode("utf-8")
                elif code == _D_MSG:
                    value = _decode(sub, buf, pos, stop)
                elif code == _D_LAZY:
                    value = _lazy(sub, buf, pos, stop)
                elif code == _D_MSGS:
                    value = _decode(sub, buf, pos, stop)
                    lst = d.get(name)
                    if lst is None:
                        d[name] = [value]
                    else:
                        lst.append(value)
                    pos = stop
                    continue
                elif code == _D_STRINGS:
                    value = buf[pos:stop].decode("utf-8")
                    lst = d.get(name)
                    if lst is None:
                        d[name] = [value]
                    else:
                        lst.append(value)
                    pos = stop
                    continue
                elif code == _D_MAP:
                    key, value = _decode_entry(cls, sub, buf, pos, stop)
                    m = d.get(name)
                    if m is None:
                        d[name] = {key: value}
                    else:
                        m[key] = value
                    pos = stop
                    continue
                elif code == _D_BYTES:
                    value = buf[pos:stop]
                elif code == _D_BYTESS:
                    lst = d.get(name)
                    if lst is None:
                        d[name] = [buf[pos:stop]]
                    else:
                        lst.append(buf[pos:stop])
                    pos = stop
                    continue
                else:
                    items = _unpack(sub, buf, pos, stop)
                    lst = d.get(name)
                    if lst is None:
                        d[name] = items
                    else:
                        lst += items
                    pos = stop
                    continue
                pos = stop
            elif code == _D_VARINT:
                value = buf[pos]
                pos += 1
                if value >= 0x80 or sub == _BOOL or sub == _SINT64:
                    if value >= 0x80:
                        value, pos = _read_varint(buf, pos - 1)
                    value = _fix_int(sub, value)
            elif code == _D_FIXED:
                value, pos = _read_scalar(sub, buf, pos, end, tag & 7)
            else:                     # one element of a repeated scalar, not packed
                value, pos = _read_scalar(sub, buf, pos, end, tag & 7)
                lst = d.get(name)
                if lst is None:
                    d[name] = [value]
                else:
                    lst.append(value)
                continue
            if siblings is not None and d:
                for other in siblings:
                    d.pop(other, None)
            d[name] = value
        if pos != end:
            _fail(cls, "the last field runs past the end")
    except DecodeError:
        raise
    except (IndexError, UnicodeDecodeError, struct.error, ValueError) as e:
        _fail(cls, f"truncated or corrupt data ({e})")
    return msg


def _read_varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def _read_scalar(kind, buf, pos, end, wire):
    if wire != _WIRE[kind]:
        raise ValueError(f"wire type {wire} for a field of wire type {_WIRE[kind]}")
    if wire == 0:
        v = buf[pos]
        pos += 1
        if v >= 0x80:
            v, pos = _read_varint(buf, pos - 1)
        return _fix_int(kind, v), pos
    s = _STRUCT[kind]
    if pos + s.size > end:
        raise ValueError("fixed-size field runs past the end")
    return s.unpack_from(buf, pos)[0], pos + s.size


def _fix_int(kind, v):
    if kind == _SINT64:
        return (v >> 1) ^ -(v & 1)
    if v < 0x80:
        return (v != 0) if kind == _BOOL else v
    if kind == _INT64:
        return v - (1 << 64) if v >> 63 else v
    if kind == _INT32:
        v &= 0xFFFFFFFF
        return v - (1 << 32) if v >> 31 else v
    if kind == _UINT32:
        return v & 0xFFFFFFFF
    if kind == _BOOL:
        return v != 0
    return v & 0xFFFFFFFFFFFFFFFF


def _unpack(kind, buf, pos, stop):
    if kind in _PACKED_FMT:
        fmt, size = _PACKED_FMT[kind]
        if (stop - pos) % size:
            raise ValueError("packed field's length is not a multiple of its element size")
        return list(struct.unpack_from(f"<{(stop - pos) // size}{fmt}", buf, pos))
    out = []
    append = out.append
    while pos < stop:
        v = buf[pos]
        pos += 1
        if v >= 0x80:
            v, pos = _read_varint(buf, pos - 1)
            v = _fix_int(kind, v)
        elif kind == _BOOL or kind == _SINT64:
            v = _fix_int(kind, v)
        append(v)
    if pos != stop:
        raise ValueError("packed field runs past its length")
    return out


def _decode_entry(cls, f, buf, pos, stop):
    # the common entry: a short string key then a short value (NodeDef.attr, ret)
    if f.key_kind == _STRING and buf[pos] == 0x0A and buf[pos + 1] < 0x80:
        k = pos + 2 + buf[pos + 1]
        if k + 1 < stop and buf[k] == 0x12 and buf[k + 1] < 0x80 and k + 2 + buf[k + 1] == stop:
            key = buf[pos + 2:k].decode("utf-8")
            if f.value_kind == _MSG:
                return key, _decode(f.sub, buf, k + 2, stop)
            if f.value_kind == _STRING:
                return key, buf[k + 2:stop].decode("utf-8")
    key = _DEFAULT[f.key_kind]
    value = None
    while pos < stop:
        tag = buf[pos]
        pos += 1
        if tag >= 0x80:
            tag, pos = _read_varint(buf, pos - 1)
        number, wire = tag >> 3, tag & 7
        kind = f.key_kind if number == 1 else f.value_kind if number == 2 else None
        if kind is None:
            pos = _skip(cls, buf, pos, stop, tag)
            continue
        if wire == 2:
            n = buf[pos]
            pos += 1
            if n >= 0x80:
                n, pos = _read_varint(buf, pos - 1)
            if pos + n > stop:
                raise ValueError("map entry runs past its length")
            if kind == _STRING:
                v = buf[pos:pos + n].decode("utf-8")
            elif kind == _MSG:
                v = (_lazy if f.sub._name in _LAZY_TYPES else _decode)(f.sub, buf, pos, pos + n)
            elif kind == _BYTES:
                v = buf[pos:pos + n]
            else:
                raise ValueError("map entry field has wire type 2")
            pos += n
        else:
            v, pos = _read_scalar(kind, buf, pos, stop, wire)
        if number == 1:
            key = v
        else:
            value = v
    if value is None:
        value = f.sub() if f.value_kind == _MSG else _DEFAULT[f.value_kind]
    return key, value


def _skip(cls, buf, pos, end, tag):
    wire = tag & 7
    if wire == 0:
        _, pos = _read_varint(buf, pos)
    elif wire == 1:
        pos += 8
    elif wire == 2:
        n, pos = _read_varint(buf, pos)
        pos += n
    elif wire == 5:
        pos += 4
    else:
        _fail(cls, f"unsupported wire type {wire} (field {tag >> 3})")
    if pos > end or tag >> 3 == 0:
        _fail(cls, f"field {tag >> 3} runs past the end" if tag >> 3 else "field number 0")
    return pos


# ------------------------------------------------------------------------------ text format
_DATA_TYPES = ("DT_INVALID DT_FLOAT DT_DOUBLE DT_INT32 DT_UINT8 DT_INT16 DT_INT8 DT_STRING "
               "DT_COMPLEX64 DT_INT64 DT_BOOL DT_QINT8 DT_QUINT8 DT_QINT32 DT_BFLOAT16 "
               "DT_QINT16 DT_QUINT16 DT_UINT16 DT_COMPLEX128 DT_HALF DT_RESOURCE DT_VARIANT "
               "DT_UINT32 DT_UINT64 DT_FLOAT8_E5M2 DT_FLOAT8_E4M3FN DT_FLOAT8_E4M3FNUZ "
               "DT_FLOAT8_E4M3B11FNUZ DT_FLOAT8_E5M2FNUZ DT_INT4 DT_UINT4 DT_INT2 "
               "DT_UINT2 DT_FLOAT4_E2M1FN").split()
_DATA_TYPE_NAMES = {i: n for i, n in enumerate(_DATA_TYPES)}
_DATA_TYPE_NAMES.update({i + 100: n + "_REF" for i, n in enumerate(_DATA_TYPES) if i})
# enum fields printed by name (types.proto, saver.proto, variable.proto); other enums print
# their number
_ENUM_NAMES = {
    "dtype": _DATA_TYPE_NAMES, "type": _DATA_TYPE_NAMES, "tensor_dtype_value": _DATA_TYPE_NAMES,
    "tensorflow.SaverDef.version": {0: "LEGACY", 1: "V1", 2: "V2"},
    "type_id": {0: "TFT_UNSET", 1: "TFT_VAR", 2: "TFT_ANY", 3: "TFT_PRODUCT", 4: "TFT_NAMED",
                20: "TFT_FOR_EACH", 100: "TFT_CALLABLE", 1000: "TFT_TENSOR", 1001: "TFT_ARRAY",
                1002: "TFT_OPTIONAL", 1003: "TFT_LITERAL", 1004: "TFT_ENCODED",
                1005: "TFT_SHAPE_TENSOR", 200: "TFT_BOOL", 201: "TFT_UINT8", 202: "TFT_UINT16",
                203: "TFT_UINT32", 204: "TFT_UINT64", 205: "TFT_INT8", 206: "TFT_INT16",
                207: "TFT_INT32", 208: "TFT_INT64", 209: "TFT_HALF", 210: "TFT_FLOAT",
                211: "TFT_DOUBLE", 212: "TFT_COMPLEX64", 213: "TFT_COMPLEX128",
                214: "TFT_STRING", 215: "TFT_BFLOAT16", 10102: "TFT_DATASET",
                10103: "TFT_RAGGED", 10104: "TFT_ITERATOR", 10202: "TFT_MUTEX_LOCK",
                10203: "TFT_LEGACY_VARIANT"},
    "synchronization": {0: "VARIABLE_SYNCHRONIZATION_AUTO",
                        1: "VARIABLE_SYNCHRONIZATION_NONE",
                        2: "VARIABLE_SYNCHRONIZATION_ON_WRITE",
                        3: "VARIABLE_SYNCHRONIZATION_ON_READ"},
    "aggregation": {0: "VARIABLE_AGGREGATION_NONE", 1: "VARIABLE_AGGREGATION_SUM",
                    2: "VARIABLE_AGGREGATION_MEAN",
                    3: "VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA"},
}
_ENUM_FIELDS = None    # {(message full name, field name)} declared `enum` in the schema


def _enum_fields():
    global _ENUM_FIELDS
    if _ENUM_FIELDS is None:
        found = set()
        for table, prefix in ((_SCHEMA, _T), (_GOOGLE, "")):
            for name, spec in table.items():
                for part in spec.split(";"):
                    words = part.split()
                    if len(words) >= 3 and words[2].rstrip("*") == "enum":
                        found.add((prefix + name, words[1]))
        _ENUM_FIELDS = found
    return _ENUM_FIELDS


def _escape(data, is_bytes):
    out = []
    for b in data:
        c = chr(b)
        if c in "\\\"'":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif b < 0x20 or b == 0x7F or (b >= 0x80 and is_bytes):
            out.append(f"\\{b:03o}")
        else:
            out.append(c)
    text = "".join(out)
    return text if is_bytes else text.encode("latin-1").decode("utf-8", "replace")


def _float_text(value, kind):
    """A float as Python's protobuf ``text_format`` prints it: ``str`` of the value (a
    float field first rounded to the shortest ``%.{6..9}g`` that reads back as the same
    float32)."""
    if kind == _FLOAT and value == value and value not in (float("inf"), float("-inf")):
        pack = _STRUCT[_FLOAT].pack
        for digits in range(6, 10):
            short = float(f"{value:.{digits}g}")
            if pack(short) == pack(value):
                value = short
                break
    return str(float(value))


def _scalar_text(msg_name, f, kind, value, upb=False):
    if kind == _BOOL:
        return "true" if value else "false"
    if kind in (_FLOAT, _DOUBLE):
        text = _float_text(value, kind)
        # upb prints the shortest round trip as C does: no ".0" on integral values
        return text[:-2] if upb and text.endswith(".0") else text
    if kind == _STRING:
        return '"' + _escape(value.encode("utf-8"), False) + '"'
    if kind == _BYTES:
        return '"' + _escape(bytes(value), True) + '"'
    if (msg_name, f) in _enum_fields():
        names = _ENUM_NAMES.get(f"{msg_name}.{f}") or _ENUM_NAMES.get(f)
        if names and value in names:
            return names[value]
    return str(int(value))


def _text_into(msg, out, indent, upb=False):
    d = msg.__dict__
    if "_lazy" in d:
        _force(msg)
    pad = " " * indent
    name = type(msg)._name
    for f in msg._fields:
        if f.name not in d:
            continue
        value = d[f.name]
        if f.kind == _MAP:
            # text_format sorts the keys and leaves out default ones (an entry is a proto3
            # message); upb's print(msg) walks the entries in the reverse of its
            # deterministic order (_MAP_ORDER) and prints every key and value
            keys = (sorted(value, key=_MAP_ORDER[f.key_kind], reverse=True) if upb
                    else sorted(value))
            for key in keys:
                out.append(f"{pad}{f.name} {{\n")
                if upb or key != _DEFAULT[f.key_kind]:
                    out.append(f"{pad}  key: {_scalar_text('', '', f.key_kind, key, upb)}\n")
                item = value[key]
                if f.value_kind == _MSG:
                    out.append(f"{pad}  value {{\n")
                    _text_into(item, out, indent + 4, upb)
                    out.append(f"{pad}  }}\n")
                elif upb or item != _DEFAULT[f.value_kind]:
                    out.append(f"{pad}  value: "
                               f"{_scalar_text('', '', f.value_kind, item, upb)}\n")
                out.append(f"{pad}}}\n")
        elif f.kind == _MSG:
            for item in (value if f.repeated else [value]):
                out.append(f"{pad}{f.name} {{\n")
                _text_into(item, out, indent + 2, upb)
                out.append(f"{pad}}}\n")
        elif f.repeated:
            for item in value:
                out.append(f"{pad}{f.name}: {_scalar_text(name, f.name, f.kind, item, upb)}\n")
        elif f.oneof is not None or value != _DEFAULT[f.kind] or (
                f.kind in (_FLOAT, _DOUBLE) and _STRUCT[f.kind].pack(value) != bytes(
                    _STRUCT[f.kind].size)):
            out.append(f"{pad}{f.name}: {_scalar_text(name, f.name, f.kind, value, upb)}\n")


def text_format(msg: Message, upb=False) -> str:
    """``msg`` in protobuf's text format, as ``text_format.MessageToString(msg)`` prints it
    (``upb=True``: as ``print(msg)`` of a ``_pb2`` message prints it under the ``protobuf``
    package's upb runtime, which differs only in map entries: walked in the reverse of
    upb's deterministic serialization order, every key and value printed, integral floats
    without ``.0``): set fields in number order, one ``name: value`` line per scalar (enums of
    ``DataType`` by name, floats as Python's ``str`` of their shortest round-trip form,
    strings and bytes C-escaped), ``name {`` ... ``}`` blocks for messages and map
    entries, two spaces of indent per level. Unknown fields are left out."""
    out = []
    _text_into(msg, out, 0, upb)
    return "".join(out)
