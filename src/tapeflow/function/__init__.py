"""``tf.function``: tracing (tracer.py), trace keys (trace_type.py), programs (program.py),
their compilation to Python (codegen.py), AutoGraph (autograph.py) and the function objects
(polymorphic.py with concrete_function.py, function_type.py and retrace_report.py, loaded on
the first ``tf.function``); ``tf.print``."""
from .printing import print  # noqa: A004 - TensorFlow's name
from .trace_type import TensorSpec

__all__ = ["function", "print", "Function", "ConcreteFunction", "TensorSpec"]


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Compile ``func`` into a traced, replayed program (``tf.function``); usable as
    ``@tf.function`` or ``@tf.function(...)``.

    Args:
        func: the Python function, or None when used with arguments.
        input_signature: a list of ``tf.TensorSpec``: one trace for every call that fits.
        autograph: accepted; Python control flow on tensors is guarded (module docstring).
        reduce_retracing: generalize tensor shapes to ``None`` dims after a second shape.
        experimental_relax_shapes: the deprecated name of ``reduce_retracing``.
        jit_compile, experimental_*: accepted for TensorFlow's signature.

    Returns:
        A :class:`Function`, or a decorator when ``func`` is None.

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def f(x):
        ...     return x * x + 1.0
        ...
        >>> f(tf.constant(3.0))
        <tf.Tensor: shape=(), dtype=float32, numpy=10.0>
        >>> f.experimental_get_tracing_count()
        1
    """
    from .polymorphic import Function
    relax = bool(reduce_retracing or experimental_relax_shapes)

    def decorate(f):
        return Function(f, input_signature=input_signature, autograph=autograph,
                        jit_compile=jit_compile, reduce_retracing=relax)

    if func is None:
        return decorate
    return decorate(func)


def __getattr__(name):
    if name == "Function":
        from .polymorphic import Function
        return Function
    if name == "ConcreteFunction":
        from .concrete_function import ConcreteFunction
        return ConcreteFunction
    raise AttributeError(f"module 'tapeflow.function' has no attribute {name!r}")
