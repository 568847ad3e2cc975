"""``tf.function`` (runs the Python function eagerly for now) and ``tf.print``."""
from .function import function
from .printing import print  # noqa: A004 - TensorFlow's name

__all__ = ["function", "print"]
