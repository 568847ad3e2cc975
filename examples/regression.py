"""Fit y = 5x + 3 by per-sample GradientTape steps (seed000) and time the 2,000 tape steps.

Usage:
    PYTHONPATH=src python examples/regression.py [regression.png]
"""
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import tapeflow as tf  # noqa: E402

W_TARGET, B_TARGET = 5, 3
EPOCHS = 2
LR = 1e-2

tf.keras.utils.set_random_seed(0)   # Python, NumPy and TF seeds: Keras initializers too
x_data = tf.random.normal(shape=(1000,), dtype=tf.float32)
y_data = W_TARGET * x_data + B_TARGET

w = tf.Variable(0, dtype=tf.float32)
b = tf.Variable(0, dtype=tf.float32)


def loss_func(target, pred):
    return (target - pred) ** 2


w_trace, b_trace = [w.numpy()], [b.numpy()]
start = time.perf_counter()
for _ in range(EPOCHS):
    for x, y in zip(x_data, y_data):
        with tf.GradientTape() as tape:
            pred = w * x + b
            loss = loss_func(target=y, pred=pred)
        gradients = tape.gradient(loss, [w, b])
        w.assign_sub(LR * gradients[0])
        b.assign_sub(LR * gradients[1])
        w_trace.append(w.numpy())
        b_trace.append(b.numpy())
elapsed = time.perf_counter() - start

fig, ax = plt.subplots(figsize=(12, 6))
ax.plot(w_trace, label="Weight")
ax.plot(b_trace, label="Bias")
ax.axhline(W_TARGET, color="grey", linestyle=":")
ax.axhline(B_TARGET, color="grey", linestyle=":")
ax.set_xlabel("tape step")
ax.legend()
ax.set_title(f"Weight: {w.numpy():.2f}, Bias: {b.numpy():.2f}")
out = sys.argv[1] if len(sys.argv) > 1 else "regression.png"
fig.savefig(out)
print(f"Weight: {w.numpy():.2f}, Bias: {b.numpy():.2f}")
steps = EPOCHS * len(x_data)
print(f"{steps} tape steps in {elapsed:.3f} s ({elapsed / steps * 1e6:.0f} us per step)")
