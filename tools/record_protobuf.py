"""Record the protobuf package's bytes for tapeflow's codec tests (run with /work/tfenv/bin/python).

Writes ``tests/fixtures/saved_model/protobuf/``:

- ``schema.json``: every message type the codec knows, as TF's descriptors give it:
  ``{type: [[number, name, type, repeated, oneof], ...]}`` (tapeflow's table is held to it);
- ``cases.json``: messages built from a JSON spec (``{"@": type, field: value}``; bytes as
  ``{"@bytes": hex}``), the hex of ``SerializeToString(deterministic=True)`` and the text of
  ``text_format.MessageToString``;
- ``module.pb`` + ``module.json``: a real TF-written ``saved_model.pb`` (a tf.Module with a
  variable, a loop and a branch), its deterministic re-serialization when that differs, and a
  few facts read through protobuf (function names, node counts, object kinds, its text
  format).
"""
import json
import os
import pathlib
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402
from google.protobuf import (  # noqa: E402,E501
    any_pb2,
    descriptor_pool,
    message_factory,
    text_format,  # noqa: E402
    wrappers_pb2,
)
from google.protobuf.descriptor import FieldDescriptor  # noqa: E402
from tensorflow.core.example import example_pb2, feature_pb2  # noqa: E402
from tensorflow.core.framework import (  # noqa: E402
    attr_value_pb2,
    function_pb2,
    graph_pb2,
    node_def_pb2,
    op_def_pb2,
    tensor_pb2,
    tensor_shape_pb2,
    tensor_slice_pb2,
    variable_pb2,
    versions_pb2,
)
from tensorflow.core.protobuf import (  # noqa: E402
    fingerprint_pb2,
    meta_graph_pb2,
    saved_model_pb2,
    saved_object_graph_pb2,
    saver_pb2,
    struct_pb2,
    tensor_bundle_pb2,
    trackable_object_graph_pb2,
)

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/saved_model/protobuf"
MODULES = [saved_model_pb2, meta_graph_pb2, saved_object_graph_pb2, struct_pb2,
           fingerprint_pb2, trackable_object_graph_pb2, graph_pb2, function_pb2, op_def_pb2,
           tensor_pb2, attr_value_pb2, node_def_pb2, tensor_shape_pb2, versions_pb2,
           saver_pb2, variable_pb2, tensor_bundle_pb2, tensor_slice_pb2, example_pb2, feature_pb2,
           any_pb2, wrappers_pb2]
SKIP = {"tensorflow.GraphDebugInfo"}   # proto2, in GraphDef only when debug info is saved
TYPE_NAMES = {v: k[5:].lower() for k, v in vars(FieldDescriptor).items()
              if k.startswith("TYPE_")}


def schema():
    seen = {}

    def walk(d):
        if d.full_name in seen or d.full_name in SKIP or d.GetOptions().map_entry:
            return
        seen[d.full_name] = d
        for f in d.fields:
            if f.message_type is not None:
                if f.message_type.GetOptions().map_entry:
                    v = f.message_type.fields_by_name["value"]
                    if v.message_type is not None:
                        walk(v.message_type)
                else:
                    walk(f.message_type)
        for n in d.nested_types:
            walk(n)

    for mod in MODULES:
        if mod in (any_pb2, wrappers_pb2):
            continue  # their messages are reached through the fields that use them
        for d in mod.DESCRIPTOR.message_types_by_name.values():
            walk(d)
    out = {}
    for name, d in sorted(seen.items()):
        rows = []
        for f in sorted(d.fields, key=lambda f: f.number):
            if f.number == 5 and name == "tensorflow.GraphDef":
                continue  # debug_info: GraphDebugInfo is left to the unknown fields
            mt = f.message_type
            if mt is not None and mt.GetOptions().map_entry:
                k, v = mt.fields_by_name["key"], mt.fields_by_name["value"]
                vt = v.message_type.full_name if v.message_type else TYPE_NAMES[v.type]
                ftype, repeated = f"map<{TYPE_NAMES[k.type]},{vt}>", False
            else:
                ftype = (mt.full_name if mt is not None
                         else "enum" if f.enum_type is not None else TYPE_NAMES[f.type])
                repeated = f.is_repeated
            oneof = f.containing_oneof.name if f.containing_oneof else None
            rows.append([f.number, f.name, ftype, repeated, oneof])
        out[name] = rows
    return out


def _cls(full_name):
    return message_factory.GetMessageClass(
        descriptor_pool.Default().FindMessageTypeByName(full_name))


def build(spec):
    """A protobuf message from a JSON spec."""
    msg = _cls(spec["@"])()
    for name, value in spec.items():
        if name == "@":
            continue
        _set(msg, name, value)
    return msg


def _val(value):
    if isinstance(value, dict) and "@bytes" in value:
        return bytes.fromhex(value["@bytes"])
    return value


def _set(msg, name, value):
    field = getattr(msg, name)
    if isinstance(value, dict) and "@" in value:
        field.CopyFrom(build(value))
    elif isinstance(value, dict) and "@bytes" not in value:
        for k, v in value.items():
            key = int(k) if isinstance(k, str) and k.isdigit() else k
            if isinstance(v, dict) and "@" in v:
                field[key].CopyFrom(build(v))
            else:
                field[key] = _val(v)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "@" in item:
                field.add().CopyFrom(build(item))
            else:
                field.append(_val(item))
    else:
        setattr(msg, name, _val(value))


def _av(**kw):
    return {"@": "tensorflow.AttrValue", **kw}


def _shape(*dims, unknown=False):
    spec = {"@": "tensorflow.TensorShapeProto",
            "dim": [{"@": "tensorflow.TensorShapeProto.Dim", "size": d} for d in dims]}
    if unknown:
        spec["unknown_rank"] = True
    return spec


def _sv(**kw):
    return {"@": "tensorflow.StructuredValue", **kw}


OBJ_REF = "tensorflow.TrackableObjectGraph.TrackableObject.ObjectReference"
CASES = {
    # map entries: print(msg) walks them in upb's order (prefixes, the empty key, key 0)
    "map_order": {"@": "tensorflow.FunctionDef",
                  "attr": {k: _av(i=len(k)) for k in
                           ["shape", "dtype", "_user_specified_name", "a", "bb", "T", "k1",
                            "k19", "k10", ""]},
                  "arg_attr": {str(k): {"@": "tensorflow.FunctionDef.ArgAttrs",
                                        "attr": {"a": _av(i=k)}}
                               for k in [3, 10, 0, 7, 100, 1]}},
    "node_def_attrs": {
        "@": "tensorflow.NodeDef", "name": "conv/Conv2D", "op": "Conv2D",
        "input": ["x", "conv/kernel:0", "^init"], "device": "/device:CPU:0",
        "attr": {
            "T": _av(type=1), "strides": _av(list={"@": "tensorflow.AttrValue.ListValue",
                                                   "i": [1, 2, 2, 1]}),
            "padding": _av(s={"@bytes": b"SAME".hex()}), "use_cudnn_on_gpu": _av(b=True),
            "zero_i": _av(i=0), "neg_i": _av(i=-7), "eps": _av(f=0.001),
            "shape": _av(shape=_shape(-1, 28, 28, 3)), "rank": _av(shape=_shape(unknown=True)),
            "types": _av(list={"@": "tensorflow.AttrValue.ListValue", "type": [1, 3, 20]}),
            "empty_list": _av(list={"@": "tensorflow.AttrValue.ListValue"}),
            "f": _av(func={"@": "tensorflow.NameAttrList", "name": "__inference_body_12",
                           "attr": {"T": _av(type=9)}}),
            "value": _av(tensor={"@": "tensorflow.TensorProto", "dtype": 1,
                                 "tensor_shape": _shape(2, 3), "float_val": [0.5]}),
            "": _av(), "B": _av(i=1), "ab": _av(i=2), "a": _av(i=3),
        }},
    "tensor_protos": {
        "@": "tensorflow.TensorProto", "dtype": 9, "tensor_shape": _shape(3),
        "version_number": -3, "tensor_content": {"@bytes": "00ff7f80"},
        "float_val": [1.5, -0.0, 3.4e38, 1e-45], "double_val": [1e300, -2.5],
        "int_val": [-1, 0, 2147483647, -2147483648], "string_val": [{"@bytes": "616263"},
                                                                    {"@bytes": ""}],
        "int64_val": [-(2 ** 63), 2 ** 63 - 1, 0, -5], "bool_val": [True, False, True],
        "half_val": [15360, 0], "uint32_val": [4294967295, 1],
        "uint64_val": [2 ** 64 - 1, 2 ** 63], "float8_val": {"@bytes": "0102"},
        "dcomplex_val": [1.0, -1.0], "scomplex_val": [0.25, 0.75],
        "resource_handle_val": [{"@": "tensorflow.ResourceHandleProto", "device": "cpu",
                                 "name": "v", "hash_code": 2 ** 64 - 2}],
    },
    "structured_value": _sv(tuple_value={"@": "tensorflow.TupleValue", "values": [
        _sv(tuple_value={"@": "tensorflow.TupleValue", "values": [
            _sv(tensor_spec_value={"@": "tensorflow.TensorSpecProto", "name": "x",
                                   "shape": _shape(-1, 3), "dtype": 1}),
            _sv(int64_value=-3), _sv(int64_value=0), _sv(int64_value=2 ** 62),
            _sv(float64_value=2.5), _sv(float64_value=0.0), _sv(bool_value=False),
            _sv(string_value="é"), _sv(none_value={"@": "tensorflow.NoneValue"}),
            _sv(list_value={"@": "tensorflow.ListValue"}),
            _sv(tensor_dtype_value=0)]}),
        _sv(dict_value={"@": "tensorflow.DictValue", "fields": {
            "training": _sv(bool_value=True), "b": _sv(int64_value=-(2 ** 63))}}),
        _sv(named_tuple_value={"@": "tensorflow.NamedTupleValue", "name": "FullArgSpec",
                               "values": [{"@": "tensorflow.PairValue", "key": "args",
                                           "value": _sv(list_value={
                                               "@": "tensorflow.ListValue", "values": [
                                                   _sv(string_value="self")]})}]}),
    ]}),
    "function_def": {
        "@": "tensorflow.FunctionDef",
        "signature": {"@": "tensorflow.OpDef", "name": "__inference_f_55",
                      "input_arg": [{"@": "tensorflow.OpDef.ArgDef", "name": "x", "type": 1},
                                    {"@": "tensorflow.OpDef.ArgDef", "name": "v", "type": 20}],
                      "output_arg": [{"@": "tensorflow.OpDef.ArgDef", "name": "identity",
                                      "type": 1}],
                      "is_stateful": True, "control_output": ["NoOp"]},
        "node_def": [{"@": "tensorflow.NodeDef", "name": "ReadVariableOp",
                      "op": "ReadVariableOp", "input": ["v"],
                      "attr": {"dtype": _av(type=1)}}],
        "ret": {"identity": "Identity:output:0", "a": ""},
        "control_ret": {"NoOp": "NoOp"},
        "arg_attr": {"0": {"@": "tensorflow.FunctionDef.ArgAttrs", "attr": {
            "_user_specified_name": _av(s={"@bytes": b"x".hex()})}},
            "1": {"@": "tensorflow.FunctionDef.ArgAttrs"}},
        "resource_arg_unique_id": {"1": 0, "0": 7},
        "attr": {"_input_shapes": _av(list={"@": "tensorflow.AttrValue.ListValue",
                                            "shape": [_shape(-1, 3), _shape()]})},
    },
    "saved_object": {
        "@": "tensorflow.SavedObjectGraph",
        "nodes": [
            {"@": "tensorflow.SavedObject",
             "children": [{"@": OBJ_REF, "node_id": 1, "local_name": "v"}],
             "user_object": {"@": "tensorflow.SavedUserObject",
                             "identifier": "_generic_user_object",
                             "version": {"@": "tensorflow.VersionDef", "producer": 1,
                                         "min_consumer": 1, "bad_consumers": [-1, 3]}}},
            {"@": "tensorflow.SavedObject",
             "variable": {"@": "tensorflow.SavedVariable", "dtype": 1, "shape": _shape(2),
                          "trainable": True, "name": "v"}},
            {"@": "tensorflow.SavedObject",
             "saveable_objects": {"x": {"@": "tensorflow.SaveableObject", "save_function": 2}},
             "function": {"@": "tensorflow.SavedFunction",
                          "concrete_functions": ["__inference_f_55"]}},
        ],
        "concrete_functions": {"__inference_f_55": {
            "@": "tensorflow.SavedConcreteFunction", "bound_inputs": [1, 300, 0]}},
    },
    "fingerprint": {"@": "tensorflow.FingerprintDef", "saved_model_checksum": 2 ** 64 - 1,
                    "graph_def_program_hash": 2 ** 63, "signature_def_hash": 1,
                    "saved_object_graph_hash": 0, "checkpoint_hash": 12345678901234,
                    "version": {"@": "tensorflow.VersionDef", "producer": 4},
                    "uuid": "1234567890"},
    "saver_def": {"@": "tensorflow.SaverDef", "filename_tensor_name": "saver_filename:0",
                  "keep_checkpoint_every_n_hours": -0.0, "version": 2, "max_to_keep": -1,
                  "sharded": True},
    "signature_def": {"@": "tensorflow.SignatureDef", "method_name": "tensorflow/serving/predict",
                      "inputs": {"x": {"@": "tensorflow.TensorInfo", "name": "serving_x:0",
                                       "dtype": 1, "tensor_shape": _shape(-1, 3)},
                                 "a": {"@": "tensorflow.TensorInfo", "name": ""}},
                      "outputs": {"output_0": {"@": "tensorflow.TensorInfo",
                                               "name": "StatefulPartitionedCall:0"}}},
    "meta_info": {"@": "tensorflow.MetaGraphDef.MetaInfoDef", "tags": ["serve"],
                  "tensorflow_version": "2.21.0", "stripped_default_attrs": True,
                  "stripped_op_list": {"@": "tensorflow.OpList", "op": [{
                      "@": "tensorflow.OpDef", "name": "MatMul",
                      "attr": [{"@": "tensorflow.OpDef.AttrDef", "name": "transpose_a",
                                "type": "bool", "default_value": _av(b=False),
                                "has_minimum": True, "minimum": -1}]}]},
                  "any_info": {"@": "google.protobuf.Any", "type_url": "x/y",
                               "value": {"@bytes": "0801"}}},
    "trackable": {"@": "tensorflow.TrackableObjectGraph", "nodes": [
        {"@": "tensorflow.TrackableObjectGraph.TrackableObject",
         "attributes": [{"@": "tensorflow.TrackableObjectGraph.TrackableObject.SerializedTensor",
                         "name": "VARIABLE_VALUE", "full_name": "v",
                         "checkpoint_key": "v/.ATTRIBUTES/VARIABLE_VALUE"}],
         "has_checkpoint_values": {"@": "google.protobuf.BoolValue", "value": True}}]},
    "bundle_entry": {"@": "tensorflow.BundleEntryProto", "dtype": 1, "shape": _shape(2, 2),
                     "offset": 16, "size": 16, "crc32c": 4294967295,
                     "slices": [{"@": "tensorflow.TensorSliceProto", "extent": [
                         {"@": "tensorflow.TensorSliceProto.Extent", "start": 0, "length": 0},
                         {"@": "tensorflow.TensorSliceProto.Extent", "start": 3}]}]},
}


class Module(tf.Module):
    def __init__(self):
        self.v = tf.Variable([1.0, 2.0, 3.0], name="v")
        self.step = tf.Variable(0, name="step", trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        total = tf.zeros_like(x)
        for i in tf.range(3):
            if tf.reduce_sum(x) > 0:
                total += x * self.v * tf.cast(i, tf.float32)
            else:
                total -= x
        self.step.assign_add(1)
        return {"y": total, "n": tf.shape(x)[0]}


def record_module():
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(Module(), d)
        data = pathlib.Path(d, "saved_model.pb").read_bytes()
    (OUT / "module.pb").write_bytes(data)
    sm = saved_model_pb2.SavedModel()
    sm.ParseFromString(data)
    again = sm.SerializeToString(deterministic=True)
    mg = sm.meta_graphs[0]
    facts = {
        "size": len(data), "reserialized_equal": again == data,
        "functions": sorted(f.signature.name for f in mg.graph_def.library.function),
        "node_counts": {f.signature.name: len(f.node_def)
                        for f in mg.graph_def.library.function},
        "outer_nodes": [[n.name, n.op] for n in mg.graph_def.node],
        "object_kinds": [n.WhichOneof("kind") for n in mg.object_graph_def.nodes],
        "tags": list(mg.meta_info_def.tags),
        "signature_keys": sorted(mg.signature_def),
        "producer": mg.graph_def.versions.producer,
        "text_format": text_format.MessageToString(sm),
    }
    if again != data:
        (OUT / "module.reserialized.pb").write_bytes(again)
    (OUT / "module.json").write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "schema.json").write_text(json.dumps(schema(), indent=0, sort_keys=True) + "\n")
    cases = {name: {"spec": spec, "hex": build(spec).SerializeToString(deterministic=True).hex(),
                    "text": text_format.MessageToString(build(spec)),
                    "print": str(build(spec))}
             for name, spec in CASES.items()}
    (OUT / "cases.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n")
    if "--cases-only" not in sys.argv:
        record_module()
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
