"""Record TensorFlow's answers for the CSV readers (``tf.io.decode_csv``,
``tf.data.experimental.CsvDataset``, ``make_csv_dataset``) into
tests/fixtures/data/csv.json: the CSV files' text, each call's elements (dtype and values)
or its error class and first message line.

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_csv.py
"""
import json
import os
import re
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.data import csv_cases  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "data", "csv.json")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def main():
    out = {"tensorflow": tf.__version__, "cases": {}}
    with tempfile.TemporaryDirectory() as d:
        csv_cases.write_files(d)
        for key in csv_cases.CASES:
            try:
                got = csv_cases.run(tf, key, d)
            except Exception as exc:  # noqa: BLE001 - the class is the answer
                got = {"error": type(exc).__name__,
                       "message": _PREFIX.sub("", str(exc).split("\n")[0]).replace(d, "<dir>")}
            out["cases"][key] = got
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True, default=lambda v: np.asarray(v).tolist())
    print(f"{len(out['cases'])} cases -> {OUT}")


if __name__ == "__main__":
    main()
