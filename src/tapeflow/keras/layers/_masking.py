"""Keras masks: a boolean ``(batch, time)`` tensor that rides along with a layer's output.

Keras 3 stores it on the tensor (``_keras_mask``); tapeflow's tensors are immutable, so the
mask lives in a side table keyed by the tensor's id and is dropped with the tensor. A layer
whose ``call`` takes ``mask`` receives its input's mask; its ``compute_mask`` gives the
output's.
"""
import warnings
import weakref

from ..._core.tensor import _TensorLike

__all__ = ["get_mask", "set_mask", "input_mask", "propagate"]

_MASKS = {}


def get_mask(x):
    """The mask attached to tensor ``x``, or None."""
    if isinstance(x, _TensorLike):
        return _MASKS.get(x._id)
    return None


def set_mask(x, mask):
    """Attach ``mask`` to tensor ``x`` (forgotten when ``x`` is freed)."""
    if x._id not in _MASKS:
        weakref.finalize(x, _MASKS.pop, x._id, None)
    _MASKS[x._id] = mask


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
