"""compile / fit / evaluate / predict with a History (Keras's built-in training loop)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(11)
x = rng.normal(size=(64, 3)).astype(np.float32)
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype=np.float32) + 0.3).astype(np.float32)

model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(4, "tanh"),
                             tf.keras.layers.Dense(1)])
init = np.random.default_rng(5)
model.set_weights([(init.normal(size=w.shape) * 0.5).astype(np.float32)
                   for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
history = model.fit(x, y, batch_size=16, epochs=5, shuffle=False, verbose=0,
                    validation_split=0.25)
print(sorted(history.history))
for key in sorted(history.history):
    print(key, [round(v, 4) for v in history.history[key]])
print(history.epoch, history.params)
result = model.evaluate(x, y, batch_size=32, verbose=0)
print([round(float(r), 4) for r in result])
pred = model.predict(x[:3], verbose=0)
print(type(pred).__name__, pred.shape, pred.dtype)
print(np.round(pred, 4))
print(model.count_params(), [w.shape for w in model.weights])
print(model.layers[0].name, model.layers[1].get_config()["units"])
