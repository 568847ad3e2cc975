# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# EarlyStopping (restore_best_weights, baseline, start_from_epoch), LearningRateScheduler,
# ReduceLROnPlateau, LambdaCallback: what they print and what History records.
rng = np.random.default_rng(6)
x = rng.standard_normal((24, 2)).astype("float32")
y = (x @ np.array([[2.0], [-1.0]], "float32")).astype("float32")


def fresh_model(lr=0.05):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [0.5]], "float32"), np.zeros((1,), "float32")])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    return model


model = fresh_model()
stop = keras.callbacks.EarlyStopping(monitor="loss", min_delta=100.0, patience=2,
                                     restore_best_weights=True, verbose=1)
h = model.fit(x, y, batch_size=8, epochs=10, shuffle=False, verbose=0, callbacks=[stop])
print(len(h.history["loss"]), stop.stopped_epoch, stop.best_epoch, stop.wait)
print([round(float(v), 4) for v in model.get_weights()[0].ravel()])

model = fresh_model()
stop = keras.callbacks.EarlyStopping(monitor="mae", baseline=0.01, patience=2,
                                     start_from_epoch=1, verbose=1)
h = model.fit(x, y, batch_size=8, epochs=10, shuffle=False, verbose=0, callbacks=[stop])
print(len(h.history["mae"]), stop.stopped_epoch, [round(v, 4) for v in h.history["mae"]])

model = fresh_model()
epochs_seen = []
schedule = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch < 1 else lr * 0.5,
                                                 verbose=1)
lam = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: epochs_seen.append(epoch))
h = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=[schedule, lam])
print([round(v, 6) for v in h.history["learning_rate"]], epochs_seen, sorted(h.history))

model = fresh_model(lr=0.2)
plateau = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                            min_delta=100.0, cooldown=1, verbose=1)
h = model.fit(x, y, batch_size=8, epochs=5, shuffle=False, verbose=0, callbacks=[plateau])
print([round(v, 6) for v in h.history["learning_rate"]], round(h.history["loss"][-1], 4))
