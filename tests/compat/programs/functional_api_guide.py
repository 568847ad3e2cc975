"""Keras's guide "The Functional API": a model from Inputs, its summary, training and
evaluation, saving and reloading, one graph of layers used for several models (an encoder and
an autoencoder), nesting models, ensembling, a model with several inputs and outputs (the
ticket classifier), a toy ResNet's residual connections, shared layers, the nodes of a
layer graph, and a custom layer with get_config. Data are random, initializers constant, so
the numbers are deterministic. (Left out: plot_model, which needs pydot and graphviz, and
the pretrained VGG19.)"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

rng = np.random.default_rng(0)
const = keras.initializers.Constant

inputs = keras.Input(shape=(16,))
print(inputs.shape, inputs.dtype)
dense = layers.Dense(8, activation="relu", kernel_initializer=const(0.05))
x = dense(inputs)
x = layers.Dense(8, activation="relu", kernel_initializer=const(0.03))(x)
outputs = layers.Dense(3, kernel_initializer=const(0.02))(x)
model = keras.Model(inputs=inputs, outputs=outputs, name="small_model")
model.summary()

x_train = rng.random((96, 16)).astype("float32")
y_train = (x_train[:, 0] * 3).astype("int64")
model.compile(loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
              metrics=["accuracy"])
history = model.fit(x_train, y_train, batch_size=32, epochs=2, validation_split=0.25,
                    verbose=0, shuffle=False)
print({k: [round(v, 4) for v in vals] for k, vals in history.history.items()})
scores = model.evaluate(x_train[:32], y_train[:32], verbose=0)
print("Test loss:", round(scores[0], 4), "Test accuracy:", round(scores[1], 4))

path = os.path.join(tempfile.mkdtemp(), "my_model.keras")
model.save(path)
del model
model = keras.models.load_model(path)
print(model.name, [layer.name for layer in model.layers])
print(np.round(model.predict(x_train[:2], verbose=0), 5))

# one graph of layers, several models
encoder_input = keras.Input(shape=(8, 8, 1), name="img")
x = layers.Conv2D(4, 3, activation="relu", kernel_initializer=const(0.1))(encoder_input)
x = layers.Conv2D(8, 3, activation="relu", kernel_initializer=const(0.1))(x)
x = layers.MaxPooling2D(2)(x)
x = layers.Conv2D(4, 1, activation="relu", kernel_initializer=const(0.1))(x)
encoder_output = layers.GlobalMaxPooling2D()(x)
encoder = keras.Model(encoder_input, encoder_output, name="encoder")
encoder.summary()
x = layers.Reshape((2, 2, 1))(encoder_output)
x = layers.Conv2DTranspose(4, 3, activation="relu", kernel_initializer=const(0.1))(x)
x = layers.UpSampling2D(2)(x)
decoder_output = layers.Conv2DTranspose(1, 1, activation="relu",
                                        kernel_initializer=const(0.1))(x)
autoencoder = keras.Model(encoder_input, decoder_output, name="autoencoder")
autoencoder.summary()
images = rng.random((2, 8, 8, 1)).astype("float32")
print(np.round(autoencoder(images).numpy().sum(axis=(1, 2, 3)), 5))

# models are callable, like layers: nesting
decoder_input = keras.Input(shape=(4,), name="encoded_img")
x = layers.Reshape((2, 2, 1))(decoder_input)
x = layers.Conv2DTranspose(4, 3, activation="relu", kernel_initializer=const(0.1))(x)
x = layers.UpSampling2D(2)(x)
decoder_output = layers.Conv2DTranspose(1, 1, activation="relu",
                                        kernel_initializer=const(0.1))(x)
decoder = keras.Model(decoder_input, decoder_output, name="decoder")
autoencoder_input = keras.Input(shape=(8, 8, 1), name="img")
encoded_img = encoder(autoencoder_input)
decoded_img = decoder(encoded_img)
autoencoder = keras.Model(autoencoder_input, decoded_img, name="autoencoder")
autoencoder.summary()
print(np.round(autoencoder(images).numpy().sum(axis=(1, 2, 3)), 5))


def get_model(scale):
    inputs = keras.Input(shape=(128,))
    outputs = layers.Dense(1, kernel_initializer=const(scale))(inputs)
    return keras.Model(inputs, outputs)


model1, model2, model3 = get_model(0.01), get_model(0.02), get_model(0.03)
inputs = keras.Input(shape=(128,))
y1, y2, y3 = model1(inputs), model2(inputs), model3(inputs)
outputs = layers.average([y1, y2, y3])
ensemble_model = keras.Model(inputs=inputs, outputs=outputs)
print(np.round(ensemble_model(np.ones((2, 128), "float32")).numpy(), 5))
print(len(ensemble_model.layers), [type(layer).__name__ for layer in ensemble_model.layers])

# several inputs and outputs: the ticket classifier
num_tags, num_words, num_departments = 6, 50, 4
title_input = keras.Input(shape=(None,), name="title")
body_input = keras.Input(shape=(None,), name="body")
tags_input = keras.Input(shape=(num_tags,), name="tags")
title_features = layers.Embedding(num_words, 8, embeddings_initializer=const(0.01))(title_input)
body_features = layers.Embedding(num_words, 8, embeddings_initializer=const(0.02))(body_input)
title_features = layers.LSTM(8, kernel_initializer=const(0.1),
                             recurrent_initializer=const(0.05))(title_features)
body_features = layers.LSTM(4, kernel_initializer=const(0.1),
                            recurrent_initializer=const(0.05))(body_features)
x = layers.concatenate([title_features, body_features, tags_input])
priority_pred = layers.Dense(1, name="priority", kernel_initializer=const(0.1))(x)
department_pred = layers.Dense(num_departments, name="department",
                               kernel_initializer=const(0.1))(x)
model = keras.Model(inputs=[title_input, body_input, tags_input],
                    outputs={"priority": priority_pred, "department": department_pred})
model.summary()
model.compile(optimizer=keras.optimizers.RMSprop(1e-3),
              loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
              loss_weights={"priority": 1.0, "department": 0.2})
title_data = rng.integers(0, num_words, size=(32, 5))
body_data = rng.integers(0, num_words, size=(32, 7))
tags_data = rng.integers(0, 2, size=(32, num_tags)).astype("float32")
priority_targets = rng.random((32, 1)).astype("float32")
dept_targets = np.eye(num_departments, dtype="float32")[rng.integers(0, num_departments, 32)]
history = model.fit({"title": title_data, "body": body_data, "tags": tags_data},
                    {"priority": priority_targets, "department": dept_targets},
                    epochs=2, batch_size=16, verbose=0, shuffle=False)
print({k: [round(v, 4) for v in vals] for k, vals in history.history.items()})

# a toy ResNet
inputs = keras.Input(shape=(12, 12, 3), name="img")
x = layers.Conv2D(4, 3, activation="relu", kernel_initializer=const(0.05))(inputs)
x = layers.Conv2D(8, 3, activation="relu", kernel_initializer=const(0.05))(x)
block_1_output = layers.MaxPooling2D(2)(x)
x = layers.Conv2D(8, 3, activation="relu", padding="same",
                  kernel_initializer=const(0.05))(block_1_output)
x = layers.Conv2D(8, 3, activation="relu", padding="same", kernel_initializer=const(0.05))(x)
block_2_output = layers.add([x, block_1_output])
x = layers.Conv2D(8, 3, activation="relu", kernel_initializer=const(0.05))(block_2_output)
x = layers.GlobalAveragePooling2D()(x)
x = layers.Dense(8, activation="relu", kernel_initializer=const(0.05))(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(3, kernel_initializer=const(0.05))(x)
model = keras.Model(inputs, outputs, name="toy_resnet")
model.summary()
model.compile(optimizer=keras.optimizers.RMSprop(1e-3),
              loss=keras.losses.CategoricalCrossentropy(from_logits=True), metrics=["acc"])
x_img = rng.random((16, 12, 12, 3)).astype("float32")
y_img = np.eye(3, dtype="float32")[rng.integers(0, 3, 16)]
print(np.round(model.evaluate(x_img, y_img, verbose=0), 4))

# shared layers
shared_embedding = layers.Embedding(100, 4, embeddings_initializer=const(0.1))
text_input_a = keras.Input(shape=(None,), dtype="int32")
text_input_b = keras.Input(shape=(None,), dtype="int32")
encoded_input_a = shared_embedding(text_input_a)
encoded_input_b = shared_embedding(text_input_b)
print(encoded_input_a.shape, encoded_input_b.shape, len(shared_embedding.weights))

# the nodes of a layer graph: a feature extractor
features_list = [layer.output for layer in encoder.layers]
feat_extraction_model = keras.Model(inputs=encoder.input, outputs=features_list)
features = feat_extraction_model(images)
print([tuple(f.shape) for f in features])


class CustomDense(layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer=const(0.1), trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


inputs = keras.Input((4,))
outputs = CustomDense(10)(inputs)
model = keras.Model(inputs, outputs)
config = model.get_config()
print(config["layers"][1]["config"]["units"], config["layers"][1]["class_name"])
new_model = keras.Model.from_config(config, custom_objects={"CustomDense": CustomDense})
print([layer.__class__.__name__ for layer in new_model.layers], new_model.output_shape)

# a subclassed model that uses a functional one, and the reverse
units, timesteps, input_dim = 4, 3, 5
inputs = keras.Input((None, units))
x = layers.GlobalAveragePooling1D()(inputs)
outputs = layers.Dense(1, kernel_initializer=const(0.1))(x)
functional = keras.Model(inputs, outputs)


class CustomRNN(layers.Layer):
    def __init__(self):
        super().__init__()
        self.units = units
        self.projection_1 = layers.Dense(units=units, activation="tanh",
                                         kernel_initializer=const(0.1))
        self.projection_2 = layers.Dense(units=units, activation="tanh",
                                         kernel_initializer=const(0.2))
        self.classifier = functional

    def call(self, inputs):
        outputs = []
        state = tf.zeros(shape=(inputs.shape[0], self.units))
        for t in range(inputs.shape[1]):
            x = inputs[:, t, :]
            h = self.projection_1(x)
            y = h + self.projection_2(state)
            state = y
            outputs.append(y)
        features = tf.stack(outputs, axis=1)
        return self.classifier(features)


rnn_model = CustomRNN()
print(np.round(rnn_model(tf.ones((1, timesteps, input_dim))).numpy(), 5))
