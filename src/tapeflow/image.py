"""``tf.image``: re-exports of the image ops."""
from .ops.image_ops import (
    adjust_brightness,
    adjust_contrast,
    central_crop,
    convert_image_dtype,
    extract_patches,
    flip_left_right,
    flip_up_down,
    per_image_standardization,
    random_flip_left_right,
    random_flip_up_down,
    resize,
    rot90,
    stateless_random_flip_left_right,
    stateless_random_flip_up_down,
)

__all__ = ["adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "extract_patches", "flip_left_right", "flip_up_down", "per_image_standardization",
           "random_flip_left_right", "random_flip_up_down", "resize", "rot90",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down"]
