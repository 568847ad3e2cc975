"""A training loop written from scratch with a tape, an optimizer and metrics
(in the spirit of keras-io's "writing a training loop from scratch", on synthetic data)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)
x_all = rng.normal(size=(300, 8)).astype(np.float32)
true_w = rng.normal(size=(8, 4)).astype(np.float32)
y_all = np.argmax(x_all @ true_w, axis=1).astype(np.int32)
x_train, y_train = x_all[:240], y_all[:240]
x_val, y_val = x_all[240:], y_all[240:]

inputs = tf.keras.Input(shape=(8,), name="digits")
x1 = tf.keras.layers.Dense(16, activation="relu")(inputs)
x2 = tf.keras.layers.Dense(16, activation="relu")(x1)
outputs = tf.keras.layers.Dense(4, name="predictions")(x2)
model = tf.keras.Model(inputs=inputs, outputs=outputs)
init = np.random.default_rng(1)
model.set_weights([(init.normal(size=w.shape) * 0.4).astype(np.float32)
                   for w in model.get_weights()])

optimizer = tf.keras.optimizers.Adam(learning_rate=1e-2)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()

batch_size = 48
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(batch_size)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size)


def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    train_acc_metric.update_state(y, logits)
    return loss_value


def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


for epoch in range(3):
    print(f"\nStart of epoch {epoch}")
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        loss_value = train_step(x_batch_train, y_batch_train)
        if step % 2 == 0:
            print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}")
            print(f"Seen so far: {(step + 1) * batch_size} samples")
    train_acc = train_acc_metric.result()
    print(f"Training acc over epoch: {float(train_acc):.4f}")
    train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    val_acc = val_acc_metric.result()
    val_acc_metric.reset_state()
    print(f"Validation acc: {float(val_acc):.4f}")

print(int(optimizer.iterations), [v.name for v in model.trainable_weights][:2])
print(len(optimizer.variables))
