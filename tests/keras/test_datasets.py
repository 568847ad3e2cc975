"""keras.datasets: every loader on tiny files in Keras's exact cache formats, against what
Keras 3.15 returned on the same files (tools/record_keras_data.py datasets)."""
import json
import os
import pathlib
import pickle
import urllib.error
import urllib.request

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras.utils import file_utils

from . import _data_files

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "keras" / "data" / "datasets.json"
RECORDED = json.loads(FIXTURE.read_text())
ds = tf.keras.datasets


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A KERAS_HOME holding the tiny files; their hashes are not Keras's, so the check is off
    (as in the recorder)."""
    _data_files.write_dataset_cache(str(tmp_path))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(file_utils, "validate_file", lambda *a, **k: True)

    def offline(*a, **k):
        raise urllib.error.URLError("no network in tests")
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    return tmp_path


def check(got, want):
    got = np.asarray(got)
    if want["dtype"] == "object":
        assert got.dtype == object
        assert list(got.shape) == want["shape"]
        assert [list(map(int, v)) if isinstance(v, (list, np.ndarray)) else v
                for v in got.ravel()] == want["values"]
        return
    assert str(got.dtype) == want["dtype"]
    assert list(got.shape) == want["shape"]
    np.testing.assert_array_equal(got.ravel(), np.asarray(want["values"], dtype=got.dtype))


CASES = {
    "mnist": lambda: ds.mnist.load_data(),
    "fashion_mnist": lambda: ds.fashion_mnist.load_data(),
    "cifar100_fine": lambda: ds.cifar100.load_data(),
    "cifar100_coarse": lambda: ds.cifar100.load_data(label_mode="coarse"),
    "imdb": lambda: ds.imdb.load_data(),
    "imdb_args": lambda: ds.imdb.load_data(num_words=20, skip_top=3, maxlen=10, seed=5,
                                           start_char=7, oov_char=9, index_from=4),
    "imdb_no_start": lambda: ds.imdb.load_data(start_char=None, index_from=2, oov_char=None,
                                               num_words=15),
    "imdb_plain": lambda: ds.imdb.load_data(start_char=None, index_from=0),
    "reuters": lambda: ds.reuters.load_data(),
    "reuters_args": lambda: ds.reuters.load_data(num_words=25, skip_top=2, maxlen=9,
                                                 test_split=0.4, seed=3),
    "boston": lambda: ds.boston_housing.load_data(),
    "boston_args": lambda: ds.boston_housing.load_data(test_split=0.3, seed=1),
    "california": lambda: ds.california_housing.load_data(),
    "california_args": lambda: ds.california_housing.load_data(test_split=0.5, seed=7),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_data_matches_keras(home, name):
    (x_train, y_train), (x_test, y_test) = CASES[name]()
    want = RECORDED[name]
    check(x_train, want["x_train"])
    check(y_train, want["y_train"])
    check(x_test, want["x_test"])
    check(y_test, want["y_test"])


def test_word_indices_and_label_names(home):
    assert ds.imdb.get_word_index() == RECORDED["imdb_word_index"]["dict"]
    assert ds.reuters.get_word_index() == RECORDED["reuters_word_index"]["dict"]
    assert list(ds.reuters.get_label_names()) == RECORDED["reuters_labels"]["labels"]
    assert len(ds.reuters.get_label_names()) == 46


def test_cifar10_reads_the_five_batches_and_the_test_batch(home):
    """Keras's cifar10 needs 10,000 rows per batch (it fills a preallocated array), so it was
    not recorded on the tiny archive; the values follow from the files by construction."""
    (x_train, y_train), (x_test, y_test) = ds.cifar10.load_data()
    root = home / "datasets" / "cifar-10-batches-py-target" / "cifar-10-batches-py"
    batches = []
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        with open(root / name, "rb") as f:
            batches.append(pickle.load(f, encoding="bytes"))
    want_x = np.concatenate([b[b"data"] for b in batches[:5]]).reshape(-1, 3, 32, 32)
    np.testing.assert_array_equal(x_train, want_x.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_train[:, 0], sum((b[b"labels"] for b in batches[:5]), []))
    np.testing.assert_array_equal(
        x_test, batches[5][b"data"].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_test[:, 0], batches[5][b"labels"])
    assert (x_train.shape, x_train.dtype, y_train.shape, y_train.dtype) == (
        (10, 32, 32, 3), np.uint8, (10, 1), np.uint8)
    assert (x_test.dtype, y_test.shape, y_test.dtype) == (np.uint8, (3, 1), np.uint8)


def test_argument_errors(home):
    with pytest.raises(ValueError, match="`label_mode` must be one of"):
        ds.cifar100.load_data(label_mode="medium")
    with pytest.raises(ValueError, match="Invalid `test_split` argument: 1"):
        ds.boston_housing.load_data(test_split=1)
    with pytest.raises(ValueError, match="Argument `version` must be one of"):
        ds.california_housing.load_data(version="tiny")
    with pytest.raises(ValueError, match="no sequence was kept"):
        ds.imdb.load_data(maxlen=1)
    assert len(ds.california_housing.load_data(version="small", test_split=0)[0][0]) == 13


def test_offline_error_names_the_url_and_the_cache_path(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(*a, **k):
        raise urllib.error.URLError("Temporary failure in name resolution")
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    with pytest.raises(Exception, match="URL fetch failure on https://storage.googleapis.com/"
                                        "tensorflow/tf-keras-datasets/imdb.npz") as err:
        ds.imdb.load_data()
    assert os.path.join(str(tmp_path), "datasets", "imdb.npz") in str(err.value)
    assert not (tmp_path / "datasets" / "imdb.npz").exists()
    with pytest.raises(Exception, match="fashion-mnist"):
        ds.fashion_mnist.load_data()


def test_hash_mismatch_redownloads_then_refuses(tmp_path, monkeypatch, capsys):
    """A cached file with the wrong hash is fetched again; a download with the wrong hash is
    refused and not kept."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "boston_housing.npz").write_bytes(b"stale")

    class Response:
        def __init__(self, data):
            self.data = data

        def __enter__(self):
            import io
            return io.BytesIO(self.data)

        def __exit__(self, *a):
            return False
    monkeypatch.setattr(urllib.request, "urlopen", lambda url: Response(b"also wrong"))
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected. The auto file "
                                         "hash does not match"):
        ds.boston_housing.load_data()
    out = capsys.readouterr().out
    assert "A local file was found, but it seems to be incomplete or outdated" in out
    assert "Downloading data from https://storage.googleapis.com/" in out


def test_get_file_md5_extract_and_paths(tmp_path, monkeypatch):
    import hashlib
    import io
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("inner/a.txt")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    data = buf.getvalue()

    class Response:
        def __enter__(self):
            return io.BytesIO(data)

        def __exit__(self, *a):
            return False
    monkeypatch.setattr(urllib.request, "urlopen", lambda url: Response())
    md5 = hashlib.md5(data).hexdigest()
    got = tf.keras.utils.get_file("pack", origin="http://x/pack.tar.gz", extract=True,
                                  file_hash=md5, cache_dir=str(tmp_path))
    assert got == os.path.join(str(tmp_path), "datasets", "pack")
    assert (tmp_path / "datasets" / "pack_archive").exists()
    assert (tmp_path / "datasets" / "pack" / "inner" / "a.txt").read_bytes() == b"hi"
    got = tf.keras.utils.get_file("pack.tar.gz", origin="http://x/p", extract=True,
                                  cache_dir=str(tmp_path), cache_subdir="other")
    assert got == os.path.join(str(tmp_path), "other", "pack_extracted")
    with pytest.raises(ValueError, match="Paths are no longer accepted"):
        tf.keras.utils.get_file("a/b", origin="http://x/p", cache_dir=str(tmp_path))
    with pytest.raises(ValueError, match='Please specify the "origin" argument'):
        tf.keras.utils.get_file("a")
    sha = hashlib.sha256(data).hexdigest()
    assert file_utils.validate_file(got.replace("pack_extracted", "pack.tar.gz"), sha)
    assert file_utils.validate_file(got.replace("pack_extracted", "pack.tar.gz"), md5)
