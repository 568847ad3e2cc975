"""Keras's guide "Transfer learning & fine-tuning" without the pretrained network: trainable
and non-trainable weights, freezing layers and models (recursive), BatchNormalization frozen
runs in inference mode, fine-tuning after recompiling."""
import numpy as np
from tensorflow import keras

layer = keras.layers.Dense(3)
layer.build((None, 4))
print("weights:", len(layer.weights))
print("trainable_weights:", len(layer.trainable_weights))
print("non_trainable_weights:", len(layer.non_trainable_weights))

layer = keras.layers.BatchNormalization()
layer.build((None, 4))
print("weights:", len(layer.weights))
print("trainable_weights:", len(layer.trainable_weights))
print("non_trainable_weights:", len(layer.non_trainable_weights))

layer = keras.layers.Dense(3)
layer.build((None, 4))
layer.trainable = False
print("weights:", len(layer.weights))
print("trainable_weights:", len(layer.trainable_weights))
print("non_trainable_weights:", len(layer.non_trainable_weights))

layer1 = keras.layers.Dense(3, activation="relu", kernel_initializer="ones")
layer2 = keras.layers.Dense(3, activation="sigmoid", kernel_initializer="ones")
model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])
layer1.trainable = False
initial_layer1_weights_values = layer1.get_weights()
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.random((2, 3)), np.random.random((2, 3)), verbose=0)
final_layer1_weights_values = layer1.get_weights()
np.testing.assert_allclose(initial_layer1_weights_values[0], final_layer1_weights_values[0])
np.testing.assert_allclose(initial_layer1_weights_values[1], final_layer1_weights_values[1])
print("frozen layer unchanged")

inner_model = keras.Sequential([keras.Input(shape=(3,)),
                                keras.layers.Dense(3, activation="relu"),
                                keras.layers.Dense(3, activation="relu")])
model = keras.Sequential([keras.Input(shape=(3,)), inner_model,
                          keras.layers.Dense(3, activation="sigmoid")])
model.trainable = False
assert inner_model.trainable is False
assert inner_model.layers[0].trainable is False
print(len(model.trainable_weights), len(model.non_trainable_weights))
model.summary(show_trainable=True)

base_model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4, name="feat",
                                                                    kernel_initializer="ones"),
                               keras.layers.BatchNormalization(name="bn")], name="base")
base_model.trainable = False
inputs = keras.Input(shape=(8,))
x = base_model(inputs, training=False)
outputs = keras.layers.Dense(1, kernel_initializer="ones")(x)
model = keras.Model(inputs, outputs)
model.summary(show_trainable=True)
model.compile(optimizer=keras.optimizers.Adam(),
              loss=keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=[keras.metrics.BinaryAccuracy()])
x = np.linspace(0, 1, 64, dtype="float32").reshape(8, 8)
y = (x.sum(1) > 4).astype("float32")
h = model.fit(x, y, epochs=2, verbose=0, shuffle=False)
print({k: [round(v, 5) for v in vals] for k, vals in h.history.items()})
print(np.round(base_model.get_layer("bn").moving_mean.numpy(), 5))
base_model.trainable = True
model.summary(show_trainable=True)
model.compile(optimizer=keras.optimizers.Adam(1e-5),
              loss=keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=[keras.metrics.BinaryAccuracy()])
h = model.fit(x, y, epochs=2, verbose=0, shuffle=False)
print({k: [round(v, 5) for v in vals] for k, vals in h.history.items()})
print(np.round(base_model.get_layer("bn").moving_mean.numpy(), 5))
