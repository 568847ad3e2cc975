# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# fit's class_weight: per-sample weights from the labels (integer ids or one-hot rows).
rng = np.random.default_rng(8)
x = rng.standard_normal((30, 3)).astype("float32")
labels = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0.5).astype("int32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
model.set_weights([np.full((3, 3), 0.1, "float32"), np.zeros((3,), "float32")])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy",
              metrics=["accuracy"], weighted_metrics=["accuracy"])
h = model.fit(x, labels, batch_size=10, epochs=2, shuffle=False, verbose=0,
              class_weight={0: 1.0, 1: 3.0, 2: 0.5})
print(sorted(h.history), [round(v, 4) for v in h.history["loss"]])
one_hot = np.eye(3, dtype="float32")[labels]
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
model.set_weights([np.full((3, 3), 0.1, "float32"), np.zeros((3,), "float32")])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="categorical_crossentropy")
h = model.fit(x, one_hot, batch_size=15, epochs=1, shuffle=False, verbose=0,
              class_weight={1: 2.0})
print([round(v, 4) for v in h.history["loss"]])
try:
    model.fit(x, one_hot, sample_weight=np.ones(30), class_weight={0: 1.0}, verbose=0)
except ValueError as e:
    print("ValueError:", e)
