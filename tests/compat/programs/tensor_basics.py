"""Tensors: constants, dtypes, shapes, arithmetic and conversion (in the spirit of guide/tensor)."""
import numpy as np
import tensorflow as tf

rank_0 = tf.constant(4)
rank_1 = tf.constant([2.0, 3.0, 4.0])
rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
print(rank_0)
print(rank_1)
print(rank_2)
print(repr(rank_1))

cube = tf.reshape(tf.range(24), (2, 3, 4))
print("dtype:", cube.dtype, "| rank:", cube.ndim, "| shape:", cube.shape)
print("size:", tf.size(cube).numpy(), "| tf.rank:", tf.rank(cube).numpy())
print("axis -1 length:", cube.shape[-1], "| as list:", cube.shape.as_list())

a = tf.constant([[1, 2], [3, 4]])
b = tf.ones([2, 2], dtype=tf.int32)
print(tf.add(a, b), "\n")
print(a * b, "\n")
print(a @ b, "\n")

c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
print(tf.reduce_max(c))
print(tf.math.argmax(c))
print(tf.nn.softmax(c))
print(tf.reduce_sum(c, axis=1, keepdims=True))
print(tf.reduce_mean(c, axis=0))

x = tf.constant([1, 2, 3])
y = tf.constant(2)
print(tf.multiply(x, 2))
print(x * y)
print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))
col = tf.reshape(x, [3, 1])
row = tf.range(1, 5)
print(col * row)

as_float = tf.cast(tf.constant([2.2, 3.3, 4.4], dtype=tf.float64), dtype=tf.float16)
print(tf.cast(as_float, dtype=tf.uint8))

array = np.array(rank_2)
print(type(array).__name__, array.dtype, array.shape)
print(rank_2.numpy().sum())
print(tf.convert_to_tensor([1.5, 2.5]))
print(tf.convert_to_tensor(np.arange(3, dtype=np.int64)))
print(tf.constant([True, False]).dtype, tf.constant(1 + 2j).dtype, tf.constant(2**40).dtype)
print(tf.zeros((2, 2)), tf.ones_like(x))
print(tf.fill([2, 3], 7.5))
print(tf.eye(3))
print(tf.linspace(0.0, 1.0, 5))

try:
    tf.constant([1.0]) + tf.constant([1])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "|", e)
try:
    tf.reshape(cube, [5, -1])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "|", e)
