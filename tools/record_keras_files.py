"""Record Keras 3 file fixtures for tapeflow's saving tests (tests/fixtures/keras/files/).

Three modes, run in this order:

    /work/tfvenv/bin/python tools/record_keras_files.py keras
        Keras 3 builds the models below, trains them one step, writes ``<name>.weights.h5``
        and ``<name>.keras`` and the predictions on fixed inputs (``keras_predictions.npz``).
    PYTHONPATH=src python tools/record_keras_files.py tapeflow
        tapeflow builds the same models, trains one step and writes its files into
        ``tapeflow/`` with its own predictions (``tapeflow/tapeflow_predictions.npz``).
    /work/tfvenv/bin/python tools/record_keras_files.py keras-load
        Keras 3 loads tapeflow's files (``load_model`` and ``load_weights``) and records its
        predictions and what it loaded (``tapeflow/keras_predictions.npz``,
        ``tapeflow/keras_load_report.json``).

The model definitions are shared: ``make_models(keras)`` takes ``keras`` or
``tapeflow.keras``, so the tests build exactly these models.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, os.pardir, "tests", "fixtures", "keras", "files")
NAMES = ("sequential_cnn", "sequential_rnn", "functional", "subclassed", "sequential_called")


def make_tower_class(keras):
    """A subclassed model with an attribute layer, a list of layers and BatchNormalization,
    registered as ``fixtures>Tower``."""

    @keras.saving.register_keras_serializable(package="fixtures", name="Tower")
    class Tower(keras.Model):
        def __init__(self, units=6, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.hidden = keras.layers.Dense(units, activation="relu")
            self.blocks = [keras.layers.Dense(units, activation="tanh"),
                           keras.layers.Dense(units)]
            self.norm = keras.layers.BatchNormalization()
            self.head = keras.layers.Dense(3)

        def call(self, x, training=None):
            x = self.hidden(x)
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x, training=training))

        def get_config(self):
            return {"units": self.units, "name": self.name}

    return Tower


def make_models(keras):
    """``{name: (model, x)}``: the four fixture models (built) and their fixed inputs."""
    layers = keras.layers
    cnn = keras.Sequential([
        keras.Input((8, 8, 1)), layers.Conv2D(3, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(2, 2, padding="same"), layers.AveragePooling2D(2), layers.Flatten(),
        layers.Dropout(0.3), layers.BatchNormalization(),
        layers.Dense(4, activation="softmax")])
    rnn = keras.Sequential([
        keras.Input((6,), dtype="int32"), layers.Embedding(12, 4),
        layers.SimpleRNN(5, return_sequences=True), layers.LSTM(4, return_sequences=True),
        layers.GRU(3), layers.Dense(2)])
    inp = keras.Input((7, 3))
    a = layers.LSTM(4)(inp)
    b = layers.SimpleRNN(3)(layers.GRU(4, return_sequences=True)(inp))
    c = layers.Dense(5, activation="tanh")(layers.Flatten()(inp))
    x = layers.BatchNormalization()(layers.Concatenate()([a, b, c]))
    functional = keras.Model(inp, layers.Dense(2)(layers.Dropout(0.2)(x)))
    tower = make_tower_class(keras)(units=6)
    tower(np.zeros((1, 5), np.float32))
    called = keras.Sequential([  # no Input: built by its first call
        layers.Reshape((6, 2)), layers.Conv1D(3, 2, activation="relu"),
        layers.GlobalAveragePooling1D(), layers.LayerNormalization(), layers.Dense(2)])
    called(np.zeros((2, 12), np.float32))
    rng = np.random.default_rng(7)
    inputs = {
        "sequential_cnn": rng.uniform(0, 1, (4, 8, 8, 1)).astype(np.float32),
        "sequential_rnn": rng.integers(0, 12, (4, 6)).astype(np.int32),
        "functional": rng.normal(size=(4, 7, 3)).astype(np.float32),
        "subclassed": rng.normal(size=(4, 5)).astype(np.float32),
        "sequential_called": rng.normal(size=(4, 12)).astype(np.float32),
    }
    models = {"sequential_cnn": cnn, "sequential_rnn": rnn, "functional": functional,
              "subclassed": tower, "sequential_called": called}
    return {name: (models[name], inputs[name]) for name in NAMES}


# (layer factory, input shapes): one of each layer, built by a symbolic call.
LAYER_SPECS = {
    "Dense": (lambda L: L.Dense(3, activation="relu"), (4,)),
    "Dense_options": (lambda L: L.Dense(2, use_bias=False, kernel_initializer="he_normal",
                                        kernel_regularizer="l2"), (4,)),
    "Conv2D": (lambda L: L.Conv2D(2, 3, strides=2, padding="same"), (8, 8, 1)),
    "Conv1D": (lambda L: L.Conv1D(2, 3, activation="sigmoid"), (8, 2)),
    "MaxPooling2D": (lambda L: L.MaxPooling2D(2), (4, 4, 1)),
    "AveragePooling2D": (lambda L: L.AveragePooling2D((2, 2), strides=1, padding="same"),
                         (4, 4, 1)),
    "MaxPooling1D": (lambda L: L.MaxPooling1D(2), (4, 2)),
    "AveragePooling1D": (lambda L: L.AveragePooling1D(2), (4, 2)),
    "GlobalAveragePooling2D": (lambda L: L.GlobalAveragePooling2D(), (4, 4, 2)),
    "GlobalMaxPooling1D": (lambda L: L.GlobalMaxPooling1D(keepdims=True), (4, 2)),
    "Flatten": (lambda L: L.Flatten(), (2, 3)),
    "Dropout": (lambda L: L.Dropout(0.25, seed=3), (3,)),
    "BatchNormalization": (lambda L: L.BatchNormalization(momentum=0.9, epsilon=1e-5), (3,)),
    "LayerNormalization": (lambda L: L.LayerNormalization(), (3,)),
    "Embedding": (lambda L: L.Embedding(10, 4), ("int32", 5)),
    "SimpleRNN": (lambda L: L.SimpleRNN(3, return_sequences=True), (5, 2)),
    "LSTM": (lambda L: L.LSTM(3, go_backwards=True), (5, 2)),
    "GRU": (lambda L: L.GRU(3, reset_after=False), (5, 2)),
    "Activation": (lambda L: L.Activation("tanh"), (3,)),
    "ReLU": (lambda L: L.ReLU(), (3,)),
    "Softmax": (lambda L: L.Softmax(), (3,)),
    "Reshape": (lambda L: L.Reshape((3, 2)), (6,)),
    "Rescaling": (lambda L: L.Rescaling(0.5, offset=1.0), (3,)),
    "Identity": (lambda L: L.Identity(), (3,)),
    "Concatenate": (lambda L: L.Concatenate(), [(2,), (3,)]),
    "Add": (lambda L: L.Add(), [(2,), (2,)]),
    "TimeDistributed": (lambda L: L.TimeDistributed(L.Dense(2)), (5, 3)),
    "Bidirectional": (lambda L: L.Bidirectional(L.LSTM(2)), (5, 3)),
    "Normalization": (lambda L: L.Normalization(), (3,)),
    "RNN_LSTMCell": (lambda L: L.RNN(L.LSTMCell(3), return_sequences=True), (5, 2)),
    "RNN_GRUCell": (lambda L: L.RNN(L.GRUCell(3)), (5, 2)),
    "RNN_SimpleRNNCell": (lambda L: L.RNN(L.SimpleRNNCell(3)), (5, 2)),
}


def build_spec(keras, name):
    """The layer of ``LAYER_SPECS[name]``, called once on ``keras.Input``."""
    factory, shape = LAYER_SPECS[name]
    layer = factory(keras.layers)
    if isinstance(shape, list):
        layer([keras.Input(s) for s in shape])
    elif shape[0] == "int32":
        layer(keras.Input(shape[1:], dtype="int32"))
    else:
        layer(keras.Input(shape))
    return layer


def h5_paths(path):
    """``[[path, shape or None for a group, sorted attribute names], ...]`` of an h5 file."""
    import h5py
    out = []

    def visit(name, obj):
        shape = list(obj.shape) if isinstance(obj, h5py.Dataset) else None
        out.append([name, shape, sorted(obj.attrs)])

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return out


def spec_layout(keras, name, folder):
    """The ``.weights.h5`` layout of a functional model made of the one layer ``name``."""
    factory, shape = LAYER_SPECS[name]
    layer = factory(keras.layers)
    if isinstance(shape, list):
        inputs = [keras.Input(s) for s in shape]
    elif shape[0] == "int32":
        inputs = keras.Input(shape[1:], dtype="int32")
    else:
        inputs = keras.Input(shape)
    model = keras.Model(inputs, layer(inputs))
    path = os.path.join(folder, "_layer.weights.h5")
    model.save_weights(path)
    layout = h5_paths(path)
    os.remove(path)
    return layout


def make_optimizers(keras):
    """Optimizers whose variable order in the file differs between kinds of slots."""
    o = keras.optimizers
    return {"sgd_momentum": o.SGD(0.1, momentum=0.9),
            "rmsprop_centered": o.RMSprop(momentum=0.5, centered=True),
            "adam_amsgrad": o.Adam(amsgrad=True),
            "adam_schedule": o.Adam(o.schedules.ExponentialDecay(0.1, 10, 0.9)),
            "adamw": o.AdamW(weight_decay=0.01)}


def optimizer_file_order(keras, path):
    """The optimizer's variable shapes, in file order, after one step of a small model."""
    import h5py
    with h5py.File(path, "r") as f:
        group = f["optimizer/vars"]
        return [list(group[str(i)].shape) for i in range(len(group))]


def small_model(keras):
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                             keras.layers.Dense(2)])


def targets(name, x):
    """Fixed training targets for one step of ``fit``."""
    n = len(x)
    if name == "sequential_cnn":
        return np.arange(n) % 4
    return np.linspace(-1, 1, n * {"sequential_rnn": 2, "functional": 2, "subclassed": 3,
                                   "sequential_called": 2}[name]).reshape(n, -1).astype(
                                       np.float32)


def set_fixed_weights(model, seed):
    """Overwrite every weight with seeded uniform values (variances positive)."""
    rng = np.random.default_rng(seed)
    values = []
    for w in model.weights:
        shape = tuple(w.shape)
        if "variance" in w.name:
            values.append(rng.uniform(0.5, 1.5, shape).astype(np.float32))
        else:
            values.append(rng.uniform(-0.5, 0.5, shape).astype(np.float32))
    model.set_weights(values)


def compile_and_step(keras, model, name, x):
    """Compile with Adam and train one step (so the files carry optimizer state)."""
    loss = "sparse_categorical_crossentropy" if name == "sequential_cnn" else "mse"
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01), loss=loss,
                  metrics=["mae"])
    model.fit(x, targets(name, x), batch_size=len(x), epochs=1, shuffle=False, verbose=0)


def continue_one_step(keras, model, name, x):
    """Train one more step without dropout (so both libraries draw no random masks) and
    return the predictions: they depend on the optimizer state the file carried."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.Dropout):
            layer.rate = 0.0
    model.fit(x, targets(name, x), batch_size=len(x), epochs=1, shuffle=False, verbose=0)
    return np.asarray(model.predict(x, verbose=0))


def adam_slot_sums(model):
    """``[[shape, sum(momentum), sum(velocity)], ...]`` per trainable variable in Keras's
    order: where the optimizer state landed."""
    opt = model.optimizer
    out = []
    for v in model.trainable_variables:
        i = opt._get_variable_index(v)
        out.append([list(v.shape), float(np.sum(opt._momentums[i].numpy())),
                    float(np.sum(opt._velocities[i].numpy()))])
    return out


def record_keras():
    import keras
    os.makedirs(OUT, exist_ok=True)
    keras.utils.set_random_seed(0)
    predictions, slots = {}, {}
    for i, (name, (model, x)) in enumerate(make_models(keras).items()):
        set_fixed_weights(model, i)
        compile_and_step(keras, model, name, x)
        slots[name] = adam_slot_sums(model)
        model.save_weights(os.path.join(OUT, f"{name}.weights.h5"))
        model.save(os.path.join(OUT, f"{name}.keras"))
        predictions[f"x_{name}"] = x
        predictions[f"y_{name}"] = np.asarray(model.predict(x, verbose=0))
        # From the file: Keras's traced train step would keep the old dropout rate.
        reloaded = keras.models.load_model(os.path.join(OUT, f"{name}.keras"))
        predictions[f"step_{name}"] = continue_one_step(keras, reloaded, name, x)
    np.savez(os.path.join(OUT, "keras_predictions.npz"), **predictions)
    with open(os.path.join(OUT, "keras_optimizer_slots.json"), "w") as f:
        json.dump({"keras": keras.__version__, "slots": slots}, f)
    configs = {name: keras.saving.serialize_keras_object(build_spec(keras, name))
               for name in LAYER_SPECS}
    layouts = {name: spec_layout(keras, name, OUT) for name in LAYER_SPECS}
    optimizers = {}
    for name, opt in make_optimizers(keras).items():
        model = small_model(keras)
        model.compile(optimizer=opt, loss="mse")
        model.fit(np.ones((2, 3)), np.ones((2, 2)), verbose=0)
        path = os.path.join(OUT, "_optimizer.weights.h5")
        model.save_weights(path)
        optimizers[name] = {"file_order": optimizer_file_order(keras, path),
                            "config": keras.saving.serialize_keras_object(opt)}
        os.remove(path)
    with open(os.path.join(OUT, "keras_configs.json"), "w") as f:
        json.dump({"layers": configs, "layouts": layouts, "optimizers": optimizers}, f,
                  indent=0)


def record_tapeflow():
    import tapeflow as tf
    folder = os.path.join(OUT, "tapeflow")
    os.makedirs(folder, exist_ok=True)
    tf.keras.utils.set_random_seed(0)
    predictions = {}
    for i, (name, (model, x)) in enumerate(make_models(tf.keras).items()):
        set_fixed_weights(model, 100 + i)
        compile_and_step(tf.keras, model, name, x)
        model.save_weights(os.path.join(folder, f"{name}.weights.h5"))
        model.save(os.path.join(folder, f"{name}.keras"))
        predictions[f"x_{name}"] = x
        predictions[f"y_{name}"] = np.asarray(model.predict(x, verbose=0))
        reloaded = tf.keras.models.load_model(os.path.join(folder, f"{name}.keras"))
        predictions[f"step_{name}"] = continue_one_step(tf.keras, reloaded, name, x)
    np.savez(os.path.join(folder, "tapeflow_predictions.npz"), **predictions)
    configs = {name: tf.keras.saving.serialize_keras_object(build_spec(tf.keras, name))
               for name in LAYER_SPECS}
    optimizers = {name: tf.keras.saving.serialize_keras_object(opt)
                  for name, opt in make_optimizers(tf.keras).items()}
    with open(os.path.join(folder, "tapeflow_configs.json"), "w") as f:
        json.dump({"layers": configs, "optimizers": optimizers}, f, indent=0)


def load_tapeflow_files_in_keras():
    import keras
    folder = os.path.join(OUT, "tapeflow")
    given = np.load(os.path.join(folder, "tapeflow_predictions.npz"))
    fresh = make_models(keras)
    predictions, report = {}, {}
    for name in NAMES:
        x = given[f"x_{name}"]
        entry = {}
        try:
            model = keras.models.load_model(os.path.join(folder, f"{name}.keras"))
            predictions[f"keras_{name}"] = np.asarray(model.predict(x, verbose=0))
            entry["keras_class"] = type(model).__name__
            entry["optimizer_iterations"] = int(model.optimizer.iterations.numpy())
            entry["optimizer"] = type(model.optimizer).__name__
            entry["adam_slot_sums"] = adam_slot_sums(model)
            predictions[f"step_{name}"] = continue_one_step(keras, model, name, x)
        except Exception as e:  # recorded for the test to show
            entry["keras_error"] = f"{type(e).__name__}: {e}"
        try:
            model = fresh[name][0]
            model.load_weights(os.path.join(folder, f"{name}.weights.h5"))
            predictions[f"weights_{name}"] = np.asarray(model.predict(x, verbose=0))
        except Exception as e:
            entry["weights_error"] = f"{type(e).__name__}: {e}"
        report[name] = entry
    with open(os.path.join(folder, "tapeflow_configs.json")) as f:
        configs = json.load(f)
    for kind in ("layers", "optimizers"):
        for name, config in configs[kind].items():
            try:
                obj = keras.saving.deserialize_keras_object(config)
                report[f"{kind}/{name}"] = {"keras_class": type(obj).__name__}
            except Exception as e:
                report[f"{kind}/{name}"] = {"keras_error": f"{type(e).__name__}: {e}"}
    np.savez(os.path.join(folder, "keras_predictions.npz"), **predictions)
    with open(os.path.join(folder, "keras_load_report.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "keras"
    {"keras": record_keras, "tapeflow": record_tapeflow,
     "keras-load": load_tapeflow_files_in_keras}[mode]()
