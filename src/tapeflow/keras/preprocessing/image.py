"""``tf.keras.preprocessing.image``: image files and arrays, ``smart_resize``."""
from ..utils.image_dataset_utils import smart_resize
from ..utils.image_utils import array_to_img, img_to_array, load_img, save_img

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
