"""tf.function: tracing, retracing on new signatures, Python side effects, tf.print."""
import tensorflow as tf


@tf.function
def add(a, b):
    print("Tracing with", a, b)
    return a + b


print(add(tf.constant(1), tf.constant(2)))
print(add(tf.constant(3), tf.constant(4)))
print(add(tf.constant(1.5), tf.constant(2.5)))
print(add(1, 2))
print(add(1, 3))
print(add.experimental_get_tracing_count())

v = tf.Variable(1.0)


@tf.function
def step(x):
    v.assign_add(x)
    return v.read_value() * 2.0


print(step(tf.constant(2.0)), v.numpy())
print(step(tf.constant(3.0)), v.numpy())
concrete = add.get_concrete_function(tf.TensorSpec(shape=[None], dtype=tf.float32),
                                     tf.TensorSpec(shape=[None], dtype=tf.float32))
print(concrete(tf.constant([1.0]), tf.constant([2.0])))
print(concrete.structured_outputs)
