"""``tf.function``: tracing (tracer.py), trace keys (trace_type.py), programs (program.py),
their compilation to Python (codegen.py) and the function objects (function.py); ``tf.print``."""
from .function import ConcreteFunction, Function, function
from .printing import print  # noqa: A004 - TensorFlow's name
from .trace_type import TensorSpec

__all__ = ["function", "print", "Function", "ConcreteFunction", "TensorSpec"]
