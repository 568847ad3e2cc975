"""``tf.keras.layers.RandomZoom``."""
import tapeflow as tf

from .... import random as _kr
from .augmentation_base import batch_size, draw_shape
from .augmentation_geometry import _check_fill_mode, _check_interpolation, _Resampling, resample
from .bounding_boxes import clip_to_image_size, convert_format

__all__ = ["RandomZoom"]

_FACTOR_MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a "
                   "list of two numbers) in the range (-1.0, 1.0]. ")


def _zoom_range(factor, name):
    """Keras's RandomZoom ``_set_factor``: numbers in ``(-1, 1]``; ``f`` gives
    ``(-|f|, |f|)``, a pair is sorted.

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
        if v > 1.0 or v <= -1.0:
            raise ValueError(_FACTOR_MESSAGE + f"Received: input_number={v}")
    if isinstance(factor, (tuple, list)):
        return tuple(sorted(factor))
    return (-abs(factor), abs(factor))


def _zoom_matrix(zooms, height, width):
    n = tf.shape(zooms)[0]
    zx, zy = zooms[:, 0:1], zooms[:, 1:]
    x_offset = (float(width) - 1.0) / 2.0 * (1.0 - zx)
    y_offset = (float(height) - 1.0) / 2.0 * (1.0 - zy)
    zero = tf.zeros(tf.stack([n, 1]), zooms.dtype)
    return tf.concat([zx, zero, x_offset, zero, zy, y_offset, zero, zero], axis=1)


class RandomZoom(_Resampling):
    """Zoom each image in or out by a random factor (``tf.keras.layers.RandomZoom``): per
    image a vertical zoom (and a horizontal one when ``width_factor`` is given) drawn from
    the layer's ``keras.random.SeedGenerator``, resampled through
    ``keras.ops.image.affine_transform``, as Keras 3 does.

    Args:
        height_factor: ``f`` draws the vertical zoom from ``[1 - f, 1 + f]``; ``(lo, hi)``
            from ``[1 + lo, 1 + hi]``. Positive values zoom out, negative values zoom in.
        width_factor: the same for the width; None (default) keeps the aspect ratio.
        fill_mode, interpolation, seed, fill_value, data_format: as for
            ``RandomRotation``.

    Inputs as ``RandomRotation``'s (boxes moved with the zoom and clipped).

    Raises:
        ValueError: for a factor outside ``(-1, 1]``.
        NotImplementedError: for an unknown fill mode or interpolation.

    >>> import tapeflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> out = tf.keras.layers.RandomZoom((-0.5, -0.5), fill_mode="constant")(x)
    >>> out[0, :, :, 0].numpy().tolist()[1]  # zoomed in 2x about the centre
    [3.5, 4.0, 4.5]
    """

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _zoom_range(height_factor, "height_factor")
        if width_factor is not None:
            self.width_lower, self.width_upper = _zoom_range(width_factor, "width_factor")
        _check_fill_mode(fill_mode)
        _check_interpolation(interpolation)
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, \
            interpolation
        self._set_seed(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = self._images(data)
        shape = (1, 1) if len(images.shape) == 3 else draw_shape(batch_size(images), 1)
        seed = self._seed(seed)
        height_zoom = _kr.uniform(shape, 1.0 + self.height_lower, 1.0 + self.height_upper,
                                  seed=seed)
        width_zoom = height_zoom
        if self.width_factor is not None:
            width_zoom = _kr.uniform(shape, 1.0 + self.width_lower, 1.0 + self.width_upper,
                                     seed=seed)
        return {"height_zoom": height_zoom, "width_zoom": width_zoom,
                "input_shape": tuple(images.shape)}

    @staticmethod
    def _zooms(transformation):
        return tf.cast(tf.concat([transformation["width_zoom"], transformation["height_zoom"]],
                                 axis=1), tf.float32)

    def _transform_images(self, images, transformation, interpolation):
        if transformation is None:
            return images
        h_axis, w_axis = self._hw_axes()
        matrix = _zoom_matrix(self._zooms(transformation), images.shape[h_axis],
                              images.shape[w_axis])
        return resample(images, matrix, interpolation, self.fill_mode, self.fill_value,
                        self.data_format)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        h, w = self._size(transformation)
        out = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", h, w)
        m = _zoom_matrix(self._zooms(transformation), h, w)
        # where the output's corners (0, 0) and (w, h) read from: the visible window
        w_start, h_start = m[:, 2:3], m[:, 5:6]
        w_end, h_end = m[:, 0:1] * float(w) + m[:, 2:3], m[:, 4:5] * float(h) + m[:, 5:6]
        boxes = out["boxes"]
        if len(boxes.shape) == 3:
            w_start, h_start, w_end, h_end = (v[..., None] for v in (w_start, h_start, w_end,
                                                                      h_end))
        x1, y1, x2, y2 = tf.split(boxes, 4, axis=-1)
        out["boxes"] = tf.concat([tf.clip_by_value(x1, w_start, w_end) - w_start,
                                  tf.clip_by_value(y1, h_start, h_end) - h_start,
                                  tf.clip_by_value(x2, w_start, w_end) - w_start,
                                  tf.clip_by_value(y2, h_start, h_end) - h_start], -1)
        height, width = (h_end - h_start)[..., None], (w_end - w_start)[..., None]
        if len(boxes.shape) == 3:
            height, width = height[..., 0], width[..., 0]
        out = convert_format(out, "xyxy", "rel_xyxy", height, width)
        out = clip_to_image_size(out, height, width, "rel_xyxy")
        return convert_format(out, "rel_xyxy", self.bounding_box_format, h, w)

    def get_config(self):
        return dict(super().get_config(), height_factor=self.height_factor,
                    width_factor=self.width_factor, fill_mode=self.fill_mode,
                    interpolation=self.interpolation, seed=self.seed,
                    fill_value=self.fill_value, data_format=self.data_format)
