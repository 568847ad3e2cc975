"""Record Keras 3 / TensorFlow 2.21 numbers that tests/test_keras_*.py compare against.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_tf_fixtures_keras.py
Writes tests/fixtures/keras/*.json. tapeflow itself never imports TensorFlow.
"""
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras")
RNG = np.random.default_rng(20260521)


def arr(shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def dump(name, data):
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print("wrote", os.path.relpath(path))


def lists(x):
    return np.asarray(x).tolist()


def optimizer_cases():
    w0, b0 = arr((3, 2)), arr((2,))
    grads = [(arr((3, 2)), arr((2,))) for _ in range(4)]
    configs = [
        ("Adam", {}), ("Adam", {"learning_rate": 0.05, "beta_1": 0.8, "beta_2": 0.99}),
        ("Adam", {"learning_rate": 0.01, "amsgrad": True}),
        ("SGD", {}), ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
        ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ]
    cases = []
    for cls, kwargs in configs:
        w, b = tf.Variable(w0), tf.Variable(b0)
        opt = getattr(tf.keras.optimizers, cls)(**kwargs)
        steps = []
        for gw, gb in grads:
            opt.apply_gradients(zip([tf.constant(gw), tf.constant(gb)], [w, b]))
            steps.append({"w": lists(w.numpy()), "b": lists(b.numpy())})
        cases.append({"optimizer": cls, "kwargs": kwargs, "iterations": int(opt.iterations),
                      "steps": steps})
    dump("optimizers.json", {"w0": lists(w0), "b0": lists(b0),
                             "grads": [[lists(gw), lists(gb)] for gw, gb in grads],
                             "cases": cases})


def loss_cases():
    logits = arr((6, 4), 2.0)
    probs = tf.nn.softmax(logits).numpy()
    probs[0] = [1.0, 0.0, 0.0, 0.0]  # exercises the clipping at 1e-7
    labels = np.array([0, 3, 1, 2, 2, 0], np.int64)
    onehot = np.eye(4, dtype=np.float32)[labels]
    bin_true = (RNG.random((6, 3)) > 0.5).astype(np.float32)
    bin_pred = RNG.random((6, 3)).astype(np.float32)
    bin_pred[0, 0] = 0.0
    reg_true, reg_pred = arr((6, 3)), arr((6, 3))
    weights = RNG.random(6).astype(np.float32)
    L = tf.keras.losses
    cases = {
        "scce_probs": L.SparseCategoricalCrossentropy()(labels, probs),
        "scce_probs_column_labels": L.SparseCategoricalCrossentropy()(labels[:, None], probs),
        "scce_logits": L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits),
        "scce_sum": L.SparseCategoricalCrossentropy(reduction="sum")(labels, probs),
        "scce_none": L.SparseCategoricalCrossentropy(reduction=None)(labels, probs),
        "scce_weighted": L.SparseCategoricalCrossentropy()(labels, probs,
                                                           sample_weight=weights),
        "scce_fn": L.sparse_categorical_crossentropy(labels, probs),
        "cce_probs": L.CategoricalCrossentropy()(onehot, probs),
        "cce_unnormalised": L.CategoricalCrossentropy()(onehot, probs * 3.0),
        "cce_logits": L.CategoricalCrossentropy(from_logits=True)(onehot, logits),
        "bce_probs": L.BinaryCrossentropy()(bin_true, bin_pred),
        "bce_logits": L.BinaryCrossentropy(from_logits=True)(bin_true, reg_pred),
        "mse": L.MeanSquaredError()(reg_true, reg_pred),
        "mse_fn": L.mse(reg_true, reg_pred),
    }
    dump("losses.json", {
        "logits": lists(logits), "probs": lists(probs), "labels": lists(labels),
        "onehot": lists(onehot), "bin_true": lists(bin_true), "bin_pred": lists(bin_pred),
        "reg_true": lists(reg_true), "reg_pred": lists(reg_pred), "weights": lists(weights),
        "expected": {k: lists(v) for k, v in cases.items()}})


def metric_cases():
    probs = tf.nn.softmax(arr((8, 3))).numpy()
    labels = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.int64)
    onehot = np.eye(3, dtype=np.float32)[labels]
    M = tf.keras.metrics
    mean = M.Mean()
    mean_results = [float(mean(v)) for v in (1.5, [2.0, 4.0], np.array([[1.0], [7.0]]))]
    weighted = M.Mean()
    weighted.update_state([1.0, 2.0, 3.0], sample_weight=[0.5, 1.0, 2.0])
    sca = M.SparseCategoricalAccuracy()
    sca_results = [float(sca(labels[:5], probs[:5])), float(sca(labels[5:], probs[5:]))]
    col = M.SparseCategoricalAccuracy()
    col.update_state(labels[:, None], probs)
    ca = M.CategoricalAccuracy()
    ca.update_state(onehot, probs)
    acc = M.Accuracy()
    acc.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    mse = M.MeanSquaredError()
    mse.update_state(onehot, probs)
    reset = M.Mean()
    reset(3.0)
    reset.reset_state()
    dump("metrics.json", {
        "probs": lists(probs), "labels": lists(labels), "onehot": lists(onehot),
        "mean_results": mean_results, "weighted_mean": float(weighted.result()),
        "sparse_categorical_accuracy": sca_results,
        "sparse_categorical_accuracy_column": float(col.result()),
        "categorical_accuracy": float(ca.result()), "accuracy": float(acc.result()),
        "mean_squared_error": float(mse.result()), "after_reset": float(reset.result()),
        "names": [M.Mean().name, M.SparseCategoricalAccuracy().name,
                  M.CategoricalAccuracy().name, M.Accuracy().name]})


def dense_cases():
    kernel, bias = arr((4, 3)), arr((3,))
    x2, x3 = arr((5, 4)), arr((2, 5, 4))
    labels = np.array([0, 2, 1, 1, 0], np.int64)
    out = {"kernel": lists(kernel), "bias": lists(bias), "x2": lists(x2), "x3": lists(x3),
           "labels": lists(labels)}
    for act in ("linear", "relu", "softmax", "sigmoid", "tanh"):
        layer = tf.keras.layers.Dense(3, activation=act)
        layer.build((None, 4))
        layer.kernel.assign(kernel)
        layer.bias.assign(bias)
        out[f"y2_{act}"] = lists(layer(x2))
        out[f"y3_{act}"] = lists(layer(x3))
    layer = tf.keras.layers.Dense(3, activation="softmax")
    layer.build((None, 4))
    layer.kernel.assign(kernel)
    layer.bias.assign(bias)
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.SparseCategoricalCrossentropy()(labels, layer(x2))
    gk, gb = tape.gradient(loss, [layer.kernel, layer.bias])
    out.update(loss=float(loss), grad_kernel=lists(gk), grad_bias=lists(gb))
    dump("dense.json", out)


def naming_cases():
    import keras
    keras.backend.clear_session()
    d = tf.keras.layers.Dense(3, kernel_initializer="ones")
    d(tf.ones((1, 2)))
    seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    seq(tf.ones((1, 3)))

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

    net = Net()
    net(tf.ones((1, 5)))
    opt = tf.keras.optimizers.Adam()
    dump("naming.json", {
        "dense_repr": [repr(v) for v in d.variables], "dense_names": [v.name for v in d.variables],
        "sequential_name": seq.name, "sequential_paths": [v.path for v in seq.variables],
        "net_name": net.name, "net_paths": [v.path for v in net.trainable_variables],
        "net_shapes": [list(v.shape) for v in net.trainable_variables],
        "optimizer_repr": [repr(opt.iterations), repr(opt.learning_rate)]})


def main():
    os.makedirs(OUT, exist_ok=True)
    tf.keras.utils.set_random_seed(0)
    optimizer_cases()
    loss_cases()
    metric_cases()
    dense_cases()
    naming_cases()
    print("TensorFlow", tf.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
