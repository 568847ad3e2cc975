"""Record what seeded random programs print under TensorFlow 2.21 / Keras 3 (CPU).

Run from the repository root with the TensorFlow venv:
    /work/tfenv/bin/python tools/record_random.py
Writes tests/fixtures/random/{ops,keras,data}.json: for each program of
tests/ops/random_cases.py its source, its tolerance and the values it passed to
``out(...)``. The tests (tests/ops/test_random_tf.py, tests/keras/test_random_tf.py,
tests/data/test_shuffle_tf.py) run the same source under tapeflow and compare.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "random")
sys.path.insert(0, ROOT)
from tests.ops import random_cases as cases  # noqa: E402


def main():
    import keras
    import tensorflow as tf
    os.makedirs(OUT, exist_ok=True)
    for area, progs in (("ops", cases.ops_programs()), ("keras", cases.keras_programs()),
                        ("data", cases.data_programs())):
        doc = {"tf_version": tf.__version__, "keras_version": keras.__version__,
               "programs": {}}
        for name, spec in progs.items():
            source, tol = spec if isinstance(spec, tuple) else (spec, 0.0)
            source = source.strip() + "\n"
            outs = cases.run(name, source, tf, keras)
            doc["programs"][name] = {"source": source, "tol": tol,
                                     "outputs": [cases.encode(v) for v in outs]}
            print(area, name, len(outs), file=sys.stderr)
        with open(os.path.join(OUT, f"{area}.json"), "w") as f:
            json.dump(doc, f, indent=0, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
