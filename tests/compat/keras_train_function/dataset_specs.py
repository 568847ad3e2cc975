# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# A compiled fit traces its step with the data's spec: None batch dims for arrays and for a
# batched Dataset, the fixed size of batch(..., drop_remainder=True).
rng = np.random.default_rng(8)
x = rng.standard_normal((70, 3)).astype("float32")
y = rng.integers(0, 3, 70)


verbose = []   # prints from the first fit on (not the model's build)


class Show(keras.layers.Layer):
    def call(self, inputs):
        if verbose:
            print("Show.call", tuple(inputs.shape))
        return inputs * 2.0


def build():
    verbose.clear()
    model = keras.Sequential([keras.Input((3,)), Show(),
                              keras.layers.Dense(5, activation="relu"), keras.layers.Dense(3)])
    model.set_weights([np.linspace(-0.5, 0.7, w.size, dtype="float32").reshape(w.shape)
                       for w in model.get_weights()])
    model.compile(keras.optimizers.SGD(0.05),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    verbose.append(True)
    return model


print("arrays")
model = build()
h = model.fit(x, y, batch_size=32, epochs=2, shuffle=False, verbose=0)
print(h.history)
print("batched dataset")
model = build()
h = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(32), epochs=2, verbose=0)
print(h.history)
print("drop_remainder")
model = build()
h = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(32, drop_remainder=True),
              epochs=2, verbose=0)
print(h.history)
print("then arrays of another batch size")
h = model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
print(h.history)
print("evaluate on a dataset")
print(model.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(20), verbose=0))
