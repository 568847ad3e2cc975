"""``tf.keras.layers.TFSMLayer``: an exported model called as a layer, its weights the loaded
variables (live: assigning or training them changes the calls), as Keras 3.15 does."""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.saved_model.keras_export_cases import build, inputs

keras = tf.keras
REC = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "saved_model",
                                  "keras_export.json")))


def _export(model, path):
    with contextlib.redirect_stdout(io.StringIO()):
        model.export(path)


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_tfsm_layer_gives_keras_outputs(tmp_path, name):
    _export(build(keras, name), str(tmp_path))
    layer = keras.layers.TFSMLayer(str(tmp_path))
    assert layer.built and len(layer.weights) == REC[name]["n_variables"]
    assert len(layer.trainable_weights) == REC[name]["n_trainable"]
    np.testing.assert_allclose(layer(inputs(name)).numpy(), REC[name]["serve"], rtol=1e-5,
                               atol=1e-6)


def test_tfsm_layer_weights_are_live_and_differentiable(tmp_path):
    dense = keras.Sequential([keras.Input((8,)), keras.layers.Dense(2)])
    _export(dense, str(tmp_path))
    layer = keras.layers.TFSMLayer(str(tmp_path))
    kernel, bias = layer.weights
    x = inputs("mlp").astype("float64").astype("float32")
    want = x @ kernel.numpy() + bias.numpy()
    np.testing.assert_allclose(layer(x).numpy(), want, rtol=1e-5, atol=1e-6)
    bias.assign(np.ones(2, "float32"))
    np.testing.assert_allclose(layer(x).numpy(), x @ kernel.numpy() + 1.0, rtol=1e-5,
                               atol=1e-6)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    gk, gb = tape.gradient(loss, [kernel, bias])
    # d sum(x @ K + b) / dK = column sums of x for every output unit; / db = batch size
    np.testing.assert_allclose(gk.numpy(), np.repeat(x.sum(0)[:, None], 2, 1), rtol=1e-5)
    np.testing.assert_allclose(gb.numpy(), [3.0, 3.0])
    before = kernel.numpy().copy()
    model = keras.Sequential([keras.Input((8,)), layer])
    model.compile("sgd", "mse")
    model.fit(x, np.zeros((3, 2), "float32"), verbose=0)
    assert not np.allclose(kernel.numpy(), before)
    np.testing.assert_allclose(layer(x).numpy(), x @ kernel.numpy() + bias.numpy(),
                               rtol=1e-5, atol=1e-5)


def test_tfsm_layer_endpoints(tmp_path):
    _export(build(keras, "mlp"), str(tmp_path))
    with pytest.raises(ValueError, match="The endpoint 'nope' is neither an attribute"):
        keras.layers.TFSMLayer(str(tmp_path), call_endpoint="nope")
    layer = keras.layers.TFSMLayer(str(tmp_path), call_endpoint="serving_default",
                                   call_training_endpoint="serve")
    x = inputs("mlp")
    out = layer(tf.constant(x))
    np.testing.assert_allclose(out["output_0"].numpy(), REC["mlp"]["serve"], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(layer(x, training=True).numpy(), REC["mlp"]["serve"],
                               rtol=1e-5, atol=1e-6)
    config = layer.get_config()
    assert (config["filepath"], config["call_endpoint"], config["call_training_endpoint"]) \
        == (str(tmp_path), "serving_default", "serve")
