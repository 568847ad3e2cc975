"""tf.data pipelines: slices, map, filter, batch, zip, reduce, element specs."""
import numpy as np
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
print(ds.element_spec, ds.cardinality().numpy())
for elem in ds:
    print(elem.numpy(), end=" ")
print()
print(list(ds.as_numpy_iterator()))

pairs = tf.data.Dataset.from_tensor_slices((np.arange(6, dtype=np.float32), np.arange(6) % 2))
print(pairs.element_spec)
for a, b in pairs.take(2):
    print(a, b)

squares = tf.data.Dataset.range(10).map(lambda x: x * x).filter(lambda x: x % 2 == 0)
print(list(squares.as_numpy_iterator()))
batched = tf.data.Dataset.range(7).batch(3)
print([b.numpy().tolist() for b in batched], batched.element_spec)
print([b.shape for b in tf.data.Dataset.range(7).batch(3, drop_remainder=True)])
print(list(tf.data.Dataset.range(3).repeat(2).as_numpy_iterator()))
print(list(tf.data.Dataset.range(10).skip(3).take(4).as_numpy_iterator()))
print(list(tf.data.Dataset.range(10).shard(3, 1).as_numpy_iterator()))
print(list(tf.data.Dataset.range(4).enumerate(start=10).as_numpy_iterator()))

z = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(3).map(lambda v: -v)))
print(list(z.as_numpy_iterator()))
d = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0], "b": [[1, 2], [3, 4]]})
print(d.element_spec)
for item in d:
    print(item["a"].numpy(), item["b"].numpy())

total = tf.data.Dataset.range(5).reduce(np.int64(0), lambda state, v: state + v)
print(total)
print(tf.data.Dataset.range(5).concatenate(tf.data.Dataset.range(2)).cardinality())
print(len(tf.data.Dataset.range(12).batch(5)))


def gen():
    for i in range(3):
        yield i, [float(i)] * 2


g = tf.data.Dataset.from_generator(gen, output_types=(tf.int32, tf.float32))
for i, v in g:
    print(i.numpy(), v.numpy())

features = np.arange(12, dtype=np.float32).reshape(6, 2)
labels = np.array([0, 1, 0, 1, 1, 0])
ds = tf.data.Dataset.from_tensor_slices((features, labels))
ds = ds.map(lambda f, lab: (f / 10.0, tf.one_hot(lab, 2))).batch(4).prefetch(tf.data.AUTOTUNE)
for f, lab in ds:
    print(f.shape, lab.shape, tf.reduce_sum(lab, axis=0).numpy())
try:
    tf.data.Dataset.range(3).batch(0)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, e)
