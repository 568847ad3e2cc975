"""How ``tf.reduce_*``, ``tf.concat`` and ``tf.cast`` accept RaggedTensors and SparseTensors
without importing them (TensorFlow's ``dispatch.add_dispatch_support``, reduced to a table).

The ragged and sparse packages load on first use (``tf.ragged``, ``tf.RaggedTensor`` ...)
and register here their classes and the ragged versions of the ops; until then no argument
can be one. The ops themselves (``reduction_ops``, ``array_ops.concat``, ``array_ops.cast``)
look at this table only for an argument that is not a tensor, so a tensor pays nothing.
"""

__all__ = ["CLASSES", "RAGGED_OPS", "register"]


class _NotLoaded:
    """Stands for a composite class whose package is not imported yet."""


# [RaggedTensor, SparseTensor] once their packages are imported.
CLASSES = [_NotLoaded, _NotLoaded]
# The op name -> its RaggedTensor version, filled by ``ragged.ragged_math_ops`` on import.
RAGGED_OPS = {}


def register(ragged=None, sparse=None, ragged_ops=None):
    """Record a composite class (and, for ragged, the ops that take it) as it loads."""
    if ragged is not None:
        CLASSES[0] = ragged
    if sparse is not None:
        CLASSES[1] = sparse
    if ragged_ops is not None:
        RAGGED_OPS.update(ragged_ops)
