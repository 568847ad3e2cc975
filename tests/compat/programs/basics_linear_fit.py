"""Fit a curve with Variables, a tape and an optimizer (in the spirit of guide/basics)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(42)
x = tf.constant(np.linspace(-2, 2, 201), dtype=tf.float32)


def f(x):
    return x**2 + 2 * x - 5


noise = tf.constant(rng.normal(size=201).astype(np.float32))
y = f(x) + noise


class Model:
    def __init__(self):
        self.w_q = tf.Variable(0.5)
        self.w_l = tf.Variable(-0.25)
        self.b = tf.Variable(1.0)
        self.variables = self.trainable_variables = (self.w_q, self.w_l, self.b)

    def __call__(self, x):
        return self.w_q * (x**2) + self.w_l * x + self.b


quad_model = Model()
print([v.name for v in quad_model.trainable_variables])


def mse_loss(y_pred, y):
    return tf.reduce_mean(tf.square(y_pred - y))


batch_size = 32
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size)
learning_rate = 0.01
losses = []
for epoch in range(100):
    for x_batch, y_batch in dataset:
        with tf.GradientTape() as tape:
            batch_loss = mse_loss(quad_model(x_batch), y_batch)
        grads = tape.gradient(batch_loss, quad_model.variables)
        for g, v in zip(grads, quad_model.variables):
            v.assign_sub(learning_rate * g)
    loss = mse_loss(quad_model(x), y)
    losses.append(loss)
    if epoch % 10 == 0:
        print(f"Mean squared error for step {epoch}: {loss.numpy():0.3f}")

print(f"w_q={quad_model.w_q.numpy():.4f} w_l={quad_model.w_l.numpy():.4f} "
      f"b={quad_model.b.numpy():.4f}")

opt = tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.5)
w = tf.Variable([0.0, 0.0, 0.0])
feats = tf.stack([x**2, x, tf.ones_like(x)], axis=1)
for step in range(60):
    with tf.GradientTape() as tape:
        pred = tf.linalg.matvec(feats, w)
        loss = tf.reduce_mean((pred - y) ** 2)
    opt.apply_gradients([(tape.gradient(loss, w), w)])
    if step % 20 == 0:
        print(step, round(float(loss), 4))
print(np.round(w.numpy(), 3), int(opt.iterations))
