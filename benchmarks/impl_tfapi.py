"""The workloads in TensorFlow's eager API: run by ``tapeflow`` and by ``tensorflow`` itself.

The same source serves both, so the two can only differ in the engine underneath. Only the
public API the seed programs use appears here.
"""
import contextlib

import numpy as np
from _spec import BATCH_W2, LR_W1, LR_W2, LR_W3


def w1(tf, data, steps):
    epochs = 2
    w_target, b_target = 5, 3
    x_data = tf.constant(data["x"][: steps // epochs])
    y_data = w_target * x_data + b_target
    w = tf.Variable(0, dtype=tf.float32)
    b = tf.Variable(0, dtype=tf.float32)

    def loss_func(target, pred):
        return (target - pred) ** 2

    def run():
        w_trace, b_trace = [w.numpy()], [b.numpy()]
        for _ in range(epochs):
            for x, y in zip(x_data, y_data):  # noqa: B905 - as seed000
                with tf.GradientTape() as tape:
                    pred = w * x + b
                    loss = loss_func(target=y, pred=pred)
                gradients = tape.gradient(loss, [w, b])
                w.assign_sub(LR_W1 * gradients[0])
                b.assign_sub(LR_W1 * gradients[1])
                w_trace.append(w.numpy())
                b_trace.append(b.numpy())
        return float(w_trace[-1])

    return run


def _mlp_vars(tf, data, n_layers):
    out = []
    for i in range(n_layers):
        out.append(tf.Variable(data[f"W{i}"]))
        out.append(tf.Variable(data[f"b{i}"]))
    return out


def w2(tf, data, steps):
    x, y = data["x"], data["y"]
    n_batches = len(y) // BATCH_W2
    batches = [(tf.constant(x[i * BATCH_W2:(i + 1) * BATCH_W2]),
                tf.constant(y[i * BATCH_W2:(i + 1) * BATCH_W2])) for i in range(n_batches)]
    params = _mlp_vars(tf, data, 3)
    W0, b0, W1, b1, W2, b2 = params

    def run():
        for step in range(steps):
            xb, yb = batches[step % n_batches]
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(xb, W0) + b0)
                h = tf.nn.relu(tf.matmul(h, W1) + b1)
                logits = tf.matmul(h, W2) + b2
                loss = tf.reduce_mean(
                    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits))
            grads = tape.gradient(loss, params)
            for v, g in zip(params, grads, strict=True):
                v.assign_sub(LR_W2 * g)
        return float(loss.numpy())

    return run


def w3(tf, data, steps):
    x, y = tf.constant(data["x"]), tf.constant(data["y"])
    params = _mlp_vars(tf, data, 3)
    W0, b0, W1, b1, W2, b2 = params

    def run():
        for _ in range(steps):
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, W0) + b0)
                h = tf.nn.relu(tf.matmul(h, W1) + b1)
                pred = tf.matmul(h, W2) + b2
                loss = tf.reduce_mean(tf.square(pred - y))
            grads = tape.gradient(loss, params)
            for v, g in zip(params, grads, strict=True):
                v.assign_sub(LR_W3 * g)
        return float(loss.numpy())

    return run


def w5(tf, data, steps):
    W, x, v = tf.constant(data["W"]), tf.constant(data["x"]), tf.constant(data["v"])

    def run():
        for _ in range(steps):
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    f = tf.reduce_sum(tf.square(tf.tanh(tf.matmul(W, x))))
                g = inner.gradient(f, x)
            hv = outer.gradient(g, x, output_gradients=v)
        return float(np.sum(hv.numpy()))

    return run


def micro(tf, timer):
    """Per-call times of the smallest operations.

    ``timer(stmt, ns, around=None)`` returns per-call seconds; ``around`` is a context
    manager factory entered around each timed chunk (here: a fresh recording tape).
    """
    ns = {"tf": tf, "x": tf.constant(2.0), "y": tf.constant(3.0),
          "v": tf.Variable(0.0), "c": tf.constant(1e-3)}

    @contextlib.contextmanager
    def recording():
        with tf.GradientTape() as tape:
            tape.watch(ns["x"])
            yield

    out = {"op_no_tape": timer("x * y", ns),
           "op_on_tape": timer("x * y", ns, around=recording)}
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(ns["x"])
        z = ns["x"] * ns["y"]
    ns.update(tape=tape, z=z)
    out["backward_1op"] = timer("tape.gradient(z, x)", ns)
    out["step_1op"] = timer(
        "with tf.GradientTape() as t:\n    t.watch(x)\n    z = x * y\nt.gradient(z, x)", ns)
    out["assign_sub"] = timer("v.assign_sub(c)", ns)
    return out
