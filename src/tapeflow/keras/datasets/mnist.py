"""MNIST handwritten digits (LeCun et al. 1998): 60,000 training and 10,000 test images."""
from ..._core.backend import np
from ..utils.file_utils import get_file

__all__ = ["load_data"]

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
SHA256 = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images ``(n, 28, 28)`` and uint8
    labels, from the file Keras uses (``tf.keras.datasets.mnist.load_data``).

    Args:
        path: where to cache the file, relative to ``~/.keras/datasets``.

    Raises:
        Exception: "URL fetch failure on <url>..." when the file is missing and offline.
    """
    local = get_file(fname=path, origin=ORIGIN, file_hash=SHA256)
    with np.load(local, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
