"""Gradients through Python control flow, integer dtypes and state (guide/autodiff spirit)."""
import tensorflow as tf

x = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    if x > 0.0:
        result = v0
    else:
        result = v1**2
dv0, dv1 = tape.gradient(result, [v0, v1])
print(dv0)
print(dv1)
dx = tape.gradient(result, x)
print(dx)
del tape

x = tf.Variable(2.0)
for _ in range(2):
    with tf.GradientTape() as tape:
        y = x + 1
    print(isinstance(x, tf.Variable), "->", tape.gradient(y, x))
    x = x + 1

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.Variable(x.numpy() ** 2)
print(tape.gradient(y, x))

x = tf.constant(10)
with tf.GradientTape() as g:
    g.watch(x)
    y = x * x
print(g.gradient(y, x))

x0 = tf.Variable(3.0)
x1 = tf.Variable(0.0)
with tf.GradientTape() as tape:
    x1.assign_add(x0)
    y = x1**2
print(tape.gradient(y, x0))

x = tf.Variable(1.5)
with tf.GradientTape() as tape:
    y = x
    for _ in range(4):
        y = y * x + 0.5
print(tape.gradient(y, x).numpy())

x = tf.Variable([1.0, -2.0, 3.0, -4.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.where(x > 0.0, x * x, -3.0 * x))
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    y = tf.reduce_max(x) + tf.reduce_min(x * 2.0)
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.abs(x) * tf.nn.relu(x))
print(tape.gradient(y, x))

table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    rows = tf.gather(table, [0, 2, 2])
    loss = tf.reduce_sum(rows * [[1.0, 10.0]])
g = tape.gradient(loss, table)
print(tf.convert_to_tensor(g))

x = tf.Variable(0.5)
with tf.GradientTape() as tape:
    i = 0
    y = x
    while y < 10.0:
        y = y * 2.0 + x
        i += 1
print(i, tape.gradient(y, x).numpy())
