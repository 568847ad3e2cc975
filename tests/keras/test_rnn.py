"""SimpleRNN, LSTM and GRU against Keras 3 / TensorFlow 2.21: sequences, states, gradients."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("rnn.json")
CASES = FIX["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['layer']}-{c['kwargs']}" for c in CASES])
def test_recurrent_layer_matches_tensorflow(case):
    layer = getattr(tf.keras.layers, case["layer"])(5, return_sequences=True, return_state=True,
                                                    **case["kwargs"])
    x = tf.constant(f32(FIX["x"]))
    layer(x)
    for var, value in zip(layer.weights, case["weights"], strict=True):
        var.assign(f32(value))
    with tf.GradientTape() as tape:
        tape.watch(x)
        seq, *states = layer(x)
        loss = tf.reduce_sum(seq * f32(FIX["w"])) + tf.reduce_sum(states[-1])
    grads = tape.gradient(loss, [x] + layer.trainable_weights)
    np.testing.assert_allclose(seq.numpy(), f32(case["sequence"]), rtol=1e-5, atol=1e-6)
    assert len(states) == len(case["states"])
    for got, want in zip(states, case["states"], strict=True):
        np.testing.assert_allclose(got.numpy(), f32(want), rtol=1e-5, atol=1e-6)
    for got, want in zip(grads, case["grads"], strict=True):
        np.testing.assert_allclose(got.numpy(), f32(want), rtol=1e-4, atol=1e-5)


def test_recurrent_weight_paths_and_defaults_follow_keras():
    tf.keras.backend.clear_session()
    lstm = tf.keras.layers.LSTM(3)
    out = lstm(tf.ones((2, 4, 5)))
    assert out.shape == (2, 3)
    assert [v.path for v in lstm.weights] == ["lstm/lstm_cell/kernel",
                                              "lstm/lstm_cell/recurrent_kernel",
                                              "lstm/lstm_cell/bias"]
    bias = lstm.cell.bias.numpy()
    np.testing.assert_array_equal(bias, [0] * 3 + [1] * 3 + [0] * 6)
    u = lstm.cell.recurrent_kernel.numpy()
    np.testing.assert_allclose(u @ u.T, np.eye(3), atol=1e-5)
    assert tuple(tf.keras.layers.GRU(3).cell._bias_shape()) == (2, 9)


WRAP = load("wrappers.json")


@pytest.mark.parametrize("case", WRAP["cases"], ids=[c["merge_mode"] for c in WRAP["cases"]])
def test_bidirectional_matches_tensorflow(case):
    layer = tf.keras.layers.Bidirectional(
        tf.keras.layers.GRU(2, return_sequences=case["sequences"]),
        merge_mode=case["merge_mode"])
    x = f32(WRAP["x"])
    layer(x)
    for var, value in zip(layer.weights, case["weights"], strict=True):
        var.assign(f32(value))
    np.testing.assert_allclose(layer(x).numpy(), f32(case["output"]), rtol=1e-5, atol=1e-6)


def test_time_distributed_matches_tensorflow():
    layer = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
    x = f32(WRAP["x"])
    layer(x)
    for var, value in zip(layer.weights, WRAP["time_distributed"]["weights"], strict=True):
        var.assign(f32(value))
    np.testing.assert_allclose(layer(x).numpy(), f32(WRAP["time_distributed"]["output"]),
                               rtol=1e-5, atol=1e-6)
