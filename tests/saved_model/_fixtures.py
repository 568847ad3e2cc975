"""Reading the TF-written SavedModel fixtures (tools/record_saved_model.py) and their JSON."""
import json
import pathlib

import numpy as np

import tapeflow as tf

FIX = pathlib.Path(__file__).resolve().parent.parent / "fixtures/saved_model"
NAMES = ["module", "guide_module", "keras_mlp", "keras_cnn", "keras_rnn", "keras_layers",
         "loop_branch", "custom_gradient", "ragged_sparse_ops", "custom_gradient_captures"]


def facts(name):
    return json.loads((FIX / f"{name}.json").read_text())


def path(name):
    return str(FIX / name)


def dec(x):
    """The recorder's JSON nest as tapeflow tensors and Python values."""
    if isinstance(x, dict):
        if "@a" in x:
            return tf.constant(np.array(x["@a"], dtype=x["@d"]).reshape(x["@s"]))
        if "@dict" in x:
            return {k: dec(v) for k, v in x["@dict"]}
        if "@tuple" in x:
            return tuple(dec(v) for v in x["@tuple"])
        return {k: dec(v) for k, v in x.items()}
    if isinstance(x, list):
        return [dec(v) for v in x]
    return x


def resolve(obj, dotted):
    for part in dotted.split("."):
        if isinstance(obj, (list, tuple)):
            obj = obj[int(part)]
        elif hasattr(obj, "keys") and not hasattr(obj, part):
            obj = obj[part]
        else:
            obj = getattr(obj, part)
    return obj


def weights(shape):
    """The recorder's fixed output weights of the loss."""
    n = int(np.prod(shape))
    return np.linspace(-1.0, 1.0, n).reshape(shape) if n > 1 else np.ones(shape)


def loss_of(out):
    total = tf.constant(0.0, tf.float64)
    for o in tf.nest.flatten(out):
        if isinstance(o, tf.Tensor) and o.dtype.is_floating:
            total += tf.reduce_sum(tf.cast(o, tf.float64) * weights(tuple(o.shape)))
    return total
