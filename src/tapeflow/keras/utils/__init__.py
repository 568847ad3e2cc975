"""``tf.keras.utils``: seeding, one-hot labels, the progress bar and image files."""
import random as _random

from ..._core.backend import np
from ..._core.tensor import _TensorLike
from ...ops import random_ops as _random_ops
from .file_utils import get_file
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .progbar import Progbar
from .sequence_utils import pad_sequences

__all__ = ["Progbar", "array_to_img", "get_file", "img_to_array", "load_img",
           "pad_sequences", "save_img", "set_random_seed", "to_categorical"]


def set_random_seed(seed: int):
    """Seed Python's ``random``, NumPy's global generator and tapeflow's ops at once.

    Raises:
        ValueError: if ``seed`` is not an int.
    """
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} "
                         f"(of type {type(seed)})")
    _random.seed(seed)
    np.random.seed(seed)
    _random_ops.set_seed(seed)


def to_categorical(x, num_classes=None):
    """One-hot rows for integer class ids (``keras.utils.to_categorical``).

    Args:
        x: integer class ids of any shape (a trailing axis of 1 is dropped).
        num_classes: the number of classes; default ``max(x) + 1``.

    Returns:
        A float32 NumPy array of shape ``x.shape + (num_classes,)``.
    """
    x = np.asarray(x._value if isinstance(x, _TensorLike) else x, dtype=np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x[..., 0]
    n = int(x.max()) + 1 if num_classes is None else int(num_classes)
    return np.eye(n, dtype=np.float32)[x]
