"""keras.mixed_precision against Keras 3.15 / TF 2.21 (fixtures from
tools/record_mixed_precision.py)."""
import json
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf

keras = tf.keras
mp = keras.mixed_precision
CASES = json.loads((Path(__file__).resolve().parent.parent
                    / "fixtures/mixed_precision/cases.json").read_text())


@pytest.fixture(autouse=True)
def _reset_policy():
    yield
    mp.set_global_policy("float32")


@pytest.mark.parametrize("name", sorted(CASES["policies"]))
def test_policy_attributes(name):
    p = mp.Policy(name)
    assert [repr(p), p.compute_dtype, p.variable_dtype, p.get_config()] == \
        CASES["policies"][name]
    assert mp.DTypePolicy.from_config(p.get_config()) == p


def test_policy_errors():
    with pytest.raises(ValueError) as e:
        mp.Policy("foo")
    assert [type(e.value).__name__, str(e.value)] == CASES["bad_policy"]
    with pytest.raises(ValueError) as e:
        mp.set_global_policy(None)
    assert [type(e.value).__name__, str(e.value)] == CASES["bad_global"]


@pytest.mark.parametrize("name", ["mixed_float16", "mixed_bfloat16"])
def test_dense_under_global_policy(name):
    want = CASES[name]
    mp.set_global_policy(name)
    assert repr(mp.global_policy()) == want["global"]
    x = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5) / 3.0
    kernel = (np.arange(8, dtype=np.float32).reshape(4, 2) - 3.3) / 7.0
    d = keras.layers.Dense(2, activation="relu")
    d.build((None, 4))
    d.set_weights([kernel, np.array([0.1, -0.2], np.float32)])
    with tf.GradientTape() as tape:
        y = d(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
    grads = tape.gradient(loss, d.trainable_variables)
    assert y.dtype.name == want["y_dtype"]
    np.testing.assert_array_equal(y.numpy().astype(np.float32), want["y"])
    assert [g.dtype.name for g in grads] == want["grad_dtypes"]
    for g, w in zip(grads, want["grads"]):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-2, atol=1e-3)
    assert d.kernel.dtype.name == want["kernel_dtype"]
    assert (d.dtype, d.compute_dtype, d.variable_dtype) == (
        want["dtype"], want["compute_dtype"], want["variable_dtype"])
    assert d.get_config()["dtype"] == want["config_dtype"]
    act = keras.layers.Activation("linear", dtype="float32")
    assert act(y).dtype.name == want["act_dtype"]
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    assert type(model.optimizer).__name__ == want["compiled_optimizer"]


@pytest.mark.parametrize("name", ["mixed_float16", "mixed_bfloat16"])
def test_normalizations_compute_in_float32(name):
    # Keras 3's LayerNormalization and BatchNormalization compute in float32 under a mixed
    # policy and return the compute dtype: the outputs are float32 results rounded once.
    mp.set_global_policy(name)
    x4 = np.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).astype("float32") ** 3
    ln = keras.layers.LayerNormalization()(x4)
    bn = keras.layers.BatchNormalization()(x4, training=True)
    for got, (dtype, want) in zip((ln, bn), CASES[name]["norms"]):
        assert got.dtype.name == dtype
        # float32 results rounded once: one unit in the last place of the half type
        ulp = 2.0 ** (-7 if name == "mixed_bfloat16" else -10)
        np.testing.assert_allclose(got.numpy().astype(np.float32), want, rtol=ulp, atol=ulp)


def test_layer_dtype_argument_and_config_round_trip():
    d = keras.layers.Dense(2, dtype="mixed_float16")
    y = d(np.ones((1, 3), np.float32))
    assert (y.dtype.name, d.kernel.dtype.name) == ("float16", "float32")
    d2 = keras.layers.Dense.from_config(d.get_config())
    assert d2.dtype_policy == mp.Policy("mixed_float16")
    assert keras.layers.Dense(2, dtype=mp.Policy("mixed_bfloat16")).compute_dtype == "bfloat16"


def test_float32_model_keeps_its_optimizer():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    assert type(model.optimizer).__name__ == "SGD"


def test_loss_scale_optimizer_dynamic_scale():
    v = keras.Variable(np.array([1.0, 2.0], np.float32))
    opt = mp.LossScaleOptimizer(keras.optimizers.SGD(0.5), initial_scale=8.0,
                                dynamic_growth_steps=2)
    got = []
    for g in ([np.inf, 1.0], [8.0, 16.0], [np.nan, 0.0], [8.0, 16.0], [4.0, 4.0],
              [2.0, 2.0], [1.0, 1.0]):
        opt.apply([tf.constant(g, tf.float32)], [v])
        got.append([v.numpy().tolist(), float(opt.dynamic_scale.numpy()),
                    int(opt.iterations.numpy())])
    assert got == CASES["lso_steps"]
    assert float(opt.scale_loss(tf.constant(1.5)).numpy()) == CASES["lso_scaled"]
    d = mp.LossScaleOptimizer(keras.optimizers.SGD())
    assert [d.initial_scale, d.dynamic_growth_steps] == CASES["lso_defaults"]
