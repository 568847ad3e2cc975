"""Record TensorFlow's answers for the autodiff tests into tests/fixtures/core/autodiff.json.

Run where TensorFlow is installed (never imported by tapeflow or its tests):

    /work/tfenv/bin/python tools/record_core_autodiff.py
"""
import json
import os

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "core", "autodiff.json")

RNG = np.random.default_rng(2024)
W = RNG.normal(size=(4, 3)).astype(np.float32)
B = RNG.normal(size=4).astype(np.float32)
X = RNG.normal(size=3).astype(np.float32)
XB = RNG.normal(size=(2, 3)).astype(np.float32)
V = RNG.normal(size=3).astype(np.float32)


def dense(x):
    return tf.tanh(tf.squeeze(tf.matmul(tf.constant(W), tf.expand_dims(x, 1)), 1) + B)


def scalar_loss(x):
    return tf.reduce_sum(tf.sigmoid(dense(x)) ** 2)


def main():
    out = {"W": W.tolist(), "B": B.tolist(), "X": X.tolist(), "XB": XB.tolist(), "V": V.tolist()}
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = dense(x)
    out["jacobian"] = tape.jacobian(y, x).numpy().tolist()
    xb = tf.constant(XB)
    with tf.GradientTape() as tape:
        tape.watch(xb)
        yb = tf.nn.softmax(tf.matmul(xb, tf.constant(W), transpose_b=True))
    out["batch_jacobian_softmax"] = tape.batch_jacobian(yb, xb).numpy().tolist()
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = dense(x)
    out["jvp"] = acc.jvp(y).numpy().tolist()
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = scalar_loss(x)
        g = tape.gradient(loss, x)
    out["hvp"] = acc.jvp(g).numpy().tolist()
    theoretical, numerical = tf.test.compute_gradient(
        lambda a, b: tf.reduce_prod(a) * tf.sin(b), [X, np.float32(0.3) * V])
    out["compute_gradient"] = {"theoretical": [t.tolist() for t in theoretical],
                               "numerical": [n.tolist() for n in numerical]}
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"wrote {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
