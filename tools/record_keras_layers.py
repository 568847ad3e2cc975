"""Record Keras 3.15 / TensorFlow 2.21 activations, layers and summaries for tapeflow's tests.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_keras_layers.py
Writes tests/fixtures/keras/layers/*.json. For each layer case it stores the constructor
arguments, the input, the weights (in ``layer.weights`` order), the output, a random
cotangent and the gradients of ``sum(output * cotangent)`` with respect to the input and the
trainable weights, so tapeflow's layer is compared given the same weights.
"""
import io
import json
import os
import subprocess
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "layers")
RNG = np.random.default_rng(20261124)


def arr(shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def lists(x):
    """Nested lists; floats with float32's 9 significant digits (exact round trip)."""
    a = np.asarray(x)
    if a.dtype.kind != "f":
        return a.tolist()
    return _round(a.astype(np.float32).tolist())


def _round(v):
    if isinstance(v, list):
        return [_round(e) for e in v]
    return float(f"{v:.9g}")


def dump(name, data):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


def plain(value):
    """A JSON-able copy of a get_config value (dtype policies as their name)."""
    if isinstance(value, dict):
        if value.get("class_name") == "DTypePolicy":
            return value["config"]["name"]
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value


# -- activations -------------------------------------------------------------------------

ACTIVATIONS = [
    ("celu", {}), ("celu", {"alpha": 0.5}), ("elu", {}), ("elu", {"alpha": 0.5}),
    ("exponential", {}), ("gelu", {}), ("gelu", {"approximate": True}), ("glu", {}),
    ("hard_shrink", {}), ("hard_shrink", {"threshold": 1.0}), ("hard_sigmoid", {}),
    ("hard_silu", {}), ("hard_swish", {}), ("hard_tanh", {}), ("leaky_relu", {}),
    ("leaky_relu", {"negative_slope": 0.1}), ("linear", {}), ("log_sigmoid", {}),
    ("log_softmax", {}), ("log_softmax", {"axis": 0}), ("mish", {}), ("relu", {}),
    ("relu", {"negative_slope": 0.1, "max_value": 1.5, "threshold": 0.3}),
    ("relu", {"max_value": 1.0}), ("relu6", {}), ("selu", {}), ("sigmoid", {}),
    ("silu", {}), ("swish", {}), ("soft_shrink", {}), ("soft_shrink", {"threshold": 0.2}),
    ("softmax", {}), ("softmax", {"axis": 0}), ("softplus", {}), ("softsign", {}),
    ("sparse_plus", {}), ("sparse_sigmoid", {}), ("sparsemax", {}), ("sparsemax", {"axis": 0}),
    ("squareplus", {}), ("squareplus", {"b": 1.0}), ("tanh", {}), ("tanh_shrink", {}),
    ("threshold", {"threshold": 0.2, "default_value": -1.0}),
]


def activation_cases():
    x = arr((4, 6), 2.0)
    x[0, :3] = [-1.0, 1.0, 0.0]  # the kinks of sparse_plus/sparse_sigmoid exactly
    x[0, 3:] = [3.0, -3.0, 0.5]
    cases = []
    for name, kwargs in ACTIVATIONS:
        fn = keras.activations.get(name)
        xt = tf.constant(x)
        ct = arr(x.shape)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = fn(xt, **kwargs)
            loss = tf.reduce_sum(y * ct) if y.shape == x.shape else tf.reduce_sum(
                y * ct[:, : y.shape[1]])
        g = tape.gradient(loss, xt)
        cases.append({"name": name, "kwargs": kwargs, "y": lists(y),
                      "ct": lists(ct), "grad": lists(g),
                      "fn_name": fn.__name__})
    dump("activations.json", {"x": lists(x), "names": sorted(
        keras.activations.ALL_OBJECTS_DICT if hasattr(keras.activations, "ALL_OBJECTS_DICT")
        else __import__("keras.src.activations", fromlist=["x"]).ALL_OBJECTS_DICT),
        "cases": cases})


# -- layers ------------------------------------------------------------------------------

def layer_case(cls, kwargs, x, weights=None, training=False, call_kwargs=None, label=None):
    """Build ``cls(**kwargs)`` on ``x``, optionally set random weights, record everything."""
    layer = getattr(keras.layers, cls)(**kwargs)
    xt = tf.constant(x)
    layer(xt, **(call_kwargs or {}))  # build
    if weights == "random":
        layer.set_weights([arr(w.shape, 0.5) for w in layer.weights])
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt, training=training, **(call_kwargs or {}))
        ct = arr(y.shape)
        loss = tf.reduce_sum(y * ct)
    grads = tape.gradient(loss, [xt] + list(layer.trainable_weights))
    out_shape = layer.compute_output_shape((None,) + tuple(x.shape[1:]))
    return {"label": label or cls, "cls": cls, "kwargs": kwargs, "training": training,
            "x": lists(x),
            "x_dtype": str(x.dtype), "weights": [lists(w.numpy()) for w in layer.weights],
            "weight_names": [w.path for w in layer.weights],
            "y": lists(y), "ct": lists(ct),
            "grads": [None if g is None else lists(tf.convert_to_tensor(g)) for g in grads],
            "output_shape": [d for d in out_shape], "config": plain(layer.get_config())}


def layer_cases():
    img = arr((2, 5, 4, 3))
    seq = arr((2, 6, 3))
    cases = [
        layer_case("LeakyReLU", {}, arr((3, 4), 2.0)),
        layer_case("LeakyReLU", {"negative_slope": 0.1}, arr((3, 4), 2.0), label="LeakyReLU01"),
        layer_case("PReLU", {}, img, weights="random"),
        layer_case("PReLU", {"shared_axes": [1, 2]}, img, weights="random", label="PReLUshared"),
        layer_case("ELU", {}, arr((3, 4), 2.0)),
        layer_case("ELU", {"alpha": 0.5}, arr((3, 4), 2.0), label="ELU05"),
        layer_case("ReLU", {"max_value": 1.5, "negative_slope": 0.1, "threshold": 0.2},
                   arr((3, 4), 2.0)),
        layer_case("Softmax", {"axis": 1}, arr((2, 3, 4))),
        layer_case("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2,
                                       "padding": "same"}, img, weights="random"),
        layer_case("Conv2DTranspose", {"filters": 2, "kernel_size": (3, 2), "strides": (2, 1),
                                       "padding": "valid", "activation": "tanh"}, img,
                   weights="random", label="Conv2DTransposeValid"),
        layer_case("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2,
                                       "padding": "same", "output_padding": 0,
                                       "use_bias": False}, img, weights="random",
                   label="Conv2DTransposeOutPad"),
        layer_case("Conv1DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2,
                                       "padding": "same"}, seq, weights="random"),
        layer_case("Conv1DTranspose", {"filters": 4, "kernel_size": 4, "strides": 3,
                                       "padding": "valid"}, seq, weights="random",
                   label="Conv1DTransposeValid"),
        layer_case("Conv1D", {"filters": 2, "kernel_size": 3, "padding": "causal",
                              "dilation_rate": 2}, seq, weights="random"),
        layer_case("UpSampling2D", {"size": 2}, img),
        layer_case("UpSampling2D", {"size": (2, 3), "interpolation": "bilinear"}, img,
                   label="UpSampling2DBilinear"),
        layer_case("UpSampling1D", {"size": 3}, seq),
        layer_case("Reshape", {"target_shape": (-1, 2)}, arr((2, 3, 4))),
        layer_case("GlobalMaxPooling2D", {}, img),
        layer_case("GlobalAveragePooling2D", {"keepdims": True}, img),
        layer_case("GlobalAveragePooling1D", {}, seq),
        layer_case("ZeroPadding2D", {"padding": ((1, 2), (0, 1))}, img),
        layer_case("ZeroPadding2D", {}, img, label="ZeroPadding2Ddefault"),
        layer_case("ZeroPadding1D", {"padding": 2}, seq),
        layer_case("Cropping2D", {"cropping": ((1, 2), (0, 1))}, img),
        layer_case("Cropping1D", {"cropping": (1, 2)}, seq),
        layer_case("SpatialDropout1D", {"rate": 0.5}, seq),
        layer_case("SpatialDropout2D", {"rate": 0.5}, img),
        layer_case("LayerNormalization", {"axis": [1, 2]}, arr((2, 3, 4)), weights="random"),
        layer_case("LayerNormalization", {"rms_scaling": True, "epsilon": 0.01},
                   arr((2, 3, 4)), weights="random", label="LayerNormalizationRMS"),
        layer_case("GroupNormalization", {"groups": 2}, arr((2, 3, 4)), weights="random"),
        layer_case("GroupNormalization", {"groups": 3, "epsilon": 0.01},
                   arr((2, 3, 2, 6)), weights="random", label="GroupNormalization3"),
        layer_case("Rescaling", {"scale": 1 / 127.5, "offset": -1.0}, arr((2, 3, 3, 1), 50)),
        layer_case("Resizing", {"height": 7, "width": 3}, img),
        layer_case("Resizing", {"height": 3, "width": 6, "interpolation": "nearest"}, img,
                   label="ResizingNearest"),
        layer_case("Resizing", {"height": 4, "width": 4, "crop_to_aspect_ratio": True}, img,
                   label="ResizingCrop"),
        layer_case("CenterCrop", {"height": 3, "width": 2}, img),
        layer_case("RandomFlip", {}, img),
        layer_case("RandomRotation", {"factor": (0.1, 0.1)}, img, training=True),
        layer_case("RandomRotation", {"factor": (-0.25, -0.25), "fill_mode": "constant",
                                      "fill_value": 0.5}, img, training=True,
                   label="RandomRotationConstant"),
        layer_case("RandomZoom", {"height_factor": (0.3, 0.3)}, img, training=True),
        layer_case("RandomZoom", {"height_factor": (-0.2, -0.2), "width_factor": (0.1, 0.1),
                                  "fill_mode": "nearest", "interpolation": "nearest"},
                   img, training=True, label="RandomZoomNearest"),
        layer_case("RandomTranslation", {"height_factor": (0.2, 0.2),
                                         "width_factor": (-0.25, -0.25)}, img, training=True),
        layer_case("RandomTranslation", {"height_factor": (-0.4, -0.4),
                                         "width_factor": (0.0, 0.0), "fill_mode": "wrap"},
                   img, training=True, label="RandomTranslationWrap"),
        layer_case("RandomContrast", {"factor": 0.5}, img),
        layer_case("RandomCrop", {"height": 3, "width": 2, "seed": 4}, img),
        layer_case("RandomCrop", {"height": 6, "width": 6, "seed": 4}, img, training=True,
                   label="RandomCropResize"),
        layer_case("RandomCrop", {"height": 5, "width": 2, "seed": 4}, img, training=True,
                   label="RandomCropCentre"),
        layer_case("RandomBrightness", {"factor": (-0.3, 0.1)}, img * 50 + 100),
        layer_case("Masking", {"mask_value": 0.5}, np.where(seq > 0.5, seq, 0.5)),
        layer_case("Embedding", {"input_dim": 5, "output_dim": 3, "mask_zero": True},
                   np.array([[1, 2, 0, 0], [3, 0, 4, 1]], np.int32), weights="random"),
    ]
    dump("layers.json", {"cases": cases})


def multi_head_attention_cases():
    q, v, k = arr((2, 3, 4)), arr((2, 5, 6)), arr((2, 5, 2))
    mask = np.array([[[1, 1, 0, 1, 1]] * 3, [[1, 0, 0, 1, 0]] * 3], bool)
    cases = []
    for kwargs, use_key, use_mask in [
            ({"num_heads": 2, "key_dim": 3}, False, False),
            ({"num_heads": 2, "key_dim": 3, "value_dim": 2, "output_shape": 5}, True, True),
            ({"num_heads": 1, "key_dim": 2, "use_bias": False}, False, True)]:
        layer = keras.layers.MultiHeadAttention(**kwargs)
        args = [tf.constant(q), tf.constant(v)]
        call = {"key": tf.constant(k)} if use_key else {}
        if use_mask:
            call["attention_mask"] = tf.constant(mask)
        layer(*args, **call)
        layer.set_weights([arr(w.shape, 0.5) for w in layer.weights])
        with tf.GradientTape() as tape:
            tape.watch(args)
            y, scores = layer(*args, return_attention_scores=True, **call)
            ct = arr(y.shape)
            loss = tf.reduce_sum(y * ct)
        grads = tape.gradient(loss, args + list(layer.trainable_weights))
        cases.append({"kwargs": kwargs, "use_key": use_key, "use_mask": use_mask,
                      "weights": [lists(w.numpy()) for w in layer.weights],
                      "weight_names": [w.path for w in layer.weights],
                      "y": lists(y), "scores": lists(scores), "ct": lists(ct),
                      "grads": [lists(g) for g in grads], "config": plain(layer.get_config())})
    dump("multi_head_attention.json", {"query": lists(q), "value": lists(v), "key": lists(k),
                                       "mask": lists(mask), "cases": cases})


def masking_cases():
    ids = np.array([[3, 1, 4, 0, 0], [2, 0, 0, 0, 0], [1, 5, 2, 6, 3]], np.int32)
    out = {"ids": lists(ids), "cases": []}
    for label, body in [
            ("gap", lambda: [keras.layers.GlobalAveragePooling1D()]),
            ("lstm", lambda: [keras.layers.LSTM(3)]),
            ("gru_seq", lambda: [keras.layers.GRU(2, return_sequences=True),
                                 keras.layers.GlobalAveragePooling1D()]),
            ("simplernn", lambda: [keras.layers.SimpleRNN(2)]),
            ("bidirectional", lambda: [keras.layers.Bidirectional(keras.layers.LSTM(2))]),
            ("dense_between", lambda: [keras.layers.Dense(3), keras.layers.GRU(2)]),
            ("backwards_seq", lambda: [keras.layers.SimpleRNN(2, return_sequences=True,
                                                               go_backwards=True)])]:
        emb = keras.layers.Embedding(7, 4, mask_zero=True)
        layers = body()
        model = keras.Sequential([keras.Input((5,), dtype="int32"), emb, *layers])
        model.set_weights([arr(w.shape, 0.5) for w in model.weights])
        y = model(ids)
        inp = keras.Input((5,), dtype="int32")
        h = emb(inp)
        for layer in layers:
            h = layer(h)
        functional = keras.Model(inp, h)
        out["cases"].append({"label": label, "weights": [lists(w) for w in model.get_weights()],
                             "y": lists(y), "functional_y": lists(functional(ids)),
                             "mask": lists(emb.compute_mask(ids))})
    x = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    x[0, 3:] = 0.0
    x[1, 1] = 0.0
    model = keras.Sequential([keras.Input((5, 2)), keras.layers.Masking(),
                              keras.layers.LSTM(3)])
    model.set_weights([arr(w.shape, 0.5) for w in model.weights])
    out["masking_layer"] = {"x": lists(x), "weights": [lists(w) for w in model.get_weights()],
                            "y": lists(model(x))}
    dump("masking.json", out)


def normalization_adapt_case():
    data = arr((20, 3), 3.0) + np.array([1.0, -2.0, 5.0], np.float32)
    layer = keras.layers.Normalization()
    layer.adapt(data)
    x = arr((4, 3))
    dump("normalization_adapt.json", {"data": lists(data), "x": lists(x),
                                      "y": lists(layer(x)),
                                      "mean": lists(layer.mean), "variance": lists(layer.variance),
                                      "config": plain(layer.get_config())})


# -- errors ----------------------------------------------------------------------------

ERRORS = [
    ("UpSampling2D(name='up')", "np.ones((1, 2, 3), 'float32')"),
    ("UpSampling1D(name='up1')", "np.ones((1, 2, 3, 4), 'float32')"),
    ("Conv2DTranspose(2, 3, name='ct')", "np.ones((1, 2, 3), 'float32')"),
    ("Conv1DTranspose(2, 3, name='ct1')", "np.ones((1, 2, 3, 4), 'float32')"),
    ("ZeroPadding2D(name='zp')", "np.ones((1, 2, 3), 'float32')"),
    ("Cropping2D(name='cr')", "np.ones((2, 3), 'float32')"),
    ("Cropping1D(cropping=(2, 2), name='cr1')", "np.ones((1, 3, 2), 'float32')"),
    ("SpatialDropout1D(0.5, name='sd')", "np.ones((1, 2, 3, 4), 'float32')"),
    ("SpatialDropout2D(0.5, name='sd2')", "np.ones((1, 2, 3), 'float32')"),
    ("GlobalAveragePooling2D(name='gap')", "np.ones((1, 2, 3), 'float32')"),
    ("GlobalMaxPooling2D(name='gmp')", "np.ones((1, 2, 3), 'float32')"),
    ("GroupNormalization(groups=3, name='gn')", "np.ones((2, 4), 'float32')"),
    ("GroupNormalization(groups=8, name='gn2')", "np.ones((2, 4), 'float32')"),
    ("Reshape((5, -1), name='rs')", "np.ones((2, 3, 4), 'float32')"),
    ("Reshape((5, 2), name='rs2')", "np.ones((2, 3, 4), 'float32')"),
    ("LeakyReLU(negative_slope=-1)", None),
    ("ReLU(max_value=-1)", None),
    ("ReLU(threshold=-1)", None),
    ("Embedding(0, 3)", None),
    ("Embedding(3, 2.5)", None),
    ("Conv2DTranspose(0, 3)", None),
    ("Conv2DTranspose(2, 3, strides=2, output_padding=2)", None),
    ("RandomRotation(1.5)", None),
    ("RandomZoom((-1.5, 0.2))", None),
    ("RandomTranslation(0.2, 2.0)", None),
    ("RandomContrast(1.5)", None),
    ("RandomFlip('diagonal')", None),
    ("RandomRotation(0.2, fill_mode='mirror')", None),
    ("Resizing(4, 4, interpolation='cubic')", "np.ones((1, 5, 5, 1), 'float32')"),
    ("Dropout(1.5)", None),
]


def error_cases():
    cases = []
    for make, x in ERRORS:
        try:
            layer = eval("keras.layers." + make)
            if x is not None:
                layer(eval(x))
            cases.append({"make": make, "x": x, "error": None})
        except Exception as e:  # noqa: BLE001 - recording what Keras raises
            cases.append({"make": make, "x": x, "error": type(e).__name__,
                          "message": str(e)})
    dump("errors.json", {"cases": cases})


# -- input dtypes ------------------------------------------------------------------------

DTYPE_CASES = [
    ("Resizing(3, 3)", "uint8"), ("Resizing(3, 3)", "float64"),
    ("UpSampling2D(interpolation='bilinear')", "uint8"),
    ("UpSampling2D(interpolation='bilinear')", "int32"), ("UpSampling2D()", "int32"),
    ("LeakyReLU()", "int32"), ("GroupNormalization(1)", "int32"), ("ZeroPadding2D()", "int32"),
    ("CenterCrop(1, 1)", "uint8"), ("RandomFlip()", "uint8"),
]


def dtype_cases():
    x = np.array([[[[0], [255]], [[255], [0]]]])
    cases = []
    for make, dtype in DTYPE_CASES:
        xi = x.astype(dtype) * (-1 if dtype == "int32" and "bilinear" in make else 1)
        y = eval("keras.layers." + make)(xi, training=False)
        cases.append({"make": make, "dtype": dtype, "x": lists(xi), "y": lists(y),
                      "y_dtype": str(np.asarray(y).dtype)})
    dump("dtypes.json", {"cases": cases})


# -- model.summary() ---------------------------------------------------------------------

SUMMARY_MODELS = r'''
import os, sys, json
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import keras
from keras import layers

def seq():
    return keras.Sequential([keras.Input((8,)), layers.Dense(16, activation="relu"),
                             layers.Dropout(0.2), layers.Dense(3)], name="mlp")

def gen():
    return keras.Sequential([
        keras.Input((16,)), layers.Dense(4 * 4 * 32, use_bias=False),
        layers.BatchNormalization(), layers.LeakyReLU(), layers.Reshape((4, 4, 32)),
        layers.Conv2DTranspose(16, 3, strides=2, padding="same", use_bias=False),
        layers.BatchNormalization(), layers.LeakyReLU(),
        layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh")])

def functional():
    a = keras.Input((6,), name="a")
    b = keras.Input((4,), name="b")
    h = layers.Dense(5, name="da")(a)
    g = layers.Dense(5, name="db")(b)
    s = layers.Concatenate(name="cat")([h, g])
    out = layers.Dense(2, name="head")(s)
    return keras.Model([a, b], out, name="two_inputs")

def conv():
    inp = keras.Input((12, 12, 1))
    x = layers.Conv2D(8, 3, activation="relu")(inp)
    x = layers.MaxPooling2D()(x)
    x = layers.Flatten()(x)
    x = layers.Dense(10)(x)
    return keras.Model(inp, x)

def big():
    return keras.Sequential([keras.Input((784,)), layers.Dense(1000), layers.Dense(1000),
                             layers.Dense(10)], name="bigger_model_with_a_long_name")

def unbuilt():
    return keras.Sequential([layers.Dense(4), layers.Dense(2)])

class Small(keras.Model):
    def __init__(self):
        super().__init__(name="small")
        self.conv = layers.Conv2D(4, 3, padding="same", activation="relu")
        self.flatten = layers.Flatten()
        self.out = layers.Dense(2)

    def call(self, x):
        return self.out(self.flatten(self.conv(x)))

def subclassed():
    model = Small()
    model(np.zeros((5, 6, 6, 1), "float32"))
    return model

def attention():
    q = keras.Input((3, 4), name="q")
    v = keras.Input((5, 4), name="v")
    h = layers.MultiHeadAttention(2, 3, name="mha")(q, v)
    h = layers.LayerNormalization(name="norm")(layers.Add(name="res")([q, h]))
    return keras.Model([q, v], layers.GlobalAveragePooling1D(name="pool")(h), name="attn")

def nested():
    inner = keras.Sequential([layers.Dense(3, name="in1"), layers.Dense(2, name="in2")],
                             name="inner")
    model = keras.Sequential([keras.Input((4,)), inner, layers.Dropout(0.1, name="drop"),
                              layers.Dense(1, name="out")], name="outer")
    inner.layers[0].trainable = False
    return model

def ranged():
    inp = keras.Input((6, 6, 2), name="img")
    x = layers.Conv2D(3, 3, name="conv_a")(inp)
    x = layers.Conv2D(3, 3, name="conv_b")(x)
    x = layers.Flatten(name="flat")(x)
    return keras.Model(inp, layers.Dense(2, name="head")(x), name="ranged")

def states():
    inp = keras.Input((5, 2), name="seq")
    out, h, c = layers.LSTM(3, return_state=True, name="lstm")(inp)
    return keras.Model(inp, [out, c], name="states")

OPTIONS = {"nested": {"expand_nested": True, "show_trainable": True},
           "ranged": {"layer_range": ["conv_.*", "flat"], "show_trainable": True}}

for name in sys.argv[1:]:
    model = globals()[name]()
    options = OPTIONS.get(name, {})
    model.summary(**options)
    sys.stdout.write("\x00")
    sys.stdout.flush()
    lines = []
    model.summary(print_fn=lambda line, **kw: lines.append(line), **options)
    sys.stdout.write(json.dumps(lines))
    sys.stdout.write("\x01")
    sys.stdout.flush()
'''


def summary_cases():
    names = ["seq", "gen", "functional", "conv", "big", "unbuilt", "attention", "subclassed",
             "nested", "ranged", "states"]
    proc = subprocess.run([sys.executable, "-c", SUMMARY_MODELS, *names], capture_output=True,
                          text=True, check=True, env=dict(os.environ, COLUMNS="80"))
    cases = []
    for name, chunk in zip(names, proc.stdout.split("\x01")[:-1], strict=True):
        printed, print_fn = chunk.split("\x00")
        cases.append({"name": name, "stdout": printed, "print_fn_lines": json.loads(print_fn),
                      "options": {"nested": {"expand_nested": True, "show_trainable": True},
                                  "ranged": {"layer_range": ["conv_.*", "flat"],
                                             "show_trainable": True}}.get(name, {})})
    dump("summary.json", {"cases": cases})


# -- guide-like programs (tests/compat/keras_layers/) --------------------------------------

def program_cases():
    """Each program's stdout under TensorFlow/Keras, keyed by file name, with its hash."""
    import contextlib
    import hashlib

    folder = os.path.join(os.path.dirname(__file__), "..", "tests", "compat", "keras_layers")
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        source = open(os.path.join(folder, name)).read()
        buffer = io.StringIO()
        keras.utils.set_random_seed(0)
        keras.backend.clear_session()
        with contextlib.redirect_stdout(buffer):
            exec(compile(source, name, "exec"), {"tf": tf, "keras": keras, "np": np,
                                                 "__name__": "__program__"})
        out[name] = {"sha": hashlib.sha256(source.encode()).hexdigest()[:16],
                     "stdout": buffer.getvalue()}
    dump("programs.json", out)


# -- layers added in session 7 (own random stream, own file) -----------------------------

def dot_case(kwargs, x1, x2, label):
    layer = keras.layers.Dot(**kwargs)
    a, b = tf.constant(x1), tf.constant(x2)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = layer([a, b])
        ct = arr(y.shape)
        loss = tf.reduce_sum(y * ct)
    ga, gb = tape.gradient(loss, [a, b])
    out_shape = layer.compute_output_shape([(None,) + x1.shape[1:], (None,) + x2.shape[1:]])
    return {"label": label, "kwargs": kwargs, "x1": lists(x1), "x2": lists(x2), "y": lists(y),
            "ct": lists(ct), "grads": [lists(ga), lists(gb)],
            "output_shape": list(out_shape), "config": plain(layer.get_config())}


def multi_case(cls, kwargs, xs, label, call_kwargs=None):
    """Like dot_case for a layer with weights (set at random) and several inputs."""
    layer = getattr(keras.layers, cls)(**kwargs)
    ts = [tf.constant(x) for x in xs]
    layer(ts, **(call_kwargs or {}))
    layer.set_weights([arr(w.shape, 0.5) for w in layer.weights])
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = layer(ts, **(call_kwargs or {}))
        ct = arr(y.shape)
        loss = tf.reduce_sum(y * ct)
    grads = tape.gradient(loss, ts + list(layer.trainable_weights))
    return {"label": label, "cls": cls, "kwargs": kwargs, "call_kwargs": call_kwargs or {},
            "xs": [lists(x) for x in xs], "weights": [lists(w.numpy()) for w in layer.weights],
            "weight_names": [w.path for w in layer.weights], "y": lists(y), "ct": lists(ct),
            "grads": [lists(g) for g in grads], "config": plain(layer.get_config())}


def spectral_case(inner, inner_kwargs, x, power_iterations, label):
    """SpectralNormalization around ``inner``: one training call (the update) and the
    outputs and gradients of a second, non-training call."""
    layer = keras.layers.SpectralNormalization(getattr(keras.layers, inner)(**inner_kwargs),
                                               power_iterations=power_iterations)
    xt = tf.constant(x)
    layer(xt)
    weights = [arr(w.shape, 0.5) for w in layer.weights]
    layer.set_weights(weights)
    y_train = layer(xt, training=True)
    after = [lists(w.numpy()) for w in layer.weights]
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt)
        ct = arr(y.shape)
        loss = tf.reduce_sum(tf.cast(y, tf.float32) * ct)
    grads = tape.gradient(loss, [xt] + list(layer.trainable_weights))
    return {"label": label, "inner": inner, "inner_kwargs": inner_kwargs,
            "power_iterations": power_iterations, "x": lists(x), "x_dtype": str(x.dtype),
            "weights": [lists(w) for w in weights], "weight_names": [w.path for w in
                                                                     layer.weights],
            "y_train": lists(y_train), "after": after, "y": lists(y), "ct": lists(ct),
            "grads": [None if g is None else lists(tf.convert_to_tensor(g)) for g in grads],
            "config": plain(layer.get_config())}


def extra_layer_cases():
    global RNG
    saved, RNG = RNG, np.random.default_rng(20261129)
    img = arr((2, 6, 5, 3))
    seq = arr((2, 7, 3))
    vol = arr((2, 4, 3, 5, 2))
    rgb = (np.abs(arr((2, 4, 5, 3))) * 80).astype(np.float32)
    cases = [
        layer_case("DepthwiseConv2D", {"kernel_size": 3}, img, weights="random"),
        layer_case("DepthwiseConv2D", {"kernel_size": (3, 2), "strides": 2, "padding": "same",
                                       "depth_multiplier": 2, "activation": "relu"}, img,
                   weights="random", label="DepthwiseConv2DSame"),
        layer_case("DepthwiseConv2D", {"kernel_size": 2, "dilation_rate": 2,
                                       "use_bias": False}, img, weights="random",
                   label="DepthwiseConv2DDilated"),
        layer_case("DepthwiseConv1D", {"kernel_size": 3, "depth_multiplier": 2}, seq,
                   weights="random"),
        layer_case("DepthwiseConv1D", {"kernel_size": 2, "strides": 2, "padding": "same"}, seq,
                   weights="random", label="DepthwiseConv1DSame"),
        layer_case("DepthwiseConv1D", {"kernel_size": 3, "dilation_rate": 2}, seq,
                   weights="random", label="DepthwiseConv1DDilated"),
        layer_case("SeparableConv2D", {"filters": 4, "kernel_size": 3}, img, weights="random"),
        layer_case("SeparableConv2D", {"filters": 2, "kernel_size": 2, "strides": 2,
                                       "padding": "same", "depth_multiplier": 3,
                                       "activation": "tanh"}, img, weights="random",
                   label="SeparableConv2DSame"),
        layer_case("SeparableConv1D", {"filters": 4, "kernel_size": 3, "depth_multiplier": 2},
                   seq, weights="random"),
        layer_case("SeparableConv1D", {"filters": 2, "kernel_size": 3, "padding": "same",
                                       "use_bias": False}, seq, weights="random",
                   label="SeparableConv1DSame"),
        layer_case("RMSNormalization", {}, arr((2, 3, 4)), weights="random"),
        layer_case("RMSNormalization", {"axis": [1, 2], "epsilon": 0.01}, arr((2, 3, 4)),
                   weights="random", label="RMSNormalizationAxes"),
        layer_case("EinsumDense", {"equation": "ab,bc->ac", "output_shape": 4,
                                   "bias_axes": "c"}, arr((3, 5)), weights="random"),
        layer_case("EinsumDense", {"equation": "abc,cde->abde", "output_shape": (3, 2, 4),
                                   "bias_axes": "de", "activation": "relu"}, arr((2, 3, 5)),
                   weights="random", label="EinsumDense3D"),
        layer_case("EinsumDense", {"equation": "...b,bc->...c", "output_shape": 4},
                   arr((2, 3, 5)), weights="random", label="EinsumDenseLeftEllipsis"),
        layer_case("EinsumDense", {"equation": "abc...,cd->abd...", "output_shape": (3, 4),
                                   "bias_axes": "d"}, arr((2, 3, 5, 2)), weights="random",
                   label="EinsumDenseRightEllipsis"),
        layer_case("EinsumDense", {"equation": "abc,cd->abd", "output_shape": (None, 4),
                                   "bias_axes": "d"}, arr((2, 3, 5)), weights="random",
                   label="EinsumDenseNoneBias"),
        layer_case("GlobalAveragePooling3D", {}, vol),
        layer_case("GlobalMaxPooling3D", {"keepdims": True}, vol),
        layer_case("UpSampling3D", {"size": (2, 1, 3)}, vol),
        layer_case("ZeroPadding3D", {}, vol),
        layer_case("ZeroPadding3D", {"padding": ((1, 0), 2, (0, 3))}, vol,
                   label="ZeroPadding3DMixed"),
        layer_case("Cropping3D", {"cropping": (1, (0, 1), 0)}, vol),
        layer_case("SpatialDropout3D", {"rate": 0.5}, vol),
        layer_case("Conv3D", {"filters": 2, "kernel_size": 2}, vol, weights="random"),
        layer_case("RandomInvert", {"factor": (1.0, 1.0)}, rgb, training=True),
        layer_case("RandomInvert", {"factor": 0.0, "value_range": (0, 1)}, rgb / 255,
                   training=True, label="RandomInvertNever"),
        layer_case("RandomGrayscale", {"factor": 1.0}, rgb, training=True),
        layer_case("RandomGrayscale", {"factor": 0.0}, rgb, training=True,
                   label="RandomGrayscaleNever"),
        layer_case("AutoContrast", {}, rgb * 0.5 + 20),
        layer_case("Solarization", {}, rgb, training=True),
        layer_case("Solarization", {"value_range": (0, 1)}, rgb / 300, training=True,
                   label="SolarizationUnit"),
        layer_case("Solarization", {"addition_factor": 0.3, "threshold_factor": 0.4}, rgb,
                   label="SolarizationInference"),
        layer_case("AutoContrast", {"value_range": (-1, 1)}, np.tanh(rgb / 100 - 1.2),
                   label="AutoContrastRange"),
        layer_case("Conv3D", {"filters": 3, "kernel_size": (3, 2, 2), "strides": (2, 1, 2),
                              "padding": "same", "activation": "tanh"}, vol,
                   weights="random", label="Conv3DSame"),
        layer_case("Conv3D", {"filters": 2, "kernel_size": 2, "dilation_rate": (1, 2, 2),
                              "use_bias": False}, vol, weights="random",
                   label="Conv3DDilated"),
        layer_case("MaxPooling3D", {}, vol),
        layer_case("MaxPooling3D", {"pool_size": (3, 2, 2), "strides": (2, 1, 2),
                                    "padding": "same"}, vol, label="MaxPooling3DSame"),
        layer_case("AveragePooling3D", {"pool_size": 2, "strides": 1}, vol),
        layer_case("AveragePooling3D", {"pool_size": (3, 2, 4), "strides": (2, 2, 3),
                                        "padding": "same"}, vol,
                   label="AveragePooling3DSame"),
    ]
    nn3d = []
    x5 = arr((2, 5, 4, 6, 3))
    for fn, kw, wshape in [
            ("conv3d", {"strides": [1, 1, 1, 1, 1], "padding": "VALID"}, (2, 3, 2, 3, 2)),
            ("conv3d", {"strides": [1, 2, 2, 3, 1], "padding": "SAME"}, (3, 3, 2, 3, 4)),
            ("conv3d", {"strides": [1, 1, 1, 1, 1], "padding": "SAME",
                        "dilations": [1, 2, 1, 2, 1]}, (2, 2, 2, 3, 2)),
            ("max_pool3d", {"ksize": 2, "strides": 2, "padding": "VALID"}, None),
            ("max_pool3d", {"ksize": [1, 3, 2, 4, 1], "strides": [1, 2, 1, 3, 1],
                            "padding": "SAME"}, None),
            ("avg_pool3d", {"ksize": 3, "strides": 2, "padding": "SAME"}, None),
            ("avg_pool3d", {"ksize": [1, 2, 3, 2, 1], "strides": 1, "padding": "VALID"},
             None)]:
        xt = tf.constant(x5)
        wt = None if wshape is None else tf.constant(arr(wshape))
        with tf.GradientTape() as tape:
            tape.watch(xt)
            if wt is not None:
                tape.watch(wt)
            y = getattr(tf.nn, fn)(xt, wt, **kw) if wt is not None else getattr(tf.nn, fn)(
                xt, **kw)
            ct = arr(y.shape)
            loss = tf.reduce_sum(y * ct)
        grads = tape.gradient(loss, [xt] + ([] if wt is None else [wt]))
        nn3d.append({"fn": fn, "kwargs": kw, "w": None if wt is None else lists(wt),
                     "y": lists(y), "ct": lists(ct), "grads": [lists(g) for g in grads]})
    attention = [
        multi_case("AdditiveAttention", {}, [arr((2, 3, 4)), arr((2, 5, 4))],
                   "AdditiveAttention"),
        multi_case("AdditiveAttention", {"use_scale": False}, [arr((2, 3, 4)), arr((2, 5, 4)),
                                                               arr((2, 5, 4))],
                   "AdditiveAttentionKeyNoScale"),
        multi_case("AdditiveAttention", {}, [arr((2, 4, 3)), arr((2, 4, 3))],
                   "AdditiveAttentionCausal", {"use_causal_mask": True}),
    ]
    dots = [
        dot_case({"axes": 1}, arr((3, 4)), arr((3, 4)), "Dot2D"),
        dot_case({"axes": 1, "normalize": True}, arr((3, 4)), arr((3, 4)), "Dot2DNormalize"),
        dot_case({"axes": (2, 2)}, arr((2, 3, 4)), arr((2, 5, 4)), "Dot3D"),
        dot_case({"axes": -1}, arr((2, 3, 4)), arr((2, 4)), "Dot3D2D"),
        dot_case({"axes": [1, 2], "normalize": True}, arr((2, 3, 4)), arr((2, 5, 3)),
                 "DotMixedAxes"),
    ]
    spectral = [
        spectral_case("Dense", {"units": 3}, arr((2, 4)), 1, "SpectralDense"),
        spectral_case("Conv2D", {"filters": 2, "kernel_size": 2}, arr((2, 3, 3, 2)), 3,
                      "SpectralConv2D"),
        spectral_case("Embedding", {"input_dim": 5, "output_dim": 3},
                      np.array([[1, 2, 4], [0, 3, 1]], np.int32), 2, "SpectralEmbedding"),
    ]
    reversible = []
    ids = np.array([[1, 2, 0], [4, 3, 1]], np.int32)
    for kwargs, label in [({"input_dim": 5, "output_dim": 3}, "ReversibleTied"),
                          ({"input_dim": 5, "output_dim": 3, "tie_weights": False,
                            "logit_soft_cap": 2.0, "mask_zero": True}, "ReversibleUntied")]:
        layer = keras.layers.ReversibleEmbedding(**kwargs)
        layer(ids)
        layer.set_weights([arr(w.shape) for w in layer.weights])
        h = tf.constant(arr((2, 4, 3)))
        with tf.GradientTape() as tape:
            tape.watch(h)
            fwd = layer(ids)
            rev = layer(h, reverse=True)
            ct_f, ct_r = arr(fwd.shape), arr(rev.shape)
            loss = tf.reduce_sum(fwd * ct_f) + tf.reduce_sum(rev * ct_r)
        grads = tape.gradient(loss, [h] + list(layer.trainable_weights))
        reversible.append({"label": label, "kwargs": kwargs, "ids": lists(ids),
                           "h": lists(h), "weights": [lists(w.numpy()) for w in layer.weights],
                           "weight_names": [w.path for w in layer.weights],
                           "fwd": lists(fwd), "rev": lists(rev), "ct_f": lists(ct_f),
                           "ct_r": lists(ct_r), "grads": [lists(tf.convert_to_tensor(g))
                                                          for g in grads],
                           "rev_shape": list(layer.compute_output_shape((None, 4, 3),
                                                                        reverse=True)),
                           "config": plain(layer.get_config())})
    stacked = []
    for ret, label in [(True, "StackedSequences"), (False, "StackedLast")]:
        cells = keras.layers.StackedRNNCells([keras.layers.SimpleRNNCell(3),
                                              keras.layers.LSTMCell(2)])
        rnn = keras.layers.RNN(cells, return_sequences=ret)
        xs = tf.constant(arr((2, 4, 5)))
        rnn(xs)
        rnn.set_weights([arr(w.shape, 0.5) for w in rnn.weights])
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = rnn(xs)
            ct = arr(y.shape)
            loss = tf.reduce_sum(y * ct)
        grads = tape.gradient(loss, [xs] + list(rnn.trainable_weights))
        stacked.append({"label": label, "return_sequences": ret, "x": lists(xs),
                        "weights": [lists(w.numpy()) for w in rnn.weights],
                        "weight_names": [w.path for w in rnn.weights], "y": lists(y),
                        "ct": lists(ct), "grads": [lists(g) for g in grads],
                        "cells_config": plain(cells.get_config()),
                        "state_size": plain(cells.state_size)})
    pipe = keras.layers.Pipeline([keras.layers.RandomInvert((1.0, 1.0)),
                                  keras.layers.Rescaling(0.5, offset=1.0),
                                  keras.layers.AutoContrast()])
    pipeline = {"x": lists(rgb), "y_default": lists(pipe(rgb)),
                "y_training": lists(pipe(rgb, training=True)),
                "y_inference": lists(pipe(rgb, training=False)),
                "config": plain(pipe.get_config())}
    names = sorted(n for n in dir(keras.layers) if not n.startswith("_"))
    dump("layers_extra.json", {"keras_version": keras.__version__, "names": names,
                               "cases": cases, "dots": dots, "attention": attention,
                               "nn3d_x": lists(x5), "nn3d": nn3d,
                               "spectral": spectral, "reversible": reversible,
                               "stacked": stacked, "pipeline": pipeline})
    RNG = saved


if __name__ == "__main__":
    keras.utils.set_random_seed(1)
    if sys.argv[1:] == ["extra"]:
        extra_layer_cases()
        sys.exit()
    activation_cases()
    layer_cases()
    multi_head_attention_cases()
    masking_cases()
    normalization_adapt_case()
    error_cases()
    dtype_cases()
    summary_cases()
    program_cases()
    extra_layer_cases()
