"""A DCGAN (Radford et al. 2015) on scikit-learn's handwritten digits, in the shape of
TensorFlow's DCGAN tutorial: a generator (Dense -> Reshape -> Conv2DTranspose with
BatchNormalization and LeakyReLU), a discriminator (Conv2D, LeakyReLU, Dropout), two
GradientTapes and two Adam optimizers per step, the step a ``tf.function``. The 8x8
digits are upsampled to 16x16 so the generator has two strided transposed convolutions, as
the tutorial's has.

After training it saves a grid of generated digits (default ``dcgan_digits.png``).

Usage:
    PYTHONPATH=src python examples/dcgan_digits.py [grid.png] [--steps N]
"""
import argparse
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402

import tapeflow as tf  # noqa: E402

NOISE_DIM = 32
BATCH_SIZE = 64
LEARNING_RATE = 1e-3
GRID = 8

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("out", nargs="?", default="dcgan_digits.png")
parser.add_argument("--steps", type=int, default=1000, help="training steps (batches)")
args = parser.parse_args()

digits = load_digits()
images = digits.images.astype("float32") / 8.0 - 1.0                      # [-1, 1]
images = tf.keras.layers.Resizing(16, 16)(images[..., np.newaxis]).numpy()  # (1797, 16, 16, 1)
dataset = (tf.data.Dataset.from_tensor_slices(images).shuffle(2000, seed=0).repeat()
           .batch(BATCH_SIZE, drop_remainder=True))

tf.keras.utils.set_random_seed(0)   # Python, NumPy and TF seeds: Keras initializers too


def make_generator():
    return tf.keras.Sequential([
        tf.keras.Input((NOISE_DIM,)),
        tf.keras.layers.Dense(4 * 4 * 64, use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Reshape((4, 4, 64)),
        tf.keras.layers.Conv2DTranspose(32, 4, strides=2, padding="same", use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Conv2DTranspose(1, 4, strides=2, padding="same", activation="tanh"),
    ], name="generator")


def make_discriminator():
    return tf.keras.Sequential([
        tf.keras.Input((16, 16, 1)),
        tf.keras.layers.Conv2D(32, 4, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Dropout(0.3),
        tf.keras.layers.Conv2D(64, 4, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Dropout(0.3),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(1),
    ], name="discriminator")


generator = make_generator()
discriminator = make_discriminator()
generator.summary()
discriminator.summary()

cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return real_loss + fake_loss


def generator_loss(fake_output):
    return cross_entropy(tf.ones_like(fake_output), fake_output)


generator_optimizer = tf.keras.optimizers.Adam(LEARNING_RATE, beta_1=0.5)
discriminator_optimizer = tf.keras.optimizers.Adam(LEARNING_RATE, beta_1=0.5)


@tf.function  # traced once, then replayed: as in TensorFlow's tutorial
def train_step(real_images):
    noise = tf.random.normal([BATCH_SIZE, NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(real_images, training=True)
        fake_output = discriminator(generated_images, training=True)
        gen_loss = generator_loss(fake_output)
        disc_loss = discriminator_loss(real_output, fake_output)
    gen_gradients = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_gradients = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gen_gradients, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(
        zip(disc_gradients, discriminator.trainable_variables))
    return gen_loss, disc_loss


seed = tf.random.normal([GRID * GRID, NOISE_DIM])
start = time.perf_counter()
for step, batch in enumerate(dataset.take(args.steps), start=1):
    gen_loss, disc_loss = train_step(batch)
    if step % 250 == 0 or step == args.steps:
        print(f"Step {step}: generator loss {float(gen_loss):.3f}, "
              f"discriminator loss {float(disc_loss):.3f}")
elapsed = time.perf_counter() - start
print(f"{args.steps} steps in {elapsed:.1f} s")

samples = generator(seed, training=False).numpy()[..., 0]
fig, axes = plt.subplots(GRID, GRID, figsize=(GRID, GRID))
for image, ax in zip(samples, axes.ravel(), strict=True):
    ax.imshow(image, cmap="gray_r", vmin=-1, vmax=1)
    ax.axis("off")
fig.suptitle(f"DCGAN on digits after {args.steps} steps")
fig.savefig(args.out, dpi=72)
print(f"Saved {args.out}")
