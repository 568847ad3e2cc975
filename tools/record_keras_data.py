"""Record what Keras 3 (on TF 2.21) returns from its data utilities on the tiny files of
``tests/keras/_data_files.py``, into ``tests/fixtures/keras/data/``.

    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_keras_data.py [datasets] [dirs]

``datasets``: ``keras.datasets.*.load_data`` on the tiny cache files (hash checks disabled,
since the files are stand-ins). ``dirs``: the ``*_dataset_from_directory`` utilities,
``timeseries_dataset_from_array``, ``split_dataset`` and friends.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, os.pardir, "tests", "fixtures", "keras", "data")
sys.path.insert(0, os.path.join(HERE, os.pardir, "tests", "keras"))
import _data_files  # noqa: E402


def enc(x):
    """A JSON form of an array (object arrays of lists kept as nested lists)."""
    if isinstance(x, (list, tuple)) and not isinstance(x, np.ndarray):
        return {"list": [enc(v) for v in x]}
    if hasattr(x, "numpy"):
        x = x.numpy()
    x = np.asarray(x)
    if x.dtype == object:
        return {"dtype": "object", "shape": list(x.shape),
                "values": [list(map(int, v)) if isinstance(v, (list, np.ndarray)) else
                           (v.decode() if isinstance(v, bytes) else v) for v in x.ravel()]}
    if x.dtype.kind in "SU":
        return {"dtype": "string", "shape": list(x.shape),
                "values": [v.decode("utf-8") if isinstance(v, bytes) else str(v)
                           for v in x.ravel()]}
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": x.ravel().tolist()}


def record_datasets():
    home = tempfile.mkdtemp()
    _data_files.write_dataset_cache(home)
    os.environ["KERAS_HOME"] = home
    import keras
    from keras.src.utils import file_utils
    file_utils.validate_file = lambda *a, **k: True
    ds = keras.datasets
    cases = {
        "mnist": lambda: ds.mnist.load_data(),
        "fashion_mnist": lambda: ds.fashion_mnist.load_data(),
        "cifar100_fine": lambda: ds.cifar100.load_data(),
        "cifar100_coarse": lambda: ds.cifar100.load_data(label_mode="coarse"),
        "imdb": lambda: ds.imdb.load_data(),
        "imdb_args": lambda: ds.imdb.load_data(num_words=20, skip_top=3, maxlen=10, seed=5,
                                               start_char=7, oov_char=9, index_from=4),
        "imdb_no_start": lambda: ds.imdb.load_data(start_char=None, index_from=2,
                                                   oov_char=None, num_words=15),
        "imdb_plain": lambda: ds.imdb.load_data(start_char=None, index_from=0),
        "imdb_word_index": lambda: ds.imdb.get_word_index(),
        "reuters": lambda: ds.reuters.load_data(),
        "reuters_args": lambda: ds.reuters.load_data(num_words=25, skip_top=2, maxlen=9,
                                                     test_split=0.4, seed=3),
        "reuters_word_index": lambda: ds.reuters.get_word_index(),
        "reuters_labels": lambda: list(ds.reuters.get_label_names()),
        "boston": lambda: ds.boston_housing.load_data(),
        "boston_args": lambda: ds.boston_housing.load_data(test_split=0.3, seed=1),
        "california": lambda: ds.california_housing.load_data(),
        "california_args": lambda: ds.california_housing.load_data(test_split=0.5, seed=7),
    }
    out = {}
    for name, fn in cases.items():
        result = fn()
        if isinstance(result, dict):
            out[name] = {"dict": result}
        elif name == "reuters_labels":
            out[name] = {"labels": result}
        else:
            (a, b), (c, d) = result
            out[name] = {"x_train": enc(a), "y_train": enc(b), "x_test": enc(c),
                         "y_test": enc(d)}
    with open(os.path.join(OUT, "datasets.json"), "w") as f:
        json.dump(out, f)
    print("datasets:", len(out), "cases")


def enc_element(e):
    if isinstance(e, dict):
        return {"dict": {k: enc_element(v) for k, v in e.items()}}
    if isinstance(e, tuple):
        return {"tuple": [enc_element(v) for v in e]}
    return enc(e)


def run_case(keras, kind, call, root):
    """What a DIR_CASES call gives: its printed lines, then per dataset its class names, file
    paths (relative to ``root``) and elements (datasets twice over: two epochs)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = call(keras, root)
    record = {"print": out.getvalue()}
    if kind == "array":
        record["array"] = enc(np.asarray(result))
        return record
    sets = list(result) if kind == "pair" else [result]
    record["datasets"] = []
    for ds in sets:
        entry = {"class_names": getattr(ds, "class_names", None)}
        if hasattr(ds, "file_paths"):
            entry["file_paths"] = [os.path.relpath(p, root) for p in ds.file_paths]
        entry["epochs"] = [[enc_element(e) for e in ds] for _ in range(2 if kind == "ds" else 1)]
        record["datasets"].append(entry)
    return record


def run_error(keras, call, root):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            call(keras, root)
    except Exception as e:  # noqa: BLE001 - recording the class and message
        return {"error": type(e).__name__, "message": str(e).replace(root, "<root>")}
    return {"error": None}


def record_dirs():
    import keras
    root = tempfile.mkdtemp()
    _data_files.write_dirs(root)
    cases = {name: run_case(keras, kind, call, root)
             for name, (kind, call) in _data_files.DIR_CASES.items()}
    errors = {name: run_error(keras, call, root) for name, call in _data_files.DIR_ERRORS.items()}
    with open(os.path.join(OUT, "dirs.json"), "w") as f:
        json.dump({"cases": cases, "errors": errors}, f)
    print("dirs:", len(cases), "cases,", len(errors), "errors")


def record_pydataset():
    import keras
    out = {}
    for name, kwargs, weights in (("plain", {}, False), ("threads", {"workers": 3}, True)):
        data = _data_files.make_py_dataset_class(keras)(weights=weights, **kwargs)
        model = _data_files.make_fixed_model(keras)
        history = model.fit(data, epochs=2, shuffle=False, verbose=0)
        out[name] = {"loss": history.history["loss"],
                     "weights": [w.tolist() for w in model.get_weights()],
                     "evaluate": model.evaluate(data, verbose=0),
                     "predict": model.predict(data, verbose=0).tolist(),
                     "epoch_calls": [e for e in data.log if isinstance(e, str)]}
    import tensorflow as tf
    out["flow_fit"] = _data_files.flow_fit(keras, tf.keras.preprocessing)
    with open(os.path.join(OUT, "pydataset.json"), "w") as f:
        json.dump(out, f)
    print("pydataset:", len(out), "cases")


def record_feature_space():
    import keras
    import tensorflow as tf
    out = {}
    table, query = _data_files.feature_table(), _data_files.feature_query()
    spaces = _data_files.make_feature_spaces(keras)
    spaces["custom"] = _data_files.make_custom_feature_space(keras)
    for name, fs in spaces.items():
        q = {k: query[k] for k in fs.features}
        fs.adapt(tf.data.Dataset.from_tensor_slices({k: table[k] for k in fs.features}).batch(5))
        enc_feats = fs.get_encoded_features()
        shapes = ({k: list(v.shape) for k, v in enc_feats.items()} if isinstance(enc_feats, dict)
                  else list(enc_feats.shape))
        single = fs({k: v[1] for k, v in q.items()})
        out[name] = {"batch": enc_element(fs(q)), "single": enc_element(single),
                     "symbolic_shapes": shapes}
    with open(os.path.join(OUT, "feature_space.json"), "w") as f:
        json.dump(out, f)
    print("feature_space:", len(out), "cases")


def enc_any(x):
    """JSON form of a legacy-API result: arrays, tuples/lists of them, plain values."""
    if isinstance(x, np.ndarray) or hasattr(x, "numpy"):
        return enc(x)
    if isinstance(x, (list, tuple)):
        return {"seq": "tuple" if isinstance(x, tuple) else "list",
                "items": [enc_any(v) for v in x]}
    if isinstance(x, (np.integer, np.floating)):
        return {"scalar": x.item()}
    return {"plain": x}


def record_legacy():
    import tensorflow as tf
    prep = tf.keras.preprocessing
    root = tempfile.mkdtemp()
    _data_files.write_dirs(root)
    out = {}
    for name, call in _data_files.LEGACY_CASES.items():
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result = call(prep, root)
        out[name] = {"print": printed.getvalue(), "result": enc_any(result)}
    with open(os.path.join(OUT, "legacy_preprocessing.json"), "w") as f:
        json.dump(out, f)
    print("legacy:", len(out), "cases")


def record_plot():
    """Needs pydot importable (e.g. ``pip install --target DIR pydot`` and DIR on
    PYTHONPATH)."""
    import keras
    models = _data_files.make_plot_models(keras)
    out = {name: _data_files.normalize_dot(
        keras.utils.model_to_dot(models[model], **kwargs).to_string())
        for name, (model, kwargs) in _data_files.PLOT_CASES.items()}
    with open(os.path.join(OUT, "model_to_dot.json"), "w") as f:
        json.dump(out, f, indent=0)
    print("plot:", len(out), "cases")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    which = sys.argv[1:] or ["datasets", "dirs", "pydataset", "feature_space", "legacy", "plot"]
    if "datasets" in which:
        record_datasets()
    if "dirs" in which:
        record_dirs()
    if "pydataset" in which:
        record_pydataset()
    if "feature_space" in which:
        record_feature_space()
    if "legacy" in which:
        record_legacy()
    if "plot" in which:
        record_plot()
