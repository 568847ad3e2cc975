#!/usr/bin/env python3
"""Record what TensorFlow 2.21's ``tf.Operation``s of a concrete function's graph give
(``tests/function/graph_def_cases.py``'s functions) into
``tests/fixtures/function/graph_ops.json``: per operation its ``name``, ``type``, the names
of ``inputs``, of ``outputs`` (with their dtypes), of ``control_inputs``, the keys of
``node_def.attr`` and ``get_attr(key)`` of each (rendered by :func:`render`), and the error
of ``get_attr`` for a key the op does not have.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph_ops.py
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorflow as tf  # noqa: E402

from tests.function.graph_def_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph_ops.json")


def render(v):
    """A JSON form of what ``Operation.get_attr`` returned, with its Python type's name."""
    kind = type(v).__name__
    if isinstance(v, tf.DType):
        return {"type": kind, "dtype": v.name}
    if isinstance(v, bool) or v is None:
        return {"type": kind, "value": v}
    if isinstance(v, (int, float, str)):
        return {"type": kind, "value": v}
    if isinstance(v, bytes):
        return {"type": kind, "bytes": v.decode("latin-1")}
    if isinstance(v, list):
        return {"type": kind, "items": [render(x) for x in v]}
    if kind == "TensorProto":
        a = tf.make_ndarray(v)
        value = a.tolist() if a.dtype.kind != "O" else [x.decode("latin-1") for x in a.ravel()]
        return {"type": kind, "dtype": tf.as_dtype(v.dtype).name, "shape": list(a.shape),
                "value": value}
    if kind == "TensorShapeProto":
        return {"type": kind, "dims": [d.size for d in v.dim], "unknown_rank": v.unknown_rank}
    if kind == "NameAttrList":
        return {"type": kind, "name": v.name}
    return {"type": kind, "text": str(v)}


def record(name, directory):
    f, args = run_case(name, tf, directory)
    cf = f.get_concrete_function(*args)
    ops = []
    for op in cf.graph.get_operations():
        attrs = {k: render(op.get_attr(k)) for k in sorted(op.node_def.attr)}
        try:
            op.get_attr("no_such_attr")
            missing = None
        except Exception as exc:  # noqa: BLE001 - recorded as TF raised it
            missing = [type(exc).__name__, str(exc)]
        ops.append({
            "name": op.name, "type": op.type,
            "node_def_name": op.node_def.name, "node_def_op": op.node_def.op,
            "inputs": [t.name for t in op.inputs],
            "outputs": [[t.name, t.dtype.name] for t in op.outputs],
            "control_inputs": [c.name for c in op.control_inputs],
            "attrs": attrs, "missing": missing,
        })
    return ops


def main():
    out = {"tensorflow": tf.__version__, "cases": {}}
    with tempfile.TemporaryDirectory() as d:
        for name in CASES:
            out["cases"][name] = record(name, d)
            print(name, len(out["cases"][name]), "operations")
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
