"""SGD and Adam against updates recorded from Keras 3 / TensorFlow 2.21."""
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("optimizers.json")
CASES = FIX["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['optimizer']}-{c['kwargs']}" for c in CASES])
def test_optimizer_steps_match_tensorflow(case):
    w, b = tf.Variable(f32(FIX["w0"])), tf.Variable(f32(FIX["b0"]))
    opt = getattr(tf.keras.optimizers, case["optimizer"])(**case["kwargs"])
    for (gw, gb), want in zip(FIX["grads"], case["steps"], strict=True):
        opt.apply_gradients(zip([tf.constant(f32(gw)), tf.constant(f32(gb))], [w, b], strict=True))
        np.testing.assert_allclose(w.numpy(), f32(want["w"]), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(b.numpy(), f32(want["b"]), rtol=1e-5, atol=1e-7)
    assert int(opt.iterations.numpy()) == case["iterations"]
    assert w.dtype == tf.float32


def test_sgd_default_step_is_learning_rate_times_gradient():
    v = tf.Variable([1.0, -2.0])
    tf.keras.optimizers.SGD().apply_gradients([(tf.constant([10.0, 1.0]), v)])
    np.testing.assert_allclose(v.numpy(), [0.9, -2.01], rtol=1e-6)


def test_all_none_gradients_raise_like_keras():
    v = tf.Variable(1.0)
    with pytest.raises(ValueError, match="No gradients provided for any variable."):
        tf.keras.optimizers.Adam().apply_gradients([(None, v)])


def test_all_none_gradients_say_why_each_gradient_is_none():
    w = tf.Variable(2.0, name="w")
    with tf.GradientTape() as tape:
        loss = tf.constant(float(w * 3.0)) ** 2
    grads = tape.gradient(loss, [w])
    with pytest.raises(ValueError) as err:
        tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, [w]))
    first, hint = str(err.value).splitlines()[:2]
    assert first == "No gradients provided for any variable."
    assert hint.startswith("Hint: 'w:0': the chain left the tape")
    assert "float()" in hint and "Mul" in hint


def test_tensor_in_place_of_variable_names_the_mistake():
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        loss = w * w
    g = tape.gradient(loss, w)
    w = w - 0.1 * g
    with pytest.raises(AttributeError) as err:
        tf.keras.optimizers.SGD(0.1).apply_gradients([(g, w)])
    assert "_unique_id" in str(err.value).splitlines()[0]
    assert "w = w - lr * g" in str(err.value)


def test_some_none_gradients_warn_and_skip_those_variables():
    a, b = tf.Variable(1.0), tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt.apply_gradients([(tf.constant(1.0), a), (None, b)])
    assert any("Gradients do not exist" in str(w.message) and w.filename == __file__
               for w in caught)  # the warning points at the caller of apply_gradients
    assert a.numpy() == pytest.approx(0.5) and b.numpy() == 1.0
    assert int(opt.iterations.numpy()) == 1


def test_learning_rate_is_an_assignable_variable():
    opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    assert float(opt.learning_rate.numpy()) == pytest.approx(0.1)
    opt.learning_rate = 0.5
    v = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(1.0), v)])
    assert v.numpy() == pytest.approx(0.5)


def test_optimizer_variables_print_like_keras():
    want = load("naming.json")["optimizer_repr"]
    opt = tf.keras.optimizers.Adam(name="adam")
    assert [repr(opt.iterations), repr(opt.learning_rate)] == want
    first, second = tf.keras.optimizers.Adam(), tf.keras.optimizers.Adam()
    assert first.name.startswith("adam") and second.name != first.name


def test_apply_gradients_is_not_recorded_on_a_tape():
    v = tf.Variable(2.0)
    opt = tf.keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        y = v * v
        opt.apply_gradients([(tf.constant(1.0), v)])
    assert float(tape.gradient(y, v)) == pytest.approx(4.0)
    assert float(v.numpy()) == pytest.approx(1.9)


def test_momentum_out_of_range_is_rejected():
    with pytest.raises(ValueError, match="momentum"):
        tf.keras.optimizers.SGD(momentum=1.5)


SCHED = load("schedules.json")


@pytest.mark.parametrize("index", range(len(SCHED["schedules"])),
                         ids=[f"{c}-{k}" for c, _, k in SCHED["schedules"]])
def test_learning_rate_schedules_match_tensorflow(index):
    cls, args, kwargs = SCHED["schedules"][index]
    schedule = getattr(tf.keras.optimizers.schedules, cls)(*args, **kwargs)
    got = [float(schedule(step)) for step in SCHED["steps"]]
    np.testing.assert_allclose(got, SCHED["rates"][index], rtol=1e-5, atol=1e-8)


def test_optimizer_evaluates_its_schedule_at_each_step():
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5)
    opt = tf.keras.optimizers.SGD(schedule)
    v = tf.Variable(1.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), v)])
    assert float(v.numpy()) == pytest.approx(SCHED["sgd_variable"], rel=1e-6)
    assert float(opt.learning_rate) == pytest.approx(SCHED["sgd_rate_after"], rel=1e-6)
