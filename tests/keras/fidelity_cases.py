"""Keras 3 details a program sees (issue 21, "Keras details differ"), run under Keras 3.15 on
TensorFlow 2.21 and under tapeflow.

``tools/record_keras_fidelity.py`` runs every case with ``tf`` bound to TensorFlow and
``keras`` to Keras 3, and stores what it returns in ``tests/fixtures/keras/fidelity/``;
``tests/keras/test_fidelity.py`` runs them with tapeflow and compares. A case takes
``(tf, keras, workdir)`` and returns a dict of JSON-able values (weight paths, shapes,
configs, printed text, the class and text of the errors raised, outputs as lists).
"""
import os

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _fill(model, seed=3):
    """Set every weight of ``model`` from a seeded generator, by position."""
    rng = np.random.default_rng(seed)
    values = []
    for w in model.weights:
        v = rng.normal(scale=0.5, size=tuple(w.shape))
        values.append((np.abs(v) + 0.5 if "variance" in w.path else v).astype(w.numpy().dtype))
    model.set_weights(values)


def _error(fn):
    try:
        fn()
    except Exception as e:   # the class and the text are what the case records
        return [type(e).__name__, str(e)]
    return None


@case
def weights_order_two_branches(tf, keras, workdir):
    """Two Embedding+LSTM branches: Keras lists both embeddings before both LSTMs."""
    a = keras.Input((None,), dtype="int32")
    b = keras.Input((None,), dtype="int32")
    x = keras.layers.LSTM(3)(keras.layers.Embedding(10, 4)(a))
    y = keras.layers.LSTM(3)(keras.layers.Embedding(10, 4)(b))
    z = keras.layers.Dense(2)(keras.layers.concatenate([x, y]))
    model = keras.Model([a, b], z)
    _fill(model)
    ids = np.array([[1, 2, 3], [4, 0, 9]], "int32")
    return {"paths": [w.path for w in model.weights],
            "layers": [type(layer).__name__ for layer in model.layers],
            "out": np.asarray(model([ids, ids[::-1]])).tolist()}


@case
def weights_order_diamond(tf, keras, workdir):
    """A residual block and a shared layer: depth first, ties in first-reached order."""
    inp = keras.Input((4,))
    shared = keras.layers.Dense(4, name="shared")
    h = keras.layers.Dense(4, name="h")(inp)
    r = keras.layers.Add(name="add")([shared(h), keras.layers.Dense(4, name="skip")(inp)])
    out = keras.layers.Dense(1, name="head")(shared(r))
    model = keras.Model(inp, out)
    return {"layers": [layer.name for layer in model.layers],
            "paths": [w.path for w in model.weights]}


def _scale_class(keras):
    @keras.saving.register_keras_serializable(package="fidelity", name="Scale")
    class Scale(keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    return Scale


@case
def functional_from_config(tf, keras, workdir):
    """``Model.from_config`` of a two-input Functional with a registered custom layer, made
    after other Inputs exist (their auto names are taken)."""
    Scale = _scale_class(keras)
    for _ in range(3):
        keras.Input((2,))
    a, b = keras.Input((3,)), keras.Input((3,))
    s = keras.layers.Add()([keras.layers.Dense(2)(a), keras.layers.Dense(2)(b)])
    model = keras.Model([a, b], Scale(3.0)(s))
    _fill(model)
    clone = keras.Model.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    return {"types": [type(layer).__name__ for layer in clone.layers],
            "n_inputs": len(clone.inputs),
            "shapes": [list(w.shape) for w in clone.weights],
            "out": np.asarray(clone([x, 2 * x])).tolist(),
            "factor": clone.layers[-1].factor}


@case
def load_model_activation_tf_nn_relu(tf, keras, workdir):
    """``Activation(tf.nn.relu)`` saves as ``"relu"`` and loads back."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Activation(tf.nn.relu)])
    path = os.path.join(workdir, "act.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    x = np.array([[-1.0, 0.5, 2.0]], "float32")
    return {"config": loaded.layers[0].get_config()["activation"],
            "out": np.asarray(loaded(x)).tolist()}


@case
def load_model_custom_objects(tf, keras, workdir):
    """A registered custom layer and a custom activation given by ``custom_objects``."""
    Scale = _scale_class(keras)

    def swishy(x):
        return x * tf.sigmoid(x)

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation=swishy),
                              Scale(0.5)])
    _fill(model)
    path = os.path.join(workdir, "custom.keras")
    model.save(path)
    missing = _error(lambda: keras.models.load_model(path))
    loaded = keras.models.load_model(path, custom_objects={"swishy": swishy})
    x = np.array([[-1.0, 0.5, 2.0]], "float32")
    return {"missing": missing[0] if missing else None,
            "types": [type(layer).__name__ for layer in loaded.layers],
            "out": np.asarray(loaded(x)).tolist()}


@case
def input_batch_shape(tf, keras, workdir):
    x = keras.Input(batch_shape=(16, 10, 5))
    y = keras.Input(batch_shape=(None, 4), dtype="int32", name="ids")
    m = keras.Model(x, keras.layers.Dense(2)(x))
    return {"x": list(x.shape), "y": list(y.shape), "y_dtype": y.dtype,
            "out": list(m.output.shape), "in": list(m.inputs[0].shape)}


@case
def layer_two_positional_keras_tensors(tf, keras, workdir):
    class Endpoint(keras.layers.Layer):
        def call(self, targets, logits):
            return logits - targets

    t, logits = keras.Input((3,)), keras.Input((3,))
    out = Endpoint()(t, logits)
    model = keras.Model([t, logits], out)
    a = np.ones((2, 3), "float32")
    return {"shape": list(out.shape),
            "out": np.asarray(model([a, 3 * a])).tolist()}


@case
def keras_tensor_keras_mask(tf, keras, workdir):
    ids = keras.Input((5,), dtype="int32")
    emb = keras.layers.Embedding(10, 3, mask_zero=True)(ids)
    dense = keras.layers.Dense(2)(keras.Input((3,)))
    return {"has_mask": hasattr(emb, "_keras_mask"),
            "mask_shape": list(emb._keras_mask.shape),
            "mask_dtype": emb._keras_mask.dtype,
            "plain": hasattr(dense, "_keras_mask")}


@case
def summary_none_spatial_dims(tf, keras, workdir):
    lines = []
    model = keras.Sequential([keras.layers.Conv2D(1, 3, input_shape=(None, None, 3)),
                              keras.layers.MaxPooling2D(2),
                              keras.layers.GlobalAveragePooling2D()])
    model.summary(print_fn=lambda s, **_: lines.append(s))
    return {"summary": lines, "out": list(model.output_shape)}


@case
def dense_get_config_initializers(tf, keras, workdir):
    config = keras.layers.Dense(2, kernel_initializer="he_normal").get_config()
    return {"kernel_initializer": config["kernel_initializer"],
            "bias_initializer": config["bias_initializer"],
            "glorot": keras.initializers.GlorotUniform(seed=1).get_config(),
            "orthogonal": keras.initializers.Orthogonal().get_config(),
            "variance": keras.initializers.VarianceScaling().get_config()}


@case
def lambda_layer_keras_file(tf, keras, workdir):
    """``.keras`` saving of a Lambda: saving works, loading asks for ``safe_mode=False``."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Lambda(lambda x: x * 2 + 1)])
    path = os.path.join(workdir, "lambda.keras")
    model.save(path)
    refused = _error(lambda: keras.models.load_model(path))
    loaded = keras.models.load_model(path, safe_mode=False)
    x = np.array([[1.0, 2.0, 3.0]], "float32")
    return {"refused": refused, "out": np.asarray(loaded(x)).tolist()}


@case
def reduction_enum(tf, keras, workdir):
    R = tf.keras.losses.Reduction
    return {"all": list(R.all()), "sum": R.SUM, "auto": R.AUTO, "none": R.NONE,
            "sobs": R.SUM_OVER_BATCH_SIZE, "valid": R.validate("sum"),
            "invalid": _error(lambda: R.validate("mean"))}


def h5_model(keras):
    """The model of the legacy ``.h5`` fixtures: conv, batch norm, dense (compiled)."""
    model = keras.Sequential([
        keras.Input((6, 6, 2)),
        keras.layers.Conv2D(3, 3, activation="relu"),
        keras.layers.BatchNormalization(),
        keras.layers.Flatten(),
        keras.layers.Dense(4, activation="softmax"),
    ])
    _fill(model, seed=11)
    model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
    return model


def h5_input():
    return np.random.default_rng(5).normal(size=(2, 6, 6, 2)).astype("float32")


@case
def keras_names(tf, keras, workdir):
    """``tf.keras.backend``/``config``/``version``, ``optimizers.legacy``,
    ``initializers.serialize``/``deserialize``, ``tf.losses``/``tf.metrics`` aliases."""
    K = tf.keras.backend
    x = tf.constant([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    mask = tf.constant([[True, False, True], [True, True, False]])
    init = tf.keras.initializers.deserialize(
        tf.keras.initializers.serialize(tf.keras.initializers.HeNormal(seed=3)))
    return {
        "backend": [K.backend(), tf.keras.config.backend(), K.image_data_format(),
                    tf.keras.config.image_data_format(), tf.keras.config.floatx(),
                    tf.keras.config.epsilon()],
        "version": tf.keras.version(),
        "int_shape": [list(K.int_shape(x)), list(K.int_shape(keras.Input((None, 3))))],
        "sum": [K.sum(x).numpy().tolist(), K.sum(x, axis=1, keepdims=True).numpy().tolist()],
        "mean": [K.mean(x, axis=0).numpy().tolist(), K.mean(mask).numpy().tolist(),
                 K.mean(mask).dtype.name],
        "abs": K.abs(x).numpy().tolist(),
        "random_normal": [list(K.random_normal((2, 3), seed=1).shape),
                          K.random_normal((2, 3), dtype="float64", seed=1).dtype.name],
        "legacy": _error(lambda: tf.keras.optimizers.legacy.Adam(0.1)),
        "legacy_same": tf.keras.optimizers.legacy.SGD is tf.keras.optimizers.legacy.Adam,
        "init_serialize": tf.keras.initializers.serialize(
            tf.keras.initializers.GlorotUniform(seed=2)),
        "init_round_trip": [type(init).__name__, init.get_config()],
        "init_name": type(tf.keras.initializers.deserialize("zeros")).__name__,
        "aliases": [tf.losses.MeanSquaredError()(x, 2 * x).numpy().tolist(),
                    tf.metrics.MeanAbsoluteError()(x, 2 * x).numpy().tolist(),
                    tf.losses.Reduction.SUM],
    }


@case
def keras_backend_ctc(tf, keras, workdir):
    """``ctc_batch_cost`` and greedy ``ctc_decode`` of softmax outputs (blank last)."""
    K = tf.keras.backend
    rng = np.random.default_rng(4)
    logits = rng.normal(size=(2, 6, 5)).astype("float32")
    y_pred = tf.nn.softmax(tf.constant(logits))
    labels = np.array([[1, 2, 2], [3, 0, 0]], "int32")
    cost = K.ctc_batch_cost(labels, y_pred, np.array([[6], [5]]), np.array([[3], [1]]))
    decoded, log_prob = K.ctc_decode(y_pred, np.array([6, 5]), greedy=True)
    return {"cost": cost.numpy().tolist(), "cost_shape": list(cost.shape),
            "decoded": [d.numpy().tolist() for d in decoded],
            "decoded_dtype": decoded[0].dtype.name,
            "log_prob": log_prob.numpy().tolist()}
