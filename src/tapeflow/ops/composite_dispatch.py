"""How the ops accept RaggedTensors and SparseTensors without importing them (TensorFlow's
``dispatch.add_dispatch_support``, reduced to a table).

The ragged and sparse packages load on first use (``tf.ragged``, ``tf.RaggedTensor`` ...)
and register here their classes, the ragged versions of the ops and the element-wise
handlers; until then no argument can be one. An op looks at this table only on its slow
path (an argument that is not a tensor and does not convert), so a tensor pays nothing:

- element-wise ops made by the ``math_ops`` factories call :func:`unary`/:func:`binary`
  from the ``except`` of their conversion;
- the other ops TensorFlow dispatches call :func:`call` with their public name when their
  first argument is not a tensor.
"""

__all__ = ["CLASSES", "RAGGED_OPS", "SPARSE_OPS", "TYPES", "register", "unary", "binary",
           "call", "has_composite"]


class _NotLoaded:
    """Stands for a composite class whose package is not imported yet."""


# [RaggedTensor, SparseTensor] once their packages are imported.
CLASSES = [_NotLoaded, _NotLoaded]
# The same, as a set for one membership test.
TYPES = set()
# The op name -> its RaggedTensor version, filled by ``ragged`` on import.
RAGGED_OPS = {}
# The op name -> its SparseTensor version, filled by ``sparse`` on import.
SPARSE_OPS = {}
# The element-wise handlers: ``"unary"``/``"binary"`` -> ``fn(op, ...)`` per class.
_ELEMENTWISE = {}


def register(ragged=None, sparse=None, ragged_ops=None, sparse_ops=None, elementwise=None,
             ragged_shape=None):
    """Record a composite class (and the ops that take it) as it loads; ``ragged_shape`` a
    class that ``tf.zeros``/``tf.reshape``... take as a ragged shape (DynamicRaggedShape)."""
    if ragged_shape is not None:
        TYPES.add(ragged_shape)
    if ragged is not None:
        CLASSES[0] = ragged
        TYPES.add(ragged)
    if sparse is not None:
        CLASSES[1] = sparse
        TYPES.add(sparse)
    if ragged_ops is not None:
        RAGGED_OPS.update(ragged_ops)
    if sparse_ops is not None:
        SPARSE_OPS.update(sparse_ops)
    if elementwise is not None:
        for cls, table in elementwise.items():
            _ELEMENTWISE[cls] = table


def has_composite(values):
    """Whether any of ``values`` (or of a list or tuple among them) is a composite."""
    for v in values:
        t = type(v)
        if t in TYPES:
            return True
        if (t is list or t is tuple) and any(type(e) in TYPES for e in v):
            return True
    return False


def unary(op, x, *args, **kwargs):
    """``op`` (a one-input element-wise public op) on composite ``x``: its values mapped,
    its structure kept. Called from inside the ``except`` of a failed conversion, so a
    value that is no composite re-raises that error."""
    table = _ELEMENTWISE.get(type(x))
    if table is None:
        raise  # noqa: PLE0704 - the conversion error being handled
    return table["unary"](op, x, *args, **kwargs)


def binary(op, x, y):
    """``op`` (a two-input element-wise public op) with a composite operand: TensorFlow's
    ragged broadcasting. Re-raises the conversion error being handled otherwise."""
    table = _ELEMENTWISE.get(type(x)) or _ELEMENTWISE.get(type(y))
    if table is None or table.get("binary") is None:
        raise  # noqa: PLE0704 - the conversion error being handled
    return table["binary"](op, x, y)


def call(name, *args, **kwargs):
    """The composite version of op ``name`` for these arguments. Called from inside the
    ``except`` of the op's failed conversion: with no composite among the arguments, or none
    registered for ``name``, that error is re-raised."""
    for v in list(args) + list(kwargs.values()):
        t = type(v)
        if (t is list or t is tuple) and v:
            t = next((type(e) for e in v if type(e) in TYPES), t)
        if t is CLASSES[0] or (t in TYPES and t is not CLASSES[1]):
            fn = RAGGED_OPS.get(name)
            if fn is None:
                break
            return fn(*args, **kwargs)
        if t is CLASSES[1]:
            fn = SPARSE_OPS.get(name)
            if fn is None:
                break
            return fn(*args, **kwargs)
    raise  # noqa: PLE0704 - the conversion error being handled
