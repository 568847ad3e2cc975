"""Train an MLP on scikit-learn's 8x8 handwritten digits with a custom training loop.

The program of seed002 (Keras model, loss, optimizer, metrics, tf.function, tf.data), run
long enough to pass 95% test accuracy, then saving the training curves as a PNG.

Usage:
    PYTHONPATH=src python examples/train_digits.py [curves.png] [--epochs N]
        [--checkpoint-dir DIR]

With ``--checkpoint-dir`` the model, optimizer and epoch are saved after every epoch
(``tf.train.CheckpointManager``); interrupted (Ctrl-C) and started again with the same
command, it resumes from the latest checkpoint and ends with the same weights as an
uninterrupted run (each epoch shuffles with its own seed, so the order does not depend on
how many epochs this process ran).
"""
import argparse
import hashlib
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

import tapeflow as tf  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("curves", nargs="?", default="digits_training.png")
parser.add_argument("--epochs", type=int, default=30)
parser.add_argument("--checkpoint-dir", default=None)
args = parser.parse_args()

EPOCHS = args.epochs
BATCH_SIZE = 32
LEARNING_RATE = 0.002
WIDTH = 128

digits = load_digits()
images = (digits.images / 16.0).astype("float32")          # (1797, 8, 8), values in [0, 1]
labels = digits.target.astype("int64")                     # (1797,)
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25,
                                                    random_state=0)

train_examples = tf.data.Dataset.from_tensor_slices((x_train, y_train))
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(BATCH_SIZE)

tf.keras.utils.set_random_seed(0)   # Python, NumPy and TF seeds: Keras initializers too
model = tf.keras.Sequential([
    tf.keras.Input(shape=(8, 8)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(WIDTH, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])

loss_function = tf.keras.losses.SparseCategoricalCrossentropy()
optimizer = tf.keras.optimizers.Adam(learning_rate=LEARNING_RATE)
train_acc = tf.keras.metrics.SparseCategoricalAccuracy()
test_acc = tf.keras.metrics.SparseCategoricalAccuracy()
train_loss = tf.keras.metrics.Mean()
test_loss = tf.keras.metrics.Mean()


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = loss_function(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss(loss)
    train_acc(labels, predictions)


@tf.function
def test_step(images, labels):
    predictions = model(images, training=False)
    test_loss(loss_function(labels, predictions))
    test_acc(labels, predictions)


epoch_done = tf.Variable(0, dtype=tf.int64, trainable=False)  # epochs finished
manager = None
if args.checkpoint_dir:
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch_done)
    manager = tf.train.CheckpointManager(checkpoint, args.checkpoint_dir, max_to_keep=3)
    if manager.restore_or_initialize():
        print(f"Restored {manager.latest_checkpoint}: resuming after epoch "
              f"{int(epoch_done.numpy())}", flush=True)

history = {"loss": [], "accuracy": [], "test_loss": [], "test_accuracy": []}
start = time.perf_counter()
first_epoch = int(epoch_done.numpy())
for epoch in range(first_epoch, EPOCHS):
    for metric in (train_loss, train_acc, test_loss, test_acc):
        metric.reset_state()
    train_ds = train_examples.shuffle(1000, seed=epoch).batch(BATCH_SIZE)
    for images_batch, labels_batch in train_ds:
        train_step(images_batch, labels_batch)
    for test_images, test_labels in test_ds:
        test_step(test_images, test_labels)
    results = [float(m.result()) for m in (train_loss, train_acc, test_loss, test_acc)]
    for key, value in zip(history, results):
        history[key].append(value)
    print(f"Epoch: {epoch + 1}, Loss: {results[0]:.5f}, Accuracy: {results[1] * 100:.2f}%, "
          f"Test loss: {results[2]:.5f}, Test accuracy: {results[3] * 100:.2f}%", flush=True)
    epoch_done.assign(epoch + 1)
    if manager is not None:
        manager.save()
elapsed = time.perf_counter() - start
digest = hashlib.sha256(b"".join(w.numpy().tobytes() for w in model.weights)).hexdigest()
print(f"Trained {EPOCHS - first_epoch} epochs in this run ({int(optimizer.iterations.numpy())} "
      f"steps in all) in {elapsed:.1f} s; final weights sha256 {digest[:16]}")
if not history["loss"]:
    raise SystemExit(0)
print(f"Final test accuracy {history['test_accuracy'][-1] * 100:.2f}%")

fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(12, 4.5))
epochs = range(first_epoch + 1, EPOCHS + 1)
ax_loss.plot(epochs, history["loss"], label="train")
ax_loss.plot(epochs, history["test_loss"], label="test")
ax_loss.set(xlabel="epoch", ylabel="sparse categorical cross-entropy", title="Loss")
ax_acc.plot(epochs, [100 * a for a in history["accuracy"]], label="train")
ax_acc.plot(epochs, [100 * a for a in history["test_accuracy"]], label="test")
ax_acc.set(xlabel="epoch", ylabel="accuracy (%)", title="Accuracy")
for ax in (ax_loss, ax_acc):
    ax.grid(alpha=0.3)
    ax.legend()
fig.suptitle(f"tapeflow MLP on 8x8 digits: {history['test_accuracy'][-1] * 100:.2f}% test accuracy")
fig.tight_layout()
out = args.curves
fig.savefig(out, dpi=100)
print(f"Saved training curves to {out}")
