"""Fashion-MNIST (Zalando): 60,000 training and 10,000 test 28x28 grayscale clothing images
in 10 classes (``tf.keras.datasets.fashion_mnist``)."""
import gzip
import os

from ..._core.backend import np
from ..utils.file_utils import get_file
from ._files import ORIGIN_FOLDER

__all__ = ["load_data"]

FILES = ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz")


def load_data():
    """``(x_train, y_train), (x_test, y_test)``: uint8 images ``(n, 28, 28)`` and uint8 labels
    0-9, read from Keras's four gzipped IDX files in ``~/.keras/datasets/fashion-mnist/``
    (downloaded once from Keras's bucket).

    Raises:
        Exception: "URL fetch failure on <url>..." when a file is missing and offline.
    """
    folder = os.path.join("datasets", "fashion-mnist")
    paths = [get_file(name, origin=ORIGIN_FOLDER + name, cache_subdir=folder) for name in FILES]

    def read(path, offset):
        with gzip.open(path, "rb") as f:
            return np.frombuffer(f.read(), np.uint8, offset=offset)

    y_train, y_test = read(paths[0], 8), read(paths[2], 8)
    x_train = read(paths[1], 16).reshape(len(y_train), 28, 28)
    x_test = read(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
