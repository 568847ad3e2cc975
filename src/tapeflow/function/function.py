"""``tf.function`` as a decorator, with and without arguments. For now it calls the function
eagerly: same results, no graph; graph capture comes in its own issue."""
import functools

__all__ = ["function"]


class Function:
    """A Python callable wrapped by ``tf.function``; calling it calls the function."""

    def __init__(self, python_function, input_signature=None, jit_compile=None,
                 reduce_retracing=False):
        self.python_function = python_function
        self.input_signature = input_signature
        self.jit_compile = jit_compile
        self.reduce_retracing = reduce_retracing
        functools.update_wrapper(self, python_function)

    def __call__(self, *args, **kwargs):
        return self.python_function(*args, **kwargs)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def get_concrete_function(self, *args, **kwargs):
        return self


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Wrap ``func`` as TensorFlow's ``tf.function`` would; usable as ``@tf.function`` or
    ``@tf.function(...)``.

    Args:
        func: the Python function, or None when used with arguments.
        input_signature, jit_compile, reduce_retracing, experimental_relax_shapes, ...:
            accepted for TensorFlow's signature.

    Returns:
        A callable that runs ``func`` eagerly, or a decorator when ``func`` is None.
    """
    relax = bool(reduce_retracing or experimental_relax_shapes)

    def decorate(f):
        return Function(f, input_signature=input_signature, jit_compile=jit_compile,
                        reduce_retracing=relax)

    if func is None:
        return decorate
    return decorate(func)
