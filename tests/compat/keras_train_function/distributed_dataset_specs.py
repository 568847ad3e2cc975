# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# A compiled fit over a Dataset under a MirroredStrategy of two replicas: the step's trace
# is keyed by the per-replica spec, a known batch of 8 split into slices of 4
# (drop_remainder=True), an unknown one (None) otherwise; tf.print shows each replica's rows.
x = np.arange(60, dtype="float32").reshape(20, 3) / 60.0
y = np.ones((20, 1), "float32")
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


class Net(keras.Sequential):
    def train_step(self, data):
        print("train_step", [tuple(t.shape) for t in data])
        tf.print("rows", tf.shape(data[0])[0])
        return super().train_step(data)


with strategy.scope():
    model = Net([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights([np.full((3, 1), 0.5, "float32"), np.zeros(1, "float32")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
for drop in (True, False):
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8, drop_remainder=drop)
    history = model.fit(ds, epochs=2, verbose=0)
    print("drop_remainder", drop, history.history)
print(model.get_weights()[0].ravel().tolist())
