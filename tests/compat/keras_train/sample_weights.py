# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# train_step receives (x, y, sample_weight) when fit gets sample weights, x alone without y.
rng = np.random.default_rng(3)
x = rng.standard_normal((32, 2)).astype("float32")
y = (x[:, :1] - x[:, 1:]).astype("float32")
sw = np.linspace(0.1, 2.0, 32).astype("float32")
seen = []


class CustomModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def train_step(self, data):
        seen.append(len(data) if isinstance(data, tuple) else "x")
        if isinstance(data, tuple) and len(data) == 3:
            x, y, sample_weight = data
        elif isinstance(data, tuple):
            (x, y), sample_weight = data, None
        else:
            x, y, sample_weight = data, None, None
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            if y is None:
                loss = tf.reduce_mean(tf.square(y_pred))
            else:
                loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            elif y is not None:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}


model = CustomModel()
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
model(x[:1])
model.set_weights([np.array([[0.2], [0.1]], "float32"), np.zeros((1,), "float32")])
h = model.fit(x, y, sample_weight=sw, batch_size=8, epochs=2, shuffle=False, verbose=0)
print([round(v, 4) for v in h.history["loss"]], [round(v, 4) for v in h.history["mae"]])
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
model.fit(x, batch_size=32, epochs=1, verbose=0)
print(sorted(set(map(str, seen))))
