"""Record Keras 3.15 / TensorFlow 2.21 results of the Functional API guide's cases
(tests/keras/functional_guide_cases.py): categorical cross-entropy gradients with
multi-hot labels, the ticket classifier's fit.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_keras_functional_guide.py
Writes tests/fixtures/keras/train/functional_guide.json. tapeflow itself never imports
TensorFlow.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from tests.keras.functional_guide_cases import CASES  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "fixtures", "keras", "train", "functional_guide.json")


def main():
    data = {"keras": tf.keras.__version__, "tensorflow": tf.__version__}
    for name, case in CASES.items():
        tf.keras.backend.clear_session()
        data[name] = case(tf)
    with open(OUT, "w") as f:
        json.dump(data, f, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(OUT), len(data) - 2, "cases")


if __name__ == "__main__":
    main()
