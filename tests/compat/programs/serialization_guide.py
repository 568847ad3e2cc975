"""Keras's guide "Save, serialize, and export models" (the .keras format parts): saving and
loading with custom objects, register_keras_serializable, get_config/from_config, cloning,
weights-only saving, transferring weights, clone_model. (TF 2.21's tf.keras has no `saving`
module: the guide's keras.saving calls are spelled as tf.keras.utils/models offers them.)"""
import os
import tempfile

import numpy as np
from tensorflow import keras

os.chdir(tempfile.mkdtemp())


def get_model():
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1, kernel_initializer="ones")(inputs)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(), loss="mean_squared_error")
    return model


model = get_model()
test_input = np.linspace(0, 1, 128 * 32).astype("float32").reshape(128, 32)
test_target = np.linspace(0, 1, 128).astype("float32").reshape(128, 1)
model.fit(test_input, test_target, verbose=0, shuffle=False)
model.save("my_model.keras")
reconstructed_model = keras.models.load_model("my_model.keras")
np.testing.assert_allclose(model.predict(test_input, verbose=0),
                           reconstructed_model.predict(test_input, verbose=0))
print(sorted(os.listdir(".")))


@keras.utils.register_keras_serializable(package="my_package", name="custom_fn")
def custom_fn(x):
    return x**2


@keras.utils.register_keras_serializable(package="MyLayers")
class CustomLayer(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {"factor": self.factor}


@keras.utils.register_keras_serializable(package="my_package", name="custom_fn2")
class CustomModel(keras.Model):
    def __init__(self, hidden_units, **kwargs):
        super().__init__(**kwargs)
        self.hidden_units = hidden_units
        self.dense_layers = [keras.layers.Dense(u, kernel_initializer="ones")
                             for u in hidden_units]

    def call(self, inputs):
        x = inputs
        for layer in self.dense_layers:
            x = layer(x)
        return x

    def get_config(self):
        return {"hidden_units": self.hidden_units}


model = CustomModel([16, 16, 10])
input_arr = np.linspace(0, 1, 96).astype("float32").reshape(1, 96)
outputs = model(input_arr)
model.save("custom_model.keras")
loaded = keras.models.load_model("custom_model.keras")
np.testing.assert_allclose(loaded(input_arr), outputs)
print("Original model:", model)
print("Loaded model:", type(loaded).__name__, loaded.hidden_units)
print(keras.utils.get_registered_name(CustomLayer), keras.utils.get_registered_name(custom_fn))
print(keras.utils.get_registered_object("MyLayers>CustomLayer") is CustomLayer)

layer = CustomLayer(2.0)
config = keras.layers.serialize(layer)
print(config)
new_layer = keras.layers.deserialize(config)
print(type(new_layer).__name__, new_layer.factor)

model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)])
config = model.get_config()
new_model = keras.Sequential.from_config(config)
print(type(new_model).__name__, [type(layer).__name__ for layer in new_model.layers])
json_config = model.to_json()
new_model = keras.models.model_from_json(json_config)
print(len(new_model.weights))
new_model = keras.models.clone_model(model)
print(len(new_model.weights), new_model.layers[0].name == model.layers[0].name)


def create_layer():
    layer = keras.layers.Dense(64, activation="relu", name="dense_2")
    layer.build((None, 784))
    return layer


layer_1 = create_layer()
layer_2 = create_layer()
layer_2.set_weights(layer_1.get_weights())
print(all(np.array_equal(a, b) for a, b in zip(layer_1.get_weights(), layer_2.get_weights())))

inputs = keras.Input(shape=(784,), name="digits")
x = keras.layers.Dense(64, activation="relu", name="dense_1")(inputs)
x = keras.layers.Dense(64, activation="relu", name="dense_2")(x)
outputs = keras.layers.Dense(10, name="predictions")(x)
functional_model = keras.Model(inputs=inputs, outputs=outputs, name="3_layer_mlp")
functional_model.save_weights("ckpt.weights.h5")
functional_model.load_weights("ckpt.weights.h5")
print(os.path.getsize("ckpt.weights.h5") > 0)


class SubclassedModel(keras.Model):
    def __init__(self, output_dim, name=None):
        super().__init__(name=name)
        self.output_dim = output_dim
        self.dense_1 = keras.layers.Dense(64, activation="relu", name="dense_1")
        self.dense_2 = keras.layers.Dense(64, activation="relu", name="dense_2")
        self.dense_3 = keras.layers.Dense(output_dim, name="predictions")

    def call(self, inputs):
        x = self.dense_1(inputs)
        x = self.dense_2(x)
        x = self.dense_3(x)
        return x

    def get_config(self):
        return {"output_dim": self.output_dim, "name": self.name}


subclassed_model = SubclassedModel(10)
subclassed_model(np.ones((1, 784)))
subclassed_model.set_weights(functional_model.get_weights())
assert len(functional_model.weights) == len(subclassed_model.weights)
for a, b in zip(functional_model.weights, subclassed_model.weights):
    np.testing.assert_allclose(a.numpy(), b.numpy())
print("weights transferred")
try:
    functional_model.load_weights("missing.weights.h5")
except (FileNotFoundError, OSError, ValueError) as e:
    print(type(e).__name__)

# clone_model: functional (new weights, same names), clone_function, subclassed refusal
inputs = keras.Input((4,), name="x")
a = keras.layers.Dense(3, name="a")(inputs)
b = keras.layers.Dense(2, name="b")(a)
c = keras.layers.Concatenate(name="c")([a, b])
model = keras.Model(inputs, c, name="net")
clone = keras.models.clone_model(model)
print(clone.name, [layer.name for layer in clone.layers], clone.output_shape)
print(all(x is not y for x, y in zip(model.weights, clone.weights)), len(clone.weights))
clone.set_weights(model.get_weights())
x = np.linspace(0, 1, 8, dtype="float32").reshape(2, 4)
print(np.allclose(clone(x), model(x)))


def fn(layer):
    if isinstance(layer, keras.layers.Dense):
        cfg = layer.get_config()
        cfg["units"] = cfg["units"] * 2
        return keras.layers.Dense.from_config(cfg)
    return layer.__class__.from_config(layer.get_config())


seq = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="d1"),
                        keras.layers.Dense(2, name="d2")], name="s")
c2 = keras.models.clone_model(seq, clone_function=fn)
print(c2.name, [layer.name for layer in c2.layers], c2.output_shape,
      [tuple(w.shape) for w in c2.weights])


class Sub(keras.Model):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.d = keras.layers.Dense(2)

    def call(self, x):
        return self.d(x)


try:
    keras.models.clone_model(Sub(), clone_function=fn)
except ValueError as e:
    print("ValueError", str(e)[:80])
