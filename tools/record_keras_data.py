"""Record what Keras 3 (on TF 2.21) returns from its data utilities on the tiny files of
``tests/keras/_data_files.py``, into ``tests/fixtures/keras/data/``.

    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_keras_data.py [datasets] [dirs]

``datasets``: ``keras.datasets.*.load_data`` on the tiny cache files (hash checks disabled,
since the files are stand-ins). ``dirs``: the ``*_dataset_from_directory`` utilities,
``timeseries_dataset_from_array``, ``split_dataset`` and friends.
"""
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


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    which = sys.argv[1:] or ["datasets", "dirs"]
    if "datasets" in which:
        record_datasets()
    if "dirs" in which:
        import record_keras_data_dirs  # noqa: F401  (written below)
