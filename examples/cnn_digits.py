"""TensorFlow's "advanced quickstart" (a subclassed CNN in a custom training loop), on
scikit-learn's 8x8 digits instead of MNIST so that it runs offline.

Usage:
    PYTHONPATH=src python examples/cnn_digits.py
"""
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import tapeflow as tf

digits = load_digits()
images = (digits.images / 16.0).astype("float32")[..., tf.newaxis]   # (1797, 8, 8, 1)
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.25,
                                                    random_state=0)
train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10000).batch(32)
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(32)


class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")
        self.pool = tf.keras.layers.MaxPooling2D()
        self.flatten = tf.keras.layers.Flatten()
        self.d1 = tf.keras.layers.Dense(64, activation="relu")
        self.d2 = tf.keras.layers.Dense(10)

    def call(self, x):
        x = self.pool(self.conv1(x))
        return self.d2(self.d1(self.flatten(x)))


tf.keras.utils.set_random_seed(0)   # Python, NumPy and TF seeds: Keras initializers too
model = MyModel()
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam()
train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
test_loss = tf.keras.metrics.Mean(name="test_loss")
test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss(loss)
    train_accuracy(labels, predictions)


@tf.function
def test_step(images, labels):
    predictions = model(images, training=False)
    test_loss(loss_object(labels, predictions))
    test_accuracy(labels, predictions)


EPOCHS = 8
start = time.perf_counter()
for epoch in range(EPOCHS):
    for metric in (train_loss, train_accuracy, test_loss, test_accuracy):
        metric.reset_state()
    for images_batch, labels_batch in train_ds:
        train_step(images_batch, labels_batch)
    for test_images, test_labels in test_ds:
        test_step(test_images, test_labels)
    print(f"Epoch {epoch + 1}, Loss: {train_loss.result():.4f}, "
          f"Accuracy: {train_accuracy.result() * 100:.2f}, "
          f"Test Loss: {test_loss.result():.4f}, "
          f"Test Accuracy: {test_accuracy.result() * 100:.2f}")
print(f"{EPOCHS} epochs in {time.perf_counter() - start:.1f} s")
model.summary()
