"""The non-Keras TF names of issue 22 against TensorFlow 2.21's recorded answers
(``tests/tfapi_cases.py`` -> ``tools/record_tfapi.py`` -> ``fixtures/tfapi/cases.json``)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.tfapi_cases import CASES, run

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tfapi", "cases.json")
with open(FIXTURE) as _f:
    RECORDED = json.load(_f)["cases"]


def same(got, want, path="result"):
    """Assert two encoded results agree: exact structure, dtypes, shapes and strings;
    floats to float32 rounding."""
    if isinstance(want, dict) and "array" in want:
        assert isinstance(got, dict) and "array" in got, f"{path}: {got!r} vs {want!r}"
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} vs {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} vs {want['shape']}"
        g = np.array([float(x) for x in got["array"]])
        w = np.array([float(x) for x in want["array"]])
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7, equal_nan=True, err_msg=path)
    elif isinstance(want, dict) and "float" in want:
        np.testing.assert_allclose(float(got["float"]), float(want["float"]), rtol=2e-6,
                                   err_msg=path)
    elif isinstance(want, dict) and "dict" in want:
        assert sorted(got["dict"]) == sorted(want["dict"]), path
        for k in want["dict"]:
            same(got["dict"][k], want["dict"][k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    want = RECORDED[name]
    got = run(tf, CASES[name])
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"] == want["message"]
    else:
        assert "ok" in got, got
        same(got["ok"], want["ok"])
