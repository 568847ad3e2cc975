"""``tf.image``: re-exports of the image ops."""
from .ops.image_ops import extract_patches

__all__ = ["extract_patches"]
