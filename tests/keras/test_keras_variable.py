"""``keras.Variable`` against Keras 3.15 on TensorFlow 2.21 (the cases are in
``variable_cases.py``, recorded by ``tools/record_keras_variable.py``)."""
import json
import pathlib

import pytest

import tapeflow as tf
from tests.keras import variable_cases as cases
from tests.keras.test_fidelity import assert_same

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "variable.json"
RECORDED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_keras(name, tmp_path):
    tf.keras.backend.clear_session()
    got = json.loads(json.dumps(cases.CASES[name](tf, tf.keras, str(tmp_path))))
    assert_same(got, RECORDED[name], name)


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(cases.CASES)
