"""CIFAR-100 (Krizhevsky 2009): 50,000 training and 10,000 test 32x32 colour images in 100
fine / 20 coarse classes (``tf.keras.datasets.cifar100``)."""
import os

from ..._core.backend import np
from .. import backend
from ..utils.file_utils import get_file
from .cifar import load_batch

__all__ = ["load_data"]


def _image_data_format():
    return getattr(backend, "image_data_format", lambda: "channels_last")()

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
SHA256 = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine"):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images ``(n, 32, 32, 3)`` and int64
    labels ``(n, 1)``.

    Args:
        label_mode: 'fine' (100 classes) or 'coarse' (20 superclasses).

    Raises:
        ValueError: for another ``label_mode``.
        Exception: "URL fetch failure on <url>..." when the archive is missing and offline.
    """
    if label_mode not in ("fine", "coarse"):
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. Received: '
                         f"label_mode={label_mode}.")
    path = get_file(fname="cifar-100-python-target", origin=ORIGIN, extract=True,
                    file_hash=SHA256)
    path = os.path.join(path, "cifar-100-python")
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=f"{label_mode}_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=f"{label_mode}_labels")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if _image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
