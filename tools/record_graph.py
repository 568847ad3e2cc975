#!/usr/bin/env python3
"""Record what TensorFlow 2.21 shows for the ``tf.Graph`` programs of
``tests/function/graph_cases.py`` into ``tests/fixtures/function/graph.json``.

Usage (where TF 2.21 is installed): TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python
tools/record_graph.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tensorflow as tf  # noqa: E402

from tests.function.graph_cases import CASES, run_case  # noqa: E402
from tests.function.graph_guide_funcs import observe  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "graph.json")


def main():
    out = {name: run_case(name, tf) for name in CASES}
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "cases": out, "guide": observe(tf)}, fh,
                  indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
