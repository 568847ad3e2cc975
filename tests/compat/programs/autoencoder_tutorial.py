"""TensorFlow's tutorial "Intro to Autoencoders" (tensorflow.org/tutorials/generative/
autoencoder): a subclassed Dense autoencoder, a convolutional denoiser (Conv2D and
Conv2DTranspose encoder/decoder, their summaries) and an anomaly detector with a
reconstruction-error threshold.

Adapted to run offline in seconds: seeded random stand-ins with Fashion-MNIST's and the ECG
data's shapes (fewer rows), fewer epochs, ``verbose=2``; the tutorial's sklearn metrics are
computed with NumPy; images are not plotted, their sums are printed. The tutorial's
``Dense(tf.math.reduce_prod(shape).numpy())`` is refused by Keras 3.15 (units must be a
Python int): the program shows that error, then passes ``int(...)``."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, losses
from tensorflow.keras.models import Model

tf.keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)

# Fashion-MNIST stand-in: uint8 images in [0, 255]
x_train = rng.integers(0, 256, size=(256, 28, 28)).astype("uint8")
x_test = rng.integers(0, 256, size=(64, 28, 28)).astype("uint8")
x_train = x_train.astype("float32") / 255.
x_test = x_test.astype("float32") / 255.
print(x_train.shape)
print(x_test.shape)


class Autoencoder(Model):
    def __init__(self, latent_dim, shape):
        super(Autoencoder, self).__init__()
        self.latent_dim = latent_dim
        self.shape = shape
        self.encoder = tf.keras.Sequential([
            layers.Flatten(),
            layers.Dense(latent_dim, activation="relu"),
        ])
        self.decoder = tf.keras.Sequential([
            # (the tutorial passes tf.math.reduce_prod(shape).numpy(), a NumPy int32, which
            # Keras 3.15 refuses: shown below)
            layers.Dense(int(tf.math.reduce_prod(shape).numpy()), activation="sigmoid"),
            layers.Reshape(shape)
        ])

    def call(self, x):
        encoded = self.encoder(x)
        decoded = self.decoder(encoded)
        return decoded


shape = x_test.shape[1:]
try:
    layers.Dense(tf.math.reduce_prod(shape).numpy(), activation="sigmoid")
except ValueError as e:
    print("ValueError:", e)
latent_dim = 64
autoencoder = Autoencoder(latent_dim, shape)
autoencoder.compile(optimizer="adam", loss=losses.MeanSquaredError())
history = autoencoder.fit(x_train, x_train, epochs=2, shuffle=True, batch_size=32,
                          validation_data=(x_test, x_test), verbose=2)
print({k: [round(v, 5) for v in vs] for k, vs in history.history.items()})

encoded_imgs = autoencoder.encoder(x_test).numpy()
decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
print(encoded_imgs.shape, decoded_imgs.shape)
print(np.round(decoded_imgs[:3].sum(axis=(1, 2)), 3))

# Image denoising
x_train = x_train[..., tf.newaxis]
x_test = x_test[..., tf.newaxis]
print(x_train.shape)

noise_factor = 0.2
x_train_noisy = x_train + noise_factor * tf.random.normal(shape=x_train.shape)
x_test_noisy = x_test + noise_factor * tf.random.normal(shape=x_test.shape)
x_train_noisy = tf.clip_by_value(x_train_noisy, clip_value_min=0., clip_value_max=1.)
x_test_noisy = tf.clip_by_value(x_test_noisy, clip_value_min=0., clip_value_max=1.)
print(np.round(tf.reduce_sum(x_test_noisy[:2], axis=[1, 2, 3]).numpy(), 3))


class Denoise(Model):
    def __init__(self):
        super(Denoise, self).__init__()
        self.encoder = tf.keras.Sequential([
            layers.Input(shape=(28, 28, 1)),
            layers.Conv2D(16, (3, 3), activation="relu", padding="same", strides=2),
            layers.Conv2D(8, (3, 3), activation="relu", padding="same", strides=2)])

        self.decoder = tf.keras.Sequential([
            layers.Conv2DTranspose(8, kernel_size=3, strides=2, activation="relu",
                                   padding="same"),
            layers.Conv2DTranspose(16, kernel_size=3, strides=2, activation="relu",
                                   padding="same"),
            layers.Conv2D(1, kernel_size=(3, 3), activation="sigmoid", padding="same")])

    def call(self, x):
        encoded = self.encoder(x)
        decoded = self.decoder(encoded)
        return decoded


autoencoder = Denoise()
autoencoder.compile(optimizer="adam", loss=losses.MeanSquaredError())
autoencoder.fit(x_train_noisy, x_train, epochs=2, shuffle=True, batch_size=64,
                validation_data=(x_test_noisy, x_test), verbose=2)
autoencoder.encoder.summary()
autoencoder.decoder.summary()

encoded_imgs = autoencoder.encoder(x_test_noisy).numpy()
decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
print(encoded_imgs.shape, decoded_imgs.shape)
print(np.round(decoded_imgs[:3].sum(axis=(1, 2, 3)), 3))

# Anomaly detection (ECG5000 stand-in: 140 values per row, label 1 normal, 0 abnormal)
raw_data = np.concatenate([
    np.concatenate([np.sin(np.linspace(0, 6, 140))[None] + 0.1 * rng.normal(size=(300, 140)),
                    np.ones((300, 1))], axis=1),
    np.concatenate([rng.normal(size=(200, 140)), np.zeros((200, 1))], axis=1)])
raw_data = raw_data[rng.permutation(len(raw_data))]
labels = raw_data[:, -1]
data = raw_data[:, 0:-1]
split = int(0.8 * len(data))
train_data, test_data = data[:split], data[split:]
train_labels, test_labels = labels[:split], labels[split:]

min_val = tf.reduce_min(train_data)
max_val = tf.reduce_max(train_data)
train_data = (train_data - min_val) / (max_val - min_val)
test_data = (test_data - min_val) / (max_val - min_val)
train_data = tf.cast(train_data, tf.float32)
test_data = tf.cast(test_data, tf.float32)

train_labels = train_labels.astype(bool)
test_labels = test_labels.astype(bool)
normal_train_data = train_data[train_labels]
normal_test_data = test_data[test_labels]
anomalous_train_data = train_data[~train_labels]
anomalous_test_data = test_data[~test_labels]
print(normal_train_data.shape, anomalous_test_data.shape)


class AnomalyDetector(Model):
    def __init__(self):
        super(AnomalyDetector, self).__init__()
        self.encoder = tf.keras.Sequential([
            layers.Dense(32, activation="relu"),
            layers.Dense(16, activation="relu"),
            layers.Dense(8, activation="relu")])

        self.decoder = tf.keras.Sequential([
            layers.Dense(16, activation="relu"),
            layers.Dense(32, activation="relu"),
            layers.Dense(140, activation="sigmoid")])

    def call(self, x):
        encoded = self.encoder(x)
        decoded = self.decoder(encoded)
        return decoded


autoencoder = AnomalyDetector()
autoencoder.compile(optimizer="adam", loss="mae")
history = autoencoder.fit(normal_train_data, normal_train_data, epochs=5, batch_size=64,
                          validation_data=(test_data, test_data), shuffle=True, verbose=2)

reconstructions = autoencoder.predict(normal_train_data, verbose=0)
train_loss = tf.keras.losses.mae(reconstructions, normal_train_data)
threshold = np.mean(train_loss) + np.std(train_loss)
print("Threshold: ", round(float(threshold), 5))

reconstructions = autoencoder.predict(anomalous_test_data, verbose=0)
test_loss = tf.keras.losses.mae(reconstructions, anomalous_test_data)
print(round(float(np.mean(test_loss)), 5))


def predict(model, data, threshold):
    reconstructions = model(data)
    loss = tf.keras.losses.mae(reconstructions, data)
    return tf.math.less(loss, threshold)


def print_stats(predictions, labels):
    predictions, labels = np.asarray(predictions), np.asarray(labels)
    tp = np.sum(predictions & labels)
    print("Accuracy = {}".format(round(float(np.mean(predictions == labels)), 5)))
    print("Precision = {}".format(round(float(tp / max(np.sum(predictions), 1)), 5)))
    print("Recall = {}".format(round(float(tp / max(np.sum(labels), 1)), 5)))


preds = predict(autoencoder, test_data, threshold)
print(preds.dtype, preds.shape)
print_stats(preds, test_labels)
