"""Record what Keras 3.15 on TensorFlow 2.21 shows of ``keras.Variable`` for
tests/keras/test_keras_variable.py (the cases are in ``tests/keras/variable_cases.py``)::

    /work/tfenv/bin/python tools/record_keras_variable.py

writes ``tests/fixtures/keras/variable.json``.
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir)
OUT = os.path.join(ROOT, "tests", "fixtures", "keras", "variable.json")
sys.path.insert(0, ROOT)


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import keras
    import tensorflow as tf

    from tests.keras import variable_cases as cases
    results = {}
    for name, fn in cases.CASES.items():
        with tempfile.TemporaryDirectory() as workdir:
            keras.utils.clear_session()
            results[name] = json.loads(json.dumps(fn(tf, keras, workdir)))
    with open(OUT, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
