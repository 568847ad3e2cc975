"""The functional API: Input, layers called on symbolic tensors, Model(inputs, outputs)."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import load

FIX = load("functional.json")


def guide_model():
    """The model of TensorFlow's "training loop from scratch" guide."""
    inputs = tf.keras.Input(shape=(784,), name="digits")
    x1 = tf.keras.layers.Dense(64, activation="relu")(inputs)
    x2 = tf.keras.layers.Dense(64, activation="relu")(x1)
    outputs = tf.keras.layers.Dense(10, name="predictions")(x2)
    return inputs, x1, tf.keras.Model(inputs=inputs, outputs=outputs)


def test_functional_model_names_paths_and_summary_match_keras(capsys):
    tf.keras.backend.clear_session()
    inputs, x1, model = guide_model()
    assert [repr(inputs), repr(x1)] == FIX["reprs"]
    assert model.name == FIX["name"]
    assert [layer.name for layer in model.layers] == FIX["layers"]
    assert [v.path for v in model.trainable_variables] == FIX["paths"]
    model.summary()
    assert capsys.readouterr().out.splitlines() == FIX["summary"]
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(3,))
    c = tf.keras.layers.Add()([tf.keras.layers.Dense(3)(a), b])
    two = tf.keras.Model([a, b], c)
    assert two.name == FIX["two_name"]
    assert [layer.name for layer in two.layers] == FIX["two_layers"]


def test_functional_model_computes_what_its_layers_compute_and_differentiates():
    inputs = tf.keras.Input(shape=(4,))
    dense, head = tf.keras.layers.Dense(3, activation="tanh"), tf.keras.layers.Dense(2)
    hidden = dense(inputs)
    both = tf.keras.layers.Concatenate()([hidden, inputs])
    model = tf.keras.Model(inputs, head(both))
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    want = head(tf.concat([dense(x), x], -1)).numpy()
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-6)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    assert [tuple(g.shape) for g in grads] == [(4, 3), (3,), (7, 2), (2,)]


def test_functional_model_with_two_inputs_by_list_and_dict():
    a = tf.keras.Input(shape=(2,), name="left")
    b = tf.keras.Input(shape=(2,), name="right")
    model = tf.keras.Model([a, b], tf.keras.layers.Subtract()([a, b]))
    x, y = np.ones((1, 2), np.float32), np.full((1, 2), 3.0, np.float32)
    assert model([x, y]).numpy().tolist() == [[-2.0, -2.0]]
    assert model({"right": y, "left": x}).numpy().tolist() == [[-2.0, -2.0]]
    with pytest.raises(ValueError, match="expects 2 input"):
        model(x)


def test_functional_model_trains_with_fit():
    tf.random.set_seed(0)
    inputs = tf.keras.Input(shape=(2,))
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8, activation="relu")(inputs))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    x = np.random.default_rng(1).standard_normal((64, 2)).astype(np.float32)
    y = x[:, :1] - 2 * x[:, 1:]
    history = model.fit(x, y, epochs=20, verbose=0)
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0]


def test_layer_input_and_output_of_a_sequential_built_from_an_input():
    """Keras 3 builds a Sequential with an Input as a graph: every layer has its symbolic
    input and output, and a model cut at an intermediate layer computes that layer's
    activations (checked against the layers called one by one)."""
    model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(4, name="a"),
                                 tf.keras.layers.Dense(3, activation="relu", name="b"),
                                 tf.keras.layers.Dense(2, name="c")], name="seq")
    assert [v.path for v in model.weights][:2] == ["seq/a/kernel", "seq/a/bias"]
    a, b = model.get_layer("a"), model.get_layer("b")
    assert b.input is a.output and b.output.shape == (None, 3)
    assert model.inputs[0] is a.input and model.outputs[0] is model.get_layer("c").output
    cut = tf.keras.Model(inputs=model.inputs, outputs=b.output)
    x = np.arange(10, dtype=np.float32).reshape(2, 5) / 10
    np.testing.assert_allclose(cut(x).numpy(), b(a(x)).numpy(), rtol=1e-6)
    every = tf.keras.Model(inputs=model.inputs, outputs=[layer.output for layer in model.layers])
    assert [tuple(t.shape) for t in every(x)] == [(2, 4), (2, 3), (2, 2)]
    model.pop()
    assert model.outputs[0] is b.output
    with pytest.raises(AttributeError, match="The layer d has never been called and thus "
                                             "has no defined output."):
        _ = tf.keras.layers.Dense(1, name="d").output
