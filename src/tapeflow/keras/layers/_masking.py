"""Keras masks: a boolean ``(batch, time)`` tensor that rides along with a layer's output.

Keras 3 stores it on the tensor (``_keras_mask``); tapeflow's tensors are immutable, so the
mask lives in a side table of the engine's (keyed by the tensor's id, dropped with the
tensor), which this module makes and shows as every tensor's ``_keras_mask``. A layer whose
``call`` takes ``mask`` receives its input's mask; its ``compute_mask`` gives the output's.
"""
import warnings

from ..._core.side_table import SideTable, add_attribute
from ..._core.tensor import _TensorLike

__all__ = ["get_mask", "set_mask", "input_mask", "propagate"]

_MASKS = SideTable()
add_attribute("_keras_mask", _MASKS, doc=(
    "The Keras mask riding along with this tensor (Keras 3 sets ``_keras_mask`` on the "
    "outputs of a masking layer); ``AttributeError`` when there is none, as for a "
    "TensorFlow tensor never given one."))
get_mask = _MASKS.get
set_mask = _MASKS.set


def input_mask(inputs):
    """The masks of ``inputs`` (a tensor or a list of them), None when there are none."""
    if not _MASKS:
        return None
    if isinstance(inputs, (list, tuple)):
        masks = [get_mask(x) for x in inputs]
        return masks if any(m is not None for m in masks) else None
    return get_mask(inputs)


def propagate(layer, inputs, outputs, previous_mask):
    """Attach ``layer.compute_mask(inputs, previous_mask)`` to ``outputs``, as Keras does
    after each call (a layer that does not support masking drops the mask, with Keras's
    warning)."""
    flat = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    if not layer.supports_masking:
        if previous_mask is not None:
            warnings.warn(f"Layer '{layer.name}' (of type {type(layer).__name__}) was passed "
                          "an input with a mask attached to it. However, this layer does not "
                          "support masking and will therefore destroy the mask information. "
                          "Downstream layers will not see the mask.", stacklevel=3)
        return
    if all(get_mask(t) is not None for t in flat):
        return
    masks = layer.compute_mask(inputs, previous_mask)
    if masks is None:
        return
    masks = list(masks) if isinstance(masks, (list, tuple)) else [masks]
    for t, m in zip(flat, masks, strict=False):
        if m is not None and isinstance(t, _TensorLike):
            set_mask(t, m)
