"""``tf.keras.layers.MaxNumBoundingBoxes``."""
import tapeflow as tf

from .augmentation_base import AugmentationLayer

__all__ = ["MaxNumBoundingBoxes"]


class MaxNumBoundingBoxes(AugmentationLayer):
    """Give every image exactly ``max_number`` bounding boxes
    (``tf.keras.layers.MaxNumBoundingBoxes``): of a dict's ``bounding_boxes``, ``boxes``
    (batch, n, 4) and ``labels`` (batch, n) keep their first ``max_number`` entries and are
    padded with ``fill_value`` up to it; images, labels and masks pass unchanged.

    Args:
        max_number: the number of boxes per image.
        fill_value: the padding value (default -1).
        bounding_box_format: the boxes' format, e.g. 'xyxy' (needed to pass boxes).

    Raises:
        ValueError: boxes given without a ``bounding_box_format``.
        KeyError: from ``compute_output_shape``, for box keys other than boxes/labels.
    """

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
        n = boxes.shape[0] if boxes.shape[0] is not None else tf.shape(boxes)[0]
        count = tf.shape(boxes)[1]
        pad = tf.maximum(self.max_number - count, 0)
        boxes = tf.pad(boxes[:, :self.max_number], [[0, 0], [0, pad], [0, 0]],
                       constant_values=tf.cast(self.fill_value, boxes.dtype))
        labels = tf.pad(labels[:, :self.max_number], [[0, 0], [0, pad]],
                        constant_values=tf.cast(self.fill_value, labels.dtype))
        out = dict(bounding_boxes)
        out["boxes"] = tf.reshape(boxes, tf.stack([n, self.max_number, 4]))
        out["labels"] = tf.reshape(labels, tf.stack([n, self.max_number]))
        return out

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            boxes = input_shape["bounding_boxes"]
            extra = set(boxes) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"There are unsupported keys in `bounding_boxes`: {list(extra)}. "
                               "Only `boxes` and `labels` are supported.")
            box_shape, label_shape = list(boxes["boxes"]), list(boxes["labels"])
            box_shape[1] = label_shape[1] = self.max_number
            boxes["boxes"], boxes["labels"] = box_shape, label_shape
        return input_shape

    def get_config(self):
        return dict(super().get_config(), max_number=self.max_number)
