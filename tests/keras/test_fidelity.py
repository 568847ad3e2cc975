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


def _numeric(value):
    """A (nested) list of numbers, floats among them, of a regular shape."""
    try:
        array = np.asarray(value)
    except ValueError:
        return False
    return array.dtype.kind == "f"


def assert_same(got, want, where="result"):
    """Equal structure; floats within float32 round-off; everything else exactly."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got)
        for k in want:
            assert_same(got[k], want[k], f"{where}[{k!r}]")
    elif isinstance(want, list) and _numeric(want):
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


def _h5_report(model):
    return {"layers": [type(layer).__name__ for layer in model.layers],
            "paths": [w.path for w in model.weights],
            "compiled": model.optimizer is not None and model.loss is not None,
            "pred": model(cases.h5_input(), training=False).numpy().tolist(),
            "by": "keras"}


def test_legacy_h5_written_by_keras_loads():
    pytest.importorskip("h5py")
    tf.keras.backend.clear_session()
    model = tf.keras.models.load_model(str(FIXTURES / "keras_model.h5"))
    assert_same(_h5_report(model), json.loads((FIXTURES / "keras_model.json").read_text()))
    assert type(model.optimizer).__name__ == "Adam"
    assert int(model.optimizer.iterations.numpy()) == 0


def test_legacy_h5_written_by_tapeflow_loads_in_keras(tmp_path):
    """``tapeflow_model.h5`` was written by ``record_keras_fidelity.py tapeflow``; Keras 3
    loaded it (``keras-load``) and predicted the same as the model that wrote it."""
    pytest.importorskip("h5py")
    tf.keras.backend.clear_session()
    model = cases.h5_model(tf.keras)
    by_keras = json.loads((FIXTURES / "tapeflow_model_keras.json").read_text())
    assert_same(_h5_report(model), by_keras)
    # the committed file is what tapeflow writes today
    path = str(tmp_path / "again.h5")
    model.save(path)
    again = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(again(cases.h5_input()).numpy(),
                                  model(cases.h5_input()).numpy())
    import h5py
    with h5py.File(path) as mine, h5py.File(FIXTURES / "tapeflow_model.h5") as committed:
        assert json.loads(mine.attrs["model_config"]) == json.loads(
            committed.attrs["model_config"])
        names = []
        mine.visit(names.append)
        committed_names = []
        committed.visit(committed_names.append)
        assert names == committed_names


def test_legacy_h5_load_weights_by_position(tmp_path):
    pytest.importorskip("h5py")
    model = tf.keras.models.load_model(str(FIXTURES / "keras_model.h5"), compile=False)
    fresh = cases.h5_model(tf.keras)
    fresh.load_weights(str(FIXTURES / "keras_model.h5"))
    for a, b in zip(fresh.weights, model.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_legacy_h5_round_trips_a_functional_model_with_its_training_state(tmp_path):
    pytest.importorskip("h5py")
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((3,), name="b")
    h = tf.keras.layers.Dense(4, activation="relu")(tf.keras.layers.Add()([a, b]))
    model = tf.keras.Model([a, b], tf.keras.layers.Dense(1)(h))
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
    model.fit([x, x[::-1]], x[:, :1], epochs=2, verbose=0)
    path = str(tmp_path / "f.h5")
    model.save(path)
    again = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(again([x, x[::-1]]).numpy(), model([x, x[::-1]]).numpy())
    assert int(again.optimizer.iterations.numpy()) == 2
    for mine, theirs in zip(again.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    assert again.optimizer.learning_rate.numpy() == pytest.approx(0.01)
