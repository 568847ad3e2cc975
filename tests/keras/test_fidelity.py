"""Keras 3 details a program sees, against Keras 3.15 on TensorFlow 2.21 (the cases are in
``fidelity_cases.py``, recorded by ``tools/record_keras_fidelity.py``)."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tests.keras import fidelity_cases as cases

FIXTURES = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "fidelity"
RECORDED = json.loads((FIXTURES / "fidelity.json").read_text())


def assert_same(got, want, where="result"):
    """Equal structure; floats within float32 round-off; everything else exactly."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got)
        for k in want:
            assert_same(got[k], want[k], f"{where}[{k!r}]")
    elif isinstance(want, list) and want and all(
            isinstance(v, float) or isinstance(v, list) for v in want) and any(
            isinstance(v, float) for v in np.ravel(np.asarray(want, dtype=object))):
        np.testing.assert_allclose(np.asarray(got, "float64"), np.asarray(want, "float64"),
                                   rtol=1e-5, atol=1e-6, err_msg=where)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), where
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_matches_keras(name, tmp_path):
    tf.keras.backend.clear_session()
    got = json.loads(json.dumps(cases.CASES[name](tf, tf.keras, str(tmp_path))))
    assert_same(got, RECORDED[name], name)


def test_lambda_layer_round_trips_with_closure_defaults_and_arguments(tmp_path):
    scale = 3.0
    model = tf.keras.Sequential([
        tf.keras.Input((2,)),
        tf.keras.layers.Lambda(lambda t, shift=1.0, power=1: (t * scale + shift) ** power,
                               arguments={"power": 2}, name="doubler")])
    path = str(tmp_path / "lambda.keras")
    model.save(path)
    with pytest.raises(ValueError, match="safe_mode=False"):
        tf.keras.models.load_model(path)
    with tf.keras.saving.SafeModeScope(False):
        loaded = tf.keras.models.load_model(path)
    x = np.array([[1.0, -2.0]], "float32")
    np.testing.assert_allclose(loaded(x).numpy(), [[16.0, 25.0]])
    assert loaded.layers[0].arguments == {"power": 2}
