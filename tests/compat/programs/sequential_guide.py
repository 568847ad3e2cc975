"""Keras's guide "The Sequential model": building, adding and popping layers, deferred
build, summary, feature extraction."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

model = keras.Sequential([
    layers.Dense(2, activation="relu", name="layer1"),
    layers.Dense(3, activation="relu", name="layer2"),
    layers.Dense(4, name="layer3"),
])
x = tf.ones((3, 3))
y = model(x)
print(y.shape)

layer1 = layers.Dense(2, activation="relu", name="layer1")
layer2 = layers.Dense(3, activation="relu", name="layer2")
layer3 = layers.Dense(4, name="layer3")
x = tf.ones((3, 3))
y = layer3(layer2(layer1(x)))
print(y.shape)
print(model.layers[0].name, len(model.layers))

model = keras.Sequential()
model.add(layers.Dense(2, activation="relu"))
model.add(layers.Dense(3, activation="relu"))
model.add(layers.Dense(4))
model.pop()
print(len(model.layers))
model = keras.Sequential(name="my_sequential")
model.add(layers.Dense(2, activation="relu", name="layer1"))
model.add(layers.Dense(3, activation="relu", name="layer2"))
model.add(layers.Dense(4, name="layer3"))

layer = layers.Dense(3)
print(layer.weights)
x = tf.ones((1, 4))
y = layer(x)
print([w.shape for w in layer.weights])

model = keras.Sequential([
    layers.Dense(2, activation="relu"),
    layers.Dense(3, activation="relu"),
    layers.Dense(4),
])
print("weights", len(model.weights))   # Keras 3: an unbuilt Sequential has none yet
x = tf.ones((1, 4))
y = model(x)
print("Number of weights after calling the model:", len(model.weights))
model.summary()

model = keras.Sequential()
model.add(keras.Input(shape=(4,)))
model.add(layers.Dense(2, activation="relu"))
model.summary()
print(model.layers)

model = keras.Sequential()
model.add(layers.Dense(2, activation="relu", input_shape=(4,)))
model.summary()

model = keras.Sequential()
model.add(keras.Input(shape=(250, 250, 3)))
model.add(layers.Conv2D(32, 5, strides=2, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))
model.summary()
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(3))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.Conv2D(32, 3, activation="relu"))
model.add(layers.MaxPooling2D(2))
model.summary()
model.add(layers.GlobalMaxPooling2D())
model.add(layers.Dense(10))

initial_model = keras.Sequential([
    keras.Input(shape=(25, 25, 3)),
    layers.Conv2D(4, 5, strides=2, activation="relu", kernel_initializer="ones"),
    layers.Conv2D(4, 3, activation="relu", name="my_intermediate_layer",
                  kernel_initializer="ones"),
    layers.Conv2D(4, 3, activation="relu", kernel_initializer="ones"),
])
feature_extractor = keras.Model(
    inputs=initial_model.inputs,
    outputs=initial_model.get_layer(name="my_intermediate_layer").output,
)
x = tf.ones((1, 25, 25, 3))
features = feature_extractor(x)
print(features.shape, float(tf.reduce_sum(features)))
feature_extractor = keras.Model(inputs=initial_model.inputs,
                                outputs=[layer.output for layer in initial_model.layers])
features = feature_extractor(x)
print([f.shape for f in features])
model = keras.Sequential([
    keras.Input(shape=(784,)),
    layers.Dense(32, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(10),
])
for layer in model.layers[:-1]:
    layer.trainable = False
print(len(model.trainable_weights), len(model.non_trainable_weights))
model.compile(optimizer="adam", loss="mse")
print(np.isfinite(model.evaluate(np.ones((4, 784)), np.ones((4, 10)), verbose=0)))
