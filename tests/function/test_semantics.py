"""tf.function against TensorFlow 2.21: the cases of function/cases.py, whose TF answers
tools/record_function.py recorded into fixtures/function/cases.json."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
from tests.function.cases import BEYOND_TF, CASES

FIXTURES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "function" / "cases.json").read_text())


def _close(ours, theirs, path="result"):
    if isinstance(theirs, dict) and set(theirs) == {"dtype", "shape", "value"}:
        assert ours is not None, f"{path}: got None, TensorFlow gave {theirs}"
        assert ours["dtype"] == theirs["dtype"], f"{path}: dtype {ours} vs {theirs}"
        assert ours["shape"] == theirs["shape"], f"{path}: shape {ours} vs {theirs}"
        np.testing.assert_allclose(np.asarray(ours["value"], dtype=float),
                                   np.asarray(theirs["value"], dtype=float),
                                   rtol=1e-5, atol=1e-6, err_msg=path)
        return
    if isinstance(theirs, dict) and "class" in theirs and "text" in theirs:
        assert ours is not None, f"{path}: no error raised; TensorFlow raised {theirs}"
        assert ours["class"] == theirs["class"], f"{path}: {ours} vs {theirs}"
        # TensorFlow's AutoGraph prefixes trace-time errors with "in user code:" and a
        # traceback; the message itself is the last line, which ours must contain.
        assert theirs["text"] in ours["text"] or theirs["text"] == ours["first"], \
            f"{path}: {ours} vs {theirs}"
        return
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and set(ours) == set(theirs), f"{path}: {ours} vs {theirs}"
        for k in theirs:
            _close(ours[k], theirs[k], f"{path}.{k}")
        return
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
        return
    if isinstance(theirs, float) and math.isnan(theirs):
        assert isinstance(ours, float) and math.isnan(ours), path
        return
    assert ours == theirs, f"{path}: tapeflow {ours!r}, TensorFlow {theirs!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_function_case_matches_tensorflow(name):
    ours = json.loads(json.dumps(CASES[name](tf)))
    theirs = dict(FIXTURES[name])
    for key, eager_key in BEYOND_TF.get(name, {}).items():
        # TensorFlow's tf.function refused (its recorded answers are errors): tapeflow's
        # traced result must be what TensorFlow computes eagerly
        assert all(isinstance(r, dict) and "class" in r for r in theirs[key]), theirs[key]
        theirs[key] = theirs[eager_key]
    _close(ours, theirs, name)
