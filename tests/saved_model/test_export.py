"""Keras ``model.export`` / ``keras.export.ExportArchive`` against Keras 3.15 and TF 2.21
(``tests/fixtures/saved_model/keras_export.json``, recorded by
``tools/record_keras_export.py``): the printed endpoint listing, the loaded object's
signatures, variables and outputs, and TF's verdict on tapeflow's exported directories."""
import contextlib
import hashlib
import io
import json
import os
import re

import numpy as np
import pytest

import tapeflow as tf
from tests.saved_model.keras_export_cases import CASES, build, inputs, normalize_listing

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "saved_model",
                       "keras_export.json")
REC = json.load(open(FIXTURE))
keras = tf.keras


def _export(model, path, **kw):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.export(path, **kw)
    return buf.getvalue()


def test_listing_matches_keras_in_one_process(tmp_path):
    # Keras numbers its input tensors across models: keras_tensor, then keras_tensor_3
    keras.backend.clear_session()
    for name in CASES:
        path = str(tmp_path / name)
        text = _export(build(keras, name), path)
        assert normalize_listing(text, path) == REC[name]["listing"]


@pytest.mark.parametrize("name", CASES)
def test_exported_model_loads_as_keras_does(tmp_path, name):
    rec = REC[name]
    path = str(tmp_path / name)
    keras.backend.clear_session()
    model = build(keras, name)
    _export(model, path)
    x = inputs(name)
    np.testing.assert_allclose(model(x).numpy(), rec["model"], rtol=1e-5, atol=1e-6)
    loaded = tf.saved_model.load(path)
    assert sorted(loaded.signatures.keys()) == rec["signatures"]
    assert len(loaded.variables) == rec["n_variables"]
    assert len(loaded.trainable_variables) == rec["n_trainable"]
    np.testing.assert_allclose(loaded.serve(x).numpy(), rec["serve"], rtol=1e-5, atol=1e-6)
    sig = loaded.signatures["serving_default"]
    # Keras numbers input tensors across the models of the recording process
    assert repr(sig.structured_input_signature) == re.sub(
        r"keras_tensor_\d+", "keras_tensor", rec["input_signature"])
    assert repr(sig.structured_outputs) == rec["outputs"]
    out = sig(keras_tensor=tf.constant(x))["output_0"]
    np.testing.assert_allclose(out.numpy(), rec["serve"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", CASES)
def test_tf_serves_tapeflow_export(tmp_path, name):
    """TF 2.21 loaded these exact bytes (sha256) and its serve/serving_default gave
    tapeflow's numbers."""
    check = REC[name]["tapeflow_check"]
    assert check["ok"]
    np.testing.assert_allclose(check["tf_serve"], check["tapeflow"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(check["tf_serving_default"], check["tapeflow"], rtol=1e-5,
                               atol=1e-6)
    assert check["tf_n_trainable"] == REC[name]["n_trainable"]
    # the empty list of non-trainable variables is in the object graph (TF tracks it)
    assert check["tf_n_non_trainable"] == REC[name]["n_non_trainable"] == 0
    keras.backend.clear_session()
    path = str(tmp_path / name)
    _export(build(keras, name), path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == check["sha256"]


def test_saved_model_save_of_a_model_gives_serving_default(tmp_path):
    keras.backend.clear_session()
    model = build(keras, "mlp")
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert list(loaded.signatures.keys()) == ["serving_default"]
    x = inputs("mlp")
    out = loaded.signatures["serving_default"](keras_tensor=tf.constant(x))["output_0"]
    np.testing.assert_allclose(out.numpy(), REC["mlp"]["serve"], rtol=1e-5, atol=1e-6)


def test_export_archive_endpoints_and_collections(tmp_path):
    from tapeflow.keras.export import ExportArchive

    keras.backend.clear_session()
    model = build(keras, "mlp")
    archive = ExportArchive()
    with pytest.raises(ValueError, match="No endpoints"):
        archive.write_out(str(tmp_path / "none"))
    archive.track(model)
    archive.add_endpoint("call", lambda x: model(x) * 2.0,
                         input_signature=[tf.TensorSpec((None, 8), tf.float32)])
    with pytest.raises(ValueError, match="already taken"):
        archive.add_endpoint("call", lambda x: x,
                             input_signature=[tf.TensorSpec((None, 8), tf.float32)])
    with pytest.raises(ValueError, match="input_signature"):
        archive.add_endpoint("other", lambda x: x)
    extra = tf.Variable(3.0)
    archive.add_variable_collection("extra", [extra])
    with pytest.raises(ValueError, match="list/tuple/set"):
        archive.add_variable_collection("bad", extra)
    with pytest.raises(TypeError, match="Keras `Layer`"):
        archive.track(object())
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        archive.write_out(str(tmp_path / "out"))
    assert "* Endpoint 'call'" in buf.getvalue()
    assert "args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 8), dtype=tf.float32, " \
           "name=None)" in buf.getvalue()
    loaded = tf.saved_model.load(str(tmp_path / "out"))
    assert sorted(loaded.signatures.keys()) == ["call", "serving_default"]
    x = inputs("mlp")
    np.testing.assert_allclose(loaded.call(x).numpy(), 2 * np.asarray(REC["mlp"]["serve"]),
                               rtol=1e-5, atol=1e-6)
    assert float(loaded.extra[0].numpy()) == 3.0


def test_export_refuses_other_formats_and_unbuilt_models(tmp_path):
    keras.backend.clear_session()
    with pytest.raises(ValueError, match="format"):
        build(keras, "mlp").export(str(tmp_path / "a"), format="onnx")
    sub = keras.layers.Dense(2)
    from tapeflow.keras.export import ExportArchive
    with pytest.raises(ValueError, match="not yet been built"):
        ExportArchive().track(sub)
    assert not os.path.exists(tmp_path / "a")
