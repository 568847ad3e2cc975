"""Model and Sequential: variable collection in Keras 3's order, paths, training flag."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import load

NAMES = load("naming.json")


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.first = tf.keras.layers.Dense(2)
        self.blocks = [tf.keras.layers.Dense(3), tf.keras.layers.Dense(4)]
        self.last = tf.keras.layers.Dense(1)

    def call(self, x):
        x = self.first(x)
        for block in self.blocks:
            x = block(x)
        return self.last(x)


def test_subclassed_model_collects_variables_in_assignment_order_with_keras_paths():
    tf.keras.backend.clear_session()
    tf.keras.layers.Dense(3)  # as in the recording script: takes the name 'dense'
    seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    seq(tf.ones((1, 3)))
    net = Net()
    net(tf.ones((1, 5)))
    assert seq.name == NAMES["sequential_name"]
    assert [v.path for v in seq.variables] == NAMES["sequential_paths"]
    assert net.name == NAMES["net_name"]
    assert [v.path for v in net.trainable_variables] == NAMES["net_paths"]
    assert [list(v.shape) for v in net.trainable_variables] == NAMES["net_shapes"]


def test_nested_models_and_model_gradients():
    class Outer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.body = Net()
            self.head = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.head(self.body(x))

    model = Outer()
    x = tf.ones((3, 5))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    assert len(model.trainable_variables) == 10
    assert all(g is not None for g in grads)
    assert [tuple(g.shape) for g in grads] == [tuple(v.shape) for v in
                                                model.trainable_variables]


def test_sequential_with_input_shape_builds_at_once():
    with pytest.warns(UserWarning, match="input_shape"):
        model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(8, 8)),
                                     tf.keras.layers.Dense(4)])
    assert model.built
    assert [tuple(v.shape) for v in model.trainable_variables] == [(64, 4), (4,)]
    assert model(tf.ones((2, 8, 8))).shape == (2, 4)


def test_sequential_with_input_and_add():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,))])
    model.add(tf.keras.layers.Dense(2, activation="relu"))
    assert model.built and len(model.layers) == 1
    assert model.count_params() == 8
    chunks = []
    model.summary(print_fn=chunks.append)
    assert len(chunks) == 1
    assert "(None, 2)" in chunks[0] and " Total params: 8 (32.00 B)\n" in chunks[0]


def test_training_flag_reaches_nested_dropout():
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dropout(0.5)])
    x = tf.ones((10, 10))
    np.testing.assert_array_equal(model(x).numpy(), x.numpy())
    assert (model(x, training=True).numpy() == 0).any()


def test_functional_model_needs_inputs_and_outputs():
    with pytest.raises(ValueError, match="both `inputs` and `outputs`"):
        tf.keras.Model(tf.keras.Input(shape=(2,)), None)


def test_one_training_step_lowers_the_loss():
    tf.random.set_seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0], np.float32))[:, None]
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.Adam(0.05)
    mse = tf.keras.losses.MeanSquaredError()
    losses = []
    for _ in range(30):
        with tf.GradientTape() as tape:
            loss = mse(y, model(x))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables, strict=True))
        losses.append(float(loss))
    assert losses[-1] < 0.2 * losses[0]


def test_summary_prints_keras_table():
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(8, 8)), tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(10)])
    lazy = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    lines = []
    model.summary(print_fn=lines.append)
    lazy.summary(print_fn=lines.append)
    lazy(tf.ones((5, 7)))
    lazy.summary(print_fn=lines.append)
    assert "\n".join(lines).splitlines() == load("summary.json")["lines"]


def test_build_with_an_input_shape_creates_the_weights():
    class Net2(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4)
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net2()
    net.build((None, 5))
    assert net.built and [tuple(v.shape) for v in net.trainable_variables] == [
        (5, 4), (4,), (4, 1), (1,)]
    seq = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    seq.build((None, 4))
    assert [tuple(w.shape) for w in seq.weights] == [(4, 3), (3,)]
    assert seq.layers[0]._output_shape == (None, 3)


def test_get_layer_by_name_and_index():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"),
                                 tf.keras.layers.Dense(1, name="b")])
    assert model.get_layer("b").name == "b" and model.get_layer(index=0).name == "a"
    with pytest.raises(ValueError, match=r"^No such layer: zz. Existing layers are: "):
        model.get_layer("zz")
