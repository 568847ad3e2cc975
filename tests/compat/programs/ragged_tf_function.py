"""tf.function over RaggedTensors: one trace per RaggedTensorSpec (its row count, ragged rank
and dtypes), not per row partition; the trace's Python side effects once per spec; another
partition of the same spec replays; concrete functions for a RaggedTensorSpec; gradients
through a ragged function; input_signature with a RaggedTensorSpec; printed signatures."""
import tensorflow as tf


@tf.function
def f(x):
    print("tracing f")
    tf.print("running f", x.flat_values)
    return tf.reduce_sum(x, axis=1) * 2.0, x * 2.0


a = tf.ragged.constant([[1., 2], [3], [4, 5, 6]])
b = tf.ragged.constant([[1.], [3, 4], [5, 6, 7]])
c = tf.ragged.constant([[1.], [3, 4]])
print(f(a))
print(f(b))
print(f(a))
print(f(c))
print(f(tf.ragged.constant([[9.], [8, 7, 6, 5]])))
print(f.experimental_get_tracing_count())
cf = f.get_concrete_function(a)
print(cf.structured_input_signature)
print(cf(b))
print(f.pretty_printed_concrete_signatures())

v = tf.Variable(2.0)


@tf.function
def g(x):
    return tf.reduce_sum(x * v)


with tf.GradientTape() as t:
    y = g(a) + g(b)
print(y, t.gradient(y, v))
print(g.experimental_get_tracing_count())


@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def max_and_min(rt):
    return (tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1))


print(max_and_min(tf.ragged.constant([[1, 2], [3], [4, 5, 6]])))
print(max_and_min(tf.ragged.constant([[1, 2], [3, 9, 9]])))
print(max_and_min.experimental_get_tracing_count())


@tf.function
def increment(x):
    return x + 1


print(increment(tf.ragged.constant([[[1]], [[3, 4, 5]], [[4]]])))
print(increment(tf.ragged.constant([[[1], [2, 2]], [[3, 4, 5]], []])))
print(increment(tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2)))
print(increment(tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 3)))
print(increment(tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)))
print(increment.experimental_get_tracing_count())
cf = increment.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int64))
print(cf.structured_input_signature)
print(cf(tf.ragged.constant([[7, 8, 9], [], [1]], dtype=tf.int64)))
print(increment.experimental_get_tracing_count())
