"""The compiled steps of ``fit``, ``evaluate`` and ``predict``: Keras 3 on TensorFlow runs
``one_step_on_data`` as ``tf.function(reduce_retracing=True)`` (loaded by the trainer on the
first ``make_*_function`` that compiles, with the rest of ``tf.function``)."""
from ..function.polymorphic import Function
from ..function.trace_type import is_tensor_key

__all__ = ["StepFunction"]


class StepFunction(Function):
    """A training, test or predict step traced as Keras 3 traces it on TensorFlow.

    ``fit`` and ``evaluate`` call the step from inside a ``tf.function`` over the epoch's
    dataset iterator, whose trace key is the data's element spec: the first trace already
    has the spec's ``None`` dims (the batch dimension of array data, whose last batch may be
    smaller), so a ``print`` in ``train_step`` shows ``(None, ...)`` and runs once, and the
    other batch sizes replay that trace. ``relax_to`` holds the flat shapes of that spec
    while such a call runs; calls without it (``train_on_batch``, ``predict``) are keyed by
    their concrete shapes, relaxed on a second shape (``reduce_retracing``).
    """

    relax_to = None

    def _general_key(self, key):
        if self.relax_to is not None:
            key = _relaxed(key, iter(self.relax_to))
        return super()._general_key(key)

    def call_with_spec(self, shapes, *args):
        """``self(*args)``, a new trace keyed by ``shapes`` (one per flat tensor of
        ``args``, ``None`` for unknown dims) instead of the concrete shapes."""
        self.relax_to = shapes
        try:
            return self(*args)
        finally:
            self.relax_to = None


def _relaxed(key, shapes):
    """``key`` with each tensor's shape replaced by the next of ``shapes`` when that shape
    admits it (same rank, equal known dims)."""
    if is_tensor_key(key):
        shape = next(shapes, key[0])
        if shape is None:
            return (None, key[1])
        concrete = key[0]
        if concrete is not None and len(shape) == len(concrete) and all(
                s is None or s == d for s, d in zip(shape, concrete)):
            return (tuple(shape), key[1])
        return key
    if type(key) is tuple:
        return tuple(_relaxed(k, shapes) for k in key)
    return key
