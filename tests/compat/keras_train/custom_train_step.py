# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# A Model subclass overriding train_step: compute_loss, then every metric of self.metrics.
rng = np.random.default_rng(0)
x = rng.standard_normal((64, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")


class CustomModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


model = CustomModel()
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
model(x[:1])
w_rng = np.random.default_rng(1)
model.set_weights([w_rng.standard_normal(w.shape).astype("float32") * 0.5
                   for w in model.get_weights()])
print([m.name for m in model.metrics])
history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=2)
print(sorted(history.history), [round(v, 4) for v in history.history["loss"]])
print({k: round(float(v), 4) for k, v in model.get_metrics_result().items()})
