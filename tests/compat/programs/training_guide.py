"""Keras's guide "Training & evaluation with the built-in methods": fit/evaluate/predict,
custom losses and metrics, add_loss in a model, validation_split, Datasets, class and
sample weights, a two-input model over an image and a sequence of unknown length, callbacks
(EarlyStopping), learning-rate schedules. (The guide's multi-output model compiled with
per-output loss, metric and loss-weight dicts is multi_output_guide.py.)"""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

rng = np.random.default_rng(0)
x_train = rng.random((512, 20)).astype("float32")
y_train = np.minimum((x_train[:, :10].sum(1) > x_train[:, 10:].sum(1)).astype("int64") +
                     2 * (x_train[:, 0] > 0.8), 2)
x_val, y_val = x_train[-100:], y_train[-100:]


def get_uncompiled_model():
    inputs = keras.Input(shape=(20,), name="digits")
    x = layers.Dense(16, activation="relu", name="dense_1",
                     kernel_initializer=keras.initializers.Constant(0.05))(inputs)
    x = layers.Dense(16, activation="relu", name="dense_2",
                     kernel_initializer=keras.initializers.Constant(-0.02))(x)
    outputs = layers.Dense(3, activation="softmax", name="predictions",
                           kernel_initializer=keras.initializers.Constant(0.01))(x)
    return keras.Model(inputs=inputs, outputs=outputs)


def get_compiled_model():
    model = get_uncompiled_model()
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    return model


def show(history):
    print({k: [round(v, 4) for v in vals] for k, vals in history.history.items()})


model = get_compiled_model()
history = model.fit(x_train, y_train, batch_size=64, epochs=2, validation_data=(x_val, y_val),
                    verbose=0, shuffle=False)
show(history)
results = model.evaluate(x_val, y_val, batch_size=128, verbose=0)
print("test loss, test acc:", np.round(results, 4))
predictions = model.predict(x_val[:3], verbose=0)
print("predictions shape:", predictions.shape)


def custom_mean_squared_error(y_true, y_pred):
    return tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)


model = get_uncompiled_model()
model.compile(optimizer=keras.optimizers.Adam(), loss=custom_mean_squared_error)
y_train_one_hot = tf.one_hot(y_train, depth=3)
show(model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0, shuffle=False))


class CustomMSE(keras.losses.Loss):
    def __init__(self, regularization_factor=0.1, name="custom_mse"):
        super().__init__(name=name)
        self.regularization_factor = regularization_factor

    def call(self, y_true, y_pred):
        mse = tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)
        reg = tf.math.reduce_mean(tf.square(0.5 - y_pred), axis=-1)
        return mse + reg * self.regularization_factor


model = get_uncompiled_model()
model.compile(optimizer=keras.optimizers.Adam(), loss=CustomMSE())
show(model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0, shuffle=False))


class CategoricalTruePositives(keras.metrics.Metric):
    def __init__(self, name="categorical_true_positives", **kwargs):
        super().__init__(name=name, **kwargs)
        self.true_positives = self.add_variable(shape=(), name="ctp", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.reshape(tf.argmax(y_pred, axis=1), (-1, 1))
        values = tf.cast(y_true, "int32") == tf.cast(y_pred, "int32")
        values = tf.cast(values, "float32")
        if sample_weight is not None:
            sample_weight = tf.cast(sample_weight, "float32")
            values = tf.multiply(values, sample_weight)
        self.true_positives.assign_add(tf.reduce_sum(values))

    def result(self):
        return self.true_positives

    def reset_state(self):
        self.true_positives.assign(0.0)


model = get_uncompiled_model()
model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(),
              metrics=[CategoricalTruePositives()])
show(model.fit(x_train, y_train, batch_size=64, epochs=3, verbose=0, shuffle=False))


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(tf.reduce_sum(inputs) * 0.1)
        return inputs


inputs = keras.Input(shape=(20,), name="digits")
x = layers.Dense(16, activation="relu", name="dense_1",
                 kernel_initializer=keras.initializers.Constant(0.05))(inputs)
x = ActivityRegularizationLayer()(x)
x = layers.Dense(16, activation="relu", name="dense_2",
                 kernel_initializer=keras.initializers.Constant(0.02))(x)
outputs = layers.Dense(3, name="predictions",
                       kernel_initializer=keras.initializers.Constant(0.01))(x)
model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
show(model.fit(x_train, y_train, batch_size=64, epochs=1, verbose=0, shuffle=False))

model = get_compiled_model()
show(model.fit(x_train, y_train, batch_size=64, validation_split=0.2, epochs=1, verbose=0,
               shuffle=False))

model = get_compiled_model()
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(64)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(64)
show(model.fit(train_dataset, epochs=2, validation_data=val_dataset, validation_steps=1,
               verbose=0))
print(np.round(model.evaluate(val_dataset, verbose=0, return_dict=True)["loss"], 4))
model = get_compiled_model()
show(model.fit(train_dataset.repeat(), epochs=2, steps_per_epoch=3, verbose=0))

class_weight = {0: 1.0, 1: 1.0, 2: 3.0}
model = get_compiled_model()
show(model.fit(x_train, y_train, class_weight=class_weight, batch_size=64, epochs=1, verbose=0,
               shuffle=False))
sample_weight = np.ones(shape=(len(y_train),))
sample_weight[y_train == 2] = 2.0
model = get_compiled_model()
show(model.fit(x_train, y_train, sample_weight=sample_weight, batch_size=64, epochs=1,
               verbose=0, shuffle=False))

image_input = keras.Input(shape=(8, 8, 1), name="img_input")
timeseries_input = keras.Input(shape=(None, 4), name="ts_input")
x1 = layers.Conv2D(3, 3, kernel_initializer=keras.initializers.Constant(0.1))(image_input)
x1 = layers.GlobalMaxPooling2D()(x1)
x2 = layers.Conv1D(3, 3, strides=2, kernel_initializer=keras.initializers.Constant(0.1))(
    timeseries_input)
print(x2.shape)
x2 = layers.GlobalMaxPooling1D()(x2)
x = layers.concatenate([x1, x2])
class_output = layers.Dense(5, name="class_output",
                            kernel_initializer=keras.initializers.Constant(0.1))(x)
model = keras.Model(inputs=[image_input, timeseries_input], outputs=class_output)
model.compile(optimizer=keras.optimizers.RMSprop(1e-3), loss="categorical_crossentropy",
              metrics=["categorical_accuracy"])
img_data = rng.random((32, 8, 8, 1)).astype("float32")
ts_data = rng.random((32, 6, 4)).astype("float32")
class_targets = np.eye(5, dtype="float32")[rng.integers(0, 5, 32)]
show(model.fit({"img_input": img_data, "ts_input": ts_data}, class_targets, batch_size=16,
               epochs=1, verbose=0, shuffle=False))
model.summary()

model = get_compiled_model()
callbacks = [keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=1e-2, patience=2,
                                           verbose=1)]
show(model.fit(x_train, y_train, epochs=20, batch_size=64, callbacks=callbacks,
               validation_split=0.2, verbose=0, shuffle=False))

initial_learning_rate = 0.1
lr_schedule = keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate, decay_steps=100000, decay_rate=0.96, staircase=True)
optimizer = keras.optimizers.RMSprop(learning_rate=lr_schedule)
print(float(lr_schedule(200000)), optimizer.learning_rate.numpy())
