"""Reuters newswire topics: 11,228 newswires as word-index sequences labelled with 46 topics
(``tf.keras.datasets.reuters``)."""
import json

from ..._core.backend import np
from ..utils.file_utils import get_file
from ._files import ORIGIN_FOLDER, encode_sequences, load_npz, remove_long_seq, shift_words

__all__ = ["get_label_names", "get_word_index", "load_data"]

SHA256 = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_MD5 = "4d44cc38712099c9e383dc6e5f11a921"

_LABELS = ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
           "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass",
           "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum",
           "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
           "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
           "dlr", "gas", "silver", "wpi", "hog", "lead")


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3):
    """``(x_train, y_train), (x_test, y_test)``: object arrays of word-index lists and int64
    topic labels 0-45, from Keras's ``reuters.npz``.

    All newswires are shuffled with ``np.random.RandomState(seed)``, shifted and filtered as
    in ``imdb.load_data``, then the first ``int(n * (1 - test_split))`` are the training set.

    Raises:
        Exception: "URL fetch failure on <url>..." when the file is missing and offline.
    """
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}reuters.npz", file_hash=SHA256)
    f = load_npz(path)
    xs, labels = f["x"], f["y"]
    indices = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(indices)
    xs, labels = xs[indices], labels[indices]
    xs = shift_words(xs, start_char, index_from)
    if maxlen:
        xs, labels = remove_long_seq(maxlen, xs, labels)
    xs = encode_sequences(xs, num_words, skip_top, oov_char)
    cut = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:cut], dtype="object"), np.array(labels[:cut])),
            (np.array(xs[cut:], dtype="object"), np.array(labels[cut:])))


def get_word_index(path="reuters_word_index.json"):
    """``{word: rank}`` of the Reuters vocabulary, from Keras's JSON file."""
    path = get_file(path, origin=f"{ORIGIN_FOLDER}reuters_word_index.json",
                    file_hash=WORD_INDEX_MD5)
    with open(path) as f:
        return json.load(f)


def get_label_names():
    """The 46 topic names, indexed by label (a tuple of str)."""
    return _LABELS
