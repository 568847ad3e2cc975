#!/usr/bin/env python3
"""Record the node names TensorFlow 2.21 gives ops made with ``name=`` inside
``tf.Graph().as_default()`` (uniquified ``sum_1``, under ``tf.name_scope`` ``scope/sum``,
an op's constant inputs under its name) into ``tests/fixtures/function/graph_names.json``:
per case the graph's ``(name, type, input names)`` and the names of the tensors the case
lists in ``shown``. The cases are ``tests/function/graph_name_cases.py``.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph_names.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorflow as tf  # noqa: E402

from tests.function.graph_name_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph_names.json")


def main():
    out = {"tensorflow": tf.__version__, "cases": {}}
    for name in CASES:
        g, shown = run_case(name, tf)
        out["cases"][name] = {
            "operations": [[op.name, op.type, [t.name for t in op.inputs]]
                           for op in g.get_operations()],
            "shown": [t.name for t in shown],
        }
        print(name, len(out["cases"][name]["operations"]), "operations")
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
