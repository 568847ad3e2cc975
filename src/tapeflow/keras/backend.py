"""``tf.keras.backend``: the few global settings programs touch."""
from . import _naming

__all__ = ["clear_session", "epsilon", "floatx", "image_data_format"]


def clear_session(free_memory=True):
    """Restart automatic naming (``dense``, ``dense_1``, ... start again from ``dense``)."""
    _naming._uids.clear()


def epsilon() -> float:
    """The fuzz factor the losses clip probabilities with (1e-7)."""
    return 1e-7


def floatx() -> str:
    """The default float type of weights: ``'float32'``."""
    return "float32"


def image_data_format() -> str:
    """The default layout of image tensors (``tf.keras.backend.image_data_format``):
    ``'channels_last'``, the one tapeflow's image layers default to."""
    return "channels_last"
