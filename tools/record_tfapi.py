"""Record TensorFlow 2.21's answers to ``tests/tfapi_cases.py`` into
``tests/fixtures/tfapi/cases.json``.

Run under TensorFlow: ``TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_tfapi.py``.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main():
    import tensorflow as tf

    from tests.tfapi_cases import CASES, run
    out = {name: run(tf, fn) for name, fn in CASES.items()}
    path = os.path.join(ROOT, "tests", "fixtures", "tfapi", "cases.json")
    with open(path, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": out}, f, indent=0, sort_keys=True)
    print(f"{len(out)} cases -> {path}")
    # a TFRecord file of Examples written by TF itself (its own, per-process map order)
    from tests.tfapi_cases import _examples
    rec = os.path.join(ROOT, "tests", "fixtures", "tfapi", "examples.tfrecord")
    with tf.io.TFRecordWriter(rec) as w:
        for e in _examples(tf):
            w.write(e.SerializeToString())


if __name__ == "__main__":
    main()
