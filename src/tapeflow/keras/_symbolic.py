"""Symbolic tensors for the functional API: ``Input`` makes one, calling a layer on one
records a node, and ``Model(inputs, outputs)`` replays the recorded nodes on real tensors."""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike
from . import _naming

__all__ = ["KerasTensor", "Node", "is_symbolic", "symbolic_call", "flatten", "map_structure"]


class KerasTensor:
    """A symbolic tensor: a shape (``None`` for the batch axis) and a dtype, and the node
    (layer call) that makes it, as ``keras.KerasTensor``."""

    def __init__(self, shape, dtype="float32", name=None, node=None, index=None):
        self.shape = tuple(shape)
        self.dtype = _dt.as_dtype(dtype).name
        self.name = name or _naming.uniquify("keras_tensor")
        self._node = node
        self._index = index
        self._input_layer = None
        self._mask_shape = None   # the build call's mask shape when the output has a mask

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")


class Node:
    """One recorded layer call: the layer and its (symbolic) arguments."""

    __slots__ = ("layer", "args", "kwargs", "outputs")

    def __init__(self, layer, args, kwargs):
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.outputs = []   # the KerasTensors the call made, flat

    @property
    def inputs(self) -> list:
        """The KerasTensors among the call's arguments, flat."""
        return [t for t in flatten(self.args) if type(t) is KerasTensor]


def flatten(x) -> list:
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in flatten(item)]
    if isinstance(x, dict):
        return [leaf for item in x.values() for leaf in flatten(item)]
    return [x]


def map_structure(fn, x):
    if isinstance(x, list):
        return [map_structure(fn, item) for item in x]
    if isinstance(x, tuple):
        return tuple(map_structure(fn, item) for item in x)
    if isinstance(x, dict):
        return {k: map_structure(fn, v) for k, v in x.items()}
    return fn(x)


def is_symbolic(inputs) -> bool:
    if type(inputs) is KerasTensor:
        return True
    if isinstance(inputs, (list, tuple, dict)):
        return any(type(leaf) is KerasTensor for leaf in flatten(inputs))
    return False


def _zeros(kt):
    """Zeros standing for ``kt`` in a build call; a KerasTensor that carries a Keras mask
    (an ``Embedding(mask_zero=True)`` output) hands it on as an all-True mask, so that a
    layer whose ``call`` needs its mask gets one while the graph is built, as in Keras."""
    shape = tuple(1 if d is None else d for d in kt.shape)
    out = Tensor(np.zeros(shape, _dt.as_dtype(kt.dtype)._np))
    if kt._mask_shape is not None:
        from .layers import _masking
        _masking.set_mask(out, Tensor(np.ones(kt._mask_shape, bool)))
    return out


def unknown_batch_shape(shape):
    """``shape`` (or each shape of a list) with ``None`` for the batch dimension."""
    if not shape:
        return shape
    if isinstance(shape[0], (list, tuple)):
        return [unknown_batch_shape(s) for s in shape]
    return (None,) + tuple(shape[1:])


def symbolic_call(layer, inputs, kwargs):
    """Record ``layer(inputs)`` and return KerasTensors shaped like its outputs.

    The layer is built, and the output shapes found, by calling it once on zeros (``None``
    dimensions taken as 1) with ``training=False``.
    """
    kwargs = {k: v for k, v in kwargs.items() if k != "training"}
    from .layers import layer as _layer
    concrete = map_structure(lambda v: _zeros(v) if type(v) is KerasTensor else v, inputs)
    unknown_batch = any(type(v) is KerasTensor and v.shape[:1] == (None,)
                        for v in flatten(inputs))
    if unknown_batch:
        _layer.unknown_batch.append(True)
    try:
        out = layer(concrete, training=False, **kwargs)
    finally:
        if unknown_batch:
            _layer.unknown_batch.pop()
    layer._clear_losses()
    node = Node(layer, inputs, kwargs)
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)

    from .layers import _masking

    def symbolic(t, index):
        shape = tuple(t.shape)
        if unknown_batch and shape:
            shape = (None,) + shape[1:]
        kt = KerasTensor(shape, t.dtype.name, node=node, index=index)
        mask = _masking.get_mask(t)
        if mask is not None:
            kt._mask_shape = tuple(mask.shape)
        return kt

    if isinstance(out, _TensorLike):
        result = symbolic(out, None)
        layer._output_shape = result.shape
        node.outputs = [result]
        return result
    results = [symbolic(t, i) for i, t in enumerate(out)]
    node.outputs = list(results)
    layer._output_shape = results[0].shape
    layer._output_shapes = [r.shape for r in results]
    return results
