#!/usr/bin/env python3
"""Record the order of TensorFlow 2.21's GraphDef library (``as_graph_def().library.function``
names) for the functions of ``tests/function/graph_library_cases.py`` into
``tests/fixtures/function/graph_library.json``.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph_library.py
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorflow as tf  # noqa: E402

from tests.function.graph_library_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph_library.json")


def main():
    out = {"tensorflow": tf.__version__, "cases": {}}
    directory = tempfile.mkdtemp()
    for name in CASES:
        f, args = run_case(name, tf, directory)
        gd = f.get_concrete_function(*args).graph.as_graph_def()
        out["cases"][name] = [fd.signature.name for fd in gd.library.function]
        print(name, out["cases"][name])
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
