"""What the dataset loaders share: the download folder and a pickle-safe ``.npz`` reader."""
import io
import pickle
import zipfile

from ..._core.backend import np

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"

# Ragged sequences (imdb, reuters) are stored as object arrays, i.e. pickles; only the three
# globals NumPy needs to rebuild an array are let through.
_ALLOWED = frozenset({("numpy", "ndarray"), ("numpy", "dtype"),
                      ("numpy.core.multiarray", "_reconstruct"),
                      ("numpy._core.multiarray", "_reconstruct")})


class RestrictedUnpickler(pickle.Unpickler):
    """A pickle reader that builds NumPy arrays and nothing else."""

    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"Refusing to deserialize `{module}.{name}` while loading "
                                     "a Keras dataset. The file may be corrupted or malicious.")


def _read_member(stream):
    try:
        return np.lib.format.read_array(stream, allow_pickle=False)
    except ValueError:
        stream.seek(0)
        major, _ = np.lib.format.read_magic(stream)
        if major == 1:
            np.lib.format.read_array_header_1_0(stream)
        elif major in (2, 3):
            np.lib.format.read_array_header_2_0(stream)
        else:
            raise ValueError(f"Unsupported `.npy` file version: {(major, _)}.") from None
        return RestrictedUnpickler(stream).load()


def load_npz(path):
    """``{name: array}`` of an ``.npz`` file whose object arrays hold only NumPy arrays."""
    out = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if member.endswith(".npy"):
                with archive.open(member) as raw:
                    out[member[:-4]] = _read_member(io.BytesIO(raw.read()))
    return out


def remove_long_seq(maxlen, seq, label):
    """The sequences shorter than ``maxlen`` (strictly) with their labels."""
    kept = [(x, y) for x, y in zip(seq, label) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def split_shuffled(x, y, test_split, seed):
    """Shuffle with ``RandomState(seed)`` then cut at ``int(n * (1 - test_split))``."""
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))


def encode_sequences(xs, num_words, skip_top, oov_char):
    """Words outside ``[skip_top, num_words)`` become ``oov_char`` (or are dropped)."""
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def shift_words(xs, start_char, index_from):
    """Prefix ``start_char`` and add ``index_from`` to every word index (lists of ints)."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    if index_from:
        return [[w + index_from for w in x] for x in xs]
    return [list(x) for x in xs]
