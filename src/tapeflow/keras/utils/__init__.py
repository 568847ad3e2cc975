"""``tf.keras.utils``: seeding, one-hot labels, the progress bar and image files."""
import random as _random

from ..._core.backend import np
from ...ops import random_ops as _random_ops
from ..config import (
    disable_interactive_logging,
    enable_interactive_logging,
    is_interactive_logging_enabled,
)
from ..saving import (  # Keras 3 also exports its serialization registry here
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)
from .audio_dataset_utils import audio_dataset_from_directory
from .dataset_utils import split_dataset
from .feature_space import FeatureSpace
from .file_utils import get_file
from .image_dataset_utils import image_dataset_from_directory
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .model_visualization import model_to_dot, plot_model
from .numerical_utils import normalize
from .progbar import Progbar
from .py_dataset import PyDataset, Sequence
from .sequence_utils import pad_sequences
from .text_dataset_utils import text_dataset_from_directory
from .timeseries_dataset_utils import timeseries_dataset_from_array

__all__ = ["CustomObjectScope", "FeatureSpace", "Progbar", "PyDataset", "Sequence", "array_to_img",
           "audio_dataset_from_directory", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_file", "get_registered_name", "get_registered_object",
           "disable_interactive_logging", "enable_interactive_logging",
           "is_interactive_logging_enabled", "image_dataset_from_directory", "img_to_array",
           "load_img", "model_to_dot", "normalize",
           "pad_sequences", "plot_model", "register_keras_serializable", "save_img",
           "serialize_keras_object", "set_random_seed", "split_dataset",
           "text_dataset_from_directory", "timeseries_dataset_from_array", "to_categorical"]


def set_random_seed(seed: int):
    """Seed Python's ``random``, NumPy's global generator and tapeflow's ops at once.

    Raises:
        ValueError: if ``seed`` is not an int.
    """
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} "
                         f"(of type {type(seed)})")
    from .. import random as _keras_random
    _keras_random.reset_global_seed_generator()   # re-made from the reseeded `random`
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
    x = np.asarray(x, dtype=np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x[..., 0]
    n = int(x.max()) + 1 if num_classes is None else int(num_classes)
    return np.eye(n, dtype=np.float32)[x]
