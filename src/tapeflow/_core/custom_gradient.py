"""custom_gradient, recompute_grad and stop_gradient: functions that choose their own gradient.

A decorated call runs the function as usual, then records one entry from its tensor inputs
(and the variables it read) to fresh copies of its outputs, whose rule calls the user's
``grad_fn``. Ops inside the function stay on the tape, so a ``grad_fn`` that uses them is
differentiated again by an outer tape (higher order).
"""
import functools
import inspect

from . import dispatch, nest
from .engine_ops import OPS
from .recording import _Tape
from .registry import Primitive
from .tensor import Tensor, _TensorLike, convert_to_tensor

__all__ = ["custom_gradient", "recompute_grad", "stop_gradient"]


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's name
    """The same value with no gradient through it (``tf.stop_gradient``)."""
    return OPS.stop_gradient(input, name)


def custom_gradient(f=None):
    """Decorate ``f`` so that its gradient is the one it returns (``tf.custom_gradient``).

    ``f(*args, **kwargs)`` returns ``(y, grad_fn)``: ``y`` a Tensor or nested structure of
    them, ``grad_fn(*dys)`` one gradient per flattened tensor argument (``None`` for none).
    When ``f`` reads trainable Variables, ``grad_fn`` must accept ``variables=`` and return
    ``(arg_grads, var_grads)``, one gradient per variable, in the order of ``variables``.

    Args:
        f: the function; also usable as ``@custom_gradient`` without parentheses.

    Returns:
        The decorated function, returning ``y``.

    Raises:
        TypeError: if ``f`` reads variables and ``grad_fn`` takes no ``variables``.
        ValueError: if ``grad_fn`` returns the wrong number of gradients.

    Example:
        >>> import tapeflow as tf
        >>> @tf.custom_gradient
        ... def clip_grad(x):
        ...     return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as t:
        ...     t.watch(x)
        ...     y = clip_grad(x) * 10.0
        >>> print(t.gradient(y, x))
        tf.Tensor(1.0, shape=(), dtype=float32)
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if not dispatch.ACTIVE[0]:
            return f(*args, **kwargs)[0]
        watcher = _watch_variables()
        try:
            result, grad_fn = f(*args, **kwargs)
        finally:
            dispatch.remove_tape(watcher)
        inputs = [_as_tensor(a) for a in nest.flatten(args)]
        variables = _read_variables(watcher, inputs)
        if variables and not _takes_variables(grad_fn):
            raise TypeError("If using @custom_gradient with a function that uses variables, "
                            "then grad_fn must accept a keyword argument 'variables'.")
        return _record(f.__name__, result, inputs, variables, grad_fn)

    return decorated


def recompute_grad(f):
    """Forget ``f``'s intermediate values and recompute them for the gradient.

    The forward pass records nothing inside ``f``: memory for activations is traded for a
    second forward pass during backprop (``tf.recompute_grad``; Chen et al. 2016,
    "Training Deep Nets with Sublinear Memory Cost").

    Args:
        f: a function of Tensors returning a Tensor or nested structure of Tensors.

    Returns:
        A function with ``f``'s value and gradient.
    """
    @functools.wraps(f)
    def inner(*args, **kwargs):
        if not dispatch.ACTIVE[0]:
            return f(*args, **kwargs)
        stack = dispatch.tape_stack()
        paused = list(stack)
        for t in paused:
            dispatch.remove_tape(t)
        watcher = _watch_variables()
        try:
            result = f(*args, **kwargs)
        finally:
            dispatch.remove_tape(watcher)
            for t in paused:
                dispatch.push_tape(t)
        inputs = [_as_tensor(a) for a in nest.flatten(args)]
        variables = _read_variables(watcher, inputs)

        def grad_fn(*dys, variables=()):
            from .tape import GradientTape
            with GradientTape() as tape:
                tape.watch([x for x in inputs if x._value.dtype.kind in "fcV"])
                again = f(*args, **kwargs)
            sources = list(inputs) + list(variables)
            grads = tape.gradient(nest.flatten(again), sources, output_gradients=list(dys))
            return grads[:len(inputs)], grads[len(inputs):]

        return _record(f.__name__, result, inputs, variables, grad_fn)

    return inner


def _as_tensor(a):
    return a if isinstance(a, _TensorLike) else convert_to_tensor(a)


def _watch_variables():
    watcher = _Tape(False, True)
    dispatch.push_tape(watcher)
    return watcher


def _read_variables(watcher, inputs):
    ids = {x._id for x in inputs}
    return [v for i, v in watcher.variables.items() if i not in ids]


def _takes_variables(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def _record(name, result, inputs, variables, grad_fn):
    """Fresh outputs for ``result`` and one tape entry whose rule is ``grad_fn``."""
    flat = nest.flatten(result)
    outs = tuple(Tensor(_as_tensor(y)._value) for y in flat)
    n_in = len(inputs)
    cache = [None, None]

    def all_grads(g):
        if cache[0] is not g:
            dys = list(g) if isinstance(g, tuple) else [g]
            if variables:
                arg_grads, var_grads = grad_fn(*dys, variables=list(variables))
                var_grads = list(var_grads)
                if len(var_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from "
                                     "@custom_gradient grad_fn.")
            else:
                arg_grads, var_grads = grad_fn(*dys), []
            flat_grads = nest.flatten(arg_grads)
            if len(flat_grads) != n_in:
                raise ValueError(f"custom_gradient function expected to return {n_in} "
                                 f"gradients, but returned {len(flat_grads)} instead.")
            cache[0] = g
            cache[1] = [None if x is None else _as_tensor(x) for x in flat_grads + var_grads]
        return cache[1]

    def rule(k):
        return lambda g, y, *xs: all_grads(g)[k]

    prim = Primitive(name, None, save_inputs=True, save_output=True, n_outputs=len(outs))
    prim.vjps = tuple(rule(k) for k in range(n_in + len(variables)))
    out = outs[0] if len(outs) == 1 else outs
    dispatch.record(prim, list(inputs) + list(variables), out, None)
    return nest.pack_sequence_as(result, list(outs))
