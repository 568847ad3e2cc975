"""What TensorFlow raises when a program goes wrong: a program that catches and prints it."""
import numpy as np
import tensorflow as tf


def show(label, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        first = str(e).split("\n")[0]
        print(f"{label}: {type(e).__name__}: {first}")
    else:
        print(f"{label}: no error")


x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
tape.gradient(y, x)
show("second gradient", lambda: tape.gradient(y, x))
show("reset outside", lambda: tf.GradientTape().reset())
show("stop_recording outside", lambda: tf.GradientTape().stop_recording().__enter__())


def scalar_batch_jacobian():
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.reduce_sum(x * x)
    t.batch_jacobian(z, x)


show("batch_jacobian of a scalar", scalar_batch_jacobian)
show("broadcast", lambda: tf.ones((2, 3)) + tf.ones((3, 2)))
show("matmul", lambda: tf.matmul(tf.ones((2, 3)), tf.ones((2, 3))))
show("reshape", lambda: tf.reshape(tf.range(6), (4, 2)))
show("concat", lambda: tf.concat([tf.ones((2, 3)), tf.ones((3, 2))], axis=0))
show("gather", lambda: tf.gather(tf.range(3), [3]))
show("dtype mix", lambda: tf.constant(1) + tf.constant(1.5))
show("mixed list", lambda: tf.constant([1, "a"]))
show("cast string", lambda: tf.cast(tf.constant(["1"]), tf.float32))
show("float into int variable", lambda: tf.Variable(1).assign(1.5))
show("assign wrong shape", lambda: tf.Variable([1.0, 2.0]).assign_add([1.0, 2.0, 3.0]))
show("dense rank 1", lambda: tf.keras.layers.Dense(2)(tf.ones((3,))))
show("dense units", lambda: tf.keras.layers.Dense(-1))
show("dropout rate", lambda: tf.keras.layers.Dropout(rate=2))
show("conv rank", lambda: tf.keras.layers.Conv2D(2, 3)(tf.ones((1, 5, 5))))
show("lstm rank", lambda: tf.keras.layers.LSTM(2)(tf.ones((4, 3))))


def fit_before_compile():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


def fit_mismatch():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.ones((4, 2)), np.ones((5, 1)), verbose=0)


show("fit before compile", fit_before_compile)
show("fit sizes", fit_mismatch)
v = tf.Variable(tf.ones((2, 2)))
show("optimizer shapes",
     lambda: tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.ones((2,)), v)]))
show("batch size", lambda: tf.data.Dataset.range(4).batch(0))
show("shuffle buffer", lambda: tf.data.Dataset.range(4).shuffle(-3))
show("slices", lambda: tf.data.Dataset.from_tensor_slices((np.ones(3), np.ones(4))))
print(isinstance(tf.errors.InvalidArgumentError(None, None, "m"), tf.errors.OpError))
