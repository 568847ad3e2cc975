"""A variable's slice ``v[key]`` inside tf.function reads the variable when the function runs,
not the value it had when traced (a ``_VariableSlice`` is a Tensor subclass with ``_read``;
the tracer once took it for a variable and replayed the traced value)."""
import numpy as np
import pytest

import tapeflow as tf


def test_a_slice_of_a_variable_sees_each_calls_value():
    w = tf.Variable(np.ones((3, 2), np.float32))

    @tf.function
    def f():
        y = tf.reduce_sum(w[:, :1])
        w.assign_add(tf.ones((3, 2)))
        return y
    assert [float(f()) for _ in range(3)] == [3.0, 6.0, 9.0]


def test_training_through_a_sliced_variable_matches_eager_steps():
    x = tf.constant(np.random.default_rng(0).random((5, 3)).astype(np.float32))
    w0 = np.random.default_rng(1).random((3, 2)).astype(np.float32)

    def losses(wrap):
        w = tf.Variable(w0)

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.sigmoid(tf.matmul(x, w[:, 1:])))
            w.assign_sub(10.0 * tape.gradient(loss, w))
            return loss
        run = wrap(step)
        return [float(run()) for _ in range(3)]
    eager = losses(lambda f: f)
    assert eager[0] != eager[2]
    np.testing.assert_allclose(losses(tf.function), eager, rtol=1e-6)


@pytest.mark.parametrize("kind", ["Conv3D", "GRU"])
def test_compiled_fit_follows_its_eager_steps(kind):
    # Conv3D slices its kernel per depth offset, GRU its bias and recurrent kernel per gate:
    # the compiled steps must see each update
    def history(run_eagerly):
        tf.keras.utils.set_random_seed(1)
        shape = (3, 4, 4, 1) if kind == "Conv3D" else (5, 3)
        layer = (tf.keras.layers.Conv3D(2, 2, activation="relu") if kind == "Conv3D"
                 else tf.keras.layers.GRU(4))
        model = tf.keras.Sequential([tf.keras.Input(shape), layer,
                                     tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
        model.compile(loss="mse", optimizer="adam", run_eagerly=run_eagerly)
        rng = np.random.default_rng(2)
        x, y = rng.random((8,) + shape), rng.random((8, 1))
        return model.fit(x, y, batch_size=4, epochs=3, shuffle=False,
                         verbose=0).history["loss"]
    np.testing.assert_allclose(history(False), history(True), rtol=1e-5)
