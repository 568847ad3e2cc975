"""Keras models with several outputs compiled with per-output losses, metrics and loss
weights, run under TensorFlow 2.21 / Keras 3.15 and under tapeflow.

``tools/record_keras_multi_output.py`` runs every case with ``tf`` bound to
TensorFlow and stores what it returns in ``tests/fixtures/keras/train/multi_output.json``;
``tests/keras/test_multi_output.py`` runs them with ``tf`` bound to tapeflow and compares.
A case returns a dict of JSON-able values: ``fit`` histories (their keys in order),
``evaluate`` lists and dicts, and the class and text of the errors raised.
"""
import numpy as np

N = 20          # 20 samples in batches of 8: the last batch holds 4
BATCH = 8


def _data():
    rng = np.random.default_rng(20261127)
    x = rng.normal(size=(N, 4)).astype("float32")
    reg = rng.normal(size=(N, 1)).astype("float32")
    labels = rng.integers(0, 3, N)
    cls = np.eye(3, dtype="float32")[labels]
    sw = rng.uniform(0.2, 2.0, N).astype("float32")
    return x, reg, cls, labels, sw


def _weights():
    rng = np.random.default_rng(7)
    return [rng.normal(scale=0.5, size=s).astype("float32")
            for s in [(4, 5), (5,), (5, 1), (1,), (5, 3), (3,)]]


def _model(tf, dict_outputs=False):
    keras = tf.keras
    inputs = keras.Input(shape=(4,), name="features")
    h = keras.layers.Dense(5, activation="tanh", name="hidden")(inputs)
    reg = keras.layers.Dense(1, name="reg")(h)
    cls = keras.layers.Dense(3, activation="softmax", name="cls")(h)
    outputs = {"reg": reg, "cls": cls} if dict_outputs else [reg, cls]
    model = keras.Model(inputs, outputs)
    w = _weights()
    for i, name in enumerate(("hidden", "reg", "cls")):
        model.get_layer(name).set_weights(w[2 * i:2 * i + 2])
    return model


def _history(h):
    return {"keys": list(h.history), "values": {k: [float(v) for v in vals]
                                                for k, vals in h.history.items()}}


def _floats(result):
    if isinstance(result, dict):
        return {k: float(v) for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return [float(v) for v in result]
    return float(result)


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        return {"class": type(e).__name__, "message": str(e)}
    return {"class": None, "message": None}


def _fit_eval(model, x, y, run_eagerly, sample_weight=None, epochs=2, **compile_kwargs):
    model.compile(optimizer=model_optimizer(model), run_eagerly=run_eagerly, **compile_kwargs)
    hist = model.fit(x, y, batch_size=BATCH, epochs=epochs, verbose=0, shuffle=False,
                     sample_weight=sample_weight)
    out = {"history": _history(hist)}
    out["evaluate"] = _floats(model.evaluate(x, y, batch_size=BATCH, verbose=0,
                                             sample_weight=sample_weight))
    res = model.evaluate(x, y, batch_size=BATCH, verbose=0, sample_weight=sample_weight,
                         return_dict=True)
    out["evaluate_dict"] = {"keys": list(res), "values": _floats(res)}
    out["metrics_names"] = list(model.metrics_names)
    return out


def model_optimizer(model):
    # a fresh optimizer per compile: a tf.keras optimizer serves one set of variables
    return model._mo_tf.keras.optimizers.SGD(0.1)


def _prepare(tf, dict_outputs=False):
    model = _model(tf, dict_outputs)
    model._mo_tf = tf
    return model


def list_compiled(tf, run_eagerly):
    x, reg, cls, _, _ = _data()
    model = _prepare(tf)
    return _fit_eval(model, x, [reg, cls], run_eagerly,
                     loss=["mse", tf.keras.losses.CategoricalCrossentropy()],
                     metrics=[["mae"], ["accuracy", tf.keras.metrics.AUC(name="auc")]])


def list_compiled_weighted(tf, run_eagerly):
    x, reg, cls, _, sw = _data()
    model = _prepare(tf)
    return _fit_eval(model, x, (reg, cls), run_eagerly, sample_weight=sw,
                     loss=[tf.keras.losses.MeanSquaredError(), "categorical_crossentropy"],
                     loss_weights=[0.3, 2.0], metrics=[None, ["accuracy"]],
                     weighted_metrics=[["mae", "mse"], ["accuracy"]])


def dict_compiled(tf, run_eagerly):
    x, reg, cls, _, _ = _data()
    model = _prepare(tf)
    return _fit_eval(model, {"features": x}, {"reg": reg, "cls": cls}, run_eagerly,
                     loss={"cls": tf.keras.losses.CategoricalCrossentropy(),
                           "reg": tf.keras.losses.MeanAbsoluteError()},
                     metrics={"cls": [tf.keras.metrics.CategoricalAccuracy()],
                              "reg": "mse"})


def dict_compiled_weighted(tf, run_eagerly):
    x, reg, _, labels, sw = _data()
    model = _prepare(tf, dict_outputs=True)
    return _fit_eval(model, x, {"reg": reg, "cls": labels}, run_eagerly, sample_weight=sw,
                     loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                     loss_weights={"reg": 1.5, "cls": 0.5},
                     metrics={"cls": "accuracy"}, weighted_metrics={"reg": ["mae"]})


def one_loss_for_all(tf, run_eagerly):
    x, reg, cls, _, _ = _data()
    model = _prepare(tf)
    return _fit_eval(model, x, [reg, cls], run_eagerly, loss="mse", loss_weights=0.5,
                     metrics=["mae", "mae"])


def dict_outputs_model(tf, run_eagerly):
    x, reg, cls, _, _ = _data()
    model = _prepare(tf, dict_outputs=True)
    return _fit_eval(model, x, {"reg": reg, "cls": cls}, run_eagerly,
                     loss={"reg": "mse", "cls": "categorical_crossentropy"},
                     loss_weights={"reg": 2.0, "cls": 1.0},
                     metrics={"reg": ["mae"], "cls": ["accuracy"]})


def errors(tf, run_eagerly):
    x, reg, cls, _, _ = _data()
    out = {}
    model = _prepare(tf)

    def fit_with(**kwargs):
        model.compile(optimizer=model_optimizer(model), run_eagerly=run_eagerly, **kwargs)
        model.fit(x, {"reg": reg, "cls": cls}, batch_size=BATCH, epochs=1, verbose=0)

    out["dict_missing_key"] = _error(lambda: fit_with(loss={"cls": "mse"}))
    out["dict_extra_key"] = _error(lambda: fit_with(loss={"cls": "mse", "reg": "mse",
                                                          "other": "mse"}))
    out["weights_count"] = _error(lambda: fit_with(loss=["mse", "mse"],
                                                   loss_weights=[1.0, 2.0, 3.0]))
    # one sample-weight array is repeated for every target: keyed as the targets, which
    # the list of outputs cannot look up
    out["dict_targets_one_sample_weight"] = _error(lambda: (
        model.compile(optimizer=model_optimizer(model), run_eagerly=run_eagerly,
                      loss=["mse", "mse"]),
        model.fit(x, {"reg": reg, "cls": cls}, sample_weight=np.ones(N), batch_size=BATCH,
                  epochs=1, verbose=0)))
    out["weights_type"] = _error(lambda: model.compile(loss=["mse", "mse"],
                                                       loss_weights="heavy"))
    return out


def compile_config(tf, run_eagerly):
    """``get_compile_config`` (its optimizer left out) after per-output compiles."""
    model = _prepare(tf)
    out = {}
    for name, kwargs in (
            ("dict", dict(loss={"reg": "mse", "cls": "categorical_crossentropy"},
                          loss_weights={"reg": 2.0, "cls": 1.0},
                          metrics={"cls": ["accuracy"]})),
            ("list", dict(loss=["mse", None], loss_weights=[0.5, 1.0],
                          metrics=[["mae"], None], weighted_metrics=[None, ["accuracy"]]))):
        model.compile(optimizer="sgd", run_eagerly=run_eagerly, **kwargs)
        config = model.get_compile_config()
        config.pop("optimizer")
        out[name] = config
    return out


CASES = {f.__name__: f for f in (list_compiled, list_compiled_weighted, dict_compiled,
                                 dict_compiled_weighted, one_loss_for_all,
                                 dict_outputs_model, errors, compile_config)}

# run again with the model made under a MirroredStrategy over two CPUs
DISTRIBUTED = ("list_compiled_weighted", "dict_compiled")
