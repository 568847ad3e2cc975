"""Python inside the graph: ``tf.py_function`` and ``tf.numpy_function``.

Eagerly they just call the Python function. Inside a ``tf.function`` trace the call is one
step of the program: it runs again, as Python, at every replay (as TensorFlow runs them at
every execution), and its own ops are not part of the program.
"""
from .._core import dispatch
from .._core import dtypes as _dt
from .._core import nest as _nest
from .._core.backend import np
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor

__all__ = ["py_function", "numpy_function"]


def _outputs(result, Tout):
    """Flat Tensors of ``result`` cast as ``Tout`` says, and how to pack them again."""
    if Tout is None:
        return [], None
    single = not isinstance(Tout, (list, tuple))
    touts = [Tout] if single else list(Tout)
    values = [result] if single else list(_nest.flatten(result) if result is not None else [])
    if len(values) != len(touts):
        raise ValueError(f"the function returned {len(values)} value(s) where Tout lists "
                         f"{len(touts)}")
    flat = []
    for v, t in zip(values, touts):
        dt = _dt.as_dtype(t)
        if isinstance(v, _TensorLike):
            v = v if type(v) is Tensor else v._read()
            if v.dtype != dt:
                raise TypeError(f"the function returned a {v.dtype.name} tensor where Tout "
                                f"says {dt.name}")
            flat.append(v)
        else:
            flat.append(convert_to_tensor(np.asarray(v, dt._np) if not isinstance(v, str)
                                          else v, dtype=dt))
    return flat, single


def _call(func, inp, Tout, on_values):
    inputs = [x if isinstance(x, _TensorLike) else convert_to_tensor(x) for x in inp]

    def run(*tensors):
        args = [t.numpy() for t in tensors] if on_values else list(tensors)
        flat, _ = _outputs(func(*args), Tout)
        return flat

    tracer = dispatch.current_tracer() if dispatch.ACTIVE[0] else None
    if tracer is None:
        flat, single = _outputs(func(*([t.numpy() for t in inputs] if on_values else inputs)),
                                Tout)
    else:
        if tracer.python_calls_dry():
            # a trace that only builds the graph (a Dataset.map function): the body runs
            # at every element, not now; zeros of Tout's dtypes stand in for its outputs
            if Tout is None:
                single, flat = None, []
            else:
                single = not isinstance(Tout, (list, tuple))
                flat = [convert_to_tensor(np.zeros((), _dt.as_dtype(t)._np))
                        for t in ([Tout] if single else Tout)]
        else:
            with tracer.suspend():
                flat, single = _outputs(func(*([t._value for t in inputs] if on_values
                                               else inputs)), Tout)
        flat = [Tensor(t._value) for t in flat]
        run.op_type = "EagerPyFunc" if not on_values else "PyFunc"
        tracer.call(run, inputs, flat)
    if single is None:
        return None
    return flat[0] if single else flat


def py_function(func=None, inp=None, Tout=None, name=None):
    """Call the Python function ``func`` on eager tensors (``tf.py_function``).

    Args:
        func: a Python callable taking tensors (as ``inp`` lists them).
        inp: a list of tensors (or values).
        Tout: the output dtype, a list of dtypes, or None when it returns nothing.

    Returns:
        A Tensor, a list of Tensors, or None, as ``Tout`` says.

    Raises:
        ValueError / TypeError: when the result does not match ``Tout``.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.py_function(lambda x: x * 2, [tf.constant(3.0)], tf.float32))
        tf.Tensor(6.0, shape=(), dtype=float32)
    """
    if func is None:
        return lambda f: (lambda *args: py_function(f, list(args), Tout, name))
    return _call(func, inp or [], Tout, on_values=False)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Call ``func`` on NumPy arrays and make tensors of what it returns
    (``tf.numpy_function``); no gradient flows through it.

    Example:
        >>> import tapeflow as tf
        >>> import numpy as np
        >>> print(tf.numpy_function(np.sort, [tf.constant([3, 1, 2])], tf.int32))
        tf.Tensor([1 2 3], shape=(3,), dtype=int32)
    """
    if func is None:
        return lambda f: (lambda *args: numpy_function(f, list(args), Tout, stateful, name))
    return _call(func, inp or [], Tout, on_values=True)
