"""Keras 3's ImageNet models (``tf.keras.applications``): each module builds its
architecture with Keras's layer names, and offers ``preprocess_input`` and
``decode_predictions``; ``weights="imagenet"`` loads Keras's published weight files."""
from . import imagenet_utils, mobilenet
from .mobilenet import MobileNet

__all__ = ["imagenet_utils", "mobilenet", "MobileNet"]
