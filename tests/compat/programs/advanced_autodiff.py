"""Higher-order gradients, Jacobians, custom gradients (guide/advanced_autodiff spirit), and
the guide's cell saving a custom gradient in a SavedModel."""
import os
import tempfile

import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print("dy_dx:", dy_dx.numpy())
print("d2y_dx2:", d2y_dx2.numpy())

x = tf.Variable(2.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = x * x
    z = x_sq + y_sq
print(t.gradient(z, x).numpy())

x = tf.linspace(-2.0, 2.0, 5)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.nn.sigmoid(x + delta)
dy_dx = tape.jacobian(y, delta)
print(y.shape, dy_dx.shape)
print(dy_dx)

x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
w = tf.Variable([[0.5, -1.0], [1.5, 0.0], [-0.5, 2.0]])
with tf.GradientTape(persistent=True) as tape:
    y = tf.nn.tanh(x @ w / 4.0)
j = tape.jacobian(y, w)
print(j.shape)
print(tf.reduce_sum(j, axis=[0, 1]))
print(tape.gradient(y, w))

x = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    y = tf.nn.softmax(x * x, axis=-1)
bj = tape.batch_jacobian(y, x)
print(bj.shape)
print(bj[1])

x = tf.Variable([0.5, -1.0])
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = tf.reduce_sum(tf.sin(x) * x[::-1])
    g = t1.gradient(y, x)
h = t2.jacobian(g, x)
print(h)


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


v = tf.Variable(2.0)
with tf.GradientTape() as t:
    output = clip_gradients(v * v)
print(t.gradient(output, v))


# the guide's save cell: the custom gradient saved with the SavedModel and used after loading
class MyModule(tf.Module):

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def call_custom_grad(self, x):
        return clip_gradients(x)


model = MyModule()
saved_dir = os.path.join(tempfile.mkdtemp(), "saved_model")
tf.saved_model.save(
    model,
    saved_dir,
    options=tf.saved_model.SaveOptions(experimental_custom_gradients=True))

# The loaded gradients will be the same as the above example.
v = tf.Variable(2.0)
loaded = tf.saved_model.load(saved_dir)
with tf.GradientTape() as t:
    output = loaded.call_custom_grad(v)
print(t.gradient(output, v))
w = tf.Variable([[3.0, 4.0], [0.0, 1.0]])
with tf.GradientTape() as t:
    output = loaded.call_custom_grad(w) * 2.0
print(t.gradient(output, w))


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


x = tf.constant(100.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print(tape.gradient(y, x))

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = tf.stop_gradient(x * x) + x
print(tape.gradient(y, x))

primals = tf.constant([1.0, 2.0])
tangents = tf.constant([1.0, 0.0])
with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
    out = primals**3
print(acc.jvp(out))
