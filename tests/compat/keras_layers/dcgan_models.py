# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_layers_vs_keras.py)
# The models of TensorFlow's DCGAN tutorial (28x28 images), their summaries and shapes.
layers = keras.layers


def make_generator_model():
    model = keras.Sequential()
    model.add(keras.Input((100,)))
    model.add(layers.Dense(7 * 7 * 256, use_bias=False))
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())
    model.add(layers.Reshape((7, 7, 256)))
    assert model.output_shape == (None, 7, 7, 256)
    model.add(layers.Conv2DTranspose(128, (5, 5), strides=(1, 1), padding="same", use_bias=False))
    assert model.output_shape == (None, 7, 7, 128)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())
    model.add(layers.Conv2DTranspose(64, (5, 5), strides=(2, 2), padding="same", use_bias=False))
    assert model.output_shape == (None, 14, 14, 64)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())
    model.add(layers.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding="same", use_bias=False,
                                     activation="tanh"))
    assert model.output_shape == (None, 28, 28, 1)
    return model


def make_discriminator_model():
    model = keras.Sequential()
    model.add(keras.Input((28, 28, 1)))
    model.add(layers.Conv2D(64, (5, 5), strides=(2, 2), padding="same"))
    model.add(layers.LeakyReLU())
    model.add(layers.Dropout(0.3))
    model.add(layers.Conv2D(128, (5, 5), strides=(2, 2), padding="same"))
    model.add(layers.LeakyReLU())
    model.add(layers.Dropout(0.3))
    model.add(layers.Flatten())
    model.add(layers.Dense(1))
    return model


generator = make_generator_model()
generator.summary()
noise = tf.random.normal([1, 100])
generated_image = generator(noise, training=False)
print(generated_image.shape)
discriminator = make_discriminator_model()
discriminator.summary()
decision = discriminator(generated_image)
print(decision.shape, decision.dtype)
print(len(generator.trainable_variables), len(discriminator.trainable_variables))
print([v.shape for v in generator.non_trainable_variables][:2])
