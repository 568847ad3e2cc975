"""``model.summary()`` prints Keras 3.15's table exactly (recorded by
tools/record_keras_layers.py from a non-tty stdout, 80 columns)."""
import json
import pathlib

import pytest

import tapeflow as tf

layers = tf.keras.layers
CASES = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "layers"
                    / "summary.json").read_text())["cases"]


def seq():
    return tf.keras.Sequential([tf.keras.Input((8,)), layers.Dense(16, activation="relu"),
                                layers.Dropout(0.2), layers.Dense(3)], name="mlp")


def gen():
    return tf.keras.Sequential([
        tf.keras.Input((16,)), layers.Dense(4 * 4 * 32, use_bias=False),
        layers.BatchNormalization(), layers.LeakyReLU(), layers.Reshape((4, 4, 32)),
        layers.Conv2DTranspose(16, 3, strides=2, padding="same", use_bias=False),
        layers.BatchNormalization(), layers.LeakyReLU(),
        layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh")])


def functional():
    a = tf.keras.Input((6,), name="a")
    b = tf.keras.Input((4,), name="b")
    h = layers.Dense(5, name="da")(a)
    g = layers.Dense(5, name="db")(b)
    s = layers.Concatenate(name="cat")([h, g])
    out = layers.Dense(2, name="head")(s)
    return tf.keras.Model([a, b], out, name="two_inputs")


def conv():
    inp = tf.keras.Input((12, 12, 1))
    x = layers.Conv2D(8, 3, activation="relu")(inp)
    x = layers.MaxPooling2D()(x)
    x = layers.Flatten()(x)
    x = layers.Dense(10)(x)
    return tf.keras.Model(inp, x)


def big():
    return tf.keras.Sequential([tf.keras.Input((784,)), layers.Dense(1000), layers.Dense(1000),
                                layers.Dense(10)], name="bigger_model_with_a_long_name")


def unbuilt():
    return tf.keras.Sequential([layers.Dense(4), layers.Dense(2)])


@pytest.fixture
def models(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    tf.keras.backend.clear_session()
    return {case["name"]: globals()[case["name"]]() for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_summary_prints_keras_text(case, models, capsys):
    model = models[case["name"]]
    model.summary(**case["options"])
    assert capsys.readouterr().out == case["stdout"]
    got = []
    model.summary(print_fn=got.append, **case["options"])
    assert got == case["print_fn_lines"]


def test_summary_counts_optimizer_variables_once_built(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(tf.ones((4, 3)), tf.ones((4, 2)), verbose=0)
    got = []
    model.summary(print_fn=got.append)
    # 8 weights + Adam's iterations (int64), learning rate and two slots per weight; the
    # same totals as Keras 3.15 prints for this model.
    assert " Total params: 26 (108.00 B)" in got[0]
    assert got[0].endswith(" Optimizer params: 18 (76.00 B)\n")


def test_summary_line_length_and_narrow_columns():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2, name="d")])
    got = []
    model.summary(line_length=50, print_fn=got.append)
    assert max(len(line) for line in got[0].splitlines()) == 50
    with pytest.raises(ValueError, match="Insufficient console width"):
        model.summary(line_length=8)


def attention():
    q = tf.keras.Input((3, 4), name="q")
    v = tf.keras.Input((5, 4), name="v")
    h = layers.MultiHeadAttention(2, 3, name="mha")(q, v)
    h = layers.LayerNormalization(name="norm")(layers.Add(name="res")([q, h]))
    return tf.keras.Model([q, v], layers.GlobalAveragePooling1D(name="pool")(h), name="attn")


class Small(tf.keras.Model):
    def __init__(self):
        super().__init__(name="small")
        self.conv = layers.Conv2D(4, 3, padding="same", activation="relu")
        self.flatten = layers.Flatten()
        self.out = layers.Dense(2)

    def call(self, x):
        return self.out(self.flatten(self.conv(x)))


def subclassed():
    model = Small()
    model(tf.zeros((5, 6, 6, 1)))
    return model


def nested():
    inner = tf.keras.Sequential([layers.Dense(3, name="in1"), layers.Dense(2, name="in2")],
                                name="inner")
    model = tf.keras.Sequential([tf.keras.Input((4,)), inner, layers.Dropout(0.1, name="drop"),
                                 layers.Dense(1, name="out")], name="outer")
    inner.layers[0].trainable = False
    return model


def ranged():
    inp = tf.keras.Input((6, 6, 2), name="img")
    x = layers.Conv2D(3, 3, name="conv_a")(inp)
    x = layers.Conv2D(3, 3, name="conv_b")(x)
    x = layers.Flatten(name="flat")(x)
    return tf.keras.Model(inp, layers.Dense(2, name="head")(x), name="ranged")


def test_summary_layer_range_errors():
    model = ranged()
    with pytest.raises(ValueError, match="do not match the layer names"):
        model.summary(layer_range=["nope", "flat"])
    with pytest.raises(ValueError, match="must be a list or tuple of length 2"):
        model.summary(layer_range=["flat"])


def states():
    inp = tf.keras.Input((5, 2), name="seq")
    out, h, c = layers.LSTM(3, return_state=True, name="lstm")(inp)
    return tf.keras.Model(inp, [out, c], name="states")
