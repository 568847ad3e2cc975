"""Models with several outputs compiled with per-output losses, metrics and loss weights:
``fit`` histories, ``evaluate`` (list and dict) and the errors, compiled and eager, compared
with Keras 3.15 / TensorFlow 2.21 (tests/fixtures/keras/train/multi_output.json, recorded by
tools/record_keras_multi_output.py from the cases of multi_output_cases.py)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.keras.multi_output_cases import CASES, DISTRIBUTED

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras", "train",
                       "multi_output.json")
with open(FIXTURE) as _f:
    RECORDED = json.load(_f)

PARAMS = [(name, mode) for name in CASES for mode in ("compiled", "eager")]
PARAMS += [(f"mirrored/{name}", mode) for name in DISTRIBUTED
           for mode in ("compiled", "eager")]


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name,mode", PARAMS, ids=[f"{n}-{m}" for n, m in PARAMS])
def test_matches_keras(name, mode):
    tf.keras.backend.clear_session()
    if name.startswith("mirrored/"):
        with tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"]).scope():
            got = CASES[name.split("/")[1]](tf, mode == "eager")
    else:
        got = CASES[name](tf, mode == "eager")
    want = RECORDED[f"{name}/{mode}"]
    if "history" not in want:   # errors, compile configs
        assert got == want
        return
    assert got["history"]["keys"] == want["history"]["keys"]
    for key in want["history"]["keys"]:
        _close(got["history"]["values"][key], want["history"]["values"][key])
    _close(got["evaluate"], want["evaluate"])
    assert got["evaluate_dict"]["keys"] == want["evaluate_dict"]["keys"]
    for key in want["evaluate_dict"]["keys"]:
        _close(got["evaluate_dict"]["values"][key], want["evaluate_dict"]["values"][key])
    assert got["metrics_names"] == want["metrics_names"]
