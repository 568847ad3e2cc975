# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# Where Python prints in train_step / test_step / predict_step / call run in a compiled fit:
# while tracing only; tf.print (to stderr) on every step.
rng = np.random.default_rng(7)
x = rng.standard_normal((70, 3)).astype("float32")
y = rng.standard_normal((70, 2)).astype("float32")


verbose = []   # prints from the first fit on (not the eager build call)


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
        if verbose:
            print("call", tuple(inputs.shape), training)
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        print("train_step", type(data).__name__, shapes(data))
        tf.print("train step runs")
        return super().train_step(data)

    def test_step(self, data):
        print("test_step", type(data).__name__, shapes(data))
        tf.print("test step runs")
        return super().test_step(data)

    def predict_step(self, data):
        print("predict_step", "tuple" if isinstance(data, tuple) else "tensor", shapes(data))
        tf.print("predict step runs")
        return super().predict_step(data)


model = Net()
model(x[:1])
verbose.append(True)
model.set_weights([np.linspace(-1, 1, w.size, dtype="float32").reshape(w.shape)
                   for w in model.get_weights()])
model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
print("train_function before fit:", model.train_function, model.run_eagerly)
print("make_train_function:", model.make_train_function())
print("made:", callable(model.train_function),
      model.make_train_function() is model.train_function)
print("fit")
history = model.fit(x, y, batch_size=32, epochs=2, shuffle=False, verbose=0,
                    validation_data=(x[:40], y[:40]))
for key in sorted(history.history):
    print(key, history.history[key])
print("evaluate")
print(model.evaluate(x, y, batch_size=32, verbose=0))
print(model.evaluate(x[:50], y[:50], batch_size=16, verbose=0))
print("predict")
print(model.predict(x, batch_size=32, verbose=0)[[0, -1]].tolist())
print("train_on_batch")
for n in (5, 6, 7):
    print(model.train_on_batch(x[:n], y[:n]))
print("test_on_batch")
print(model.test_on_batch(x[:5], y[:5]))
print("predict_on_batch")
print(model.predict_on_batch(x[:5])[0].tolist())
print("compile again")
model.compile(keras.optimizers.SGD(0.1), "mse")
print(model.train_function, model.test_function, model.predict_function)
history = model.fit(x, y, batch_size=32, epochs=1, shuffle=False, verbose=0)
print(history.history)
