"""Record Keras 3.15 / TensorFlow 2.21 values for the Keras training stack's tests.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_keras_train_fixtures.py [section ...]
Writes tests/fixtures/keras_train/*.json (sections: optimizers, losses, metrics, protocol,
callbacks, summary). tapeflow itself never imports TensorFlow.
"""
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_train")


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
    dump("optimizers.json", {"w0": lists(w0), "b0": lists(b0),
                             "grads": [[lists(a), lists(b)] for a, b in grads],
                             "cases": cases, "schedules": schedules,
                             "shape_errors": errors, "messages": messages})


SECTIONS = {"optimizers": optimizers}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SECTIONS):
        SECTIONS[name]()
