"""Gradient tapes: scalars, variables, structures, persistence (in the spirit of guide/autodiff)."""
import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x**2
dy_dx = tape.gradient(y, x)
print(dy_dx.numpy())

w = tf.Variable([[1.0, -0.5], [2.0, 0.25], [0.5, 1.5]], name="w")
b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
x = [[1.0, 2.0, 3.0]]
with tf.GradientTape(persistent=True) as tape:
    y = x @ w + b
    loss = tf.reduce_mean(y**2)
[dl_dw, dl_db] = tape.gradient(loss, [w, b])
print(w.shape, dl_dw.shape)
print(dl_dw)
print(dl_db)
my_vars = {"w": w, "b": b}
grad = tape.gradient(loss, my_vars)
print(grad["b"])
del tape

layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones")
x = tf.constant([[1.0, 2.0, 3.0]])
with tf.GradientTape() as tape:
    y = layer(x)
    loss = tf.reduce_mean(y**2)
grad = tape.gradient(loss, layer.trainable_variables)
for var, g in zip(layer.trainable_variables, grad):
    print(f"{var.name}, shape: {g.shape}")

x0 = tf.Variable(3.0, name="x0")
x1 = tf.Variable(3.0, name="x1", trainable=False)
x2 = tf.Variable(2.0, name="x2") + 1.0
x3 = tf.constant(3.0, name="x3")
with tf.GradientTape() as tape:
    y = (x0**2) + (x1**2) + (x2**2)
grad = tape.gradient(y, [x0, x1, x2, x3])
for g in grad:
    print(g)
print([var.name for var in tape.watched_variables()])

x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x**2
print(tape.gradient(y, x).numpy())

x0 = tf.Variable(0.0)
x1 = tf.Variable(10.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x1)
    y0 = tf.math.sin(x0)
    y1 = tf.nn.softplus(x1)
    y = y0 + y1
    ys = tf.reduce_sum(y)
grad = tape.gradient(ys, {"x0": x0, "x1": x1})
print("dy/dx0:", grad["x0"])
print("dy/dx1:", grad["x1"].numpy())

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y
print(tape.gradient(z, x).numpy())
print(tape.gradient(y, x).numpy())
del tape

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y0 = x**2
    y1 = 1 / x
print(tape.gradient({"y0": y0, "y1": y1}, x).numpy())

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * [3.0, 4.0]
print(tape.gradient(y, x).numpy())

x = tf.linspace(-10.0, 10.0, 9)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.sigmoid(x)
print(tape.gradient(y, x))

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq
grad = t.gradient(z, {"x": x, "y": y})
print("dz/dx:", grad["x"])
print("dz/dy:", grad["y"])

x = tf.Variable([2.0, 2.0])
y = tf.Variable(3.0)
with tf.GradientTape() as tape:
    z = y**2
print(tape.gradient(z, x))
with tf.GradientTape() as tape:
    z = y**2
print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
