"""``tf.debugging``: why a gradient is None, and the tape size warning (beyond TensorFlow)."""
from ._core.explain import set_tape_size_warning


def explain_gradient(tape, target, sources):
    """Why each source's gradient is ``None``; the same as ``tape.explain(target, sources)``.

    Args:
        tape: a ``tf.GradientTape`` (used or not).
        target: the Tensor (or nested structure) the gradient is taken of.
        sources: a Tensor/Variable or a nested structure of them.

    Returns:
        One short reason (a str) per source, packed like ``sources``.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> print(tf.debugging.explain_gradient(tape, y, x)[:17])
        x: never watched:
    """
    return tape.explain(target, sources)


__all__ = ["explain_gradient", "set_tape_size_warning"]
