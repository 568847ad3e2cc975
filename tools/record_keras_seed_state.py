"""Record Keras 3.15 / TensorFlow 2.21 for tapeflow's tests of the layers' seed-generator
state, ``keras.initializers.STFT`` and ``GroupQueryAttention``'s class.

Run from the repository root with the TensorFlow venv:
    /work/tfenv/bin/python tools/record_keras_seed_state.py
Writes into tests/fixtures/keras/kaug2/:
  seed_state.json  - variables / non_trainable_variables / weights (path, dtype, trainable,
                     the int64 states' values) of seeded layers and a Sequential model after
                     two training calls; the STFT initializer's kernels, configs and errors;
                     GroupQueryAttention's base classes;
  flip_model.keras - a Sequential (RandomFlip, RandomRotation, Dropout, Dense) saved by Keras,
                     with its input and inference output in seed_state.json; and the layout
                     (groups, datasets, ``name`` attributes) of its model.weights.h5.
"""
import io
import json
import os
import zipfile

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import h5py  # noqa: E402
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "kaug2")
X = np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) / 7.0


def describe(variables):
    return [{"path": v.path, "dtype": str(v.dtype), "trainable": bool(v.trainable),
             "value": np.asarray(v).tolist() if "int" in str(v.dtype) else None}
            for v in variables]


def state(layer):
    return {"variables": describe(layer.variables),
            "non_trainable_variables": describe(layer.non_trainable_variables),
            "trainable_variables": describe(layer.trainable_variables),
            "weights": [v.path for v in layer.weights],
            "non_trainable_weights": [v.path for v in layer.non_trainable_weights]}


LAYERS = [("RandomFlip", {"seed": 3}), ("RandomCrop", {"height": 2, "width": 3, "seed": 4}),
          ("RandomRotation", {"factor": 0.2, "seed": 5}), ("AutoContrast", {}),
          ("RandAugment", {"seed": 6, "num_ops": 1}), ("Dropout", {"rate": 0.5, "seed": 7})]


def layers():
    out = []
    for cls, kwargs in LAYERS:
        keras.backend.clear_session()
        layer = getattr(keras.layers, cls)(**kwargs)
        before = state(layer)
        layer(X, training=True)
        layer(X, training=True)
        out.append({"cls": cls, "kwargs": kwargs, "before": before, "after": state(layer)})
    return out


def model():
    keras.backend.clear_session()
    m = keras.Sequential([keras.Input((4, 5, 3)), keras.layers.RandomFlip(seed=3),
                          keras.layers.RandomRotation(0.1, seed=4),
                          keras.layers.Dropout(0.3, seed=5), keras.layers.Flatten(),
                          keras.layers.Dense(2, kernel_initializer=keras.initializers.
                                             GlorotUniform(seed=1))])
    m(X, training=True)
    path = os.path.join(OUT, "flip_model.keras")
    m.save(path)
    with zipfile.ZipFile(path) as z:
        f = h5py.File(io.BytesIO(z.read("model.weights.h5")), "r")
        layout = []
        f.visititems(lambda name, obj: layout.append(
            [name, "group" if isinstance(obj, h5py.Group) else list(obj.shape),
             {k: str(v) for k, v in obj.attrs.items()}]))
    return {"state": state(m), "output": np.asarray(m(X, training=False)).tolist(),
            "layout": layout}


STFT_CASES = [
    ("real", "hann", "density", False, (16, 1, 9)),
    ("imag", "hann", "density", False, (16, 1, 9)),
    ("real", "hamming", "spectrum", True, (10, 1, 6)),
    ("imag", None, None, False, (8, 1, 5)),
    ("imag", [0.5, 1.0, 1.0, 0.5], "density", False, (4, 2, 3)),
]
STFT_ERRORS = [{"side": "left"}, {"scaling": "max"}, {"window": "no-such-window"}]


def stft():
    out = []
    for side, window, scaling, periodic, shape in STFT_CASES:
        init = keras.initializers.STFT(side=side, window=window, scaling=scaling,
                                       periodic=periodic)
        out.append({"kwargs": {"side": side, "window": window, "scaling": scaling,
                               "periodic": periodic}, "shape": list(shape),
                    "kernel": np.asarray(init(shape)).astype(np.float64).tolist(),
                    "config": init.get_config(),
                    "serialized": keras.initializers.serialize(init)})
    errors = []
    for kwargs in STFT_ERRORS:
        try:
            keras.initializers.STFT(**kwargs)
            errors.append(None)
        except Exception as e:  # noqa: BLE001 - Keras's error is the record
            errors.append([type(e).__name__, str(e)])
    names = {n: getattr(keras.initializers, n, None) is keras.initializers.STFT
             for n in ("STFT", "STFTInitializer", "stft")}
    return {"cases": out, "errors": errors, "names": names}


def gqa():
    cls = keras.layers.GroupQueryAttention
    return {"is_multi_head_attention": issubclass(cls, keras.layers.MultiHeadAttention),
            "bases": [b.__name__ for b in cls.__bases__]}


def main():
    os.makedirs(OUT, exist_ok=True)
    result = {"keras_version": keras.__version__, "tf_version": tf.__version__,
              "input": X.tolist(), "layers": layers(), "model": model(), "stft": stft(),
              "gqa": gqa()}
    with open(os.path.join(OUT, "seed_state.json"), "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
