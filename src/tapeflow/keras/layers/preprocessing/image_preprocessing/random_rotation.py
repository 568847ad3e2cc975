"""``tf.keras.layers.RandomRotation``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import affine_matrix, batch_size, draw_shape
from .augmentation_geometry import _check_fill_mode, _check_interpolation, _Resampling, resample
from .bounding_boxes import affine, clip_to_image_size, convert_format

__all__ = ["RandomRotation"]


class RandomRotation(_Resampling):
    """Rotate each image by a random angle about its centre
    (``tf.keras.layers.RandomRotation``): one angle per image drawn from the layer's
    ``keras.random.SeedGenerator``, resampled through ``keras.ops.image.affine_transform``,
    as Keras 3 does.

    Args:
        factor: a fraction of a full turn: ``f`` draws the angle from
            ``[-f * 360, f * 360]`` degrees, ``(lo, hi)`` from ``[lo * 360, hi * 360]``.
        fill_mode: how points outside the image are filled: 'reflect' (default), 'wrap',
            'constant' (``fill_value``) or 'nearest'.
        interpolation: 'bilinear' (default) or 'nearest'.
        seed: the seed of the layer's SeedGenerator (None: one from Python's ``random``).
        fill_value: the value for ``fill_mode='constant'``.
        data_format: 'channels_last' (default) or 'channels_first'.

    Inputs: images, one image, or a dict with ``images`` and optionally ``labels``
    (unchanged), ``segmentation_masks`` (rotated, nearest) and ``bounding_boxes`` (rotated
    and clipped; needs ``bounding_box_format``). The output is in the compute dtype.

    Raises:
        ValueError: for a factor outside ``[-1, 1]``.
        NotImplementedError: for an unknown fill mode or interpolation (Keras's class).

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> quarter = tf.keras.layers.RandomRotation((0.25, 0.25))  # exactly 90 degrees
    >>> [[round(v) for v in row] for row in quarter(x)[0, :, :, 0].numpy().tolist()]
    [[2, 5, 8], [1, 4, 7], [0, 3, 6]]
    """

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self._set_seed(seed)
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, \
            fill_value
        _check_fill_mode(fill_mode)
        _check_interpolation(interpolation)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        n = batch_size(images)
        h_axis, w_axis = self._hw_axes()
        h, w = images.shape[h_axis], images.shape[w_axis]
        angle = _kr.uniform(draw_shape(n), self.factor[0] * 360.0, self.factor[1] * 360.0,
                            seed=self._seed(seed))
        zeros, ones = tf.zeros_like(angle), tf.ones_like(angle)
        return {"angle": angle, "image_height": h, "image_width": w,
                "rotation_matrix": affine_matrix(0.5, 0.5, angle, zeros, zeros, ones, zeros,
                                                 zeros, h, w)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = transformation["image_height"], transformation["image_width"]
        angle = transformation["angle"]
        zeros, ones = tf.zeros_like(angle), tf.ones_like(angle)
        out = dict(bounding_boxes)   # Keras takes these boxes as xyxy
        out["boxes"] = affine(bounding_boxes["boxes"], angle, zeros, zeros, ones, zeros, zeros,
                              h, w)
        out = clip_to_image_size(out, h, w, "xyxy")
        return convert_format(out, "xyxy", self.bounding_box_format, h, w)

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        return resample(images, transformation["rotation_matrix"], interpolation,
                        self.fill_mode, self.fill_value, self.data_format)

    def get_config(self):
        return dict(super().get_config(), factor=self.factor, data_format=self.data_format,
                    fill_mode=self.fill_mode, fill_value=self.fill_value,
                    interpolation=self.interpolation, seed=self.seed)
