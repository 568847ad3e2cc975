"""Record TensorFlow's answers for the ``tf.signal`` cases of tests/ops/signal_cases.py into
tests/fixtures/ops/signal.json (values, first and second gradients, or the error class and
first message line).

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_signal.py
"""
import json
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.ops import signal_cases  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "ops", "signal.json")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def encode(a):
    if a is None:
        return None
    a = np.asarray(a)
    out = {"dtype": a.dtype.name, "shape": list(a.shape)}
    if a.dtype.kind == "c":
        out["re"] = a.real.ravel().tolist()
        out["im"] = a.imag.ravel().tolist()
    else:
        out["values"] = a.ravel().tolist()
    return out


def main():
    records = {}
    for case in signal_cases.CASES:
        res = signal_cases.run(tf, case)
        records[case[0]] = {k: _PREFIX.sub("", v) if isinstance(v, str) else encode(v)
                            for k, v in res.items()}
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": records}, f, indent=0,
                  sort_keys=True)
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
