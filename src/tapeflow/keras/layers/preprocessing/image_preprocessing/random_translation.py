"""``tf.keras.layers.RandomTranslation``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import batch_size, draw_shape
from .augmentation_geometry import _check_fill_mode, _check_interpolation, _Resampling, resample
from .bounding_boxes import clip_to_image_size, convert_format

__all__ = ["RandomTranslation"]

_FACTOR_MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in "
                   "the range [-1.0, 1.0]. ")


def _shift_range(factor, name):
    """Keras's RandomTranslation ``_set_factor``: ``f`` gives ``(-|f|, |f|)``, a pair is
    sorted; every number within ``[-1, 1]``.

    Raises:
        ValueError: otherwise (Keras's text).
    """
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_FACTOR_MESSAGE + f"Received: {name}={factor}")
        values = factor
    elif isinstance(factor, (int, float)):
        values = (factor,)
    else:
        raise ValueError(_FACTOR_MESSAGE + f"Received: {name}={factor}")
    for v in values:
        if v > 1.0 or v < -1.0:
            raise ValueError(_FACTOR_MESSAGE + f"Received: input_number={v}")
    if isinstance(factor, (tuple, list)):
        return tuple(sorted(factor))
    return (-abs(factor), abs(factor))


class RandomTranslation(_Resampling):
    """Shift each image by a random fraction of its size
    (``tf.keras.layers.RandomTranslation``): per image a vertical then a horizontal shift
    drawn from the layer's ``keras.random.SeedGenerator``, resampled through
    ``keras.ops.image.affine_transform``, as Keras 3 does.

    Args:
        height_factor: ``f`` draws the vertical shift from ``[-f, f]`` times the height;
            ``(lo, hi)`` from ``[lo, hi]`` times the height (positive moves down).
        width_factor: the same for the horizontal shift (positive moves right).
        fill_mode, interpolation, seed, fill_value, data_format: as for
            ``RandomRotation``.

    Inputs as ``RandomRotation``'s (boxes shifted and clipped).

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.
        NotImplementedError: for an unknown fill mode or interpolation.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(1.0, 5.0), (1, 1, 4, 1))
    >>> shift = tf.keras.layers.RandomTranslation(0.0, (0.25, 0.25), fill_mode="constant")
    >>> shift(x)[0, 0, :, 0].numpy().tolist()  # one column to the right
    [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _shift_range(height_factor, "height_factor")
        self.width_lower, self.width_upper = _shift_range(width_factor, "width_factor")
        _check_fill_mode(fill_mode)
        _check_interpolation(interpolation)
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, \
            interpolation
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        h_axis, w_axis = self._hw_axes()
        h, w = images.shape[h_axis], images.shape[w_axis]
        seed = self._seed(seed)
        dy = _kr.uniform(draw_shape(n, 1), self.height_lower, self.height_upper,
                         seed=seed) * h
        dx = _kr.uniform(draw_shape(n, 1), self.width_lower, self.width_upper, seed=seed) * w
        return {"translations": tf.cast(tf.concat([dx, dy], axis=1), tf.float32),
                "input_shape": tuple(images.shape)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = self._size(transformation)
        out = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", h, w)
        t = transformation["translations"]
        dx, dy = t[:, 0:1], t[:, 1:]   # minus the matrix's offsets, -t
        boxes = out["boxes"]
        if len(boxes.shape) == 3:
            dx, dy = dx[..., None], dy[..., None]
        x1, y1, x2, y2 = tf.split(boxes, 4, axis=-1)
        out["boxes"] = tf.concat([x1 + dx, y1 + dy, x2 + dx, y2 + dy], -1)
        out = clip_to_image_size(out, h, w, "xyxy")
        return convert_format(out, "xyxy", self.bounding_box_format, h, w)

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        t = transformation["translations"]
        one, zero = tf.ones_like(t[:, :1]), tf.zeros_like(t[:, :1])
        matrix = tf.concat([one, zero, -t[:, 0:1], zero, one, -t[:, 1:], zero, zero], axis=1)
        return resample(images, matrix, interpolation, self.fill_mode, self.fill_value,
                        self.data_format)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value, data_format=self.data_format)
