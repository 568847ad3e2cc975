"""The programs whose checkpoints tests compare with TensorFlow's: written once, run with
``tf`` = tensorflow (tools/record_checkpoint.py) or ``tf`` = tapeflow (tests)."""
import numpy as np


def module_program(tfm):
    """A tf.Module graph: nested module, list, dict, several dtypes. Same code for both."""

    class Block(tfm.Module):
        def __init__(self, n, name=None):
            super().__init__(name=name)
            with self.name_scope:
                self.w = tfm.Variable(np.arange(n * 2, dtype=np.float32).reshape(n, 2) / 7,
                                      name="w")
                self.b = tfm.Variable(np.float64([0.5, -1.25]), name="b")

    class Net(tfm.Module):
        def __init__(self):
            super().__init__(name="net")
            self.encoder = Block(3, name="encoder")
            self.blocks = [Block(2, name="b0"), Block(1, name="b1")]
            self.extras = {"steps": tfm.Variable(np.int64(7), name="steps"),
                           "flag": tfm.Variable(True, name="flag"),
                           "small": tfm.Variable(np.int32([1, -2, 3]), name="small"),
                           "half": tfm.Variable(np.float16([1.5, 2.25]), name="half")}

    return Net()


def keras_program(tfm):
    """Sequential(Input, Dense, BatchNormalization, Dense) + Adam, two GradientTape steps."""
    keras = tfm.keras
    rng = np.random.default_rng(7)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d1"),
                              keras.layers.BatchNormalization(name="bn"),
                              keras.layers.Dense(2, name="d2")], name="seq")
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.5 + (
        1.0 if "variance" in w.name else 0.0) * np.abs(rng.standard_normal(w.shape)).astype(
        np.float32) for w in model.weights])
    opt = keras.optimizers.Adam(0.01, name="adam")
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    loss_fn = keras.losses.MeanSquaredError()
    for _ in range(2):
        with tfm.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return model, opt, x, y


def rnn_program(tfm):
    keras = tfm.keras
    rng = np.random.default_rng(3)
    model = keras.Sequential([keras.layers.Embedding(10, 3, name="emb"),
                              keras.layers.LSTM(4, name="lstm"),
                              keras.layers.Dense(1, name="out")], name="rnn")
    model(np.zeros((1, 5), np.int32))
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32)
                       for w in model.weights])
    return model


def functional_program(tfm):
    """Model(Input, Conv2D, Flatten, Dense) + SGD with momentum, one GradientTape step."""
    keras = tfm.keras
    rng = np.random.default_rng(11)
    inputs = keras.Input((4, 5, 2), name="image")
    conv = keras.layers.Conv2D(3, 2, activation="relu", name="conv")(inputs)
    hidden = keras.layers.Flatten(name="flat")(conv)
    model = keras.Model(inputs, keras.layers.Dense(2, name="head")(hidden), name="fn")
    model.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.3
                       for w in model.weights])
    opt = keras.optimizers.SGD(0.05, momentum=0.9, name="sgd")
    x = rng.standard_normal((6, 4, 5, 2)).astype(np.float32)
    y = rng.standard_normal((6, 2)).astype(np.float32)
    with tfm.GradientTape() as tape:
        loss = keras.losses.MeanSquaredError()(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return model, opt, x, y


def nested_module_program(tfm):
    """Three levels of tf.Module, through attributes, a tuple and a dict."""

    def leaf(name, value):
        m = tfm.Module(name=name)
        with m.name_scope:
            m.v = tfm.Variable(value, name="v")
        return m

    top = tfm.Module(name="top")
    top.z = leaf("z", 1.0)
    top.a = tfm.Module(name="a")
    top.a.pair = (leaf("a_first", 2.0), leaf("a_second", 3.0))
    top.a.deep = tfm.Module(name="deep")
    top.a.deep.d = {"y": leaf("deep_y", 4.0), "x": leaf("deep_x", 5.0)}
    with top.name_scope:
        top.w = tfm.Variable(0.5, name="w", trainable=False)
    return top


def many_variables_program(tfm, n=9000):
    """Enough variables for a two-block index (over 256 KiB of entries)."""
    return tfm.train.Checkpoint(**{f"variable_with_a_rather_long_name_{i:05d}":
                                   tfm.Variable(np.float32(i)) for i in range(n)})


def containers_program(tfm):
    """A tf.Module whose list and dict attributes are empty or hold no variable (TF tracks
    every list and dict: a node without children), a tuple of nothing tracked (not tracked),
    a tuple holding a list (tracked)."""

    class Holder(tfm.Module):
        def __init__(self):
            super().__init__()
            self.v = tfm.Variable(np.float32([1.0, 2.0]), name="v")
            self.empty = []
            self.nested = [[], {"a": []}]
            self.ints = [1, 2]
            self.d = {}
            self.t = ()
            self.tv = (self.v,)
            self.tl = ([],)
            self.non_trainable_variables_like = []

    return Holder()
