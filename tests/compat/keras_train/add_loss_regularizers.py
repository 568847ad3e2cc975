# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# add_loss, kernel/bias/activity regularizers and model.losses, summed into the fit loss.
rng = np.random.default_rng(4)
x = rng.standard_normal((20, 3)).astype("float32")
y = rng.standard_normal((20, 2)).astype("float32")


class ActivityPenalty(keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(0.01 * tf.reduce_sum(tf.square(inputs)))
        return inputs


model = keras.Sequential([
    keras.Input((3,)),
    keras.layers.Dense(4, kernel_regularizer=keras.regularizers.L2(0.1),
                       bias_regularizer=keras.regularizers.L1(0.05),
                       activity_regularizer=keras.regularizers.L2(0.01)),
    ActivityPenalty(),
    keras.layers.Dense(2),
])
model.set_weights([np.full((3, 4), 0.2, "float32"), np.full((4,), 0.1, "float32"),
                   np.full((4, 2), -0.3, "float32"), np.zeros((2,), "float32")])
model(x[:5])
print(len(model.losses), [round(float(t), 4) for t in model.losses])
model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
h = model.fit(x, y, batch_size=10, epochs=2, shuffle=False, verbose=0)
print([round(v, 4) for v in h.history["loss"]])
print(round(float(model.evaluate(x, y, verbose=0)), 4))
