"""IMDB movie-review sentiment (Maas et al. 2011): 25,000 training and 25,000 test reviews as
word-index sequences, labelled 0/1 (``tf.keras.datasets.imdb``)."""
import json

from ..._core.backend import np
from ..utils.file_utils import get_file
from ._files import ORIGIN_FOLDER, encode_sequences, load_npz, remove_long_seq, shift_words

__all__ = ["get_word_index", "load_data"]

SHA256 = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_MD5 = "bfafd718b763782e994055a2d397834f"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: object arrays of word-index lists and int64
    labels, from Keras's ``imdb.npz``.

    Each split is shuffled with ``np.random.RandomState(seed)`` (train first, then test, one
    generator); every word index gets ``index_from`` added and each review starts with
    ``start_char``; reviews of ``maxlen`` words or more are dropped; words ranked outside
    ``[skip_top, num_words)`` become ``oov_char`` (dropped when ``oov_char`` is None).

    Args:
        path: the file name under ``~/.keras/datasets``.
        num_words: keep the ``num_words`` most frequent words (default all).
        skip_top: also replace the ``skip_top`` most frequent words.
        maxlen: keep the sequences shorter than this (default all).
        seed: the shuffling seed.
        start_char, oov_char, index_from: the start marker, the out-of-vocabulary marker and
            the offset of real word indices.

    Raises:
        ValueError: when ``maxlen`` leaves no sequence.
        Exception: "URL fetch failure on <url>..." when the file is missing and offline.
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb.npz", file_hash=SHA256)
    f = load_npz(path)
    x_train, labels_train = f["x_train"], f["y_train"]
    x_test, labels_test = f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    indices = np.arange(len(x_train))
    rng.shuffle(indices)
    x_train, labels_train = x_train[indices], labels_train[indices]
    indices = np.arange(len(x_test))
    rng.shuffle(indices)
    x_test, labels_test = x_test[indices], labels_test[indices]
    x_train = shift_words(x_train, start_char, index_from)
    x_test = shift_words(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = remove_long_seq(maxlen, x_train, labels_train)
        x_test, labels_test = remove_long_seq(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, "
                             "no sequence was kept. Increase maxlen.")
    xs = encode_sequences(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    cut = len(x_train)
    return ((np.array(xs[:cut], dtype="object"), labels[:cut]),
            (np.array(xs[cut:], dtype="object"), labels[cut:]))


def get_word_index(path="imdb_word_index.json"):
    """``{word: rank}`` of the IMDB vocabulary (rank 1 is the most frequent word; add
    ``index_from`` to match ``load_data``'s sequences), from Keras's JSON file."""
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}imdb_word_index.json",
                    file_hash=WORD_INDEX_MD5)
    with open(path) as f:
        return json.load(f)
