"""Sparse gradients: gathering rows of a variable gives IndexedSlices, as in TensorFlow."""
import tensorflow as tf

table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    rows = tf.gather(table, [0, 2, 2])
    loss = tf.reduce_sum(rows)
g = tape.gradient(loss, table)
print(type(g).__name__)
print(g.indices, g.values, g.dense_shape)
print(tf.convert_to_tensor(g))
opt = tf.keras.optimizers.SGD(0.5)
opt.apply_gradients([(g, table)])
print(table.numpy())

emb = tf.keras.layers.Embedding(5, 2, embeddings_initializer="ones")
with tf.GradientTape() as tape:
    out = tf.reduce_sum(emb(tf.constant([[1, 3]])))
print(type(tape.gradient(out, emb.embeddings)).__name__)
