"""Record Keras 3.15 / TensorFlow 2.21 results of the multi-output training cases of
tests/keras/multi_output_cases.py, compiled and eager (some also under a MirroredStrategy over two
logical CPUs).

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_keras_multi_output.py
Writes tests/fixtures/keras/train/multi_output.json. tapeflow itself never imports
TensorFlow.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from tests.keras.multi_output_cases import CASES, DISTRIBUTED  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "fixtures", "keras", "train", "multi_output.json")


def main():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    data = {}
    for name, case in CASES.items():
        for eager in (False, True):
            tf.keras.backend.clear_session()
            data[f"{name}/{'eager' if eager else 'compiled'}"] = case(tf, eager)
    # one strategy for every case: a second MirroredStrategy in the process breaks TF's
    # collectives ("Shape mismatch in the collective instance")
    strategy = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    for name in DISTRIBUTED:
        for eager in (False, True):
            tf.keras.backend.clear_session()
            with strategy.scope():
                data[f"mirrored/{name}/{'eager' if eager else 'compiled'}"] = \
                    CASES[name](tf, eager)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(OUT), len(data), "cases")


if __name__ == "__main__":
    main()
