"""Control flow on tensors: ``tf.cond``, ``tf.case``, ``tf.switch_case``, ``tf.while_loop``,
``tf.map_fn``, ``tf.scan``, ``tf.foldl``, ``tf.foldr`` and ``tf.TensorArray``.

Eagerly they are Python control flow over tapeflow ops, so tapes differentiate the path
taken. Inside a ``tf.function`` trace (with no tape recording) they are *structured steps*:
every branch and the loop body is traced once (an untaken branch dry: its variable writes are
undone and its ``tf.print`` output dropped, as TensorFlow builds but does not run it), and the
program replays the branch or the loop with no Python. Under a tape inside a trace the path
taken is recorded with a guard on the predicate, since the tape's backward pass is specific to
that path. The tracer (which ``dispatch`` hands out) records the structured step: these ops
ask it through its protocol (``tracer.switch``, ``tracer.while_loop``) and know nothing of the
program it builds.
"""
from .._core import dispatch
from .._core import nest as _nest
from .._core.backend import np
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from . import array_ops as _a
from . import composite_dispatch as _composite

__all__ = ["cond", "case", "switch_case", "while_loop", "map_fn", "scan", "foldl", "foldr",
           "TensorArray"]


def _structured_tracer():
    """The tracer to record a structured step on, or None (eager, or a tape recording)."""
    if not dispatch.ACTIVE[0]:
        return None
    tracer = dispatch.current_tracer()
    if tracer is None or dispatch.tape_stack():
        return None
    return tracer


def _tensor(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _TensorLike):
        return x._read()
    return convert_to_tensor(x)


def _check_callable(fn, name):
    if not callable(fn):
        raise TypeError(f"{name} must be callable.")


def _same_structure(results, what):
    first = results[0]
    for other in results[1:]:
        try:
            _nest.assert_same_structure(first[1], other[1])
        except (ValueError, TypeError) as err:
            raise ValueError(f"{what} must have the same nested structure: {err}") from None
        for a, b in zip(first[0], other[0]):
            if a._value.dtype != b._value.dtype:
                raise TypeError(f"{what} must return tensors of the same dtypes; got "
                                f"{a.dtype.name} and {b.dtype.name}.")


def _switch(tracer, index, fns, taken, by_bool, order, what):
    outs, struct = tracer.switch(index, fns, taken, by_bool, order,
                                 lambda results: _same_structure(results, what))
    return _nest.pack_sequence_as(struct, outs) if _nest.is_nested(struct) else \
        (outs[0] if outs else struct)


def cond(pred, true_fn=None, false_fn=None, name=None):
    """``true_fn()`` if ``pred`` else ``false_fn()`` (``tf.cond``).

    Args:
        pred: a scalar bool tensor or Python bool.
        true_fn, false_fn: callables without arguments returning the same structure of
            tensors (of the same dtypes).
        name: ignored.

    Returns:
        The result of the branch taken.

    Raises:
        TypeError: if a branch is not callable.
        ValueError: inside a ``tf.function``, if the branches' results differ in structure.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.cond(tf.constant(2.0) > 1.0, lambda: 1, lambda: 0))
        1
    """
    _check_callable(true_fn, "true_fn")
    _check_callable(false_fn, "false_fn")
    tracer = _structured_tracer()
    if tracer is None or not isinstance(pred, _TensorLike):
        return true_fn() if bool(pred) else false_fn()
    p = _tensor(pred)
    taken = int(bool(p._value))
    return _switch(tracer, p, [false_fn, true_fn], taken, True, (1, 0),
                   "true_fn and false_fn")


def switch_case(branch_index, branch_fns, default=None, name=None):
    """``branch_fns[branch_index]()`` (``tf.switch_case``); an index out of range runs
    ``default`` (else the last branch, as TensorFlow).

    Args:
        branch_index: a scalar int32 tensor or Python int.
        branch_fns: a list of callables (or a dict int -> callable, or (int, callable) pairs).
        default: optional callable.
    """
    if isinstance(branch_fns, dict):
        branch_fns = sorted(branch_fns.items())
    fns = [f[1] if isinstance(f, tuple) else f for f in branch_fns]
    for f in fns:
        _check_callable(f, "branch_fns")
    if default is not None:
        fns = fns + [default]
    tracer = _structured_tracer()
    if tracer is None or not isinstance(branch_index, _TensorLike):
        i = int(branch_index)
        return fns[i if 0 <= i < len(fns) else len(fns) - 1]()
    idx = _tensor(branch_index)
    i = int(idx._value)
    taken = i if 0 <= i < len(fns) else len(fns) - 1
    return _switch(tracer, idx, fns, taken, False, range(len(fns)), "branch_fns")


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The function of the first true predicate, else ``default`` (``tf.case``).

    Args:
        pred_fn_pairs: a list of (bool tensor, callable) pairs (or a dict).
        default: the callable when no predicate holds (TensorFlow requires one unless a
            predicate always holds).
        exclusive: if True, more than one true predicate raises InvalidArgumentError.
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(
        pred_fn_pairs)
    if default is None:
        *pairs, (_, default) = pairs
    result = default
    for pred, fn in reversed(pairs):
        result = _Chain(pred, fn, result)
    return result() if isinstance(result, _Chain) else default()


class _Chain:
    """``cond(pred, fn, rest)`` as a callable: ``case`` is nested ``cond``s, as in TF."""

    def __init__(self, pred, fn, rest):
        self.pred, self.fn, self.rest = pred, fn, rest

    def __call__(self):
        return cond(self.pred, self.fn, self.rest)


def _flat_loop(loop_vars):
    return [x._as_handle() if isinstance(x, TensorArray) else _tensor(x)
            for x in _nest.flatten(loop_vars)]


def _unflat_loop(struct, flat_struct_leaves, xs):
    """Loop values back in the loop's structure; TensorArray positions get arrays again."""
    vals = [TensorArray._from_handle(x, leaf) if isinstance(leaf, TensorArray) else x
            for x, leaf in zip(xs, flat_struct_leaves)]
    return _nest.pack_sequence_as(struct, vals)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (``tf.while_loop``).

    Args:
        cond: callable of the loop variables returning a scalar bool tensor.
        body: callable of the loop variables returning their new values (same structure).
        loop_vars: a tuple/list (possibly nested) of tensors or a single tensor.
        shape_invariants: accepted (NumPy shapes may change between iterations).
        maximum_iterations: optional bound on the number of iterations.

    Returns:
        The final loop variables, in ``loop_vars``' structure.

    Example:
        >>> import tapeflow as tf
        >>> i, s = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
        >>> print(int(i), int(s))
        4 6
    """
    _check_callable(cond, "cond")
    _check_callable(body, "body")
    if isinstance(loop_vars, _TensorLike):
        # TensorFlow takes a tensor as the sequence of its rows (``len(loop_vars)``).
        if not loop_vars.shape.rank:
            raise TypeError("Scalar tensor has no `len()`")
        loop_vars = list(loop_vars)
    single = not isinstance(loop_vars, (list, tuple))
    struct = [loop_vars] if single else loop_vars
    tracer = _structured_tracer()
    if tracer is None:
        return _eager_while(cond, body, struct, single, maximum_iterations)
    leaves = _nest.flatten(struct)
    flat = _flat_loop(struct)

    def unpack(xs):
        return _unflat_loop(struct, leaves, list(xs))

    def cond_flat(*xs):
        return cond(*unpack(xs))

    def body_flat(*xs):
        out = body(*unpack(xs))
        if single and not isinstance(out, (list, tuple)):
            out = [out]
        return _flat_loop(out)

    limit = None if maximum_iterations is None else _tensor(maximum_iterations)
    outs = tracer.while_loop(cond_flat, body_flat, flat, limit)
    result = unpack(outs)
    return result[0] if single else result


def _check_iterated(flag, what):
    if not bool(flag):
        from .._core import errors
        raise errors.InvalidArgumentError(
            None, None, f"assertion failed: [loop must iterate at least once to initialize "
                        f"{what}]")
    return np.asarray(flag)


_ASSERT_ITERATED = nondifferentiable("Assert", _check_iterated)


def assert_iterated(flag, what):
    """TensorFlow's run-time ``Assert`` after an AutoGraph loop that defines ``what`` (a
    ``return`` inside it): ``InvalidArgumentError`` when the loop ran zero times. A step of
    the traced program, so every call checks it."""
    dispatch.apply(_ASSERT_ITERATED, (_tensor(flag),), {"what": what})


def _eager_while(cond, body, struct, single, maximum_iterations):
    vals = struct
    i = 0
    limit = None if maximum_iterations is None else int(_tensor(maximum_iterations)._value)
    while (limit is None or i < limit) and bool(cond(*vals)):
        out = body(*vals)
        if single and not isinstance(out, (list, tuple)):
            out = [out]
        _nest.assert_same_structure(list(struct), list(out))
        vals = list(out) if isinstance(struct, list) else type(struct)(out) \
            if not hasattr(struct, "_fields") else type(struct)(*out)
        i += 1
    vals = _nest.map_structure(lambda x: x if isinstance(x, TensorArray) else _tensor(x),
                               list(vals) if not hasattr(vals, "_fields") else vals)
    return vals[0] if single else (type(struct)(vals) if isinstance(struct, tuple)
                                   and not hasattr(struct, "_fields") else vals)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
           swap_memory=False, infer_shape=True, name=None, fn_output_signature=None):
    """``fn`` applied to each slice of ``elems`` along axis 0, results stacked (``tf.map_fn``).

    Args:
        fn: callable of one element (or of a structure of elements).
        elems: a tensor or a (nested) structure of tensors with equal first dimensions.
        dtype / fn_output_signature: the output dtype(s) when they differ from ``elems``'.

    Returns:
        The stacked results, in ``fn``'s output structure.
    """
    if hasattr(fn_output_signature, "ragged_rank"):   # a RaggedTensorSpec: rows stacked ragged
        return _composite.RAGGED_OPS["map_fn"](fn, elems, dtype,
                                               fn_output_signature=fn_output_signature)
    try:
        flat = [_tensor(e) for e in _nest.flatten(elems)]
    except ValueError:  # a RaggedTensor or SparseTensor (else re-raised)
        return _composite.call("map_fn", fn, elems, dtype,
                               fn_output_signature=fn_output_signature)
    n = flat[0]._value.shape[0] if flat[0]._value.ndim else 0
    outs = []
    for i in range(n):
        item = _nest.pack_sequence_as(elems, [t[i] for t in flat]) if _nest.is_nested(
            elems) else flat[0][i]
        outs.append(fn(item))
    if not outs:
        sig = fn_output_signature if fn_output_signature is not None else dtype
        dt = flat[0].dtype if sig is None else getattr(sig, "dtype", sig)
        return Tensor(np.zeros((0,) + flat[0]._value.shape[1:], dtype=dt._np))
    first = outs[0]
    leaves = [_nest.flatten(o) for o in outs]
    stacked = [_a.stack([_tensor(leaf[j]) for leaf in leaves]) for j in range(len(leaves[0]))]
    return _nest.pack_sequence_as(first, stacked) if _nest.is_nested(first) else stacked[0]


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """Running ``acc = fn(acc, x)`` over ``elems``' first axis, every ``acc`` stacked
    (``tf.scan``); without ``initializer`` the first element starts the accumulator."""
    flat = [_tensor(e) for e in _nest.flatten(elems)]
    n = flat[0]._value.shape[0]
    order = range(n - 1, -1, -1) if reverse else range(n)

    def item(i):
        return (_nest.pack_sequence_as(elems, [t[i] for t in flat])
                if _nest.is_nested(elems) else flat[0][i])

    order = list(order)
    if initializer is None:
        acc = item(order[0])
        results = [acc]
        order = order[1:]
    else:
        acc = initializer
        results = []
    for i in order:
        acc = fn(acc, item(i))
        results.append(acc)
    if reverse:
        results = results[::-1]
    leaves = [_nest.flatten(r) for r in results]
    stacked = [_a.stack([_tensor(leaf[j]) for leaf in leaves]) for j in range(len(leaves[0]))]
    return _nest.pack_sequence_as(results[0], stacked) if _nest.is_nested(results[0]) \
        else stacked[0]


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``acc = fn(acc, x)`` over ``elems``' first axis, left to right (``tf.foldl``)."""
    return _fold(fn, elems, initializer, reverse=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``acc = fn(acc, x)`` over ``elems``' first axis, right to left (``tf.foldr``)."""
    return _fold(fn, elems, initializer, reverse=True)


def _fold(fn, elems, initializer, reverse):
    flat = [_tensor(e) for e in _nest.flatten(elems)]
    n = flat[0]._value.shape[0]
    order = list(range(n - 1, -1, -1) if reverse else range(n))

    def item(i):
        return (_nest.pack_sequence_as(elems, [t[i] for t in flat])
                if _nest.is_nested(elems) else flat[0][i])

    if initializer is None:
        acc = item(order[0])
        order = order[1:]
    else:
        acc = initializer
    for i in order:
        acc = fn(acc, item(i))
    return _nest.map_structure(_tensor, acc)


def _ta_write(h, i, v, dynamic):
    i = int(i)
    if i >= len(h):
        if not dynamic:
            from .._core import errors
            raise errors.op_error(errors.OutOfRangeError,
                                  f"Tried to write to index {i} but array is not resizeable "
                                  f"and size is: {len(h)}", "TensorArrayWriteV3")
        h = h + (None,) * (i + 1 - len(h))
    return h[:i] + (v,) + h[i + 1:]


def _ta_stack(h, dtype, element_shape):
    if not h:
        return np.zeros((0,) + tuple(element_shape or ()), dtype._np)
    return np.stack([np.zeros(np.shape(h[0]), dtype._np) if v is None else v for v in h])


_TA_WRITE = nondifferentiable("TensorArrayWriteV3", _ta_write)
_TA_READ = nondifferentiable("TensorArrayReadV3", lambda h, i: h[int(i)])
_TA_STACK = nondifferentiable("TensorArrayGatherV3", _ta_stack)
_TA_SIZE = nondifferentiable("TensorArraySizeV3", lambda h: np.int32(len(h)))


class TensorArray:
    """A list of tensors written by index, stacked at the end (``tf.TensorArray``).

    ``write`` returns the array itself (TensorFlow returns a new handle to the same array),
    so ``ta = ta.write(i, x)`` works as in TensorFlow. Inside a traced loop the array is a
    handle tensor whose writes are steps of the loop's body.

    Args:
        dtype: the element dtype.
        size: the initial size.
        dynamic_size: whether writes past the end grow the array.
        clear_after_read, tensor_array_name, handle, flow, infer_shape, element_shape,
            colocate_with_first_write_call: accepted for TensorFlow's signature.

    Raises:
        tf.errors.InvalidArgumentError: for a read or write out of range of a fixed size, or
            an element of another dtype.
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        from .._core import dtypes as _dt
        self._dtype = _dt.as_dtype(dtype)
        n = 0 if size is None else int(_tensor(size)._value)
        self._items = [None] * n
        self._dynamic = bool(dynamic_size)
        self._element_shape = element_shape
        self._handle = None

    def _as_handle(self):
        if self._handle is not None:
            return self._handle
        return Tensor(tuple(None if v is None else v._value for v in self._items))

    @classmethod
    def _from_handle(cls, handle, like):
        ta = cls.__new__(cls)
        ta._dtype, ta._dynamic, ta._element_shape = like._dtype, like._dynamic, \
            like._element_shape
        ta._items = None
        ta._handle = handle
        return ta

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic

    def size(self, name=None):
        if self._handle is not None:
            return dispatch.apply(_TA_SIZE, (self._handle,))
        return Tensor(np.int32(len(self._items)))

    def _index(self, index, op):
        from .._core import errors
        i = int(_tensor(index)._value)
        if i < 0 or (i >= len(self._items) and not (self._dynamic and op == "write")):
            text = (f"Tried to write to index {i} but array is not resizeable and size is: "
                    f"{len(self._items)}" if op == "write" else
                    f"Tried to read from index {i} but array size is: {len(self._items)}")
            raise errors.op_error(errors.OutOfRangeError, text,
                                  f"TensorArray{op.capitalize()}V3")
        return i

    def write(self, index, value, name=None):
        from .._core import errors
        if self._handle is not None:
            v = _tensor(value) if isinstance(value, _TensorLike) else convert_to_tensor(
                value, dtype=self._dtype)
            h = dispatch.apply(_TA_WRITE, (self._handle, _tensor(index), v),
                               {"dynamic": self._dynamic})
            return TensorArray._from_handle(h, self)
        i = self._index(index, "write")
        v = _tensor(value) if isinstance(value, _TensorLike) else convert_to_tensor(
            value, dtype=self._dtype)
        if v.dtype != self._dtype:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{v.dtype.name}", "TensorArrayWriteV3")
        if i >= len(self._items):
            self._items.extend([None] * (i + 1 - len(self._items)))
        self._items[i] = v
        return self

    def read(self, index, name=None):
        if self._handle is not None:
            return dispatch.apply(_TA_READ, (self._handle, _tensor(index)))
        i = self._index(index, "read")
        v = self._items[i]
        if v is None:
            shape = self._element_shape or ()
            return Tensor(np.zeros(tuple(shape), self._dtype._np))
        return v

    def stack(self, name=None):
        if self._handle is not None:
            return dispatch.apply(_TA_STACK, (self._handle,),
                                  {"dtype": self._dtype, "element_shape": self._element_shape})
        if not self._items:
            shape = tuple(self._element_shape or ())
            return Tensor(np.zeros((0,) + shape, self._dtype._np))
        return _a.stack([self.read(i) for i in range(len(self._items))])

    def gather(self, indices, name=None):
        return _a.stack([self.read(i) for i in _tensor(indices)._value.tolist()])

    def concat(self, name=None):
        return _a.concat([self.read(i) for i in range(len(self._items))], 0)

    def unstack(self, value, name=None):
        value = _tensor(value)
        self._items = [value[i] for i in range(value._value.shape[0])]
        return self

    def scatter(self, indices, value, name=None):
        value = _tensor(value)
        for j, i in enumerate(_tensor(indices)._value.tolist()):
            self.write(i, value[j])
        return self

    def close(self, name=None):
        self._items = []

    def __repr__(self):
        return f"<tf.TensorArray dtype={self._dtype.name} size={len(self._items)}>"
