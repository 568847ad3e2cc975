"""Layers of a small generator/discriminator pair and Keras's model summary."""
import numpy as np
import tensorflow as tf

generator = tf.keras.Sequential([
    tf.keras.Input(shape=(8,)),
    tf.keras.layers.Dense(7 * 7 * 4, use_bias=False),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.LeakyReLU(),
    tf.keras.layers.Reshape((7, 7, 4)),
    tf.keras.layers.Conv2DTranspose(2, (5, 5), strides=(2, 2), padding="same", use_bias=False),
    tf.keras.layers.UpSampling2D(),
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="tanh"),
], name="generator")
generator.summary()
init = np.random.default_rng(2)
generator.set_weights([(init.normal(size=w.shape) * 0.2).astype(np.float32)
                       for w in generator.get_weights()])
noise = tf.constant(init.normal(size=(2, 8)).astype(np.float32))
image = generator(noise, training=False)
print(image.shape, np.round(float(tf.reduce_mean(image)), 4))
print(tf.keras.layers.LeakyReLU(negative_slope=0.2)(tf.constant([-1.0, 2.0])))
print(tf.keras.layers.ZeroPadding2D(1)(tf.ones((1, 2, 2, 1))).shape)
