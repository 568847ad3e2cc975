"""Cases from Keras 3's Functional API guide (issue 21), run under TensorFlow 2.21 / Keras
3.15 and under tapeflow.

``tools/record_keras_functional_guide.py`` runs every case with ``tf`` bound to TensorFlow
and stores what it returns in ``tests/fixtures/keras/train/functional_guide.json``;
``tests/keras/test_functional_guide.py`` runs them with ``tf`` bound to tapeflow and
compares. A case returns a dict of JSON-able values.

- ``xent_*``: Keras's categorical cross-entropy from logits and its gradients. On
  TensorFlow it runs the fused ``SoftmaxCrossEntropyWithLogits`` op, whose logits gradient
  is ``softmax - labels``: with multi-hot, all-zero or unnormalised label rows that is not
  the loss's derivative, and Keras trains by it.
- ``ticket_*``: the guide's ticket classifier cut small (two Embedding + LSTM branches,
  a concatenation with the tags, two heads, RMSprop with loss weights, multi-hot department
  targets), fitted from the same weights: the losses per epoch and the weights after.
"""
import numpy as np

LABELS = {
    "multi_hot": [[1, 0, 1, 1], [0, 0, 0, 0], [1, 1, 0, 0]],
    "soft_unnormalised": [[0.3, 0.9, 0.1, 0.2], [0.05, 0.0, 0.5, 0.1], [1.5, 0.0, 0.0, 0.25]],
    "one_hot": [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
}
LOGITS = [[0.1, 0.2, -0.3, 0.5], [1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0]]
WEIGHTS = [0.5, 2.0, -1.0]   # upstream gradient per example for the per-example forms


def _grads(tf, fn, labels, logits, dtype, per_example):
    y = tf.Variable(np.asarray(labels, dtype))
    z = tf.Variable(np.asarray(logits, dtype))
    with tf.GradientTape() as tape:
        loss = fn(y, z)
        total = tf.reduce_sum(loss * tf.constant(WEIGHTS, dtype)) if per_example else loss
    g_y, g_z = tape.gradient(total, [y, z])
    return {"loss": np.asarray(loss).tolist(), "grad_logits": np.asarray(g_z).tolist(),
            "grad_labels": np.asarray(g_y).tolist()}


def xent_forms(tf):
    keras = tf.keras
    forms = {
        "CategoricalCrossentropy": (
            lambda y, z: keras.losses.CategoricalCrossentropy(from_logits=True)(y, z), False),
        "CategoricalCrossentropy_smoothing": (
            lambda y, z: keras.losses.CategoricalCrossentropy(
                from_logits=True, label_smoothing=0.2)(y, z), False),
        "categorical_crossentropy": (
            lambda y, z: keras.losses.categorical_crossentropy(y, z, from_logits=True), True),
        "ops.categorical_crossentropy": (
            lambda y, z: keras.ops.categorical_crossentropy(y, z, from_logits=True), True),
    }
    out = {}
    for form, (fn, per_example) in forms.items():
        for name, labels in LABELS.items():
            for dtype in ("float32", "float64"):
                out[f"{form}/{name}/{dtype}"] = _grads(tf, fn, labels, LOGITS, dtype,
                                                       per_example)
    return out


# --------------------------------------------------------------------- ticket classifier
N, BATCH = 16, 8
NUM_WORDS, NUM_TAGS, NUM_DEPARTMENTS = 50, 5, 4


def _ticket_data():
    rng = np.random.default_rng(21)
    title = rng.integers(NUM_WORDS, size=(N, 6))
    body = rng.integers(NUM_WORDS, size=(N, 9))
    tags = rng.integers(2, size=(N, NUM_TAGS)).astype("float32")
    priority = rng.random(size=(N, 1))
    department = rng.integers(2, size=(N, NUM_DEPARTMENTS))   # multi-hot, as in the guide
    return ({"title": title, "body": body, "tags": tags},
            {"priority": priority, "department": department})


def _ticket_model(tf):
    keras = tf.keras
    layers = keras.layers
    title_input = keras.Input(shape=(None,), name="title")
    body_input = keras.Input(shape=(None,), name="body")
    tags_input = keras.Input(shape=(NUM_TAGS,), name="tags")
    title_features = layers.LSTM(6)(layers.Embedding(NUM_WORDS, 8)(title_input))
    body_features = layers.LSTM(4)(layers.Embedding(NUM_WORDS, 8)(body_input))
    x = layers.concatenate([title_features, body_features, tags_input])
    priority_pred = layers.Dense(1, name="priority")(x)
    department_pred = layers.Dense(NUM_DEPARTMENTS, name="department")(x)
    model = keras.Model(inputs=[title_input, body_input, tags_input],
                        outputs={"priority": priority_pred, "department": department_pred})
    rng = np.random.default_rng(7)
    model.set_weights([rng.normal(scale=0.3, size=w.shape).astype("float32")
                       for w in model.get_weights()])
    return model


def ticket_fit(tf, run_eagerly):
    keras = tf.keras
    model = _ticket_model(tf)
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-2),
        loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
              "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
        loss_weights={"priority": 1.0, "department": 0.2}, run_eagerly=run_eagerly)
    x, y = _ticket_data()
    hist = model.fit(x, y, epochs=2, batch_size=BATCH, shuffle=False, verbose=0)
    return {"history": {k: [float(v) for v in vals] for k, vals in hist.history.items()},
            "weights": [w.tolist() for w in model.get_weights()]}


CASES = {
    "xent": xent_forms,
    "ticket/compiled": lambda tf: ticket_fit(tf, False),
    "ticket/eager": lambda tf: ticket_fit(tf, True),
}


# ------------------------------------------------- the first call of a layer without build()
def _captured(fn):
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = fn()
    return buf.getvalue().splitlines(), result


def build_by_run(tf):
    """Keras runs ``call`` once more, first, for a layer that keeps the default ``build()``
    and has a sublayer not built yet (``Layer._maybe_build``): the lines its ``print``
    shows, and that this first run leaves no state behind (BatchNormalization's moving
    mean, Dropout's seed stream, the losses added)."""
    keras = tf.keras
    layers = keras.layers
    keras.utils.set_random_seed(3)

    class NoBuild(layers.Layer):
        def __init__(self, sub=None, **kwargs):
            super().__init__(**kwargs)
            self.sub = sub

        def call(self, x, training=None):
            print("call", tuple(x.shape))
            if self.sub is None:
                return x * 2.0
            return self.sub(x, training=training)

    class WithBuild(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2, kernel_initializer="ones")

        def build(self, shape):
            self.dense.build(shape)

        def call(self, x):
            print("call", tuple(x.shape))
            return self.dense(x)

    class WithLoss(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2, kernel_initializer="ones")

        def call(self, x):
            print("call", tuple(x.shape))
            self.add_loss(keras.ops.sum(x))
            return self.dense(x)

    class Sub(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2, kernel_initializer="ones")

        def call(self, x):
            print("model call", tuple(x.shape))
            return self.dense(x)

    x = np.arange(8, dtype="float32").reshape(2, 4)
    out = {}
    for name, make in [
            ("unbuilt_sublayer", lambda: NoBuild(layers.Dense(3, kernel_initializer="ones"))),
            ("built_sublayer", lambda: NoBuild(_built(layers.Dense(3)))),
            ("no_sublayer", lambda: NoBuild()),
            ("own_build", WithBuild)]:
        lines, _ = _captured(lambda make=make: make()(x))
        out[f"eager/{name}"] = lines
        inp = keras.Input((4,))
        lines, _ = _captured(lambda make=make, inp=inp: keras.Model(inp, make()(inp)))
        out[f"functional/{name}"] = lines
    model = Sub()
    out["subclassed_model/first"], _ = _captured(lambda: model(x))
    out["subclassed_model/second"], _ = _captured(lambda: model(x))
    bn = NoBuild(layers.BatchNormalization(momentum=0.5))
    lines, y = _captured(lambda: bn(x, training=True))
    out["batchnorm"] = {"lines": lines, "output": np.asarray(y).tolist(),
                        "moving_mean": np.asarray(bn.sub.moving_mean).tolist()}
    drop = NoBuild(keras.Sequential([layers.Dense(4, kernel_initializer="ones"),
                                     layers.Dropout(0.5, seed=11)]))
    lines, y = _captured(lambda: drop(np.ones((3, 4), "float32"), training=True))
    out["dropout"] = {"lines": lines, "output": np.asarray(y).tolist()}
    lossy = WithLoss()
    lines, _ = _captured(lambda: lossy(x))
    out["add_loss"] = {"lines": lines, "losses": [float(v) for v in lossy.losses]}
    return out


def _built(layer):
    layer.build((None, 4))
    return layer


def default_build(tf):
    """Which layer classes keep Layer's default ``build()`` (Keras's ``utils.is_default``):
    only those are built by running ``call`` first."""
    if tf.__name__ == "tensorflow":
        from keras.src import utils

        def is_default(cls):
            return utils.is_default(cls.build)
    else:
        def is_default(cls):
            return getattr(cls.build, "_keras_default", False)
    keras = tf.keras
    out = {name: bool(is_default(getattr(keras.layers, name))) for name in dir(keras.layers)
           if isinstance(getattr(keras.layers, name), type)
           and hasattr(getattr(keras.layers, name), "build")}
    for name in ("Model", "Sequential"):
        out[name] = bool(is_default(getattr(keras, name)))
    return out


def shaping_build_config(tf):
    """The padding, cropping, up-sampling, ``Permute`` and ``RepeatVector`` layers are not
    built before their first call in Keras 3 (so a layer holding one is built by running
    ``call``, and ``get_build_config`` gives the input shape, saved in ``.keras`` files)."""
    layers = tf.keras.layers
    made = {
        "ZeroPadding1D": (layers.ZeroPadding1D, (), (2, 5, 3)),
        "ZeroPadding2D": (layers.ZeroPadding2D, (), (1, 4, 4, 2)),
        "ZeroPadding3D": (layers.ZeroPadding3D, (), (1, 3, 3, 3, 2)),
        "Cropping1D": (layers.Cropping1D, (), (2, 5, 3)),
        "Cropping2D": (layers.Cropping2D, (), (1, 4, 4, 2)),
        "Cropping3D": (layers.Cropping3D, (), (1, 3, 3, 3, 2)),
        "UpSampling1D": (layers.UpSampling1D, (), (2, 5, 3)),
        "UpSampling2D": (layers.UpSampling2D, (), (1, 4, 4, 2)),
        "UpSampling3D": (layers.UpSampling3D, (), (1, 3, 3, 3, 2)),
        "Permute": (layers.Permute, ((2, 1),), (2, 5, 3)),
        "RepeatVector": (layers.RepeatVector, (2,), (2, 4)),
        "Reshape": (layers.Reshape, ((15,),), (2, 5, 3)),
    }
    out = {}
    for name, (cls, args, shape) in made.items():
        layer = cls(*args)
        before = bool(layer.built)
        layer(np.ones(shape, "float32"))
        config = layer.get_build_config()
        out[name] = {"built_before_call": before,
                     "build_config": None if config is None else {
                         k: list(v) for k, v in config.items()}}
    return out


CASES["build_by_run"] = build_by_run
CASES["shaping_build_config"] = shaping_build_config
CASES["default_build"] = default_build
