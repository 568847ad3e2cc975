"""Record TensorFlow's answers for the ``tf.image`` cases of tests/ops/image_cases.py into
tests/fixtures/ops/image.json (values, first gradients, or the error class and first message
line).

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_image.py
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
from tests.ops import image_cases  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "ops", "image.json")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def encode(a):
    if a is None:
        return None
    a = np.asarray(a)
    values = a.ravel().tolist()
    if a.dtype.kind == "S":
        values = [v.decode("latin-1") for v in values]
    return {"dtype": a.dtype.name if a.dtype.kind != "S" else "bytes",
            "shape": list(a.shape), "values": values}


def main():
    records = {}
    for case in image_cases.CASES:
        res = image_cases.run(tf, case)
        rec = {}
        for k, v in res.items():
            if isinstance(v, str):
                rec[k] = _PREFIX.sub("", v)
            elif k == "value":
                rec[k] = [encode(a) for a in v]
            else:
                rec[k] = encode(v)
        records[case[0]] = rec
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": records}, f, indent=0,
                  sort_keys=True)
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
