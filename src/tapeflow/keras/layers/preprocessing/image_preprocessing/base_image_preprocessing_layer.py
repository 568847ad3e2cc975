"""What the deterministic image preprocessing layers (Resizing, CenterCrop) share: a batch
or one image in either data format, computed channels-last (``_ImageLayer``)."""
from .....ops import array_ops as _a
from .... import backend as _backend
from ... import _spec
from ...layer import Layer


class _ImageLayer(Layer):
    """A layer whose ``_transform(images, training)`` takes a channels-last batch; images in
    ``data_format='channels_first'`` (or the global ``image_data_format``) are transposed
    to it and back, single images (rank 3) go through as a batch of one.

    Raises:
        ValueError: for another data format, or inputs of rank other than 3 or 4.
    """

    _cast_kinds = "fiub"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', "
                             f"'channels_last'}}. Received: data_format={data_format}")
        self.data_format = data_format or _backend.image_data_format()
        self.built = True

    def call(self, inputs, training=None):
        shape = _spec.static_shape(inputs)
        if len(shape) not in (3, 4):
            raise ValueError("Expected the input image to be rank 3 or 4. Received "
                             f"inputs.shape={shape}")
        batched = inputs if len(shape) == 4 else _a.expand_dims(inputs, 0)
        first = self.data_format == "channels_first"
        if first:
            batched = _a.transpose(batched, [0, 2, 3, 1])
        out = self._transform(batched, True if training is None else bool(training))
        if first:
            out = _a.transpose(out, [0, 3, 1, 2])
        return out if len(shape) == 4 else _a.squeeze(out, [0])

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def _sized_output_shape(self, input_shape):
        """``input_shape`` with its height and width made ``(self.height, self.width)``."""
        shape = list(input_shape)
        h_axis, w_axis = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)
