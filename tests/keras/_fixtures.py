"""Load the TensorFlow-recorded fixtures of tools/record_keras.py."""
import json
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras"


def load(name: str) -> dict:
    with open(HERE / name) as f:
        return json.load(f)


def f32(x):
    return np.asarray(x, dtype=np.float32)
