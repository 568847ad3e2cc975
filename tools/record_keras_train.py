"""Record Keras 3.15 / TensorFlow 2.21 values for the Keras training stack's tests.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_keras_train.py [section ...]
Writes tests/fixtures/keras/train/*.json (sections: optimizers, losses, metrics,
metric_names, protocol, callbacks, summary, train_function). tapeflow itself never imports
TensorFlow.
"""
import contextlib
import io
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "train")


def rng():
    return np.random.default_rng(20261124)


def dump(name, data):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


def lists(x):
    return np.asarray(x).tolist()


def jsonable(x):
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (np.floating, np.integer)):
        return x.item()
    if hasattr(x, "numpy"):
        return lists(x.numpy())
    return x


OPTIMIZER_CASES = [
    ("SGD", {}), ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"learning_rate": 0.05}), ("Adam", {"learning_rate": 0.01, "amsgrad": True}),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("Adamax", {"learning_rate": 0.05}), ("Adagrad", {"learning_rate": 0.1}),
    ("Adadelta", {"learning_rate": 1.0}), ("RMSprop", {"learning_rate": 0.01}),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
    ("RMSprop", {"learning_rate": 0.01, "centered": True}),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("Nadam", {"learning_rate": 0.05}),
    ("Ftrl", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1, "l1_regularization_strength": 0.01,
              "l2_regularization_strength": 0.02, "l2_shrinkage_regularization_strength": 0.01,
              "beta": 0.1, "learning_rate_power": -0.7}),
    ("Lion", {"learning_rate": 0.01}), ("Adafactor", {"learning_rate": 0.1}),
    ("Adafactor", {"learning_rate": 0.1, "relative_step": False, "clip_threshold": 0.5}),
    ("SGD", {"learning_rate": 0.1, "clipnorm": 0.5}),
    ("SGD", {"learning_rate": 0.1, "clipvalue": 0.3}),
    ("SGD", {"learning_rate": 0.1, "global_clipnorm": 0.7}),
    ("Adam", {"learning_rate": 0.05, "weight_decay": 0.2}),
    ("SGD", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.5}),
    ("Adam", {"learning_rate": 0.05, "use_ema": True, "ema_momentum": 0.9,
              "ema_overwrite_frequency": 2}),
    ("SGD", {"learning_rate": 0.1, "loss_scale_factor": 4.0}),
    ("Adam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "gradient_accumulation_steps": 3,
             "weight_decay": 0.1}),
]
SCHEDULE_CASES = [
    ("ExponentialDecay", [0.1, 2, 0.5], {"staircase": True}),
    ("InverseTimeDecay", [0.1, 1, 0.5], {}),
    ("PiecewiseConstantDecay", [[1, 3], [0.1, 0.05, 0.01]], {}),
    ("PolynomialDecay", [0.1, 3], {"end_learning_rate": 0.01, "power": 2.0, "cycle": True}),
    ("CosineDecay", [0.1, 4], {"alpha": 0.1, "warmup_target": 0.2, "warmup_steps": 2}),
    ("CosineDecayRestarts", [0.1, 2], {"t_mul": 2.0, "m_mul": 0.5, "alpha": 0.05}),
    ("CosineDecayRestarts", [0.1, 2], {"t_mul": 1.0}),
]


def optimizers():
    r = rng()
    w0 = r.standard_normal((3, 4)).astype(np.float32)
    b0 = r.standard_normal(4).astype(np.float32)
    grads = [(r.standard_normal((3, 4)).astype(np.float32),
              r.standard_normal(4).astype(np.float32)) for _ in range(4)]
    cases = []
    for cls, kwargs in OPTIMIZER_CASES:
        w = keras.Variable(w0, name="w")
        b = keras.Variable(b0, name="b")
        opt = getattr(keras.optimizers, cls)(**kwargs)
        steps = []
        for gw, gb in grads:
            opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])
            steps.append([lists(w.numpy()), lists(b.numpy())])
        config = opt.get_config()
        config.pop("name")
        cases.append({"optimizer": cls, "kwargs": kwargs, "steps": steps,
                      "iterations": int(opt.iterations.numpy()),
                      "variables": [v.path.split("/", 1)[1] for v in opt.variables],
                      "config": jsonable(config)})
    schedules = []
    for cls, args, kwargs in SCHEDULE_CASES:
        s = getattr(keras.optimizers.schedules, cls)(*args, **kwargs)
        w = keras.Variable(np.float32(1.0))
        opt = keras.optimizers.SGD(s)
        for _ in range(3):
            opt.apply_gradients([(tf.constant(1.0), w)])
        schedules.append({"cls": cls, "args": args, "kwargs": kwargs,
                          "rates": [float(s(i)) for i in range(8)],
                          "sgd_after_3": float(w.numpy()), "config": jsonable(s.get_config())})
    errors = {}
    v = keras.Variable(np.zeros(2, np.float32))
    for cls in ("SGD", "Adam"):
        try:
            getattr(keras.optimizers, cls)(0.1).apply_gradients([(tf.zeros(3), v)])
        except Exception as e:  # noqa: BLE001
            errors[cls] = type(e).__name__
    messages = {}
    for label, make in (("int_lr", lambda: keras.optimizers.SGD(1)),
                        ("two_clips", lambda: keras.optimizers.SGD(0.1, clipnorm=1.0,
                                                                    clipvalue=1.0)),
                        ("bad_kw", lambda: keras.optimizers.Adam(0.1, foo=1)),
                        ("lion_beta", lambda: keras.optimizers.Lion(beta_1=0.0)),
                        ("adamw_none", lambda: keras.optimizers.AdamW(weight_decay=None))):
        try:
            make()
        except Exception as e:  # noqa: BLE001
            messages[label] = [type(e).__name__, str(e)]
    lso = []
    w = keras.Variable(np.array([1.0, -2.0], np.float32))
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1, momentum=0.5),
                                              initial_scale=4.0, dynamic_growth_steps=2)
    for g in ([4.0, 8.0], [np.nan, 1.0], [2.0, 2.0], [4.0, -4.0], [np.inf, 0.0], [1.0, 1.0]):
        opt.apply_gradients([(tf.constant(np.array(g, np.float32)), w)])
        lso.append({"w": lists(w.numpy()), "scale": float(opt.dynamic_scale.numpy()),
                    "counter": int(opt.step_counter.numpy()),
                    "iterations": int(opt.iterations.numpy())})
    lso_info = {"steps": lso, "scaled_loss": float(opt.scale_loss(3.0)),
                "variables": [v.path.split("/", 1)[1] for v in opt.variables]}
    dump("optimizers.json", {"loss_scale": lso_info, "w0": lists(w0), "b0": lists(b0),
                             "grads": [[lists(a), lists(b)] for a, b in grads],
                             "cases": cases, "schedules": schedules,
                             "shape_errors": errors, "messages": messages})


def _data():
    r = rng()
    prob = r.random((4, 3)).astype(np.float32) * 0.9 + 0.05
    return {
        "reg_true": r.standard_normal((4, 3)).astype(np.float32),
        "reg_pred": r.standard_normal((4, 3)).astype(np.float32),
        "pos_true": r.random((4, 3)).astype(np.float32) + 0.1,
        "pos_pred": r.random((4, 3)).astype(np.float32) + 0.1,
        "bin_true": r.integers(0, 2, (4, 3)).astype(np.float32),
        "bin_pred": prob,
        "onehot_true": np.eye(3, dtype=np.float32)[r.integers(0, 3, 4)],
        "softmax_pred": (prob / prob.sum(-1, keepdims=True)).astype(np.float32),
        "logits": r.standard_normal((4, 3)).astype(np.float32),
        "sparse_true": r.integers(0, 3, 4).astype(np.int32),
        "pm_true": (r.integers(0, 2, (4, 3)) * 2 - 1).astype(np.float32),
        "weights": np.array([1.0, 0.5, 2.0, 0.0], np.float32),
        "seg_true": r.integers(0, 2, (2, 4, 4)).astype(np.float32),
        "seg_pred": r.random((2, 4, 4)).astype(np.float32),
        "scores": r.random(40).astype(np.float32),
        "labels": r.integers(0, 2, 40).astype(np.float32),
        "multi_true": r.integers(0, 2, (6, 3)).astype(np.float32),
        "multi_pred": r.random((6, 3)).astype(np.float32),
    }


LOSS_CASES = [
    ("MeanSquaredError", {}, "reg"), ("MeanAbsoluteError", {}, "reg"),
    ("MeanAbsolutePercentageError", {}, "reg"), ("MeanSquaredLogarithmicError", {}, "pos"),
    ("CosineSimilarity", {}, "reg"), ("LogCosh", {}, "reg"), ("Huber", {"delta": 0.5}, "reg"),
    ("KLDivergence", {}, "pos"), ("Poisson", {}, "pos"), ("Hinge", {}, "bin"),
    ("Hinge", {}, "pm"), ("SquaredHinge", {}, "bin"), ("CategoricalHinge", {}, "onehot"),
    ("BinaryCrossentropy", {}, "bin"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "binlogits"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.2}, "onehot"),
    ("CategoricalCrossentropy", {"from_logits": True}, "onehotlogits"),
    ("SparseCategoricalCrossentropy", {}, "sparse"),
    ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 1}, "sparselogits"),
    ("BinaryFocalCrossentropy", {}, "bin"),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.3, "gamma": 1.5,
                                 "label_smoothing": 0.1}, "bin"),
    ("BinaryFocalCrossentropy", {"from_logits": True}, "binlogits"),
    ("CategoricalFocalCrossentropy", {}, "onehot"),
    ("CategoricalFocalCrossentropy", {"from_logits": True, "gamma": 1.0, "alpha": 0.5,
                                      "label_smoothing": 0.1}, "onehotlogits"),
    ("Dice", {}, "seg"), ("Dice", {"axis": (1, 2)}, "seg"),
    ("Tversky", {"alpha": 0.3, "beta": 0.7}, "seg"), ("Tversky", {"axis": (1, 2)}, "seg"),
    ("CategoricalGeneralizedCrossEntropy", {"q": 0.7}, "sparse"),
]
LOSS_FUNCTIONS = ["mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
                  "mean_squared_logarithmic_error", "log_cosh", "huber", "kl_divergence",
                  "poisson", "hinge", "squared_hinge", "cosine_similarity"]
ALIASES = ["mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE", "kld", "KLD",
           "logcosh", "kullback_leibler_divergence"]


def _pair(d, kind):
    return {"reg": ("reg_true", "reg_pred"), "pos": ("pos_true", "pos_pred"),
            "bin": ("bin_true", "bin_pred"), "pm": ("pm_true", "reg_pred"),
            "binlogits": ("bin_true", "logits"), "onehot": ("onehot_true", "softmax_pred"),
            "onehotlogits": ("onehot_true", "logits"), "sparse": ("sparse_true", "softmax_pred"),
            "sparselogits": ("sparse_true", "logits"), "seg": ("seg_true", "seg_pred"),
            "scores": ("labels", "scores"), "multi": ("multi_true", "multi_pred")}[kind]


def losses():
    d = _data()
    out = []
    for cls, kwargs, kind in LOSS_CASES:
        t, p = _pair(d, kind)
        row = {"cls": cls, "kwargs": kwargs, "kind": kind, "values": {}}
        for reduction in ("sum_over_batch_size", "sum", "none", "mean_with_sample_weight"):
            loss = getattr(keras.losses, cls)(reduction=reduction, **kwargs)
            w = d["weights"] if kind != "seg" else None
            row["values"][reduction] = lists(loss(d[t], d[p]))
            if w is not None:
                row["values"][reduction + "_weighted"] = lists(loss(d[t], d[p],
                                                                    sample_weight=w))
        row["name"] = getattr(keras.losses, cls)(**kwargs).name
        out.append(row)
    functions = {f: lists(getattr(keras.losses, f)(d["pos_true"], d["pos_pred"]))
                 for f in LOSS_FUNCTIONS}
    aliases = {a: getattr(tf.keras.losses, a).__name__ for a in ALIASES}
    aliases_get = {a: keras.losses.get(a).__name__ for a in ("mse", "MAE", "mape", "MSLE",
                                                              "kld", "bce")}
    r = rng()
    emb = r.standard_normal((6, 4)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    ids = np.array([0, 1, 0, 2, 1, 3], np.int32)
    circle = {"embeddings": lists(emb), "labels": lists(ids), "values": {}}
    for label, kwargs in (("default", {}), ("small", {"gamma": 10.0, "margin": 0.25}),
                          ("diag", {"remove_diagonal": False, "reduction": "sum"}),
                          ("none", {"reduction": "none"})):
        circle["values"][label] = [kwargs, lists(keras.losses.Circle(**kwargs)(ids, emb))]
    logits = r.standard_normal((3, 7, 4)).astype(np.float32)
    targets = np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]], np.int32)
    lv = tf.Variable(logits)
    with tf.GradientTape() as tape:
        value = keras.losses.CTC()(targets, lv)
    ctc_case = {"logits": lists(logits), "labels": lists(targets),
                "per_example": lists(keras.losses.ctc(targets, logits)),
                "mean": float(value), "grad": lists(tape.gradient(value, lv))}
    dump("losses.json", {"ctc": ctc_case, "circle": circle,
                         "data": {k: lists(v) for k, v in d.items()},
                         "cases": out,
                         "functions": functions, "aliases": aliases,
                         "aliases_get": aliases_get})


METRIC_CASES = [
    ("Mean", {}, "values"), ("Sum", {}, "values"), ("Accuracy", {}, "acc"),
    ("BinaryAccuracy", {"threshold": 0.4}, "bin"), ("CategoricalAccuracy", {}, "onehot"),
    ("SparseCategoricalAccuracy", {}, "sparse"),
    ("TopKCategoricalAccuracy", {"k": 2}, "onehot"),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse"),
    ("MeanSquaredError", {}, "reg"), ("MeanAbsoluteError", {}, "reg"),
    ("MeanAbsolutePercentageError", {}, "reg"), ("MeanSquaredLogarithmicError", {}, "pos"),
    ("RootMeanSquaredError", {}, "reg"), ("CosineSimilarity", {}, "reg"),
    ("LogCoshError", {}, "reg"), ("Hinge", {}, "bin"), ("SquaredHinge", {}, "bin"),
    ("CategoricalHinge", {}, "onehot"), ("KLDivergence", {}, "pos"), ("Poisson", {}, "pos"),
    ("BinaryCrossentropy", {}, "bin"), ("CategoricalCrossentropy", {}, "onehot"),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, "sparselogits"),
    ("TruePositives", {}, "scores"), ("FalsePositives", {"thresholds": [0.3, 0.6]}, "scores"),
    ("TrueNegatives", {}, "scores"), ("FalseNegatives", {}, "scores"),
    ("Precision", {}, "scores"), ("Recall", {"thresholds": [0.2, 0.5, 0.8]}, "scores"),
    ("Precision", {"top_k": 1}, "multi"), ("Recall", {"class_id": 1}, "multi"),
    ("AUC", {}, "scores"), ("AUC", {"curve": "PR"}, "scores"),
    ("AUC", {"num_thresholds": 20, "summation_method": "minoring"}, "scores"),
    ("AUC", {"curve": "PR", "summation_method": "majoring", "num_thresholds": 50}, "scores"),
    ("AUC", {"multi_label": True}, "multi"),
    ("AUC", {"multi_label": True, "num_labels": 3, "label_weights": [1.0, 2.0, 0.5],
             "curve": "PR"}, "multi"),
    ("AUC", {"label_weights": [1.0, 0.0, 2.0], "num_thresholds": 30}, "multi"),
    ("AUC", {"from_logits": True, "thresholds": [0.2, 0.4, 0.6]}, "scores"),
    ("PrecisionAtRecall", {"recall": 0.5}, "scores"),
    ("RecallAtPrecision", {"precision": 0.6}, "scores"),
    ("SensitivityAtSpecificity", {"specificity": 0.5}, "scores"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.5, "num_thresholds": 10}, "scores"),
    ("MeanIoU", {"num_classes": 3}, "ids"),
    ("IoU", {"num_classes": 3, "target_class_ids": [0, 2]}, "ids"),
    ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.4}, "scores"),
    ("OneHotMeanIoU", {"num_classes": 3}, "onehot"),
    ("OneHotIoU", {"num_classes": 3, "target_class_ids": [1]}, "onehot"),
    ("F1Score", {}, "multi"), ("F1Score", {"average": "macro", "threshold": 0.5}, "multi"),
    ("FBetaScore", {"beta": 2.0, "average": "weighted", "threshold": 0.4}, "multi"),
    ("FBetaScore", {"average": "micro"}, "multi"),
    ("PearsonCorrelation", {}, "reg"), ("ConcordanceCorrelation", {}, "reg"),
    ("R2Score", {}, "reg"), ("R2Score", {"class_aggregation": None}, "reg"),
    ("R2Score", {"class_aggregation": "variance_weighted_average", "num_regressors": 1}, "reg"),
]


def _metric_inputs(d, kind):
    if kind == "values":
        return (d["reg_pred"],), (d["reg_true"][:, 0],)
    if kind == "acc":
        a = np.round(d["bin_pred"])
        return (d["bin_true"], a), (d["bin_true"][:2], a[:2])
    if kind == "ids":
        r = rng()
        return ((r.integers(0, 3, 10), r.integers(0, 3, 10)),
                (r.integers(0, 3, 6), r.integers(0, 3, 6)))
    t, p = _pair(d, kind)
    half = len(d[t]) // 2
    return (d[t], d[p]), (d[t][:half], d[p][:half])


def metrics():
    d = _data()
    out = []
    for cls, kwargs, kind in METRIC_CASES:
        m = getattr(keras.metrics, cls)(**kwargs)
        first, second = _metric_inputs(d, kind)
        n = len(first[0])
        weights = np.linspace(0.0, 1.5, n).astype(np.float32)
        results = []
        m.update_state(*first)
        results.append(lists(m.result()))
        m.update_state(*second)
        results.append(lists(m.result()))
        m.reset_state()
        m.update_state(*first, sample_weight=weights)
        results.append(lists(m.result()))
        config = jsonable(m.get_config())
        out.append({"cls": cls, "kwargs": kwargs, "kind": kind, "results": results,
                    "variables": [v.path.split("/", 1)[-1] for v in m.variables],
                    "name": m.name, "config": config,
                    "inputs": [[lists(a) for a in first], [lists(a) for a in second],
                               lists(weights)]})
    dump("metrics.json", {"cases": out})


PROGRAMS = os.path.join(os.path.dirname(__file__), "..", "tests", "compat", "keras_train")


def run_program(path, tf_module):
    """Run one guide-like program with ``tf``, ``keras`` and ``np`` given; its stdout."""
    import hashlib
    source = open(path).read()
    buffer = io.StringIO()
    scope = {"tf": tf_module, "keras": tf_module.keras, "np": np, "__name__": "__program__"}
    with contextlib.redirect_stdout(buffer):
        exec(compile(source, path, "exec"), scope)
    return buffer.getvalue(), hashlib.sha256(source.encode()).hexdigest()[:16], scope


def protocol():
    out = {}
    for name in sorted(os.listdir(PROGRAMS)):
        if name.endswith(".py") and not name.startswith("_"):
            keras.utils.set_random_seed(0)
            text, digest, scope = run_program(os.path.join(PROGRAMS, name), tf)
            out[name] = {"stdout": text, "sha": digest}
            if "logdir" in scope:
                out[name]["tensorboard"] = {
                    d: read_with_tensorboard(os.path.join(scope["logdir"], d))
                    for d in sorted(os.listdir(scope["logdir"]))}
    dump("programs.json", out)


SUMMARY_PROGRAM = os.path.join(os.path.dirname(__file__), "..", "tests", "compat", "summary",
                               "write_summaries.py")


def read_with_tensorboard(logdir):
    """What TensorBoard's EventAccumulator reads from ``logdir``: per tag, the steps and the
    values (scalars, histogram tables, image sizes and pixels, text)."""
    from tensorboard.backend.event_processing import event_accumulator
    ea = event_accumulator.EventAccumulator(logdir, size_guidance={"tensors": 0})
    ea.Reload()
    out = {}
    for tag in ea.Tags()["tensors"]:
        rows = []
        for event in ea.Tensors(tag):
            value = tf.make_ndarray(event.tensor_proto)
            plugin = ea.SummaryMetadata(tag).plugin_data.plugin_name
            if plugin == "images":
                pixels = [lists(tf.io.decode_png(v).numpy()) for v in value[2:]]
                value = {"size": [int(value[0]), int(value[1])], "pixels": pixels}
            elif plugin == "graph_keras_model":
                value = {"class_name": json.loads(value.item())["class_name"]}
            elif plugin == "text":
                value = value.item().decode() if value.ndim == 0 else [
                    v.decode() for v in value.ravel()]
            else:
                value = lists(value)
            rows.append({"step": event.step, "plugin": plugin, "value": value})
        out[tag] = rows
    return out


def summary():
    import subprocess
    import tempfile
    source = open(SUMMARY_PROGRAM).read()
    theirs = tempfile.mkdtemp()
    exec(compile(source, SUMMARY_PROGRAM, "exec"), {"tf": tf, "np": np, "logdir": theirs})
    ours = tempfile.mkdtemp()
    root = os.path.join(os.path.dirname(__file__), "..")
    runner = ("import sys, numpy as np, tapeflow as tf\n"
              "exec(open(sys.argv[1]).read(), {'tf': tf, 'np': np, 'logdir': sys.argv[2]})\n")
    subprocess.run([os.environ.get("TAPEFLOW_PYTHON", "python3"), "-c", runner,
                    SUMMARY_PROGRAM, ours], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(root, "src")))
    iterated = []
    for name in os.listdir(ours):
        for event in tf.compat.v1.train.summary_iterator(os.path.join(ours, name)):
            iterated += [[event.step, v.tag] for v in event.summary.value]
    dump("summary.json", {"tensorflow_wrote": read_with_tensorboard(theirs),
                          "tensorboard_read_tapeflow": read_with_tensorboard(ours),
                          "summary_iterator_read_tapeflow": iterated,
                          "files": [os.listdir(theirs), os.listdir(ours)]})


FUNCTION_PROGRAMS = os.path.join(os.path.dirname(__file__), "..", "tests", "compat",
                                 "keras_train_function")


@contextlib.contextmanager
def captured_fd2():
    """What is written to file descriptor 2 inside the block (tf.print's stderr is TF's
    C++ stream, not Python's sys.stderr)."""
    import tempfile
    sys.stderr.flush()
    saved = os.dup(2)
    box = {}
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield box
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            box["text"] = tmp.read().decode()


def _record_program(path):
    """One program's Python stdout, tf.print lines and source digest."""
    import hashlib
    source = open(path).read()
    keras.utils.set_random_seed(0)
    buffer = io.StringIO()
    with captured_fd2() as err, contextlib.redirect_stdout(buffer):
        exec(compile(source, path, "exec"),
             {"tf": tf, "keras": keras, "np": np, "__name__": "__program__"})
    tf_print = [line for line in err["text"].splitlines()
                if line and not line.startswith(("WARNING", "W0000", "I0000", "E0000"))
                and "UserWarning" not in line and not line.startswith("  ")]
    return {"stdout": buffer.getvalue(), "tf_print": tf_print,
            "sha": hashlib.sha256(source.encode()).hexdigest()[:16]}


def train_function():
    """Keras 3's compiled steps: each program's Python stdout (trace-time prints, results)
    and its tf.print lines. Programs named ``distributed_*`` run in a child process whose
    CPU is split into two logical devices (TensorFlow fixes its devices once per process),
    for their ``MirroredStrategy(["/cpu:0", "/cpu:1"])``."""
    import subprocess
    out = {}
    for name in sorted(os.listdir(FUNCTION_PROGRAMS)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(FUNCTION_PROGRAMS, name)
        if name.startswith("distributed_"):
            child = subprocess.run([sys.executable, __file__, "--two-cpus", path],
                                   capture_output=True, text=True, check=True)
            out[name] = json.loads(child.stdout.splitlines()[-1])
        else:
            out[name] = _record_program(path)
    dump("train_function.json", out)


# Identifiers for keras.metrics.get and compile(metrics=[...]): class names, their snake
# case, aliases, function-only names (refused by Keras 3) and odd cases.
METRIC_NAMES = ["mean_absolute_error", "mae", "MAE", "mse", "mape", "msle", "bce", "accuracy",
                "binary_accuracy", "categorical_accuracy", "categorical_crossentropy",
                "sparse_categorical_accuracy", "sparse_categorical_crossentropy", "logcosh",
                "log_cosh", "log_cosh_error", "kl_divergence", "kld", "MeanSquaredError",
                "top_k_categorical_accuracy", "hinge", "squared_hinge", "poisson", "r2_score",
                "auc", "AUC", "precision", "recall", "f1_score", "io_u", "crossentropy",
                "cosine_similarity", "root_mean_squared_error", "nope"]


def metric_names():
    """What ``keras.metrics.get(name)`` returns (class and metric name, or the error) and
    the history key and value of a one-epoch fit compiled with ``metrics=[name]``."""
    x = np.linspace(0, 1, 40, dtype="float32").reshape(20, 2)
    y = (x.sum(1) > 1).astype("float32")
    out = {}
    for name in METRIC_NAMES:
        case = {}
        try:
            m = keras.metrics.get(name)
            case["get"] = [type(m).__name__, getattr(m, "name", None)]
        except Exception as e:  # noqa: BLE001 - the class and first line are the record
            case["get"] = [type(e).__name__, str(e).splitlines()[0]]
        model = keras.Sequential([keras.Input((2,)),
                                  keras.layers.Dense(1, kernel_initializer="ones")])
        try:
            model.compile("sgd", "mse", metrics=[name])
            h = model.fit(x, y, epochs=1, verbose=0, batch_size=8, shuffle=False)
            case["history"] = {k: float(v[0]) for k, v in h.history.items()}
        except Exception as e:  # noqa: BLE001 - the class and first line are the record
            case["history"] = [type(e).__name__, str(e).splitlines()[0]]
        out[name] = case
    dump("metric_names.json", out)


SECTIONS = {"optimizers": optimizers, "losses": losses, "metrics": metrics,
            "protocol": protocol, "summary": summary, "train_function": train_function,
            "metric_names": metric_names}

if __name__ == "__main__":
    if sys.argv[1:2] == ["--two-cpus"]:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        entry = _record_program(sys.argv[2])
        print(json.dumps(entry))
        sys.exit(0)
    for name in sys.argv[1:] or list(SECTIONS):
        SECTIONS[name]()
