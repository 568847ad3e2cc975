"""Record Keras 3.15 / TF 2.21 mixed precision behaviour into
tests/fixtures/mixed_precision/cases.json (run under /work/tfenv/bin/python)."""
import json
import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests/fixtures/mixed_precision/cases.json"
mp = keras.mixed_precision


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


def main():
    out = {}
    out["policies"] = {n: [repr(mp.Policy(n)), mp.Policy(n).compute_dtype,
                           mp.Policy(n).variable_dtype, mp.Policy(n).get_config()]
                       for n in ("mixed_float16", "mixed_bfloat16", "float32", "float16",
                                 "bfloat16", "float64")}
    out["bad_policy"] = err(lambda: mp.Policy("foo"))
    out["bad_global"] = err(lambda: mp.set_global_policy(None))
    x = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5) / 3.0
    kernel = (np.arange(8, dtype=np.float32).reshape(4, 2) - 3.3) / 7.0
    for name in ("mixed_float16", "mixed_bfloat16"):
        mp.set_global_policy(name)
        d = keras.layers.Dense(2, activation="relu")
        d.build((None, 4))
        d.set_weights([kernel, np.array([0.1, -0.2], np.float32)])
        with tf.GradientTape() as tape:
            y = d(x)
            loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
        grads = tape.gradient(loss, d.trainable_variables)
        act = keras.layers.Activation("linear", dtype="float32")
        out[name] = {"y": y.numpy().astype(np.float32).tolist(), "y_dtype": y.dtype.name,
                     "grads": [g.numpy().tolist() for g in grads],
                     "grad_dtypes": [g.dtype.name for g in grads],
                     "kernel_dtype": d.kernel.dtype, "dtype": d.dtype,
                     "compute_dtype": d.compute_dtype, "variable_dtype": d.variable_dtype,
                     "config_dtype": d.get_config()["dtype"],
                     "act_dtype": act(y).dtype.name, "global": repr(mp.global_policy())}
        x4 = np.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).astype("float32") ** 3
        ln = keras.layers.LayerNormalization()(x4)
        bn = keras.layers.BatchNormalization()(x4, training=True)
        out[name]["norms"] = [[ln.dtype.name, ln.numpy().astype(np.float32).tolist()],
                              [bn.dtype.name, bn.numpy().astype(np.float32).tolist()]]
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
        model.compile(optimizer="sgd", loss="mse")
        out[name]["compiled_optimizer"] = type(model.optimizer).__name__
    mp.set_global_policy("float32")
    out["float32_optimizer"] = None
    # LossScaleOptimizer's dynamic scale
    v = keras.Variable(np.array([1.0, 2.0], np.float32))
    opt = mp.LossScaleOptimizer(keras.optimizers.SGD(0.5), initial_scale=8.0,
                                dynamic_growth_steps=2)
    steps = []
    for g in ([np.inf, 1.0], [8.0, 16.0], [np.nan, 0.0], [8.0, 16.0], [4.0, 4.0],
              [2.0, 2.0], [1.0, 1.0]):
        opt.apply([tf.constant(g, tf.float32)], [v])
        steps.append([v.numpy().tolist(), float(opt.dynamic_scale.numpy()),
                      int(opt.iterations.numpy())])
    out["lso_steps"] = steps
    out["lso_scaled"] = float(opt.scale_loss(tf.constant(1.5)).numpy())
    out["lso_defaults"] = [mp.LossScaleOptimizer(keras.optimizers.SGD()).initial_scale,
                           mp.LossScaleOptimizer(keras.optimizers.SGD()).dynamic_growth_steps]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, default=str))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
