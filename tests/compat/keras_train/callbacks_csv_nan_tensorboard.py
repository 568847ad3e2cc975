# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# CSVLogger's file, TerminateOnNaN's stop, and the TensorBoard callback's directories.
import os
import tempfile

rng = np.random.default_rng(7)
x = rng.standard_normal((16, 3)).astype("float32")
y = (x.sum(axis=1, keepdims=True)).astype("float32")
folder = tempfile.mkdtemp()


def fresh_model(lr):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights([np.full((3, 1), 0.1, "float32"), np.zeros((1,), "float32")])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    return model


path = os.path.join(folder, "log.csv")
model = fresh_model(0.05)
model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0,
          callbacks=[keras.callbacks.CSVLogger(path)])
model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0, validation_data=(x, y),
          callbacks=[keras.callbacks.CSVLogger(path, append=True, separator=";")])
print(open(path).read())

model = fresh_model(1e18)
h = model.fit(x * 1e10, y, batch_size=4, epochs=3, shuffle=False, verbose=0,
              callbacks=[keras.callbacks.TerminateOnNaN()])
print(len(h.history["loss"]))

logdir = os.path.join(folder, "tb")
model = fresh_model(0.05)
board = keras.callbacks.TensorBoard(log_dir=logdir, histogram_freq=1, update_freq="batch")
model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0, validation_data=(x, y),
          callbacks=[board])
print(sorted(os.listdir(logdir)), [len(os.listdir(os.path.join(logdir, d)))
                                   for d in sorted(os.listdir(logdir))])
