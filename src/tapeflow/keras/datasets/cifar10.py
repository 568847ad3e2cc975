"""CIFAR-10 (Krizhevsky 2009): 50,000 training and 10,000 test 32x32 colour images in 10
classes (``tf.keras.datasets.cifar10``)."""
import os

from ..._core.backend import np
from .. import backend
from ..utils.file_utils import get_file
from .cifar import load_batch

__all__ = ["load_data"]


def _image_data_format():
    return getattr(backend, "image_data_format", lambda: "channels_last")()

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
SHA256 = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"


def load_data():
    """``(x_train, y_train), (x_test, y_test)``: uint8 images ``(n, 32, 32, 3)``
    (``(n, 3, 32, 32)`` under 'channels_first') and uint8 labels ``(n, 1)``.

    The archive is Keras's ``~/.keras/datasets/cifar-10-batches-py-target_archive``, unpacked
    into ``cifar-10-batches-py-target/cifar-10-batches-py/`` (five ``data_batch_i`` files and
    ``test_batch``).

    Raises:
        Exception: "URL fetch failure on <url>..." when the archive is missing and offline.
    """
    path = get_file(fname="cifar-10-batches-py-target", origin=ORIGIN, extract=True,
                    file_hash=SHA256)
    path = os.path.join(path, "cifar-10-batches-py")
    parts = [load_batch(os.path.join(path, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([p[0] for p in parts]).astype("uint8")
    y_train = np.concatenate([np.asarray(p[1]) for p in parts]).astype("uint8")
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train = y_train.reshape(len(y_train), 1)
    y_test = np.reshape(y_test, (len(y_test), 1)).astype(y_train.dtype)
    if _image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test)
