# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# A compiled fit / evaluate / predict under a MirroredStrategy of two replicas (two logical
# CPU devices: the recorder splits TensorFlow's CPU): Keras traces strategy.run(step) in its
# tf.function, so a Python print in train_step / test_step / predict_step runs once per
# replica per trace, with the per-replica slice's spec; tf.print runs on every replica and
# step. train_on_batch and friends hand every replica the whole batch, as Keras 3 does.
rng = np.random.default_rng(7)
x = rng.standard_normal((70, 3)).astype("float32")
y = rng.standard_normal((70, 2)).astype("float32")

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
print("replicas:", strategy.num_replicas_in_sync)


def shapes(data):
    if isinstance(data, (tuple, list)):
        return [None if t is None else tuple(t.shape) for t in data]
    return tuple(data.shape)


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(4, activation="tanh")
        self.out = keras.layers.Dense(2)

    def call(self, inputs, training=False):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        ctx = tf.distribute.get_replica_context()
        print("train_step", type(data).__name__, shapes(data), ctx.num_replicas_in_sync)
        tf.print("train step runs", tf.shape(data[0]))
        return super().train_step(data)

    def test_step(self, data):
        print("test_step", type(data).__name__, shapes(data))
        tf.print("test step runs", tf.shape(data[0]))
        return super().test_step(data)

    def predict_step(self, data):
        print("predict_step", "tuple" if isinstance(data, tuple) else "tensor", shapes(data))
        tf.print("predict step runs")
        return super().predict_step(data)


with strategy.scope():
    model = Net()
    model(x[:1])
    model.set_weights([np.linspace(-1, 1, w.size, dtype="float32").reshape(w.shape)
                       for w in model.get_weights()])
    model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
print("fit")
history = model.fit(x, y, batch_size=32, epochs=2, shuffle=False, verbose=0,
                    validation_data=(x[:40], y[:40]))
for key in sorted(history.history):
    print(key, history.history[key])
print("iterations", int(model.optimizer.iterations.numpy()))
print("fit again")
history = model.fit(x[:64], y[:64], batch_size=16, epochs=1, shuffle=False, verbose=0)
print(history.history)
print("evaluate")
print(model.evaluate(x, y, batch_size=32, verbose=0))
print("predict")
out = model.predict(x, batch_size=32, verbose=0)
print(out.shape, out[[0, 31, 32, -1]].tolist())
print("train_on_batch")
for n in (5, 6):
    print(model.train_on_batch(x[:n], y[:n]))
print("test_on_batch")
print(model.test_on_batch(x[:5], y[:5]))
print("iterations", int(model.optimizer.iterations.numpy()))
print(np.round(model.get_weights()[0], 5).tolist())
print("predict_on_batch")
out = model.predict_on_batch(x[:5])
print(out.shape, out[[0, 5]].tolist())
with strategy.scope():
    fresh = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
print("made in scope, used outside:", fresh.predict(x[:5], verbose=0).shape,
      fresh.predict_on_batch(x[:5]).shape)
