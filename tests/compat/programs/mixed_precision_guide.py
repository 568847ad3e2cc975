"""TF's guide "Mixed precision" (tensorflow/docs site/en/guide/mixed_precision.ipynb) as Keras 3
runs it on TF 2.21. Adapted to run offline and in seconds: a seeded random stand-in of MNIST's
shapes (2000 train / 500 test images), Dense layers of 64 units (the guide's CPU choice),
batch 256, 2 epochs, ``verbose=2``; the custom training loop uses Keras 3's
``LossScaleOptimizer.scale_loss`` (its ``apply`` unscales the gradients). The GPU checks and
the timing cells are left out (they print what depends on the machine)."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers, mixed_precision

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)

policy = mixed_precision.Policy("mixed_float16")
mixed_precision.set_global_policy(policy)
print("Compute dtype: %s" % policy.compute_dtype)
print("Variable dtype: %s" % policy.variable_dtype)

inputs = keras.Input(shape=(784,), name="digits")
num_units = 64
dense1 = layers.Dense(num_units, activation="relu", name="dense_1")
x = dense1(inputs)
dense2 = layers.Dense(num_units, activation="relu", name="dense_2")
x = dense2(x)
print(dense1.dtype_policy)
print("x.dtype: %s" % x.dtype)
print("dense1.kernel.dtype: %s" % dense1.kernel.dtype)

x = layers.Dense(10, name="dense_logits")(x)
outputs = layers.Activation("softmax", dtype="float32", name="predictions")(x)
print("Outputs dtype: %s" % outputs.dtype)

model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=keras.optimizers.RMSprop(), metrics=["accuracy"])
print(type(model.optimizer).__name__)

# Stand-in for MNIST: random images and labels of MNIST's shapes.
x_train = rng.integers(0, 256, size=(2000, 28, 28)).astype("uint8")
y_train = (x_train.reshape(2000, -1)[:, :10].argmax(axis=1)).astype("uint8")
x_test = rng.integers(0, 256, size=(500, 28, 28)).astype("uint8")
y_test = (x_test.reshape(500, -1)[:, :10].argmax(axis=1)).astype("uint8")
x_train = x_train.reshape(2000, 784).astype("float32") / 255
x_test = x_test.reshape(500, 784).astype("float32") / 255

initial_weights = model.get_weights()
print([w.dtype.name for w in initial_weights])

history = model.fit(x_train, y_train, batch_size=256, epochs=2, validation_split=0.2,
                    verbose=2)
test_scores = model.evaluate(x_test, y_test, verbose=2)
print("Test loss: %.4f" % test_scores[0])
print("Test accuracy: %.4f" % test_scores[1])
print("loss scale after fit: %s" % float(model.optimizer.dynamic_scale.numpy()))

# Loss scaling
x = tf.constant(256, dtype="float16")
print((x ** 2).numpy())  # Overflow
x = tf.constant(1e-5, dtype="float16")
print((x ** 2).numpy())  # Underflow

optimizer = keras.optimizers.RMSprop()
optimizer = mixed_precision.LossScaleOptimizer(optimizer)
print(optimizer.initial_scale, optimizer.dynamic_growth_steps)

model = keras.Model(inputs=inputs, outputs=outputs)
loss_object = keras.losses.SparseCategoricalCrossentropy()
train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(256))
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(256)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        predictions = model(x)
        loss = loss_object(y, predictions)
        scaled_loss = optimizer.scale_loss(loss)
    scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
    optimizer.apply(scaled_gradients, model.trainable_variables)
    return loss


test_accuracy = keras.metrics.SparseCategoricalAccuracy()


@tf.function
def test_step(x):
    return model(x, training=False)


model.set_weights(initial_weights)
for epoch in range(2):
    epoch_loss_avg = keras.metrics.Mean()
    test_accuracy.reset_state()
    for x, y in train_dataset:
        loss = train_step(x, y)
        epoch_loss_avg(loss)
    for x, y in test_dataset:
        predictions = test_step(x)
        test_accuracy.update_state(y, predictions)
    print("Epoch {}: loss={:.4f}, test accuracy={:.4f}".format(
        epoch, float(epoch_loss_avg.result()), float(test_accuracy.result())))
print("loss scale: %s" % float(optimizer.dynamic_scale.numpy()))

# A step with an inf gradient is skipped and halves the scale.
v = keras.Variable(np.array([1.0, 2.0], np.float32))
opt = mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.5), initial_scale=8.0,
                                         dynamic_growth_steps=2)
opt.apply([tf.constant([np.inf, 1.0])], [v])
print(v.numpy(), float(opt.dynamic_scale.numpy()))
for _ in range(3):
    opt.apply([tf.constant([8.0, 16.0])], [v])
    print(v.numpy(), float(opt.dynamic_scale.numpy()), int(opt.iterations.numpy()))

mixed_precision.set_global_policy("mixed_bfloat16")
d = layers.Dense(2, kernel_initializer="ones")
print(d(np.ones((1, 3), np.float32)), d.kernel.dtype, repr(d.dtype_policy))
mixed_precision.set_global_policy("float32")
print(repr(mixed_precision.global_policy()))
