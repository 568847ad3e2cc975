#!/usr/bin/env python3
"""Record what TensorFlow 2.21 (and Keras 3 on it) shows for the
``tf.variable_creator_scope`` programs of ``tests/core/variable_creator_cases.py`` into
``tests/fixtures/core/variable_creator.json``.

Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_variable_creator.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.core.variable_creator_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "core", "variable_creator.json")


def main():
    out = {name: run_case(name, tf, keras) for name in CASES}
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "cases": out}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
