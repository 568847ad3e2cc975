"""``tf.keras.preprocessing``: what TF 2.21 exposes there with Keras 3 (the dataset utilities
and the legacy ``image``, ``sequence`` and ``text`` modules)."""
from ..utils.image_dataset_utils import image_dataset_from_directory
from ..utils.text_dataset_utils import text_dataset_from_directory
from ..utils.timeseries_dataset_utils import timeseries_dataset_from_array
from . import image, sequence, text

__all__ = ["image", "image_dataset_from_directory", "sequence", "text",
           "text_dataset_from_directory", "timeseries_dataset_from_array"]
