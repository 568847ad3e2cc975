"""Symbolic tensors for the functional API: ``Input`` makes one, calling a layer on one
records a node, and ``Model(inputs, outputs)`` replays the recorded nodes on real tensors."""
from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike
from . import _naming

__all__ = ["KerasTensor", "Node", "flatten", "is_symbolic", "map_structure", "operation_order",
           "symbolic_call"]


# ``layers._operation.apply``: the Operation node (a Layer, floors above this module) that
# arithmetic on KerasTensors records; layers._operation registers it on import.
_apply_operation = [None]


def register_operation(apply):
    """Name ``apply(fn, name, x, other, reflected, unary)``, which records an op on
    KerasTensors as a graph node (``layers._operation`` does this on import)."""
    _apply_operation[0] = apply


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

    @property
    def _keras_mask(self):
        """The symbolic boolean mask of a masked output (``Embedding(mask_zero=True)``, a
        ``Masking`` layer, layers that pass a mask on), as Keras's KerasTensors carry it.

        Raises:
            AttributeError: for a tensor without a mask, as in Keras.
        """
        if self._mask_shape is None:
            raise AttributeError("'KerasTensor' object has no attribute '_keras_mask'")
        mask = self.__dict__.get("_mask_tensor")
        if mask is None or mask.shape != self._mask_shape:
            mask = self.__dict__["_mask_tensor"] = KerasTensor(self._mask_shape, "bool")
        return mask

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")

    # Arithmetic records an operation node, as Keras 3's symbolic ``keras.ops`` calls do:
    # the model runs it, ``model.layers`` does not list it.
    def _op(self, fn_name, other=None, reflected=False, unary=False):
        from ..ops import math_ops
        return _apply_operation[0](getattr(math_ops, fn_name), _naming.uniquify(fn_name), self,
                                   other, reflected, unary)

    def __add__(self, other):
        return self._op("add", other)

    def __radd__(self, other):
        return self._op("add", other, reflected=True)

    def __sub__(self, other):
        return self._op("subtract", other)

    def __rsub__(self, other):
        return self._op("subtract", other, reflected=True)

    def __mul__(self, other):
        return self._op("multiply", other)

    def __rmul__(self, other):
        return self._op("multiply", other, reflected=True)

    def __truediv__(self, other):
        return self._op("divide", other)

    def __rtruediv__(self, other):
        return self._op("divide", other, reflected=True)

    def __neg__(self):
        return self._op("negative", unary=True)


class Node:
    """One recorded layer call: the layer, its positional arguments (a tuple: the inputs
    first, then any further positional arguments, ``Endpoint()(targets, logits)``) and its
    keyword arguments, symbolic tensors among them."""

    __slots__ = ("layer", "args", "kwargs", "outputs")

    def __init__(self, layer, args, kwargs):
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.outputs = []   # the KerasTensors the call made, flat

    @property
    def inputs(self) -> list:
        """The KerasTensors among the call's arguments, keyword arguments included (an RNN's
        ``initial_state``), flat."""
        return [t for t in flatten(self.args) + flatten(list(self.kwargs.values()))
                if type(t) is KerasTensor]


def flatten(x) -> list:
    """The leaves of ``x``: lists and tuples in order, dicts by sorted key (as Keras's
    ``tree.flatten``)."""
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in flatten(item)]
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in flatten(x[k])]
    return [x]


def map_structure(fn, x):
    if isinstance(x, list):
        return [map_structure(fn, item) for item in x]
    if isinstance(x, tuple):
        return tuple(map_structure(fn, item) for item in x)
    if isinstance(x, dict):
        return {k: map_structure(fn, v) for k, v in x.items()}
    return fn(x)


def operation_order(outputs, inputs=()):
    """``(layers, node_ids)``: the layers that compute ``outputs`` in Keras 3's operation
    order (``map_graph``), and the ids of the nodes (layer calls) inside that graph.

    A layer's depth is its longest path to an output; layers come deepest first, ties in
    the order a depth-first walk from the outputs first reaches them, so that the two
    branches of a two-input model list both embeddings before both LSTMs, as Keras does.
    Input layers of ``inputs`` no output depends on come last (depth 0).
    """
    first_seen, post_order, finished = {}, [], set()

    def source(kt):   # (node key, layer, parent tensors)
        if kt._node is None:
            return ("input", id(kt._input_layer)), kt._input_layer, []
        return id(kt._node), kt._node.layer, kt._node.inputs

    def visit(kt):
        key, layer, parents = source(kt)
        if key in finished or layer is None:
            return
        first_seen.setdefault(id(layer), (len(first_seen), layer))
        for parent in parents:
            visit(parent)
        finished.add(key)
        post_order.append((key, layer, parents))

    for kt in flatten(outputs):
        visit(kt)
    node_depth, layer_depth = {}, {}
    for key, layer, parents in reversed(post_order):
        depth = max(node_depth.setdefault(key, 0), layer_depth.get(id(layer), 0))
        layer_depth[id(layer)] = node_depth[key] = depth
        for parent in parents:
            parent_key = source(parent)[0]
            node_depth[parent_key] = max(depth + 1, node_depth.get(parent_key, 0))
    for kt in flatten(inputs):
        layer = getattr(kt, "_input_layer", None)
        if layer is not None and id(layer) not in first_seen:
            first_seen[id(layer)] = (len(first_seen), layer)
            layer_depth[id(layer)] = 0
    ranked = sorted(first_seen.items(), key=lambda kv: (-layer_depth[kv[0]], kv[1][0]))
    return [layer for _, (_, layer) in ranked], {k for k in finished if type(k) is int}


def is_symbolic(inputs) -> bool:
    if type(inputs) is KerasTensor:
        return True
    if isinstance(inputs, (list, tuple, dict)):
        return any(type(leaf) is KerasTensor for leaf in flatten(inputs))
    return False


# Stand-in lengths of a build call's unknown non-batch dimensions (a sequence of unknown
# length): long enough for convolutions and pooling over time, and two of them, so that
# output dimensions that follow the input's show None (strided layers included).
INNER_FILLS = (16, 32)


def _stand_in_shape(shape, fill):
    return tuple((1 if i == 0 else fill) if d is None else d for i, d in enumerate(shape))


def _zeros(kt, fill=INNER_FILLS[0]):
    """Zeros standing for ``kt`` in a build call (a ``None`` batch is 1, other ``None``
    dimensions ``fill`` long); a KerasTensor that carries a Keras mask (an
    ``Embedding(mask_zero=True)`` output) hands it on as an all-True mask, so that a layer
    whose ``call`` needs its mask gets one while the graph is built, as in Keras."""
    out = Tensor(np.zeros(_stand_in_shape(kt.shape, fill), _dt.as_dtype(kt.dtype)._np))
    if kt._mask_shape is not None:
        from .layers import _masking
        mask = np.ones(_stand_in_shape(kt._mask_shape, fill), bool)
        _masking.set_mask(out, Tensor(mask))
    return out


def unknown_batch_shape(shape):
    """``shape`` (or each shape of a list) with ``None`` for the batch dimension."""
    if not shape:
        return shape
    if isinstance(shape[0], (list, tuple)):
        return [unknown_batch_shape(s) for s in shape]
    return (None,) + tuple(shape[1:])


# Non-empty while layers are built from a symbolic input (unknown batch size): the build
# shape they record for ``get_build_config`` then has ``None`` for the batch.
unknown_batch = []

# The layers being called on stand-in zeros by ``symbolic_call`` (innermost last): a lookup
# layer whose vocabulary is not loaded yet (a model rebuilt from its config, before the
# ``.keras`` file's assets) answers from an empty table there, as Keras's graph does.
building = []


def symbolic_call(layer, inputs, kwargs, args=()):
    """Record ``layer(inputs, *args, **kwargs)`` and return KerasTensors shaped like its
    outputs.

    The layer is built, and the output shapes found, by calling it on zeros with
    ``training=False``: a ``None`` batch taken as 1, other ``None`` dimensions (a sequence
    of unknown length) as 16, and then once more as 32, so that the output dimensions that
    follow them show ``None`` too, as Keras's shape inference gives.
    KerasTensors among ``kwargs`` (an RNN's ``initial_state``) are graph inputs as well.
    """
    kwargs = {k: v for k, v in kwargs.items() if k != "training"}
    from .layers import _masking
    leaves = [v for v in flatten(inputs) + flatten(list(args)) + flatten(list(kwargs.values()))
              if type(v) is KerasTensor]
    none_batch = any(v.shape[:1] == (None,) for v in leaves)
    unknown_inner = any(d is None for v in leaves for d in v.shape[1:])

    def call(fill):
        def stand_in(v):
            return _zeros(v, fill) if type(v) is KerasTensor else v
        concrete = map_structure(stand_in, inputs)
        concrete_args = map_structure(stand_in, tuple(args))
        concrete_kwargs = {k: map_structure(stand_in, v) for k, v in kwargs.items()}
        if none_batch:
            unknown_batch.append(True)
        building.append(layer)
        try:
            out = layer(concrete, *concrete_args, training=False, **concrete_kwargs)
        finally:
            building.pop()
            if none_batch:
                unknown_batch.pop()
        layer._clear_losses()
        flat = [out] if isinstance(out, _TensorLike) else list(out)
        return out, [(tuple(t.shape), _masking.get_mask(t)) for t in flat]

    out, first = call(INNER_FILLS[0])
    second = call(INNER_FILLS[1])[1] if unknown_inner else first
    node = Node(layer, (inputs,) + tuple(args), kwargs)
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)

    def merged(a, b):
        return tuple(None if x != y else x for x, y in zip(a, b))

    def symbolic(t, index):
        (shape, mask), (shape2, mask2) = first[index or 0], second[index or 0]
        shape = merged(shape, shape2)
        if none_batch and shape:
            shape = (None,) + shape[1:]
        # A layer whose Keras output spec differs from its eager dtype says so (Keras's
        # lookup layers declare float32 outputs but return int64 counts on TensorFlow).
        spec_dtype = getattr(layer, "_spec_dtype", None)
        dtype = (spec_dtype() if spec_dtype is not None else None) or t.dtype.name
        kt = KerasTensor(shape, dtype, node=node, index=index)
        if mask is not None:
            kt._mask_shape = merged(tuple(mask.shape), tuple(
                (mask2 if mask2 is not None else mask).shape))
            if none_batch and kt._mask_shape:
                kt._mask_shape = (None,) + kt._mask_shape[1:]
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
