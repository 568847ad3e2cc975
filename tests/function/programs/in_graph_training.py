"""A whole epoch inside one tf.function: a dataset loop, a tape and tf.print per step."""
import numpy as np

import tapeflow as tf

x = np.linspace(-1.0, 1.0, 32).astype("float32")
y = (3.0 * x - 1.0).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
w = tf.Variable(0.0)
b = tf.Variable(0.0)


@tf.function
def train_one_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(w * xb + b - yb))
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.5 * gw)
    b.assign_sub(0.5 * gb)
    return loss


@tf.function
def train_epoch(ds):
    step = 0
    loss = 0.0
    for xb, yb in ds:
        step += 1
        loss = train_one_step(xb, yb)
        tf.print("Step", step, "loss", loss)
    return step, loss


for epoch in range(3):
    steps, last = train_epoch(dataset)
    print("epoch", epoch, int(steps), round(float(last), 4))
print(round(float(w.numpy()), 3), round(float(b.numpy()), 3))
print(train_epoch.experimental_get_tracing_count())
