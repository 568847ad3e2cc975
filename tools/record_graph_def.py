#!/usr/bin/env python3
"""Record what TensorFlow 2.21 shows of the graphs of ``tests/function/graph_def_cases.py``
into ``tests/fixtures/function/graph_def.json``: per case the GraphDef's nodes (name, op,
inputs), the library's function count, the concrete function's input and output tensor
names, the number of captures and ``get_operations()``' (name, type) pairs.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph_def.py
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorflow as tf  # noqa: E402

from tests.function.graph_def_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph_def.json")


def record(name, directory):
    f, args = run_case(name, tf, directory)
    cf = f.get_concrete_function(*args)
    gd = cf.graph.as_graph_def()
    return {
        "nodes": [[n.name, n.op, list(n.input)] for n in gd.node],
        "n_nodes": len(gd.node),
        "n_functions": len(gd.library.function),
        "inputs": [t.name for t in cf.inputs],
        "outputs": [t.name for t in cf.outputs],
        "n_captures": len(cf.captured_inputs),
        "operations": [[op.name, op.type] for op in cf.graph.get_operations()],
    }


def main():
    with tempfile.TemporaryDirectory() as d:
        out = {name: record(name, d) for name in CASES}
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "cases": out}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
