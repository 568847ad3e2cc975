"""Top-level names that compose the layers below: ``tf.group``, ``tf.type_spec_from_value``,
``tf.vectorized_map`` (bound lazily by ``tapeflow/__init__.py``)."""
from ._core import nest
from ._core.backend import np
from ._core.tensor import _TensorLike, convert_to_tensor
from ._core.tensor_spec import TensorSpec
from .data import composite as _composite
from .ops.array_ops import stack, unstack

__all__ = ["group", "type_spec_from_value", "vectorized_map"]


def group(*inputs, **kwargs):
    """Group ops so they run together (``tf.group``).

    Eagerly every op has already run when its result exists, so the group is ``None``, as
    TF 2.21 returns eagerly. Inside a ``tf.function`` ops run in program order, so ``None``
    too (TF returns a graph ``Operation`` there, whose only use is as a control input).

    Args:
        *inputs: tensors, ops or None.
        name: optional, unused.

    Raises:
        TypeError: a keyword other than ``name``.
    """
    extra = set(kwargs) - {"name"}
    if extra:
        raise TypeError(f"Unknown keyword arguments: {sorted(extra)}")
    return None


def type_spec_from_value(value):
    """The ``TypeSpec`` describing ``value`` (``tf.type_spec_from_value``).

    Args:
        value: a Tensor, Variable, RaggedTensor, SparseTensor, NumPy array or Python value
            convertible to a tensor.

    Returns:
        A ``TensorSpec(shape, dtype)``, ``RaggedTensorSpec`` (ragged dimensions ``None``) or
        ``SparseTensorSpec``.

    Raises:
        TypeError: a value that no TypeSpec describes (TF's message).
    """
    if _composite.is_composite(value):
        return _composite.spec_of_composite(value)
    if hasattr(value, "_type_spec"):
        return value._type_spec
    try:
        t = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
    return TensorSpec(t.shape, t.dtype)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` applied to each slice of ``elems`` along axis 0, stacked (``tf.vectorized_map``).

    Runs ``fn`` once per row (TF vectorizes with pfor; the values are the same) and stacks
    the results, so it is differentiable wherever ``fn`` is.

    Args:
        fn: a function of one element structured as ``elems``; returns a nest of tensors.
        elems: a tensor or nest of tensors, all with the same size of axis 0.
        fallback_to_while_loop, warn: accepted as TF's; unused.

    Returns:
        The outputs of ``fn`` stacked along a new axis 0, structured as ``fn``'s output.

    Raises:
        ValueError: elements whose first dimensions differ.
    """
    flat = [convert_to_tensor(e) if not isinstance(e, _TensorLike) else e
            for e in nest.flatten(elems)]
    sizes = {int(np.shape(e._value)[0]) if e._value.ndim else None for e in flat}
    if len(sizes) != 1 or None in sizes:
        raise ValueError("Expected all inputs to have the same, non-scalar, first dimension: "
                         f"got {sorted(str(s) for s in sizes)}")
    n = sizes.pop()
    rows = [unstack(e, num=n, axis=0) for e in flat]
    outs = [fn(nest.pack_sequence_as(elems, [r[i] for r in rows])) for i in range(n)]
    if n == 0:
        raise ValueError("vectorized_map needs at least one element in tapeflow")
    flat_out = [nest.flatten(o) for o in outs]
    stacked = [stack([convert_to_tensor(f[k]) for f in flat_out], axis=0)
               for k in range(len(flat_out[0]))]
    return nest.pack_sequence_as(outs[0], stacked)
