"""The digits custom training loop under a tf.distribute strategy (the course's week 4 lab).

One program for every setting:
    PYTHONPATH=src python examples/distributed_digits.py              # one process
    PYTHONPATH=src python examples/distributed_digits.py --replicas 2 # 2 threads, 1 process
    PYTHONPATH=src mpiexec -n 2 python -m mpi4py examples/distributed_digits.py  # 2 processes
    srun python -m mpi4py examples/distributed_digits.py                  # a Slurm allocation

Each step the global batch is split over the replicas, each replica computes its loss with
``tf.nn.compute_average_loss(..., global_batch_size=GLOBAL_BATCH_SIZE)``, and
``optimizer.apply_gradients`` sums the gradients over replicas (one all-reduce across
processes) and updates once. Rank 0 prints per-epoch loss and accuracy.
"""
import argparse
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import tapeflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=10)
parser.add_argument("--replicas", type=int, default=1,
                    help="in-process replicas (logical CPU devices) when not under MPI")
args = parser.parse_args()

if args.replicas > 1:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * args.replicas)
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # one worker without a launcher
# TF's multi-worker tutorials: no task type (no cluster) or worker 0 is the chief
chief = strategy.cluster_resolver.task_id in (None, 0) \
    if hasattr(strategy, "cluster_resolver") else True
if chief:
    print(f"Number of devices: {strategy.num_replicas_in_sync}")

GLOBAL_BATCH_SIZE = 64
digits = load_digits()
images = (digits.images / 16.0).astype("float32")
labels = digits.target.astype("int64")
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25,
                                                    random_state=0)
# Every process builds the same global batches (same seed); each takes its slice.
train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(1000, seed=0)
train_dist = strategy.experimental_distribute_dataset(train_ds.batch(GLOBAL_BATCH_SIZE))
test_dist = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(GLOBAL_BATCH_SIZE))

tf.keras.utils.set_random_seed(0)   # Python, NumPy and TF seeds: Keras initializers too
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(8, 8)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                reduction="none")
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.003)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")
    test_loss = tf.keras.metrics.Mean(name="test_loss")


def compute_loss(labels, logits):
    per_example_loss = loss_object(labels, logits)
    return tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = compute_loss(labels, logits)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, logits)
    return loss


def test_step(inputs):
    images, labels = inputs
    logits = model(images, training=False)
    test_loss.update_state(loss_object(labels, logits))
    test_accuracy.update_state(labels, logits)


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def distributed_test_step(dataset_inputs):
    return strategy.run(test_step, args=(dataset_inputs,))


start = time.perf_counter()
for epoch in range(args.epochs):
    total_loss, num_batches = 0.0, 0
    for batch in train_dist:
        total_loss += float(distributed_train_step(batch))
        num_batches += 1
    for batch in test_dist:
        distributed_test_step(batch)
    train_acc, test_acc = float(train_accuracy.result()), float(test_accuracy.result())
    tl = float(test_loss.result())
    if chief:
        print(f"Epoch {epoch + 1}, Loss: {total_loss / num_batches:.4f}, "
              f"Accuracy: {train_acc * 100:.2f}, Test Loss: {tl:.4f}, "
              f"Test Accuracy: {test_acc * 100:.2f}")
    for metric in (train_accuracy, test_accuracy, test_loss):
        metric.reset_state()
if chief:
    print(f"{args.epochs} epochs in {time.perf_counter() - start:.2f} s")
