"""How ``tf.reduce_*``, ``tf.concat`` and ``tf.cast`` accept RaggedTensors and SparseTensors
without importing them: the ragged and sparse packages load on first use (``tf.ragged``,
``tf.RaggedTensor`` ...) and register their classes here; until then no argument can be one.
"""
import functools

__all__ = ["dispatch_reduce", "dispatch_concat", "dispatch_cast", "register"]


class _NotLoaded:
    """Stands for a composite class whose package is not imported yet."""


# [RaggedTensor, SparseTensor] once their packages are imported.
_CLASSES = [_NotLoaded, _NotLoaded]


def register(ragged=None, sparse=None):
    if ragged is not None:
        _CLASSES[0] = ragged
    if sparse is not None:
        _CLASSES[1] = sparse


def dispatch_reduce(dense_fn, name):
    """``dense_fn`` (a ``reduce_*``, with its own signature) handing a RaggedTensor to
    ``ragged_math_ops.<name>``: one call more than the dense op, no argument packing."""
    classes = _CLASSES

    def fn(input_tensor, axis=None, keepdims=False, name=None):
        if type(input_tensor) is classes[0]:
            from .ragged import ragged_math_ops
            return getattr(ragged_math_ops, fn.__name__)(input_tensor, axis, keepdims)
        return dense_fn(input_tensor, axis, keepdims)
    functools.wraps(dense_fn)(fn)
    fn.__name__ = name
    return fn


def dispatch_concat(dense_fn):
    """``tf.concat`` that joins RaggedTensors (any in ``values``) as ragged."""
    classes = _CLASSES

    def concat(values, axis, name="concat"):
        ragged = classes[0]
        if type(values) is list and any(type(v) is ragged for v in values):
            from .ragged import ragged_math_ops
            return ragged_math_ops.concat(values, axis)
        return dense_fn(values, axis)
    return functools.wraps(dense_fn)(concat)


def dispatch_cast(dense_fn):
    """``tf.cast`` that also maps over the values of a RaggedTensor or SparseTensor."""
    classes = _CLASSES

    def cast(x, dtype, name=None):
        t = type(x)
        if t is classes[0]:
            return x.with_flat_values(dense_fn(x.flat_values, dtype))
        if t is classes[1]:
            return x.with_values(dense_fn(x.values, dtype))
        return dense_fn(x, dtype)
    return functools.wraps(dense_fn)(cast)
