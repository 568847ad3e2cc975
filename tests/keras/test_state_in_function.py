"""Keras optimizers, metrics, BatchNormalization and keras.random inside a traced
``tf.function``: replayed steps update state exactly as the same steps run eagerly (the
soundness rewrite: every state change is an op or ``Variable.assign*``)."""
import numpy as np
import pytest

import tapeflow as tf

CONFIGS = [("Adam", {}), ("SGD", {"momentum": 0.9, "nesterov": True}), ("Nadam", {}),
           ("Adam", {"use_ema": True, "ema_overwrite_frequency": 3}),
           ("RMSprop", {"centered": True, "momentum": 0.5}),
           ("SGD", {"gradient_accumulation_steps": 2}), ("AdamW", {"clipnorm": 0.5}),
           ("Adafactor", {}), ("Ftrl", {}), ("Lion", {})]


def _train(use_function, opt_name, kwargs, schedule=False):
    rng = np.random.default_rng(0)
    x = rng.random((64, 4), dtype=np.float32)
    y = rng.integers(0, 3, 64).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8),
                                 tf.keras.layers.BatchNormalization(),
                                 tf.keras.layers.Activation("relu"),
                                 tf.keras.layers.Dense(3)])
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.3 + (
        1.0 if "variance" in w.path else 0.0) for w in model.weights])
    lr = tf.keras.optimizers.schedules.ExponentialDecay(0.05, 2, 0.5) if schedule else 0.01
    opt = getattr(tf.keras.optimizers, opt_name)(learning_rate=lr, **kwargs)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    mean = tf.keras.metrics.Mean()
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    auc = tf.keras.metrics.AUC(num_thresholds=11)

    def step(xb, yb):
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss = loss_fn(yb, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        mean.update_state(loss)
        acc.update_state(yb, logits)
        auc.update_state(tf.cast(tf.equal(yb, 0), tf.float32), tf.nn.softmax(logits)[:, 0])
        return loss

    if use_function:
        step = tf.function(step)
    history = []
    for i in range(10):
        j = i % 4
        step(tf.constant(x[j * 16:(j + 1) * 16]), tf.constant(y[j * 16:(j + 1) * 16]))
        history.append([float(mean.result()), float(acc.result()), float(auc.result())])
    return history, model.get_weights(), [v.numpy() for v in opt.variables], step


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
def test_a_traced_keras_step_updates_state_as_eagerly(name, kwargs):
    eager = _train(False, name, kwargs)
    traced = _train(True, name, kwargs)
    np.testing.assert_allclose(traced[0], eager[0], rtol=1e-6, atol=1e-6)
    for a, b in zip(traced[1] + traced[2], eager[1] + eager[2], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert traced[3].experimental_get_tracing_count() <= 2


def test_a_traced_step_reads_the_schedule_at_each_call():
    eager = _train(False, "SGD", {}, schedule=True)
    traced = _train(True, "SGD", {}, schedule=True)
    np.testing.assert_allclose(traced[0], eager[0], rtol=1e-6, atol=1e-6)
    for a, b in zip(traced[1], eager[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def test_keras_random_draws_afresh_on_every_replayed_call():
    gen = tf.keras.random.SeedGenerator(3)

    @tf.function
    def draw():
        return tf.keras.random.normal((3,), seed=gen)

    first, second = draw().numpy(), draw().numpy()
    assert not np.allclose(first, second)
    assert gen.state.numpy().tolist() == [3, 2]


def test_a_first_call_traced_twice_draws_its_random_numbers_once():
    """A first call that creates variables is traced again (as TensorFlow); the undone
    run's random draws and op seeds are undone too, so the calls draw what TensorFlow's
    second graph draws (its op seed 0, the kernel's stream continuing call by call)."""
    from tests.ops import random_cases
    random_cases.check(random_cases.load("ops"), "function_first_call_traced_twice", tf,
                       tf.keras)
