"""One trace per SparseTensorSpec (dense shape and dtype), not per indices, as TensorFlow."""
import tapeflow as tf


def params(fn):
    """The input lines of every concrete signature (the output shapes aside)."""
    text = fn.pretty_printed_concrete_signatures()
    return [ln.strip() for ln in text.splitlines() if "SparseTensorSpec" in ln]


@tf.function
def row_sums(x):
    print("tracing row_sums")
    return tf.sparse.reduce_sum(x, axis=1)


a = tf.sparse.from_dense([[1.0, 0, 2.0], [0, 0, 3.0]])
b = tf.sparse.from_dense([[0, 5.0, 0], [0, 0, 0]])
c = tf.sparse.from_dense([[1.0, 0], [0, 2.0], [3.0, 0]])
print(row_sums(a))
print(row_sums(b))            # other indices, same spec: no new trace
print(row_sums(c))            # another dense shape: a new trace
print(row_sums.experimental_get_tracing_count())
print(params(row_sums))
print(row_sums(tf.sparse.from_dense([[1, 0], [0, 2]])))     # int32 values
print(row_sums.experimental_get_tracing_count())
cf = row_sums.get_concrete_function(tf.SparseTensorSpec([None, 3], tf.float32))
print(row_sums.experimental_get_tracing_count())
print(cf.structured_input_signature)
print(row_sums(a), row_sums.experimental_get_tracing_count())


@tf.function(reduce_retracing=True)
def doubled(x):
    print("tracing doubled")
    return x.values * 2


print(doubled(a))
print(doubled(c))
print(doubled(tf.sparse.from_dense([[1.0, 0, 0, 4.0]])))
print(doubled.experimental_get_tracing_count())
print(params(doubled))


@tf.function
def scaled(x):
    print("tracing scaled")
    return tf.sparse.map_values(tf.multiply, x, 2.0)


print(scaled(a))
print(scaled(b), scaled.experimental_get_tracing_count())


@tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
def signed(x):
    print("tracing signed")
    return tf.sparse.reduce_sum(x)


print(signed(tf.sparse.from_dense([[1.0, 0, 0, -2.0]])))
print(signed(tf.sparse.from_dense([[0, 3.0, 0, 0], [1.0, 1.0, 0, 0]])))
print(signed.experimental_get_tracing_count())
print(params(signed))
