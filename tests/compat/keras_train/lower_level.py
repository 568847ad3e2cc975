# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# No compiled loss: own loss function, own metric trackers listed by a metrics property,
# and a custom test_step for evaluate.
rng = np.random.default_rng(2)
x = rng.standard_normal((48, 3)).astype("float32")
y = (x.sum(axis=1, keepdims=True) * 0.5).astype("float32")
loss_fn = keras.losses.MeanSquaredError()


class CustomModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

    def call(self, inputs):
        return self.dense(inputs)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = loss_fn(y, y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(loss_fn(y, y_pred))
        self.mae_metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


model = CustomModel()
model.compile(optimizer=keras.optimizers.Adam(0.05))
model(x[:1])
model.set_weights([np.full((3, 1), 0.1, "float32"), np.zeros((1,), "float32")])
history = model.fit(x, y, batch_size=12, epochs=4, shuffle=False, verbose=0)
print([round(v, 4) for v in history.history["mae"]])
print([round(float(v), 4) for v in model.evaluate(x, y, batch_size=24, verbose=0)])
print(model.evaluate(x, y, verbose=0, return_dict=True).keys())
model.reset_metrics()
print([float(m.result()) for m in model.metrics])
