"""TensorFlow's tutorial "Save and load models": ModelCheckpoint callbacks saving weights
during training (every epoch, then every few batches with the epoch in the file name), the
files they leave, restoring weights into a fresh model, manual save_weights/load_weights,
the whole model as a .keras file, and a custom object in a saved model. Random data stand in
for MNIST; initializers are constant (no dropout), so the numbers are deterministic."""
import os
import tempfile

import numpy as np
import tensorflow as tf

print(type(tf.version.VERSION).__name__)
rng = np.random.default_rng(0)
train_images = rng.random((200, 784)).astype("float32")
train_labels = (train_images[:, :10].argmax(axis=1)).astype("int64")
test_images = rng.random((50, 784)).astype("float32")
test_labels = (test_images[:, :10].argmax(axis=1)).astype("int64")
const = tf.keras.initializers.Constant


def create_model(scale=0.001):
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(784,)),
        tf.keras.layers.Dense(32, activation="relu", kernel_initializer=const(scale)),
        tf.keras.layers.Dense(10, kernel_initializer=const(scale * 2)),
    ])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    return model


model = create_model()
model.summary()

os.chdir(tempfile.mkdtemp())
root = "."
checkpoint_path = "training_1/cp.weights.h5"
checkpoint_dir = os.path.dirname(checkpoint_path)
cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path,
                                                 save_weights_only=True, verbose=1)
model.fit(train_images, train_labels, epochs=3, batch_size=50, verbose=0, shuffle=False,
          validation_data=(test_images, test_labels), callbacks=[cp_callback])
print(sorted(os.listdir(checkpoint_dir)))

model = create_model(scale=0.002)
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
print("Untrained model, accuracy: {:5.2f}%".format(100 * acc))
model.load_weights(checkpoint_path)
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
print("Restored model, accuracy: {:5.2f}%".format(100 * acc))

checkpoint_path = "training_2/cp-{epoch:04d}.weights.h5"
checkpoint_dir = os.path.dirname(checkpoint_path)
n_batches = len(train_images) // 50
cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path, verbose=1,
                                                 save_weights_only=True,
                                                 save_freq=2 * n_batches)
model = create_model()
os.makedirs(checkpoint_dir)
model.save_weights(checkpoint_path.format(epoch=0))
model.fit(train_images, train_labels, epochs=6, batch_size=50, callbacks=[cp_callback],
          validation_data=(test_images, test_labels), verbose=0, shuffle=False)
print(sorted(os.listdir(checkpoint_dir)))
latest = sorted(f for f in os.listdir(checkpoint_dir) if f.endswith(".weights.h5"))[-1]
print(latest)
model = create_model(scale=0.003)
model.load_weights(os.path.join(checkpoint_dir, latest))
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
print("Restored model, accuracy: {:5.2f}%".format(100 * acc))

manual = os.path.join(root, "checkpoints", "my_checkpoint.weights.h5")
os.makedirs(os.path.dirname(manual))
model.save_weights(manual)
model = create_model(scale=0.004)
model.load_weights(manual)
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
print("Restored model, accuracy: {:5.2f}%".format(100 * acc))

model = create_model()
model.fit(train_images, train_labels, epochs=2, batch_size=50, verbose=0, shuffle=False)
saved = os.path.join(root, "my_model.keras")
model.save(saved)
new_model = tf.keras.models.load_model(saved)
new_model.summary()
loss, acc = new_model.evaluate(test_images, test_labels, verbose=2)
print("Restored model, accuracy: {:5.2f}%".format(100 * acc))
print(new_model.predict(test_images, verbose=0).shape)
print(np.allclose(new_model.predict(test_images[:4], verbose=0),
                  model.predict(test_images[:4], verbose=0)))
print(new_model.optimizer.iterations.numpy(), type(new_model.optimizer).__name__)
try:
    model.save(os.path.join(root, "my_model"))
except ValueError as e:
    print("ValueError:", str(e)[:120])


@tf.keras.utils.register_keras_serializable(package="MyLayers")
class ScaledDense(tf.keras.layers.Layer):
    def __init__(self, units, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.units, self.factor = units, factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer=const(0.01))

    def call(self, x):
        return self.factor * tf.matmul(x, self.w)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "factor": self.factor}


inputs = tf.keras.Input((784,))
outputs = ScaledDense(10, factor=3.0)(inputs)
custom = tf.keras.Model(inputs, outputs)
custom.compile(optimizer="sgd", loss="mse")
path = os.path.join(root, "custom.keras")
custom.save(path)
reloaded = tf.keras.models.load_model(path)
print(type(reloaded.layers[1]).__name__, reloaded.layers[1].factor,
      reloaded.layers[1].get_config()["units"])
print(tf.keras.utils.get_registered_name(ScaledDense))
print(np.round(reloaded(test_images[:2]).numpy()[:, :3], 5))
