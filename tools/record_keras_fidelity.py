"""Record Keras 3.15 / TensorFlow 2.21 answers for tests/keras/test_fidelity.py.

    /work/tfenv/bin/python tools/record_keras_fidelity.py keras
        runs every case of ``tests/keras/fidelity_cases.py`` into ``fidelity.json`` and
        writes the legacy HDF5 model file ``keras_model.h5`` (Keras's ``model.save(".h5")``)
        with its predictions (``keras_model.json``);
    PYTHONPATH=src python tools/record_keras_fidelity.py tapeflow
        tapeflow writes ``tapeflow_model.h5`` from the same model;
    /work/tfenv/bin/python tools/record_keras_fidelity.py keras-load
        Keras loads ``tapeflow_model.h5`` and records what it loaded and its predictions
        (``tapeflow_model_keras.json``).

Everything goes to ``tests/fixtures/keras/fidelity/``.
"""
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir)
OUT = os.path.join(ROOT, "tests", "fixtures", "keras", "fidelity")
sys.path.insert(0, ROOT)


def _dump(name, data):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")


def _report(model, keras_module_name):
    from tests.keras import fidelity_cases as cases
    return {"layers": [type(layer).__name__ for layer in model.layers],
            "paths": [w.path for w in model.weights],
            "compiled": bool(getattr(model, "optimizer", None) is not None
                             and getattr(model, "loss", None) is not None),
            "pred": np.asarray(model(cases.h5_input(), training=False)).tolist(),
            "by": keras_module_name}


def main(mode):
    from tests.keras import fidelity_cases as cases
    os.makedirs(OUT, exist_ok=True)
    if mode == "tapeflow":
        import tapeflow as tf
        model = cases.h5_model(tf.keras)
        model.save(os.path.join(OUT, "tapeflow_model.h5"))
        return
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import keras
    import tensorflow as tf
    if mode == "keras":
        results = {}
        for name, fn in cases.CASES.items():
            with tempfile.TemporaryDirectory() as workdir:
                keras.utils.clear_session()
                results[name] = json.loads(json.dumps(fn(tf, keras, workdir)))
        _dump("fidelity.json", results)
        keras.utils.clear_session()
        model = cases.h5_model(keras)
        model.save(os.path.join(OUT, "keras_model.h5"))
        _dump("keras_model.json", _report(model, "keras"))
    elif mode == "keras-load":
        model = keras.models.load_model(os.path.join(OUT, "tapeflow_model.h5"))
        _dump("tapeflow_model_keras.json", _report(model, "keras"))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
