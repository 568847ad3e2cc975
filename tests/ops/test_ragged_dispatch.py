"""Ragged and sparse tensors as first-class values: every case of ``ragged_cases`` gives what
TensorFlow 2.21 printed for it (recorded by ``tools/record_ragged.py``): values, dtypes,
shapes, printed forms and error classes and texts."""
import json
import math
import pathlib
import re

import pytest

import tapeflow as tf
from tests.ops.ragged_cases import CASES
from tools.record_ragged import run

FIXTURE = pathlib.Path(__file__).parent.parent / "fixtures" / "ragged" / "cases.json"
RECORDED = json.loads(FIXTURE.read_text())["cases"]

# Where tapeflow's answer is known to differ from TensorFlow's (the reason each time).
DIFFERS = {}


_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+")


def _close(want, got):
    """Equal texts but for float noise in numbers with a decimal point (relative 2e-5 or
    absolute 1e-6, as the compat programs' comparison); integers and all else exact."""
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(_close(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_close(a, b) for a, b in zip(want, got))
    if not isinstance(want, str) or not isinstance(got, str):
        return want == got
    if _NUMBER.sub("#", want).replace(" ", "") != _NUMBER.sub("#", got).replace(" ", ""):
        return False
    for a, b in zip(_NUMBER.findall(want), _NUMBER.findall(got)):
        if "." not in a and "e" not in a:
            if a != b:
                return False
        elif not math.isclose(float(a), float(b), rel_tol=2e-5, abs_tol=1e-6):
            return False
    return True


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    if name in DIFFERS:
        pytest.xfail(DIFFERS[name])
    got = run(tf, CASES[name])
    assert got == RECORDED[name] or _close(RECORDED[name], got), (got, RECORDED[name])


def test_float_noise_is_all_that_is_forgiven():
    assert _close("[0.22222233 1]", "[0.22222222 1]")
    assert not _close("[0.2222 1]", "[0.2222 2]")
    assert not _close("[0.25 1]", "[0.26 1]")
    assert not _close("shape=(2,)", "shape=(3,)")


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(CASES)
