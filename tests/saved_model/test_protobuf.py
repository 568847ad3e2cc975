"""tapeflow's protobuf codec against the protobuf package's bytes (tools/record_protobuf.py)."""
import copy
import json
import pathlib
import pickle

import pytest

from tapeflow import _protobuf as pb

FIX = pathlib.Path(__file__).resolve().parent.parent / "fixtures/saved_model/protobuf"
SCHEMA = json.loads((FIX / "schema.json").read_text())
CASES = json.loads((FIX / "cases.json").read_text())


def build(spec):
    """A tapeflow Message from the recorder's JSON spec."""
    return pb.Message(spec["@"], **{k: _value(v) for k, v in spec.items() if k != "@"})


def _value(v):
    if isinstance(v, dict):
        if "@" in v:
            return build(v)
        if "@bytes" in v:
            return bytes.fromhex(v["@bytes"])
        return {(int(k) if k.isdigit() else k): _value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return v


def test_schema_table_equals_tf_descriptors():
    ours = {}
    for name in pb.message_types():
        cls = type(pb.Message(name))
        rows = []
        for f in cls._fields:
            rows.append([f.number, f.name, f.type, f.repeated, f.oneof])
        ours[name] = rows
    assert ours == SCHEMA


@pytest.mark.parametrize("name", sorted(CASES))
def test_encode_equals_protobuf_deterministic_bytes(name):
    msg = build(CASES[name]["spec"])
    assert pb.encode(msg).hex() == CASES[name]["hex"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_decode_then_encode_gives_the_same_bytes(name):
    data = bytes.fromhex(CASES[name]["hex"])
    msg = pb.decode(CASES[name]["spec"]["@"], data)
    assert pb.encode(msg) == data
    assert msg == build(CASES[name]["spec"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_format_equals_protobuf_text_format(name):
    """``text_format(message)`` is ``text_format.MessageToString`` (DataType enums by name,
    floats, C-escaped strings and bytes, map entries by key) and ``str(message)`` is what
    ``print`` of a ``_pb2`` message shows (map entries in upb's order, every key printed)."""
    msg = pb.decode(CASES[name]["spec"]["@"], bytes.fromhex(CASES[name]["hex"]))
    assert pb.text_format(msg) == CASES[name]["text"]
    assert str(msg) == CASES[name]["print"]


def test_saved_model_text_format_equals_protobuf():
    facts = json.loads((FIX / "module.json").read_text())
    msg = pb.decode("tensorflow.SavedModel", (FIX / "module.pb").read_bytes())
    assert pb.text_format(msg) == facts["text_format"]


def test_decoded_values():
    t = pb.decode("tensorflow.TensorProto", bytes.fromhex(CASES["tensor_protos"]["hex"]))
    assert t.dtype == 9 and [d.size for d in t.tensor_shape.dim] == [3]
    assert t.int64_val == [-(2 ** 63), 2 ** 63 - 1, 0, -5]
    assert t.int_val == [-1, 0, 2147483647, -2147483648]
    assert t.uint64_val == [2 ** 64 - 1, 2 ** 63]
    assert t.bool_val == [True, False, True]
    assert t.float_val[:2] == [1.5, -0.0] and t.version_number == -3
    assert t.string_val == [b"abc", b""] and t.tensor_content == b"\x00\xff\x7f\x80"
    assert t.resource_handle_val[0].hash_code == 2 ** 64 - 2
    s = pb.decode("StructuredValue", bytes.fromhex(CASES["structured_value"]["hex"]))
    inner = s.tuple_value.values[0].tuple_value.values
    assert [v.which_oneof("kind") for v in inner[:3]] == [
        "tensor_spec_value", "int64_value", "int64_value"]
    assert inner[1].int64_value == -3 and inner[3].int64_value == 2 ** 62
    assert inner[0].tensor_spec_value.name == "x"
    assert [d.size for d in inner[0].tensor_spec_value.shape.dim] == [-1, 3]
    assert inner[7].string_value == "é" and inner[8].has("none_value")
    assert s.tuple_value.values[1].dict_value.fields["b"].int64_value == -(2 ** 63)
    n = pb.decode("NodeDef", bytes.fromhex(CASES["node_def_attrs"]["hex"]))
    assert n.attr["zero_i"].which_oneof("value") == "i" and n.attr["zero_i"].i == 0
    assert n.attr[""].which_oneof("value") is None
    assert n.attr["strides"].list.i == [1, 2, 2, 1] and n.attr["padding"].s == b"SAME"
    assert n.attr["f"].func.attr["T"].type == 9
    assert abs(n.attr["eps"].f - 0.001) < 1e-9 and n.attr["rank"].shape.unknown_rank
    f = pb.decode("FunctionDef", bytes.fromhex(CASES["function_def"]["hex"]))
    assert f.resource_arg_unique_id == {1: 0, 0: 7} and f.ret["a"] == ""
    assert f.arg_attr[0].attr["_user_specified_name"].s == b"x"
    fp = pb.decode("FingerprintDef", bytes.fromhex(CASES["fingerprint"]["hex"]))
    assert fp.saved_model_checksum == 2 ** 64 - 1 and fp.uuid == "1234567890"


def test_tf_written_saved_model_round_trips_byte_equal():
    data = (FIX / "module.pb").read_bytes()
    facts = json.loads((FIX / "module.json").read_text())
    sm = pb.decode("tensorflow.SavedModel", data)
    expected = data if facts["reserialized_equal"] else (
        FIX / "module.reserialized.pb").read_bytes()
    assert pb.encode(sm) == expected
    mg = sm.meta_graphs[0]
    lib = mg.graph_def.library.function
    assert sorted(f.signature.name for f in lib) == facts["functions"]
    assert {f.signature.name: len(f.node_def) for f in lib} == facts["node_counts"]
    assert [[n.name, n.op] for n in mg.graph_def.node] == facts["outer_nodes"]
    assert [o.which_oneof("kind") for o in mg.object_graph_def.nodes] == facts["object_kinds"]
    assert mg.meta_info_def.tags == facts["tags"]
    assert sorted(mg.signature_def) == facts["signature_keys"]
    assert mg.graph_def.versions.producer == facts["producer"]


def test_defaults_presence_and_oneof():
    m = pb.Message("tensorflow.NodeDef")
    assert (m.name, m.input, m.attr) == ("", [], {})
    m.input.append("x")  # an unset repeated field stays attached once read
    assert m.input == ["x"]
    assert not m.has("experimental_type") and m.experimental_type.type_id == 0
    a = pb.Message("AttrValue", i=3)
    a.f = 0.0
    assert a.which_oneof("value") == "f" and a.i == 0
    assert pb.encode(a) == b"%\x00\x00\x00\x00"
    with pytest.raises(AttributeError, match="no field 'nme'"):
        pb.Message("NodeDef", nme="x")
    with pytest.raises(KeyError):
        pb.Message("tensorflow.NoSuchMessage")
    assert pb.encode(pb.Message("SaverDef", max_to_keep=0, sharded=False)) == b""
    v = pb.Message("VariantTensorDataProto", type_name="x")   # a field named type_name
    assert pb.decode("VariantTensorDataProto", pb.encode(v)).type_name == "x"


def test_unknown_fields_are_kept():
    data = bytes.fromhex(CASES["saver_def"]["hex"]) + b"\xf8\x06\x05" + b"\x82\x07\x02ab"
    msg = pb.decode("tensorflow.SaverDef", data)
    assert msg.filename_tensor_name == "saver_filename:0"
    assert pb.encode(msg) == data


def test_copy_and_pickle():
    msg = build(CASES["function_def"]["spec"])
    for other in (copy.deepcopy(msg), pickle.loads(pickle.dumps(msg))):
        assert other == msg and other is not msg


@pytest.mark.parametrize("cut", [1, 5, 17, 100, -1])
def test_truncated_bytes_raise_decode_error_naming_the_type(cut):
    data = (FIX / "module.pb").read_bytes()
    with pytest.raises(pb.DecodeError, match="tensorflow\\."):
        pb.decode("tensorflow.SavedModel", data[:cut] if cut > 0 else data[:cut] + b"\xff")


@pytest.mark.parametrize("data", [b"\x0a\x05ab", b"\x07", b"\x08\xff\xff\xff\xff\xff\xff\xff"
                                  b"\xff\xff\xff\x01", b"\x12\x02\xff\xfe", b"\x00\x01"])
def test_corrupt_bytes_raise_decode_error(data):
    with pytest.raises(pb.DecodeError, match="tensorflow.NodeDef"):
        pb.decode("tensorflow.NodeDef", data)
    assert issubclass(pb.DecodeError, ValueError)


@pytest.mark.parametrize("hot", [1, 10 ** 9])
def test_generated_and_table_decoders_agree(hot, monkeypatch):
    # hot=1: every type's generated decoder from its first message; 10**9: the key table only
    pb.message_types()
    monkeypatch.setattr(pb, "_HOT", hot)
    pb._compile_decoders()
    try:
        data = (FIX / "module.pb").read_bytes()
        assert pb.encode(pb.decode("tensorflow.SavedModel", data)) == data
        for case in CASES.values():
            raw = bytes.fromhex(case["hex"])
            assert pb.encode(pb.decode(case["spec"]["@"], raw)) == raw
        with pytest.raises(pb.DecodeError, match="tensorflow.NodeDef"):
            pb.decode("tensorflow.NodeDef", b"\x0a\x05ab")
    finally:
        monkeypatch.undo()
        pb._compile_decoders()


def _node_with_output_shapes():
    shapes = [pb.Message("TensorShapeProto", dim=[pb.Message("TensorShapeProto.Dim", size=s)
                                                  for s in (-1, 3)]),
              pb.Message("TensorShapeProto", unknown_rank=True)]
    return pb.Message("NodeDef", name="n", op="Identity", attr={
        "_output_shapes": pb.Message("AttrValue", list=pb.Message(
            "AttrValue.ListValue", shape=shapes)),
        "T": pb.Message("AttrValue", type=1)})


@pytest.mark.parametrize("hot", [1, 10 ** 9])
def test_lazy_sub_messages_decode_on_first_access(hot, monkeypatch):
    """An ``AttrValue.ListValue`` (and the other types in ``_LAZY_TYPES``) is kept as its
    bytes by ``decode`` and decoded when first read; every way of reading it sees the
    decoded fields."""
    pb.message_types()
    monkeypatch.setattr(pb, "_HOT", hot)
    pb._compile_decoders()
    try:
        data = pb.encode(_node_with_output_shapes())
        n = pb.decode("NodeDef", data)
        lst = n.attr["_output_shapes"].list
        assert "_lazy" in lst.__dict__
        assert [[d.size for d in s.dim] for s in lst.shape] == [[-1, 3], []]
        assert lst.shape[1].unknown_rank and "_lazy" not in lst.__dict__
        assert pb.encode(n) == data
        # encode, repr, text format, ==, copy and pickle of a message still lazy
        for read in (pb.encode, repr, pb.text_format, str, copy.deepcopy,
                     lambda m: pickle.loads(pickle.dumps(m))):
            n2 = pb.decode("NodeDef", data)
            read(n2)
            assert pb.encode(n2) == data
        n3 = pb.decode("NodeDef", data)
        assert n3 == n and pb.text_format(n3) == pb.text_format(_node_with_output_shapes())
        # writing a field of a lazy message keeps the others
        n4 = pb.decode("NodeDef", data)
        n4.attr["_output_shapes"].list.i = [7]
        assert n4.attr["_output_shapes"].list.i == [7]
        assert len(n4.attr["_output_shapes"].list.shape) == 2
        # a FunctionDef's arg_attr values are lazy too
        f = pb.decode("FunctionDef", bytes.fromhex(CASES["function_def"]["hex"]))
        assert "_lazy" in f.arg_attr[0].__dict__
        assert f.arg_attr[0].attr["_user_specified_name"].s == b"x"
    finally:
        monkeypatch.undo()
        pb._compile_decoders()


def test_corrupt_lazy_sub_message_raises_on_first_access():
    bad = b"\x0a" + bytes([len(b"\x1a\x05ab")]) + b"\x1a\x05ab"
    v = pb.decode("AttrValue", bad)
    with pytest.raises(pb.DecodeError, match="tensorflow.AttrValue.ListValue"):
        _ = v.list.i
    with pytest.raises(pb.DecodeError, match="tensorflow.AttrValue.ListValue"):
        pb.encode(v)    # still lazy after the failed decode: fails the same way


def test_large_message_round_trips_and_leaves_the_collector_as_it_was():
    import gc
    graph = pb.Message("GraphDef", node=[_node_with_output_shapes() for _ in range(2000)])
    data = pb.encode(graph)
    assert len(data) > 65536
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            msg = pb.decode("GraphDef", data)
            assert gc.isenabled() is enabled
            assert pb.encode(msg) == data and len(msg.node) == 2000
            with pytest.raises(pb.DecodeError):
                pb.decode("GraphDef", data[:-3])
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
