"""Every Keras 3 optimizer and its options against steps recorded from Keras 3.15 / TF 2.21."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf

FIX = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "train" /
                  "optimizers.json").read_text())
CASES = FIX["cases"]


def _f32(x):
    return np.asarray(x, np.float32)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['optimizer']}-{c['kwargs']}" for c in CASES])
def test_optimizer_steps_match_keras(case):
    w = tf.keras.Variable(_f32(FIX["w0"]), name="w")
    b = tf.keras.Variable(_f32(FIX["b0"]), name="b")
    opt = getattr(tf.keras.optimizers, case["optimizer"])(**case["kwargs"])
    for (gw, gb), (want_w, want_b) in zip(FIX["grads"], case["steps"], strict=True):
        opt.apply_gradients([(tf.constant(_f32(gw)), w), (tf.constant(_f32(gb)), b)])
        np.testing.assert_allclose(w.numpy(), _f32(want_w), rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(b.numpy(), _f32(want_b), rtol=2e-5, atol=1e-6)
    assert int(opt.iterations.numpy()) == case["iterations"]
    assert [v.path.split("/", 1)[1] for v in opt.variables] == case["variables"]
    config = opt.get_config()
    config.pop("name")
    assert config.keys() == case["config"].keys()
    for key, want in case["config"].items():
        assert config[key] == (pytest.approx(want) if isinstance(want, float) else want), key


@pytest.mark.parametrize("case", FIX["schedules"], ids=[s["cls"] for s in FIX["schedules"]])
def test_schedules_match_keras_and_drive_the_optimizer(case):
    schedules = tf.keras.optimizers.schedules
    s = getattr(schedules, case["cls"])(*case["args"], **case["kwargs"])
    np.testing.assert_allclose([float(s(i)) for i in range(8)], case["rates"], rtol=1e-6)
    assert s.get_config() == case["config"]
    w = tf.keras.Variable(np.float32(1.0))
    opt = tf.keras.optimizers.SGD(s)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), w)])
    assert float(w.numpy()) == pytest.approx(case["sgd_after_3"], rel=1e-6)
    again = schedules.deserialize(schedules.serialize(s))
    assert float(again(5)) == pytest.approx(case["rates"][5], rel=1e-6)


@pytest.mark.parametrize("cls", sorted(FIX["shape_errors"]))
def test_gradient_of_the_wrong_shape_raises_keras_class(cls):
    v = tf.Variable(np.zeros(2, np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[2\].*shape \[3\]"):
        getattr(tf.keras.optimizers, cls)(0.1).apply_gradients([(tf.zeros(3), v)])
    assert FIX["shape_errors"][cls] == "InvalidArgumentError"


@pytest.mark.parametrize("label", sorted(FIX["messages"]))
def test_bad_arguments_raise_keras_messages(label):
    make = {"int_lr": lambda: tf.keras.optimizers.SGD(1),
            "two_clips": lambda: tf.keras.optimizers.SGD(0.1, clipnorm=1.0, clipvalue=1.0),
            "bad_kw": lambda: tf.keras.optimizers.Adam(0.1, foo=1),
            "lion_beta": lambda: tf.keras.optimizers.Lion(beta_1=0.0),
            "adamw_none": lambda: tf.keras.optimizers.AdamW(weight_decay=None)}[label]
    cls, text = FIX["messages"][label]
    with pytest.raises(getattr(__builtins__, cls, ValueError)) as err:
        make()
    assert type(err.value).__name__ == cls and str(err.value) == text


def test_an_unknown_variable_is_refused_after_build():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    opt = tf.keras.optimizers.Adam()
    opt.apply_gradients([(tf.constant(1.0), a)])
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply_gradients([(tf.constant(1.0), b)])


def test_finalize_variable_values_copies_the_moving_average():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=0.5)
    for _ in range(2):
        opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    # ema: step 1 average = w1 (momentum 0 at iteration 0); step 2 0.5 * w1 + 0.5 * w2
    opt.finalize_variable_values([w])
    np.testing.assert_allclose(w.numpy(), [0.25, 1.25])


def test_learning_rate_of_a_schedule_is_not_settable():
    opt = tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5))
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.3


def test_optimizer_round_trips_through_its_config():
    opt = tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True, clipnorm=1.0)
    again = tf.keras.optimizers.get(tf.keras.optimizers.serialize(opt))
    assert type(again) is tf.keras.optimizers.RMSprop
    assert again.momentum == 0.5 and again.centered and again.clipnorm == 1.0
    assert float(again.learning_rate.numpy()) == pytest.approx(0.01)


def test_loss_scale_optimizer_skips_non_finite_steps_as_keras():
    want = FIX["loss_scale"]
    w = tf.Variable(np.array([1.0, -2.0], np.float32))
    opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1, momentum=0.5),
                                                 initial_scale=4.0, dynamic_growth_steps=2)
    grads = ([4.0, 8.0], [np.nan, 1.0], [2.0, 2.0], [4.0, -4.0], [np.inf, 0.0], [1.0, 1.0])
    for g, step in zip(grads, want["steps"], strict=True):
        opt.apply_gradients([(tf.constant(np.array(g, np.float32)), w)])
        np.testing.assert_allclose(w.numpy(), step["w"], rtol=1e-6)
        assert float(opt.dynamic_scale.numpy()) == step["scale"]
        assert int(opt.step_counter.numpy()) == step["counter"]
        assert int(opt.iterations.numpy()) == step["iterations"]
    assert float(opt.scale_loss(3.0)) == want["scaled_loss"]
    names = [v.path.split("/", 1)[1] for v in opt.variables]
    assert names[:4] == want["variables"][:4]


def test_a_user_optimizer_subclass_runs_with_ops_and_assign():
    class SignSGD(tf.keras.optimizers.Optimizer):
        def __init__(self, learning_rate=0.1, name="sign_sgd", **kwargs):
            super().__init__(learning_rate=learning_rate, name=name, **kwargs)

        def build(self, var_list):
            super().build(var_list)
            self.steps = self.add_optimizer_variables(var_list, "steps")

        def update_step(self, gradient, variable, learning_rate):
            self.assign_sub(variable, tf.sign(gradient) * learning_rate)
            self.assign_add(self.steps[self._get_variable_index(variable)],
                            tf.ones_like(variable))

    w = tf.Variable([1.0, -1.0, 0.5])
    opt = SignSGD(0.25)
    for _ in range(2):
        opt.apply_gradients([(tf.constant([3.0, -0.1, 0.0]), w)])
    np.testing.assert_allclose(w.numpy(), [0.5, -0.5, 0.5])
    assert [v.path for v in opt.variables][2:] == [opt.steps[0].path]
    np.testing.assert_allclose(opt.steps[0].numpy(), [2.0, 2.0, 2.0])
    assert int(opt.iterations.numpy()) == 2
