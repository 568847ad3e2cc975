"""Keras's guide "Training & evaluation with the built-in methods": a multi-input,
multi-output model compiled with per-output losses, metrics and loss weights."""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers

rng = np.random.default_rng(0)


def show(history):
    print({k: [round(v, 4) for v in vals] for k, vals in history.history.items()})


image_input = keras.Input(shape=(8, 8, 1), name="img_input")
timeseries_input = keras.Input(shape=(None, 4), name="ts_input")
x1 = layers.Conv2D(3, 3, kernel_initializer=keras.initializers.Constant(0.1))(image_input)
x1 = layers.GlobalMaxPooling2D()(x1)
x2 = layers.Conv1D(3, 3, kernel_initializer=keras.initializers.Constant(0.1))(timeseries_input)
x2 = layers.GlobalMaxPooling1D()(x2)
x = layers.concatenate([x1, x2])
score_output = layers.Dense(1, name="score_output",
                            kernel_initializer=keras.initializers.Constant(0.2))(x)
class_output = layers.Dense(5, name="class_output",
                            kernel_initializer=keras.initializers.Constant(0.1))(x)
model = keras.Model(inputs=[image_input, timeseries_input], outputs=[score_output, class_output])
model.compile(optimizer=keras.optimizers.RMSprop(1e-3),
              loss={"score_output": keras.losses.MeanSquaredError(),
                    "class_output": keras.losses.CategoricalCrossentropy()},
              metrics={"score_output": [keras.metrics.MeanAbsolutePercentageError(),
                                        keras.metrics.MeanAbsoluteError()],
                       "class_output": [keras.metrics.CategoricalAccuracy()]},
              loss_weights={"score_output": 2.0, "class_output": 1.0})
img_data = rng.random((32, 8, 8, 1)).astype("float32")
ts_data = rng.random((32, 6, 4)).astype("float32")
score_targets = rng.random((32, 1)).astype("float32")
class_targets = np.eye(5, dtype="float32")[rng.integers(0, 5, 32)]
show(model.fit({"img_input": img_data, "ts_input": ts_data},
               {"score_output": score_targets, "class_output": class_targets},
               batch_size=16, epochs=1, verbose=0, shuffle=False))


print(np.round(model.evaluate({"img_input": img_data, "ts_input": ts_data},
                              {"score_output": score_targets, "class_output": class_targets},
                              verbose=0), 4))
print(model.evaluate({"img_input": img_data, "ts_input": ts_data},
                     {"score_output": score_targets, "class_output": class_targets},
                     verbose=0, return_dict=True).keys())
model.compile(optimizer=keras.optimizers.RMSprop(1e-3),
              loss=[keras.losses.MeanSquaredError(), keras.losses.CategoricalCrossentropy()],
              metrics=[["mae"], ["accuracy"]], loss_weights=[0.5, 1.0])
show(model.fit([img_data, ts_data], [score_targets, class_targets], batch_size=16, epochs=1,
               verbose=0, shuffle=False))
model.compile(optimizer=keras.optimizers.RMSprop(1e-3),
              loss={"class_output": keras.losses.CategoricalCrossentropy()})
try:
    model.fit({"img_input": img_data, "ts_input": ts_data}, {"class_output": class_targets},
              batch_size=16, epochs=1, verbose=0, shuffle=False)
except ValueError as e:
    print("ValueError:", e)
