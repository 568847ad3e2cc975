"""Ragged and sparse tensors as first-class values: every case of ``ragged_cases`` gives what
TensorFlow 2.21 printed for it (recorded by ``tools/record_ragged.py``): values, dtypes,
shapes, printed forms and error classes and texts."""
import json
import pathlib

import pytest

import tapeflow as tf
from tests.ops.ragged_cases import CASES
from tools.record_ragged import run

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures" / "ragged" / "cases.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]

# Where tapeflow's answer is known to differ from TensorFlow's (the reason each time).
DIFFERS = {}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    if name in DIFFERS:
        pytest.xfail(DIFFERS[name])
    assert run(tf, CASES[name]) == RECORDED[name]


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(CASES)
