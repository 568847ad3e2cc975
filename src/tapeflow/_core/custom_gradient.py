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
from .recording import _state, _Tape
from .registry import Primitive
from .tensor import Tensor, _TensorLike, convert_to_tensor

__all__ = ["custom_gradient", "recompute_grad", "stop_gradient", "CustomGradientOp"]


class CustomGradientOp(Primitive):
    """The step a ``tf.function`` trace records for a custom-gradient call (TF's IdentityN
    tagged ``_gradient_op_type``): ``(results..., arguments..., variables...)`` in, the
    results out, gradients only to the arguments and variables (from ``grad_fn``).

    Attributes read by the SavedModel lowering (``function/graph_def.py``): ``grad_fn``,
    ``n_results``, ``n_args``, ``n_vars`` and ``forward_slots`` (``{tensor id: slot}`` of
    the trace's tensors when the call was recorded: a ``grad_fn`` closing over one of them
    is exported with that tensor as an extra input, TF's captured tensor).
    """


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
        flat_args = nest.flatten(args)
        inputs = [_as_tensor(a) for a in flat_args]
        variables = _read_variables(watcher, inputs)
        if variables and not _takes_variables(grad_fn):
            raise TypeError("If using @custom_gradient with a function that uses variables, "
                            "then grad_fn must accept a keyword argument 'variables'.")

        def regrad(values):
            # a replayed trace: run ``f`` on this call's values for a grad_fn of its own
            again = [a if hasattr(a, "assign") else v for a, v in zip(flat_args, values)]
            return f(*nest.pack_sequence_as(args, again), **kwargs)[1]

        return _record(f.__name__, result, inputs, variables, grad_fn, regrad)

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
        flat_args = nest.flatten(args)
        inputs = [_as_tensor(a) for a in flat_args]
        variables = _read_variables(watcher, inputs)

        def make_grad_fn(xs, call_args):
            def grad_fn(*dys, variables=()):
                from .tape import GradientTape
                with GradientTape() as tape:
                    tape.watch([x for x in xs if x._value.dtype.kind in "fcV"])
                    again = f(*call_args, **kwargs)
                sources = list(xs) + list(variables)
                grads = tape.gradient(nest.flatten(again), sources,
                                      output_gradients=list(dys))
                return grads[:len(xs)], grads[len(xs):]
            return grad_fn

        def regrad(values):
            return make_grad_fn(values, nest.pack_sequence_as(args, list(values)))

        return _record(f.__name__, result, inputs, variables, make_grad_fn(inputs, args),
                       regrad)

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


def _record(name, result, inputs, variables, grad_fn, regrad=None):
    """Fresh outputs for ``result`` and one tape entry whose rule is ``grad_fn``.

    Inside a ``tf.function`` trace the entry is a :class:`CustomGradientOp` over the results
    too (so the program keeps the forward); a replay of that program calls ``regrad(values)``
    for a ``grad_fn`` of the replayed values (the traced one closes over the trace's)."""
    flat = nest.flatten(result)
    n_in = len(inputs)
    outs = tuple(Tensor(_as_tensor(y)._value) for y in flat)
    out = outs[0] if len(outs) == 1 else outs
    all_grads = _grads_of(grad_fn, variables, n_in)
    prim = Primitive(name, None, save_inputs=True, save_output=True, n_outputs=len(outs))
    prim.vjps = tuple(_rule(all_grads, k) for k in range(n_in + len(variables)))
    tracer = _state.tracer
    if tracer is None:
        dispatch.record(prim, list(inputs) + list(variables), out, None)
        return nest.pack_sequence_as(result, list(outs))
    # the tapes of this (first) run use grad_fn itself; the trace records the step replays
    # run, whose rule asks regrad for a grad_fn of the replayed values
    _state.tracer = None
    try:
        dispatch.record(prim, list(inputs) + list(variables), out, None)
    finally:
        _state.tracer = tracer
    results = [_as_tensor(y) for y in flat]
    n_res = len(results)
    step = CustomGradientOp(name, (lambda *a: a[0]) if n_res == 1 else (lambda *a: a[:n_res]),
                            save_inputs=True, save_output=True, n_outputs=n_res)
    step.grad_fn, step.n_results, step.n_args, step.n_vars = grad_fn, n_res, n_in, \
        len(variables)
    consts = tracer.consts
    step.forward_slots = {tid: s for tid, s in tracer.slots.items() if s not in consts}
    cache = []

    def replayed_grads(g, xs):
        if cache and cache[0] is g and all(a is b for a, b in zip(cache[1], xs)):
            return cache[2]
        fn = grad_fn if regrad is None else regrad(list(xs[n_res:n_res + n_in]))
        got = _grads_of(fn, variables, n_in)(g)
        cache[:] = [g, xs, got]
        return got

    def rule(k):
        if k < n_res:
            return lambda g, y, *xs: None
        return lambda g, y, *xs: replayed_grads(g, xs)[k - n_res]

    step.vjps = tuple(rule(k) for k in range(n_res + n_in + len(variables)))
    tracer.op(step, results + list(inputs) + list(variables), out, None)
    return nest.pack_sequence_as(result, list(outs))


def _rule(all_grads, k):
    return lambda g, y, *xs: all_grads(g)[k]


def _grads_of(grad_fn, variables, n_in):
    """``g -> [gradient per input, then per variable]`` from ``grad_fn`` (cached on ``g``)."""
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

    return all_grads
