"""Strict traces (TAPEFLOW_STRICT_FUNCTIONS=1): the course's train and test steps, the W1 and
W2 steps compile to pure programs (no guard, no array constant made outside the op layer;
Python numbers made tensors are constants in TensorFlow's graphs too), and a body that reads
a tensor's value in Python is refused with the reason."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import polymorphic
from tapeflow.function.retrace_report import _array_orphans


@pytest.fixture
def strict():
    polymorphic._STRICT[0] = True
    yield
    polymorphic._STRICT[0] = False


def _pure(fn):
    c = fn._traces[-1]
    assert c.program.n_guards == 0 and not _array_orphans(c.program)
    assert "  variant:" not in fn.experimental_trace_report()


def test_course_train_and_test_steps_are_pure(strict):
    rng = np.random.default_rng(0)
    x = rng.random((70, 8, 8)).astype(np.float32)
    y = rng.integers(0, 10, 70)
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((8, 8)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dropout(0.2),
                                 tf.keras.layers.Dense(10, activation="softmax")])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()
    opt = tf.keras.optimizers.Adam()
    train_loss, train_acc = tf.keras.metrics.Mean(), tf.keras.metrics.SparseCategoricalAccuracy()
    test_loss, test_acc = tf.keras.metrics.Mean(), tf.keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def train_step(images, labels):
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            loss = loss_fn(labels, predictions)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        train_loss(loss)
        train_acc(labels, predictions)

    @tf.function(experimental_relax_shapes=True)
    def test_step(images, labels):
        predictions = model(images)
        test_loss(loss_fn(labels, predictions))
        test_acc(labels, predictions)

    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
    for _ in range(2):
        for images, labels in ds:
            train_step(images, labels)
            test_step(images, labels)
    _pure(train_step)
    _pure(test_step)
    assert 0 < float(train_loss.result()) < 5 and float(opt.iterations) == 6


def test_w1_and_w2_steps_are_pure(strict):
    w, b = tf.Variable(0.0), tf.Variable(0.0)

    @tf.function
    def w1(x, y):
        with tf.GradientTape() as tape:
            loss = (y - (w * x + b)) ** 2
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(1e-2 * gw)
        b.assign_sub(1e-2 * gb)

    for v in (1.0, 2.0, 3.0):
        w1(tf.constant(v), tf.constant(5 * v + 3))
    _pure(w1)
    rng = np.random.default_rng(1)
    params = [tf.Variable(rng.standard_normal(s).astype(np.float32) * 0.1)
              for s in ((64, 32), (32,), (32, 10), (10,))]

    @tf.function
    def w2(xb, yb):
        W0, b0, W1, b1 = params
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(xb, W0) + b0)
            logits = tf.matmul(h, W1) + b1
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=yb, logits=logits))
        for v, g in zip(params, tape.gradient(loss, params)):
            v.assign_sub(0.1 * g)
        return loss

    for _ in range(3):
        w2(tf.constant(rng.random((16, 64)).astype(np.float32)),
           tf.constant(rng.integers(0, 10, 16).astype(np.int32)))
    _pure(w2)


def test_a_python_read_of_a_value_is_refused(strict):
    @tf.function(autograph=False)
    def f(x):
        if x > 0:       # not converted: Python reads the value, the trace keeps a guard
            return x
        return -x

    with pytest.raises(ValueError, match="not a pure program: 1 guard"):
        f(tf.constant(2.0))
    assert f.experimental_get_tracing_count() == 1   # TF counts the trace it started


def test_gan_step_with_conv_transpose_and_ones_like_labels_is_pure(strict):
    tf.random.set_seed(1)
    gen = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(4 * 4 * 2),
                               tf.keras.layers.Reshape((4, 4, 2)),
                               tf.keras.layers.Conv2DTranspose(1, 3, strides=2,
                                                               padding="same")])
    disc = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(1)])
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.Adam(1e-3)

    @tf.function
    def step(noise):
        with tf.GradientTape() as tape:
            fake = disc(gen(noise, training=True), training=True)
            loss = bce(tf.ones_like(fake), fake)
        grads = tape.gradient(loss, gen.trainable_variables)
        opt.apply_gradients(zip(grads, gen.trainable_variables))
        return loss

    noise = tf.constant(np.random.default_rng(2).standard_normal((6, 4)).astype(np.float32))
    losses = [float(step(noise)) for _ in range(3)]
    _pure(step)
    assert losses[2] < losses[0]      # the generator learns to fool the fixed discriminator
