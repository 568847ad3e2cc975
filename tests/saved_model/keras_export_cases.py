"""The models of ``tools/record_keras_export.py``, built the same way by Keras 3 (TF) and by
``tapeflow.keras``: a Dense MLP and a small CNN with weights from a seeded NumPy generator,
and the input each is called on. Imports neither TF nor tapeflow (the caller passes its
``keras``)."""
import re

import numpy as np

CASES = ("mlp", "cnn", "sepconv")


def build(keras, name):
    if name == "mlp":
        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4, activation="relu"),
                                  keras.layers.Dense(2)])
    elif name == "sepconv":
        model = keras.Sequential([keras.Input((8, 8, 2)),
                                  keras.layers.DepthwiseConv2D(3, strides=2, padding="same",
                                                               depth_multiplier=2),
                                  keras.layers.SeparableConv2D(3, 3, activation="relu"),
                                  keras.layers.GlobalAveragePooling2D()])
    else:
        model = keras.Sequential([keras.Input((8, 8, 2)),
                                  keras.layers.Conv2D(4, 3, activation="relu"),
                                  keras.layers.MaxPooling2D(2), keras.layers.Flatten(),
                                  keras.layers.Dense(3)])
    rng = np.random.RandomState(7)
    model.set_weights([rng.uniform(-0.5, 0.5, np.shape(w)).astype("float32")
                       for w in model.get_weights()])
    return model


def inputs(name):
    rng = np.random.RandomState(11)
    shape = (3, 8) if name == "mlp" else (2, 8, 8, 2)
    return rng.standard_normal(shape).astype("float32")


def normalize_listing(text, path):
    """Printed export listing with the directory as ``<path>`` and capture ids as ``<id>``
    (ids are Python object ids, different in every run)."""
    text = text.replace(path, "<path>")
    return re.sub(r"^  \d+: ", "  <id>: ", text, flags=re.M).rstrip("\n")
