#!/usr/bin/env python3
"""Record TensorFlow 2.21's outcomes of ``tests/core/check_numerics_cases.py`` under
``tf.debugging.enable_check_numerics()`` (eager, and one tf.function) into
``tests/fixtures/core/check_numerics.json``.

Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_check_numerics.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.core.check_numerics_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "core", "check_numerics.json")


def function_case():
    @tf.function
    def f(a):
        b = a * 2.0
        return tf.math.log(b)

    out = {"finite": str(f(tf.constant([1.0, 2.0])))}
    try:
        f(tf.constant([1.0, 0.0]))
    except Exception as e:  # noqa: BLE001
        out["error"] = [type(e).__name__, str(e)]
    return out


def main():
    tf.debugging.enable_check_numerics()
    eager = {name: run_case(name, tf, np) for name in CASES}
    graph = function_case()
    tf.debugging.disable_check_numerics()
    after = run_case("log_zero", tf, np)
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "eager": eager, "function": graph,
                   "after_disable": after}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(eager)} cases to {OUT}")


if __name__ == "__main__":
    main()
