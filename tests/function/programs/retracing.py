"""Retracing: Python values and new shapes trace again; TensorFlow warns past a threshold."""
import tapeflow as tf


@tf.function
def double(x):
    print("tracing double with", x)
    return x * 2


for n in range(7):
    double(n)
print(double.experimental_get_tracing_count())


@tf.function(reduce_retracing=True)
def total(x):
    print("tracing total with", x)
    return tf.reduce_sum(x)


for n in range(2, 7):
    total(tf.ones([n]))
print(total.experimental_get_tracing_count())


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def next_collatz(x):
    print("tracing collatz with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
print(next_collatz(tf.constant([3, 4, 5])))
try:
    next_collatz(tf.constant([[1, 2], [3, 4]]))
except TypeError as err:
    print("TypeError:", str(err)[:60])
