"""``tf.Operation`` of a concrete function's graph as TensorFlow 2.21 gives it: ``name``,
``type``, ``inputs``, ``outputs`` (with dtypes), ``control_inputs`` (Operations),
``node_def`` and ``get_attr`` of every attribute (a DType, a bool, a TensorProto, a
TensorShapeProto, a NameAttrList, a list), and the ValueError of a missing attribute;
recorded by ``tools/record_graph_ops.py`` from ``graph_def_cases.py``."""
import json
import os
import re

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function.graph_objects import GraphOnlyDType
from tapeflow.saved_model.imports import tensor_value
from tests.function.graph_def_cases import CASES, run_case

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "function",
                       "graph_ops.json")
with open(FIXTURE) as fh:
    TF = json.load(fh)["cases"]

# The operations where tapeflow's graph differs from TF's (test_graph_def.py's KNOWN):
# TF's read_value() reads in a `Read` scope and adds an Identity.
SKIP = {"assign_add"}
# Attribute values that differ, and why: tapeflow's reduce ops keep an int axis as a tuple,
# so `reduce_sum(x, axis=1)` reads a [1] Const where TF's is the scalar 1.
KNOWN_VALUES = {("input_signature", "Sum/reduction_indices", "value"): (
    {"dtype": "int32", "shape": [], "type": "TensorProto", "value": 1},
    {"dtype": "int32", "shape": [1], "type": "TensorProto", "value": [1]})}


def render(v):
    """The recorder's JSON form of a ``get_attr`` value, with TF's type names."""
    if isinstance(v, (tf.DType, GraphOnlyDType)):
        return {"type": "DType", "dtype": v.name}
    if isinstance(v, bool) or v is None:
        return {"type": type(v).__name__, "value": v}
    if isinstance(v, (int, float, str)):
        return {"type": type(v).__name__, "value": v}
    if isinstance(v, bytes):
        return {"type": "bytes", "bytes": v.decode("latin-1")}
    if isinstance(v, list):
        return {"type": "list", "items": [render(x) for x in v]}
    kind = type(v)._name.split(".")[-1]
    if kind == "TensorProto":
        a = np.asarray(tensor_value(v))
        value = a.tolist() if a.dtype.kind not in "OSU" else [
            x.decode("latin-1") if isinstance(x, bytes) else x for x in a.ravel()]
        return {"type": kind, "dtype": tf.as_dtype(a.dtype).name, "shape": list(a.shape),
                "value": value}
    if kind == "TensorShapeProto":
        return {"type": kind, "dims": [d.size for d in v.dim],
                "unknown_rank": bool(v.unknown_rank)}
    if kind == "NameAttrList":
        return {"type": kind, "name": v.name}
    return {"type": kind, "text": str(v)}


def _numberless(x):
    """A branch function's name without TF's process-wide number (``cond_true_6``): the
    test process has made other tensors before (test_graph_guide_cond.py checks them)."""
    if isinstance(x, dict):
        return {k: (re.sub(r"_\d+$", "_N", v) if k == "name" else _numberless(v))
                for k, v in x.items()}
    if isinstance(x, list):
        return [_numberless(y) for y in x]
    return x


@pytest.mark.parametrize("name", sorted(set(CASES) - SKIP))
def test_operations_as_tf(name, tmp_path):
    f, args = run_case(name, tf, str(tmp_path))
    ops = f.get_concrete_function(*args).graph.get_operations()
    want = TF[name]
    assert [op.name for op in ops] == [w["name"] for w in want]
    for op, w in zip(ops, want):
        assert op.type == w["type"]
        assert (op.node_def.name, op.node_def.op) == (w["node_def_name"], w["node_def_op"])
        assert [t.name for t in op.inputs] == w["inputs"]
        assert [[t.name, t.dtype.name] for t in op.outputs] == w["outputs"]
        assert [c.name for c in op.control_inputs] == w["control_inputs"]
        assert sorted(op.node_def.attr) == sorted(w["attrs"]), op.name
        got = {k: render(op.get_attr(k)) for k in sorted(op.node_def.attr)}
        want_attrs = dict(w["attrs"])
        for (case, op_name, key), (tf_value, ours) in KNOWN_VALUES.items():
            if (case, op_name) == (name, op.name):
                assert want_attrs[key] == tf_value
                want_attrs[key] = ours
        assert _numberless(got) == _numberless(want_attrs), op.name
        with pytest.raises(ValueError) as e:
            op.get_attr("no_such_attr")
        assert [type(e.value).__name__, str(e.value)] == w["missing"]


def test_const_value_as_tensor_proto(tmp_path):
    """``get_attr("value")`` of a Const is its TensorProto: ``dtype`` (the DataType enum)
    and the value ``tf.make_ndarray`` would decode."""
    f, args = run_case("python_literals", tf, str(tmp_path))
    ops = {op.name: op for op in f.get_concrete_function(*args).graph.get_operations()}
    proto = ops["mul/y"].get_attr("value")
    assert proto.dtype == 1                       # DT_FLOAT
    assert float(np.asarray(tensor_value(proto))) == 2.0
    assert ops["mul/y"].get_attr("dtype") == tf.float32
