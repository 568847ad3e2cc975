"""What the image preprocessing layers share: the channels-last batching and
``training`` switch (``_ImageLayer``), the affine layers' sampling (``_AffineLayer``), and
Keras's checks of factors, fill modes and interpolations."""
from .....ops import array_ops as _a
from ... import _spec
from ...layer import Layer
from .. import _image


class _ImageLayer(Layer):
    _cast_kinds = "fiub"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(f"tapeflow's {type(self).__name__} supports "
                             "data_format='channels_last' only")
        self.data_format = "channels_last"
        self.built = True

    def call(self, inputs, training=None):
        shape = _spec.static_shape(inputs)
        if len(shape) not in (3, 4):
            raise ValueError("Expected the input image to be rank 3 or 4. Received "
                             f"inputs.shape={shape}")
        batched = inputs if len(shape) == 4 else _a.expand_dims(inputs, 0)
        out = self._transform(batched, True if training is None else bool(training))
        return out if len(shape) == 4 else _a.squeeze(out, [0])

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)


def _check_interpolation(layer, fill_mode, interpolation):
    if fill_mode not in _image.FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                  f"{_image.FILL_MODES}.")
    if interpolation not in _image.INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                  f"{_image.INTERPOLATIONS}.")


def _factor_range(factor, bounds, name="factor"):
    """Keras's ``_set_factor``: a number ``f`` gives ``(-|f|, |f|)`` clipped to ``bounds``,
    a pair is sorted."""
    message = (f"The `{name}` argument should be a number (or a list of two numbers) in the "
               f"range [{bounds[0]}, {bounds[1]}]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(message)
        return (max(-abs(factor), bounds[0]), abs(factor))
    raise ValueError(message)


_ZOOM_MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a "
                 "list of two numbers) in the range (-1.0, 1.0]. ")
_SHIFT_MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in the "
                  "range [-1.0, 1.0]. ")


def _zoom_range(factor, name, message=_ZOOM_MESSAGE):
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message + f"Received: {name}={factor}")
        values = checked = factor
    elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
        values, checked = (-abs(factor), abs(factor)), (factor,)
    else:
        raise ValueError(message + f"Received: {name}={factor}")
    for v in checked:  # zoom factors must stay above -1; shifts may reach it
        if v > 1.0 or v < -1.0 or (v == -1.0 and message is _ZOOM_MESSAGE):
            raise ValueError(message + f"Received: input_number={v}")
    return tuple(sorted(values))


def _batch(images):
    """The batch size of ``images`` as a tensor: ``None`` in a relaxed trace (a compiled
    ``fit`` step, a ``Dataset.map``), where ``images.shape[0]`` has no value."""
    return _a.shape(images)[0]


class _AffineLayer(_ImageLayer):
    def __init__(self, fill_mode, interpolation, seed, fill_value, data_format, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        _check_interpolation(self, fill_mode, interpolation)
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.seed, self.fill_value = seed, fill_value

    def _transform(self, images, training):
        if not training:
            return images
        matrix = self._matrix(_batch(images), images.shape[1], images.shape[2])
        return _image.affine_transform(images, matrix, self.interpolation, self.fill_mode,
                                       self.fill_value)
