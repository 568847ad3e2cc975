"""Layers as building blocks: weights, builds, training flags and shapes
(in the spirit of the Keras guide on layers and models)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(9)
x = tf.constant(rng.normal(size=(2, 6, 6, 3)).astype(np.float32))

conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
print(conv.built, conv.weights)
y = conv(x)
print(conv.built, [w.shape for w in conv.weights], y.shape)
print([w.name for w in conv.weights], [w.path for w in conv.weights])
conv.set_weights([np.full((3, 3, 3, 4), 0.05, np.float32), np.arange(4, dtype=np.float32)])
print(np.round(conv(x).numpy()[0, 0, 0], 4))
print(tf.keras.layers.MaxPooling2D()(y).shape, tf.keras.layers.AveragePooling2D(3)(y).shape)
print(tf.keras.layers.GlobalAveragePooling2D()(y).shape, tf.keras.layers.Flatten()(y).shape)

bn = tf.keras.layers.BatchNormalization()
out_train = bn(x, training=True)
out_infer = bn(x, training=False)
print([w.name for w in bn.weights], len(bn.trainable_weights), len(bn.non_trainable_weights))
print(np.round(float(tf.reduce_mean(out_train)), 4), np.round(float(tf.reduce_mean(out_infer)), 4))
print(np.round(bn.moving_mean.numpy(), 4))

drop = tf.keras.layers.Dropout(0.5)
print(bool(tf.reduce_all(drop(x, training=False) == x)))

dense = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
print(dense(tf.ones((2, 5))))
dense.trainable = False
print(len(dense.trainable_weights), len(dense.non_trainable_weights))

model = tf.keras.Sequential([tf.keras.Input(shape=(5,)), tf.keras.layers.Dense(4, name="hidden"),
                             tf.keras.layers.ReLU(), tf.keras.layers.Dense(2, name="out")])
print([layer.name for layer in model.layers], model.count_params())
print(model.get_layer("out").kernel.shape)
emb = tf.keras.layers.Embedding(10, 4, embeddings_initializer="ones")
print(emb(tf.constant([[1, 2, 3]])).shape)
lstm = tf.keras.layers.LSTM(3, return_sequences=True, return_state=True)
seq, h, c = lstm(tf.ones((2, 5, 4)))
print(seq.shape, h.shape, c.shape, [w.shape for w in lstm.weights])
