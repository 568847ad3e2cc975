"""Keras layers Permute, RepeatVector, UnitNormalization, ActivityRegularization,
GaussianNoise, GaussianDropout and AlphaDropout (values where deterministic; shapes,
statistics and configs where random), Discretization's positional bin_boundaries, and an
LSTM or augmentation layer first in a model trained by the compiled fit (the batch
dimension unknown while tracing)."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
print(layers.Permute((2, 1))(x).numpy().tolist())
print(layers.Permute((2, 1)).compute_output_shape((None, 3, 4)))
try:
    layers.Permute((1, 3))
except ValueError as e:
    print("ValueError:", e)
print(layers.RepeatVector(3)(np.array([[1.0, 2.0]], np.float32)).numpy().tolist())
print(layers.RepeatVector(3).get_config()["n"])
u = layers.UnitNormalization()(np.array([[3.0, 4.0], [0.0, 0.0], [1e-20, 0.0]], np.float32))
print(np.round(u.numpy(), 6).tolist())
print(layers.UnitNormalization(axis=[1, 2])(x).numpy().sum().round(4))
reg = layers.ActivityRegularization(l1=0.1, l2=0.01)
out = reg(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))
print(out.numpy().tolist(), [round(float(v), 5) for v in reg.losses])
print(sorted(reg.get_config().items())[:3])
noise = layers.GaussianNoise(0.5, seed=1)
big = np.zeros((200, 100), np.float32)
print(np.array_equal(noise(big).numpy(), big), noise(big, training=True).shape)
n = noise(big, training=True).numpy()
print(abs(n.mean()) < 0.02, abs(n.std() - 0.5) < 0.02)
drop = layers.GaussianDropout(0.2, seed=1)
d = drop(np.ones((200, 100), np.float32), training=True).numpy()
print(abs(d.mean() - 1) < 0.02, abs(d.std() - 0.5) < 0.02)
print(sorted(drop.get_config().items()))
alpha = layers.AlphaDropout(0.2, seed=1)
normal = np.random.default_rng(1).standard_normal((400, 500)).astype(np.float32)
a_out = alpha(normal, training=True).numpy()
print(abs(a_out.mean()) < 0.01, abs(a_out.std() - 1) < 0.01,
      np.array_equal(alpha(normal).numpy(), normal))
alpha_p = -1.6732632423543772 * 1.0507009873554805      # SELU's negative saturation
a_coef = ((1 - 0.2) * (1 + 0.2 * alpha_p ** 2)) ** -0.5
dropped = a_coef * alpha_p - a_coef * alpha_p * 0.2
print(round(float(np.mean(np.isclose(a_out, dropped, rtol=0, atol=1e-5))), 2))
print(sorted(alpha.get_config().items()))
disc = layers.Discretization([0.2, 0.5])
print(disc(np.array([[0.1, 0.3, 0.9]], np.float32)).numpy().tolist())

rng = np.random.default_rng(0)
seq = tf.keras.Sequential([tf.keras.Input((5, 4)),
                           layers.LSTM(3, kernel_initializer="ones",
                                       recurrent_initializer="zeros"),
                           layers.Dense(1, kernel_initializer="ones")])
seq.compile(optimizer="sgd", loss="mse")
h = seq.fit(rng.random((6, 5, 4)).astype("float32"), rng.random((6, 1)).astype("float32"),
            batch_size=4, epochs=2, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]])
aug = tf.keras.Sequential([tf.keras.Input((6, 6, 3)), layers.RandomFlip(seed=1),
                           layers.RandomRotation(0.1, seed=1), layers.Flatten(),
                           layers.Dense(1, kernel_initializer="zeros")])
aug.compile(optimizer="sgd", loss="mse")
h = aug.fit(rng.random((6, 6, 6, 3)).astype("float32"), np.ones((6, 1), "float32"),
            batch_size=4, epochs=1, verbose=0, shuffle=False)
print(len(h.history["loss"]), bool(np.isfinite(h.history["loss"]).all()))
