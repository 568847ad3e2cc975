"""TensorFlow's guide "tf.data: Build TensorFlow input pipelines" (parts without files):
from_generator, windows, unbatch, padded_batch, interleave, zip, concatenate, enumerate,
take_while, scan, rejection/resampling-free parts, group_by_window, cardinality, filter,
shuffle with a seed, prefetch, cache."""
import numpy as np
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
print(dataset)
for elem in dataset:
    print(elem.numpy())
it = iter(dataset)
print(next(it).numpy())
print(dataset.reduce(0, lambda state, value: state + value).numpy())
dataset1 = tf.data.Dataset.from_tensor_slices(tf.random.uniform([4, 10], seed=1) > 2)
print(dataset1.element_spec)
dataset2 = tf.data.Dataset.from_tensor_slices(
    (tf.random.uniform([4]), tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))
print(dataset2.element_spec)
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(dataset3.element_spec)


def count(stop):
    i = 0
    while i < stop:
        yield i
        i += 1


ds_counter = tf.data.Dataset.from_generator(count, args=[25], output_types=tf.int32,
                                            output_shapes=())
for count_batch in ds_counter.repeat().batch(10).take(10):
    print(count_batch.numpy())


def gen_series():
    i = 0
    while True:
        size = i % 7 + 1
        yield i, np.arange(size)
        i += 1


ds_series = tf.data.Dataset.from_generator(
    gen_series, output_signature=(tf.TensorSpec(shape=(), dtype=tf.int32),
                                  tf.TensorSpec(shape=(None,), dtype=tf.int32)))
print(ds_series)
ds_series_batch = ds_series.shuffle(20, seed=1).padded_batch(10)
ids, sequence_batch = next(iter(ds_series_batch))
print(ids.shape, sequence_batch.shape)

inc_dataset = tf.data.Dataset.range(100)
dec_dataset = tf.data.Dataset.range(0, -100, -1)
dataset = tf.data.Dataset.zip((inc_dataset, dec_dataset))
batched_dataset = dataset.batch(4)
for batch in batched_dataset.take(4):
    print([arr.numpy() for arr in batch])
print(batched_dataset)
batched_dataset = dataset.batch(7, drop_remainder=True)
print(batched_dataset)
dataset = tf.data.Dataset.range(100)
dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
dataset = dataset.padded_batch(4, padded_shapes=(None,))
for batch in dataset.take(2):
    print(batch.numpy())
    print()

range_ds = tf.data.Dataset.range(100000)
batches = range_ds.batch(10, drop_remainder=True)
for batch in batches.take(5):
    print(batch.numpy())


def dense_1_step(batch):
    return batch[:-1], batch[1:]


predict_dense_1_step = batches.map(dense_1_step)
for features, label in predict_dense_1_step.take(3):
    print(features.numpy(), " => ", label.numpy())
window_size = 5
windows = range_ds.window(window_size, shift=1)
for sub_ds in windows.take(5):
    print(sub_ds)
for x in windows.flat_map(lambda x: x).take(30):
    print(x.numpy(), end=" ")
print()


def sub_to_batch(sub):
    return sub.batch(window_size, drop_remainder=True)


for example in windows.flat_map(sub_to_batch).take(5):
    print(example.numpy())

print(list(tf.data.Dataset.range(6).batch(2).unbatch().as_numpy_iterator()))
print(list(tf.data.Dataset.range(5).enumerate(start=10).as_numpy_iterator()))
print(list(tf.data.Dataset.range(10).take_while(lambda x: x < 4).as_numpy_iterator()))
print(list(tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64),
                                         lambda s, x: (s + x, s * 10)).as_numpy_iterator()))
print(tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0).cardinality().numpy())
print(tf.data.Dataset.range(10).cardinality().numpy(), tf.data.experimental.UNKNOWN_CARDINALITY)
print(list(tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(10, 12)).as_numpy_iterator()))
print(list(tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3),
                                               cycle_length=2, block_length=2).as_numpy_iterator()))
ds = tf.data.Dataset.range(10)
grouped = ds.group_by_window(key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(3),
                             window_size=3)
print([b.tolist() for b in grouped.as_numpy_iterator()])
shuffled_a = tf.data.Dataset.range(8).shuffle(8, seed=42, reshuffle_each_iteration=False)
shuffled_b = tf.data.Dataset.range(8).shuffle(8, seed=42, reshuffle_each_iteration=False)
print(list(shuffled_a.as_numpy_iterator()) == list(shuffled_b.as_numpy_iterator()))
print(list(tf.data.Dataset.range(4).cache().prefetch(tf.data.AUTOTUNE).as_numpy_iterator()))
