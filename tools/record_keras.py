"""Record Keras 3 / TensorFlow 2.21 numbers that tests/keras/test_*.py compare against.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_keras.py
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
        ("RMSprop", {}), ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
        ("AdamW", {}), ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}),
        ("SGD", {"learning_rate": 0.1, "weight_decay": 0.05, "clipnorm": 0.5}),
    ]
    cases = []
    for cls, kwargs in configs:
        w, b = tf.Variable(w0), tf.Variable(b0)
        opt = getattr(tf.keras.optimizers, cls)(**kwargs)
        steps = []
        for gw, gb in grads:
            opt.apply_gradients(zip([tf.constant(gw), tf.constant(gb)], [w, b], strict=True))
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


def summary_cases():
    import keras
    keras.backend.clear_session()
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
    dump("summary.json", {"lines": "\n".join(lines).splitlines()})


def conv_cases():
    x = arr((2, 7, 6, 3))
    filters = arr((3, 2, 3, 4))
    cases = []
    for padding in ("SAME", "VALID"):
        for strides in (1, 2):
            xt = tf.constant(x)
            ft = tf.constant(filters)
            with tf.GradientTape(persistent=True) as tape:
                tape.watch([xt, ft])
                conv = tf.nn.conv2d(xt, ft, strides, padding)
                conv_loss = tf.reduce_sum(conv * tf.sin(conv))
                mx = tf.nn.max_pool2d(xt, 3, strides, padding)
                mx_loss = tf.reduce_sum(mx * mx)
                av = tf.nn.avg_pool2d(xt, 3, strides, padding)
                av_loss = tf.reduce_sum(av * av)
            gx, gf = tape.gradient(conv_loss, [xt, ft])
            cases.append({
                "padding": padding, "strides": strides, "conv": lists(conv),
                "conv_grad_input": lists(gx), "conv_grad_filters": lists(gf),
                "max_pool": lists(mx), "max_pool_grad": lists(tape.gradient(mx_loss, xt)),
                "avg_pool": lists(av), "avg_pool_grad": lists(tape.gradient(av_loss, xt))})
    layer = tf.keras.layers.Conv2D(4, (3, 2), strides=2, padding="same", activation="relu")
    layer.build((None, 7, 6, 3))
    layer.kernel.assign(filters)
    layer.bias.assign(arr((4,)))
    dump("conv.json", {"x": lists(x), "filters": lists(filters), "cases": cases,
                       "layer_bias": lists(layer.bias.numpy()),
                       "layer_output": lists(layer(x)), "layer_name": layer.name,
                       "pool_name": tf.keras.layers.MaxPooling2D().name})


def normalization_cases():
    x = arr((6, 4), 2.0) + 1.0
    x4 = arr((2, 3, 3, 2))
    w = arr((6, 4))
    bn = tf.keras.layers.BatchNormalization(momentum=0.9)
    bn.build((None, 4))
    bn.gamma.assign(arr((4,)))
    bn.beta.assign(arr((4,)))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = bn(xt, training=True)
        loss = tf.reduce_sum(y * w)
    gx, gg, gb = tape.gradient(loss, [xt, bn.gamma, bn.beta])
    bn(x * 0.5, training=True)
    bn4 = tf.keras.layers.BatchNormalization()
    y4 = bn4(x4, training=True)
    ln = tf.keras.layers.LayerNormalization()
    ln.build((None, 4))
    ln.gamma.assign(arr((4,)))
    ln.beta.assign(arr((4,)))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        ly = ln(xt)
        lloss = tf.reduce_sum(ly * w)
    lgx, lgg = tape.gradient(lloss, [xt, ln.gamma])
    emb = tf.keras.layers.Embedding(5, 3)
    emb.build()
    table = arr((5, 3))
    emb.embeddings.assign(table)
    ids = np.array([[0, 3], [3, 4]])
    with tf.GradientTape() as tape:
        e = emb(ids)
        eloss = tf.reduce_sum(e * e)
    egrad = tf.convert_to_tensor(tape.gradient(eloss, emb.embeddings))
    dump("normalization.json", {
        "x": lists(x), "x4": lists(x4), "w": lists(w),
        "bn_gamma": lists(bn.gamma.numpy()), "bn_beta": lists(bn.beta.numpy()),
        "bn_train": lists(y), "bn_grad_x": lists(gx), "bn_grad_gamma": lists(gg),
        "bn_grad_beta": lists(gb), "bn_moving_mean": lists(bn.moving_mean.numpy()),
        "bn_moving_variance": lists(bn.moving_variance.numpy()),
        "bn_inference": lists(bn(x, training=False)), "bn4_train": lists(y4),
        "bn_names": [v.name for v in bn.weights],
        "ln_gamma": lists(ln.gamma.numpy()), "ln_beta": lists(ln.beta.numpy()),
        "ln": lists(ly), "ln_grad_x": lists(lgx), "ln_grad_gamma": lists(lgg),
        "table": lists(table), "ids": lists(ids), "embedding": lists(e),
        "embedding_grad": lists(egrad)})


FIT_PROGRAM = """
x = np.random.default_rng(0).random((100, 4)).astype("float32")
y = (x.sum(1) > 2).astype("int64")
model = tf.keras.Sequential([tf.keras.Input(shape=(4,)),
                             tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(2)])
model.compile(optimizer="adam",
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
history = model.fit(x, y, epochs=2, batch_size=32, validation_data=(x, y))
print(sorted(history.history), history.epoch)
print(len(model.evaluate(x, y)))
print(model.predict(x[:3]).shape)
model.fit(x, y, epochs=1, verbose=2)
model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(50), epochs=1, verbose=1)
print(model.evaluate(x, y, verbose=0, return_dict=True).keys())
"""


def screen_lines(text):
    """What a terminal shows: each line's text after its last carriage return, with
    backspaces dropped, trailing blanks stripped and every number replaced by N."""
    import re
    out = []
    for line in text.replace("\b", "").split("\n"):
        shown = re.sub(r"\d+(ms|us|s)/step", "T/step", line.split("\r")[-1].rstrip())
        out.append(re.sub(r"\d+(\.\d+)?(e[-+]\d+)?", "N", shown))
    return out


def fit_cases():
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(FIT_PROGRAM, {"np": np, "tf": tf})
    dump("fit.json", {"program": FIT_PROGRAM, "screen": screen_lines(buffer.getvalue())})


def rnn_cases():
    x = arr((2, 4, 3))
    w = arr((2, 4, 5))
    out = {"x": lists(x), "w": lists(w), "cases": []}
    for cls, kwargs in (("SimpleRNN", {}), ("LSTM", {}), ("GRU", {}),
                        ("GRU", {"reset_after": False}), ("LSTM", {"go_backwards": True})):
        layer = getattr(tf.keras.layers, cls)(5, return_sequences=True, return_state=True,
                                              **kwargs)
        layer.build((None, 4, 3))
        values = [arr(tuple(v.shape), 0.5) for v in layer.weights]
        for v, value in zip(layer.weights, values, strict=True):
            v.assign(value)
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            seq, *states = layer(xt)
            loss = tf.reduce_sum(seq * w) + tf.reduce_sum(states[-1])
        grads = tape.gradient(loss, [xt] + layer.trainable_weights)
        out["cases"].append({"layer": cls, "kwargs": kwargs, "weights": [lists(v) for v in values],
                             "sequence": lists(seq), "states": [lists(s) for s in states],
                             "grads": [lists(g) for g in grads]})
    dump("rnn.json", out)


SCHEDULES = [
    ("ExponentialDecay", [0.1, 10, 0.5], {}),
    ("ExponentialDecay", [0.1, 10, 0.5], {"staircase": True}),
    ("PiecewiseConstantDecay", [[5, 15], [1.0, 0.5, 0.1]], {}),
    ("InverseTimeDecay", [0.1, 10, 0.5], {}),
    ("CosineDecay", [0.1, 20], {}),
    ("CosineDecay", [0.1, 20], {"alpha": 0.1, "warmup_target": 0.2, "warmup_steps": 5}),
    ("PolynomialDecay", [0.1, 20, 0.01], {"power": 2.0}),
    ("PolynomialDecay", [0.1, 20, 0.01], {"cycle": True}),
]
SCHEDULE_STEPS = [0, 3, 5, 12, 15, 25, 40]


def schedule_cases():
    S = tf.keras.optimizers.schedules
    cases = []
    for cls, args, kwargs in SCHEDULES:
        schedule = getattr(S, cls)(*args, **kwargs)
        cases.append([float(schedule(s)) for s in SCHEDULE_STEPS])
    opt = tf.keras.optimizers.SGD(S.ExponentialDecay(0.1, 1, 0.5))
    v = tf.Variable(1.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), v)])
    dump("schedules.json", {"schedules": SCHEDULES, "steps": SCHEDULE_STEPS, "rates": cases,
                            "sgd_variable": float(v.numpy()),
                            "sgd_rate_after": float(opt.learning_rate)})


def extra_loss_metric_cases():
    y_true, y_pred = arr((5, 3)), arr((5, 3), 2.0)
    probs_t = tf.nn.softmax(arr((5, 3))).numpy()
    probs_p = tf.nn.softmax(arr((5, 3))).numpy()
    counts = RNG.poisson(2.0, (5, 3)).astype(np.float32)
    rates = RNG.uniform(0.5, 3.0, (5, 3)).astype(np.float32)
    L, M = tf.keras.losses, tf.keras.metrics
    labels = np.array([0, 2, 1, 1, 2])
    bin_true = (RNG.random(12) > 0.5).astype(np.float32)
    bin_pred = RNG.random(12).astype(np.float32)
    precision, recall = M.Precision(), M.Recall()
    precision.update_state(bin_true, bin_pred)
    recall.update_state(bin_true, bin_pred)
    multi = M.Precision(thresholds=[0.3, 0.6])
    multi.update_state(bin_true, bin_pred)
    topk = M.SparseTopKCategoricalAccuracy(k=2)
    topk.update_state(labels, probs_p)
    rmse = M.RootMeanSquaredError()
    rmse.update_state(y_true, y_pred)
    dump("extra.json", {
        "y_true": lists(y_true), "y_pred": lists(y_pred), "probs_t": lists(probs_t),
        "probs_p": lists(probs_p), "counts": lists(counts), "rates": lists(rates),
        "labels": lists(labels), "bin_true": lists(bin_true), "bin_pred": lists(bin_pred),
        "huber": float(L.Huber()(y_true, y_pred)),
        "huber_delta": float(L.Huber(delta=0.5)(y_true, y_pred)),
        "kl_divergence": float(L.KLDivergence()(probs_t, probs_p)),
        "poisson": float(L.Poisson()(counts, rates)),
        "cosine_similarity": float(L.CosineSimilarity()(y_true, y_pred)),
        "precision": float(precision.result()), "recall": float(recall.result()),
        "precision_thresholds": lists(multi.result()),
        "sparse_top_2": float(topk.result()), "rmse": float(rmse.result())})


def conv1d_cases():
    import keras
    keras.backend.clear_session()
    x = np.random.default_rng(0).standard_normal((2, 7, 3)).astype(np.float32)
    kernel = np.arange(36, dtype=np.float32).reshape(3, 3, 4) / 50
    cases = []
    for padding, strides in (("valid", 2), ("same", 2), ("causal", 1)):
        layer = tf.keras.layers.Conv1D(4, 3, strides=strides, padding=padding)
        layer.build((None, 7, 3))
        layer.kernel.assign(kernel)
        cases.append({"padding": padding, "strides": strides, "name": layer.name,
                      "paths": [v.path for v in layer.weights], "output": lists(layer(x))})
    dump("conv1d.json", {
        "x": lists(x), "kernel": lists(kernel), "cases": cases,
        "max_pool": lists(tf.keras.layers.MaxPooling1D()(x)),
        "avg_pool_same": lists(tf.keras.layers.AveragePooling1D(3, 2, padding="same")(x))})


def functional_cases():
    import contextlib
    import io

    import keras
    keras.backend.clear_session()
    inputs = tf.keras.Input(shape=(784,), name="digits")
    x1 = tf.keras.layers.Dense(64, activation="relu")(inputs)
    x2 = tf.keras.layers.Dense(64, activation="relu")(x1)
    outputs = tf.keras.layers.Dense(10, name="predictions")(x2)
    model = tf.keras.Model(inputs=inputs, outputs=outputs)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        model.summary()
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(3,))
    c = tf.keras.layers.Add()([tf.keras.layers.Dense(3)(a), b])
    two = tf.keras.Model([a, b], c)
    dump("functional.json", {
        "reprs": [repr(inputs), repr(x1)], "name": model.name,
        "layers": [layer.name for layer in model.layers],
        "paths": [v.path for v in model.trainable_variables],
        "summary": buffer.getvalue().splitlines(), "two_name": two.name,
        "two_layers": [layer.name for layer in two.layers]})


def wrapper_cases():
    x = arr((2, 4, 3))
    out = {"x": lists(x), "cases": []}
    for merge_mode, sequences in (("concat", True), ("sum", False), ("ave", True)):
        layer = tf.keras.layers.Bidirectional(
            tf.keras.layers.GRU(2, return_sequences=sequences), merge_mode=merge_mode)
        layer(x)
        values = [arr(tuple(v.shape), 0.5) for v in layer.weights]
        for v, value in zip(layer.weights, values, strict=True):
            v.assign(value)
        out["cases"].append({"merge_mode": merge_mode, "sequences": sequences,
                             "weights": [lists(v) for v in values], "output": lists(layer(x))})
    dense = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
    dense(x)
    values = [arr(tuple(v.shape)) for v in dense.weights]
    for v, value in zip(dense.weights, values, strict=True):
        v.assign(value)
    out["time_distributed"] = {"weights": [lists(v) for v in values], "output": lists(dense(x))}
    dump("wrappers.json", out)


def main():
    os.makedirs(OUT, exist_ok=True)
    tf.keras.utils.set_random_seed(0)
    optimizer_cases()
    loss_cases()
    metric_cases()
    dense_cases()
    naming_cases()
    summary_cases()
    conv_cases()
    normalization_cases()
    fit_cases()
    rnn_cases()
    schedule_cases()
    extra_loss_metric_cases()
    conv1d_cases()
    functional_cases()
    wrapper_cases()
    print("TensorFlow", tf.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
