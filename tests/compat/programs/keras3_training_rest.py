"""The parts of Keras 3's guide "Training & evaluation with the built-in methods" (keras-io
guides/training_with_built_in_methods.py) that tapeflow does not match yet; the rest of
the guide is ``keras3_training_guide``, with the same adaptations (seeded, random
stand-ins with MNIST's shapes, ``verbose=2``).

1. Three epochs of ``fit`` over a ``Dataset`` shuffled with ``shuffle(buffer_size=1024)``:
   the first epoch's batches are Keras's, the second epoch's are not (iterating the same
   Dataset twice by hand does give TF's two orders).
2. ``keras.utils.PyDataset`` (a helper of another session brings it)."""
import keras
import numpy as np
import tensorflow as tf
from keras import layers

keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)

x_train = rng.integers(0, 256, size=(640, 28, 28)).astype("uint8")
y_train = rng.integers(0, 10, size=(640,)).astype("uint8")
x_test = rng.integers(0, 256, size=(128, 28, 28)).astype("uint8")
y_test = rng.integers(0, 10, size=(128,)).astype("uint8")
x_train = x_train.reshape(640, 784).astype("float32") / 255
x_test = x_test.reshape(128, 784).astype("float32") / 255
y_train = y_train.astype("float32")
y_test = y_test.astype("float32")
x_val = x_train[-128:]
y_val = y_train[-128:]
x_train = x_train[:-128]
y_train = y_train[:-128]


def get_uncompiled_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    return model


def get_compiled_model():
    model = get_uncompiled_model()
    model.compile(
        optimizer="rmsprop",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    return model


model = get_compiled_model()

# First, let's create a training Dataset instance.
# For the sake of our example, we'll use the same MNIST data as before.
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
# Shuffle and slice the dataset.
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

# Now we get a test dataset.
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test))
test_dataset = test_dataset.batch(64)

# Since the dataset already takes care of batching,
# we don't pass a `batch_size` argument.
model.fit(train_dataset, epochs=3, verbose=2)

# You can also evaluate or predict on a dataset.
print("Evaluate")
result = model.evaluate(test_dataset, verbose=2)
print(dict(zip(model.metrics_names, result)))


class ExamplePyDataset(keras.utils.PyDataset):
    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x = x
        self.y = y
        self.batch_size = batch_size

    def __len__(self):
        return int(np.ceil(len(self.x) / float(self.batch_size)))

    def __getitem__(self, idx):
        batch_x = self.x[idx * self.batch_size : (idx + 1) * self.batch_size]
        batch_y = self.y[idx * self.batch_size : (idx + 1) * self.batch_size]
        return batch_x, batch_y


train_py_dataset = ExamplePyDataset(x_train, y_train, batch_size=32)
val_py_dataset = ExamplePyDataset(x_val, y_val, batch_size=32)

model = get_compiled_model()
model.fit(train_py_dataset, batch_size=64, validation_data=val_py_dataset, epochs=1,
          verbose=2)

print(model.evaluate(val_py_dataset, verbose=2))

train_py_dataset = ExamplePyDataset(x_train, y_train, batch_size=32, workers=4)
val_py_dataset = ExamplePyDataset(x_val, y_val, batch_size=32, workers=4)

model = get_compiled_model()
model.fit(train_py_dataset, batch_size=64, validation_data=val_py_dataset, epochs=1,
          verbose=2)
