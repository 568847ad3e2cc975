#!/usr/bin/env python3
"""Record what TensorFlow 2.21's ``tf.compat.v1.wrap_function`` gives for the cases of
``tests/function/graph_wrap_cases.py`` (calls, ``prune``d functions, variables, gradients,
input tensors) into ``tests/fixtures/function/graph_wrap.json``.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph_wrap.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.function.graph_wrap_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph_wrap.json")


def plain(x):
    """A JSON form of a result: tensors as {dtype, value}, structures kept."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return {"dtype": x.dtype.name, "value": np.asarray(x.numpy()).tolist()}
    return x


def main():
    out = {"tensorflow": tf.__version__, "cases": {}}
    for name in CASES:
        out["cases"][name] = plain(run_case(name, tf))
        print(name, out["cases"][name])
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
