#!/usr/bin/env python3
"""Record what TensorFlow 2.21 shows for the ``tf.graph_util.import_graph_def`` programs of
``tests/function/import_graph_def_cases.py`` into
``tests/fixtures/function/import_graph_def.json``.

Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_import_graph_def.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

from tests.function.import_graph_def_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "function", "import_graph_def.json")
SAVED = os.path.join(ROOT, "tests", "fixtures", "saved_model", "keras_mlp", "saved_model.pb")


def main():
    with open(SAVED, "rb") as fh:
        saved = saved_model_pb2.SavedModel.FromString(fh.read())
    gd = saved.meta_graphs[0].graph_def
    out = {name: run_case(name, tf, np, gd) for name in CASES}
    with open(OUT, "w") as fh:
        json.dump({"tf_version": tf.__version__, "cases": out}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
