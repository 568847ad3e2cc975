"""Overriding train_step / test_step and keeping metrics by hand, as Keras 3 calls them
(in the spirit of keras-io's "customizing what happens in fit")."""
import numpy as np
import tensorflow as tf

loss_tracker = tf.keras.metrics.Mean(name="loss")
mae_metric = tf.keras.metrics.MeanAbsoluteError(name="mae")


class CustomModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(y - y_pred))
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        loss_tracker.update_state(loss)
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss_tracker.update_state(tf.reduce_mean(tf.square(y - y_pred)))
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    @property
    def metrics(self):
        return [loss_tracker, mae_metric]


inputs = tf.keras.Input(shape=(4,))
outputs = tf.keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
model.set_weights([np.full((4, 1), 0.1, np.float32), np.zeros(1, np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05))
rng = np.random.default_rng(4)
x = rng.normal(size=(64, 4)).astype(np.float32)
y = (x.sum(axis=1, keepdims=True) * 0.5).astype(np.float32)
history = model.fit(x, y, epochs=3, batch_size=16, shuffle=False, verbose=0)
for key in sorted(history.history):
    print(key, [round(v, 4) for v in history.history[key]])
print({k: round(float(v), 4) for k, v in model.evaluate(x, y, verbose=0,
                                                       return_dict=True).items()})
print([m.name for m in model.metrics])
