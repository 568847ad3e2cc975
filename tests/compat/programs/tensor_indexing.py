"""Indexing, slicing and reshaping tensors (in the spirit of guide/tensor)."""
import tensorflow as tf

rank_1 = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
print("First:", rank_1[0].numpy())
print("Last:", rank_1[-1].numpy())
print("Everything:", rank_1[:].numpy())
print("Before 4:", rank_1[:4].numpy())
print("From 4 to the end:", rank_1[4:].numpy())
print("From 2, before 7:", rank_1[2:7].numpy())
print("Every other item:", rank_1[::2].numpy())
print("Reversed:", rank_1[::-1].numpy())

m = tf.reshape(tf.range(12, dtype=tf.float32), (3, 4))
print(m[1, 1].numpy())
print("Second row:", m[1, :].numpy())
print("Second column:", m[:, 1].numpy())
print("Last row:", m[-1, :].numpy())
print("First item in last column:", m[0, -1].numpy())
print("Skip the first row:")
print(m[1:, :].numpy(), "\n")
print(m[..., 2])
print(m[:, tf.newaxis, 1:3].shape)

t = tf.reshape(tf.range(24), (2, 3, 4))
print(t[:, :, 3])
print(tf.reshape(t, [-1]))
print(tf.reshape(t, [2 * 3, 4]))
print(tf.reshape(t, [2, -1]))
print(tf.transpose(t, [2, 0, 1]).shape)
print(tf.expand_dims(rank_1, 0).shape, tf.squeeze(tf.ones((1, 3, 1))).shape)

print(tf.concat([m, m], axis=0).shape, tf.stack([m, m], axis=1).shape)
print(tf.gather(rank_1, [0, 3, 5]))
print(tf.gather(m, [2, 0], axis=1))
print(tf.gather_nd(m, [[0, 1], [2, 3]]))
print(tf.boolean_mask(rank_1, rank_1 % 2 == 0))
print(tf.where(m > 5.0, m, tf.zeros_like(m)))
print(tf.split(m, 2, axis=1)[1])
print(tf.tile(tf.constant([[1, 2]]), [2, 3]))
print(tf.one_hot([0, 2, 1], depth=3))
print(tf.unstack(tf.constant([[1, 2], [3, 4]]))[1])

try:
    rank_1[10]
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
try:
    tf.gather(rank_1, [11])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "|", e)
