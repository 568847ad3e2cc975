"""The FunctionDef interpreter on hand-built functions: TensorProto values, attrs with TF's
defaults, multi-output args, control flow, against NumPy closed forms."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow import _protobuf as pb
from tapeflow.saved_model import imports


def _shape(*dims):
    return pb.Message("TensorShapeProto", dim=[pb.Message("TensorShapeProto.Dim", size=d)
                                               for d in dims])


def _tensor(dtype, dims, **vals):
    return pb.Message("TensorProto", dtype=dtype, tensor_shape=_shape(*dims), **vals)


@pytest.mark.parametrize("proto,expected", [
    (_tensor(1, [2, 3], float_val=[0.5]), np.full((2, 3), 0.5, np.float32)),
    (_tensor(1, [2, 3]), np.zeros((2, 3), np.float32)),
    (_tensor(3, [4], int_val=[1, 2]), np.array([1, 2, 2, 2], np.int32)),
    (_tensor(9, [2], int64_val=[-(2 ** 40), 7]), np.array([-(2 ** 40), 7], np.int64)),
    (_tensor(10, [3], bool_val=[True, False]), np.array([True, False, False])),
    (_tensor(19, [2], half_val=[15360, 49152]), np.array([1.0, -2.0], np.float16)),
    (_tensor(2, [2], tensor_content=np.array([1.5, -3.0]).tobytes()), np.array([1.5, -3.0])),
    (_tensor(8, [2], scomplex_val=[1.0, 2.0, 3.0, -1.0]),
     np.array([1 + 2j, 3 - 1j], np.complex64)),
    (_tensor(1, [], float_val=[2.5]), np.float32(2.5)),
])
def test_tensor_proto_values(proto, expected):
    value = imports.tensor_value(proto)
    assert value.dtype == np.asarray(expected).dtype and value.shape == np.shape(expected)
    np.testing.assert_array_equal(value, expected)


def test_string_tensor_proto():
    value = imports.tensor_value(_tensor(7, [3], string_val=[b"a", b"bc"]))
    assert value.tolist() == [b"a", b"bc", b"bc"]


def _av(**kw):
    return pb.Message("AttrValue", **kw)


def _node(name, op, inputs, **attrs):
    return pb.Message("NodeDef", name=name, op=op, input=list(inputs),
                      attr={k: v if isinstance(v, pb.Message) else _av(type=v)
                            for k, v in attrs.items()})


def _const(name, array):
    array = np.asarray(array)
    dtype = {np.dtype("float32"): 1, np.dtype("int32"): 3}[array.dtype]
    proto = _tensor(dtype, list(array.shape), tensor_content=array.tobytes())
    return _node(name, "Const", [], dtype=dtype, value=_av(tensor=proto))


def _function(name, inputs, outputs, nodes, ret):
    sig = pb.Message("OpDef", name=name,
                     input_arg=[pb.Message("OpDef.ArgDef", name=n, type=t) for n, t in inputs],
                     output_arg=[pb.Message("OpDef.ArgDef", name=n, type=1) for n in outputs])
    return pb.Message("FunctionDef", signature=sig, node_def=nodes, ret=ret)


def _library(*fns):
    return imports.Library({f.signature.name: f for f in fns}, {}, "<test>")


def test_default_attrs_and_multi_output_args():
    # MatMul without transpose attrs (stripped defaults), then transpose_b; Unpack's
    # second output named "output:1"; SplitV with a Const size list
    f = _function("f", [("a", 1), ("b", 1)], ["y", "z", "w"], [
        _node("mm", "MatMul", ["a", "b"], T=1),
        _node("mmt", "MatMul", ["a", "b"], T=1, transpose_b=_av(b=True)),
        _node("un", "Unpack", ["mm:product:0"], T=1, num=_av(i=2)),
        _const("sizes", np.array([1, 1], np.int32)), _const("axis", np.array(0, np.int32)),
        _node("sp", "SplitV", ["mmt:product:0", "sizes:output:0", "axis:output:0"], T=1,
              Tlen=3, num_split=_av(i=2)),
    ], {"y": "un:output:1", "z": "sp:output:1", "w": "mm:product:0"})
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    b = np.array([[0.5, -1.0], [2.0, 1.0]], np.float32)
    y, z, w = _library(f).call("f", [tf.constant(a), tf.constant(b)])
    np.testing.assert_allclose(w, a @ b)
    np.testing.assert_allclose(y, (a @ b)[1])
    np.testing.assert_allclose(z, (a @ b.T)[1:])


def test_fused_batch_norm_inference_and_select_rows():
    f = _function("f", [("x", 1), ("c", 10)], ["y", "s"], [
        _const("scale", np.array([2.0, 0.5], np.float32)),
        _const("offset", np.array([0.1, -0.1], np.float32)),
        _const("mean", np.array([1.0, -1.0], np.float32)),
        _const("var", np.array([4.0, 0.25], np.float32)),
        _node("bn", "FusedBatchNormV3", ["x", "scale:output:0", "offset:output:0",
                                         "mean:output:0", "var:output:0"], T=1, U=1,
              is_training=_av(b=False), epsilon=_av(f=0.001)),
        _node("neg", "Neg", ["x"], T=1),
        _node("sel", "Select", ["c", "x", "neg:y:0"], T=1),
    ], {"y": "bn:y:0", "s": "sel:output:0"})
    x = np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)
    y, s = _library(f).call("f", [tf.constant(x), tf.constant([True, False])])
    expected = (x - [1.0, -1.0]) / np.sqrt(np.array([4.0, 0.25]) + 0.001) * [2.0, 0.5] + \
        [0.1, -0.1]
    np.testing.assert_allclose(y, expected, rtol=1e-6)
    np.testing.assert_array_equal(s, [[1.0, 2.0], [-3.0, 4.0]])


def test_case_and_while_with_a_resource_loop_value():
    branch = [_function(f"b{k}", [("x", 1)], ["y"], [
        _const("k", np.array(k + 1.0, np.float32)),
        _node("m", "Mul", ["x", "k:output:0"], T=1)], {"y": "m:z:0"}) for k in range(3)]
    case = _function("case", [("i", 3), ("x", 1)], ["y"], [
        _node("c", "StatelessCase", ["i", "x"], Tin=_av(list=pb.Message(
            "AttrValue.ListValue", type=[1])), Tout=_av(list=pb.Message(
                "AttrValue.ListValue", type=[1])),
              branches=_av(list=pb.Message("AttrValue.ListValue", func=[
                  pb.Message("NameAttrList", name=f"b{k}") for k in range(3)])))],
        {"y": "c:output:0"})
    lib = _library(*branch, case)
    for i in range(3):
        (y,) = lib.call("case", [tf.constant(i), tf.constant(2.0)])
        assert float(y) == 2.0 * (i + 1)
    # while i < 4: acc += v (a resource passed through the loop)
    cond = _function("cond", [("i", 3), ("v", 20), ("acc", 1)], ["b"], [
        _const("n", np.array(4, np.int32)), _node("lt", "Less", ["i", "n:output:0"], T=3)],
        {"b": "lt:z:0"})
    cond.signature.output_arg[0].type = 10
    body = _function("body", [("i", 3), ("v", 20), ("acc", 1)], ["i2", "v2", "acc2"], [
        _const("one", np.array(1, np.int32)), _node("inc", "AddV2", ["i", "one:output:0"], T=3),
        _node("rd", "ReadVariableOp", ["v"], dtype=1),
        _node("add", "AddV2", ["acc", "rd:value:0"], T=1)],
        {"i2": "inc:z:0", "v2": "v", "acc2": "add:z:0"})
    loop = _function("loop", [("v", 20)], ["acc"], [
        _const("zero", np.array(0, np.int32)), _const("acc0", np.array(0.5, np.float32)),
        _node("w", "While", ["zero:output:0", "v", "acc0:output:0"],
              T=_av(list=pb.Message("AttrValue.ListValue", type=[3, 20, 1])),
              cond=_av(func=pb.Message("NameAttrList", name="cond")),
              body=_av(func=pb.Message("NameAttrList", name="body")))],
        {"acc": "w:output:2"})
    v = tf.Variable(1.5)
    (acc,) = _library(cond, body, loop).call("loop", [v])
    assert float(acc) == 0.5 + 4 * 1.5


def test_missing_ops_are_found_through_called_functions():
    inner = _function("inner", [("x", 1)], ["y"], [_node("q", "Quux", ["x"], T=1)],
                      {"y": "q:y:0"})
    outer = _function("outer", [("x", 1)], ["y"], [
        _node("call", "PartitionedCall", ["x"],
              f=_av(func=pb.Message("NameAttrList", name="inner")))], {"y": "call:output:0"})
    lib = {"inner": inner, "outer": outer}
    assert imports.missing_ops(lib, ["outer"]) == {"Quux": ["inner"]}


def test_gradient_op_kernels_use_tf_formulas():
    """The gradient ops a saved gradient function holds (tf.recompute_grad's): TanhGrad(y,
    dy) = dy (1 - y^2), SigmoidGrad(y, dy) = dy y (1 - y), ReluGrad(dy, x) = dy [x > 0],
    BiasAddGrad(dy) = dy summed over all but the channel axis."""
    from tapeflow.saved_model import kernels
    rng = np.random.default_rng(3)
    y = rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)
    dy = rng.standard_normal((2, 3)).astype(np.float32)
    k = kernels.KERNELS
    t, d = tf.constant(y), tf.constant(dy)
    np.testing.assert_allclose(k["TanhGrad"]([t, d], {}, None).numpy(), dy * (1 - y * y),
                               rtol=1e-6)
    np.testing.assert_allclose(k["SigmoidGrad"]([t, d], {}, None).numpy(),
                               dy * y * (1 - y), rtol=1e-6)
    np.testing.assert_allclose(k["ReluGrad"]([d, t], {}, None).numpy(),
                               np.where(y > 0, dy, 0.0))
    g = rng.standard_normal((2, 4, 5, 3)).astype(np.float32)
    np.testing.assert_allclose(k["BiasAddGrad"]([tf.constant(g)], {"data_format": "NHWC"},
                                                None).numpy(), g.sum(axis=(0, 1, 2)),
                               rtol=1e-5)
    np.testing.assert_allclose(k["BiasAddGrad"]([tf.constant(g)], {"data_format": "NCHW"},
                                                None).numpy(), g.sum(axis=(0, 2, 3)),
                               rtol=1e-5)
