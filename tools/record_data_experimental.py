"""Record TensorFlow 2.21's results for tf.data's ignore_errors, save/load, snapshot,
ragged_batch, sparse_batch and rejection_resample (the cases of tests/data/experimental_cases.py).

Run from the repository root with the TensorFlow venv:
    /work/tfvenv/bin/python tools/record_data_experimental.py
Writes tests/fixtures/data/experimental.json: per case its source and what TensorFlow gives
(elements, element_spec, repr, cardinality, or the exception class and first line); per
function case the results of a ``for`` loop over the dataset inside a tf.function (two
calls); the number of ``Error raised with error message`` lines ``ignore_errors
(log_warning=True)`` logs; rejection_resample's empirical class fractions (a reference:
the tests bound tapeflow's own fractions against the target); the CPU count (TensorFlow's
default load reader interleaves as many shards at once).
"""
import json
import os
import subprocess
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

ROOT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT_DIR)
from tests.data import experimental_cases as cases  # noqa: E402

OUT = os.path.join(ROOT_DIR, "tests", "fixtures", "data", "experimental.json")

LOG_PROGRAM = """
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"
import tensorflow as tf
ds = tf.data.Dataset.from_tensor_slices(['1', '2', 'x', '3', 'y', '4'])
print([float(x) for x in ds.map(tf.strings.to_number).ignore_errors(log_warning=True)])
"""


def log_lines():
    """What ignore_errors(log_warning=True) prints (stdout) and how many warning lines it
    logs (stderr)."""
    run = subprocess.run([sys.executable, "-c", LOG_PROGRAM], capture_output=True, text=True,
                         check=True)
    lines = [ln for ln in run.stderr.splitlines() if "Error raised with error message" in ln]
    return {"stdout": run.stdout.strip(), "warnings": len(lines),
            "first": lines[0].split("] ", 1)[1] if lines else None}


def resample_fractions():
    """TensorFlow's empirical class fractions over 20000 labelled inputs (a reference)."""
    labels = np.random.default_rng(0).choice(3, size=20000, p=[0.6, 0.3, 0.1]).astype(
        np.int32)
    out = {}
    for label, kw in (("given", {"initial_dist": [0.6, 0.3, 0.1]}), ("estimated", {})):
        ds = tf.data.Dataset.from_tensor_slices(labels).rejection_resample(
            lambda x: x, [0.2, 0.3, 0.5], seed=3, **kw)
        classes = np.array([int(c) for c, _ in ds.as_numpy_iterator()])
        out[label] = {"n": len(classes), "fractions": (np.bincount(classes, minlength=3) /
                                                       len(classes)).tolist()}
    return out


def main():
    cases.reset_root()
    env = cases.namespace(tf)
    fixtures = {name: cases.record(tf, name, source, env)
                for name, source in cases.CASES.items()}
    total = cases.total_function(tf)
    functions = {}
    for name, source in cases.FUNCTION_CASES.items():
        ds = eval(source, dict(env))  # noqa: S307 - the case table
        functions[name] = {"source": source, "calls": [[int(t) for t in total(ds)]
                                                       for _ in range(2)]}
    doc = {"cases": fixtures, "function_cases": functions, "log_warning": log_lines(),
           "resample_fractions": resample_fractions(), "cpu_count": os.cpu_count()}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    print(f"wrote {OUT} ({len(fixtures)} cases)")


if __name__ == "__main__":
    main()
