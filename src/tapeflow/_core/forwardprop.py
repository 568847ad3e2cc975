"""ForwardAccumulator: forward-mode derivatives (Jacobian-vector products).

The accumulator is a tape that watches its primals: ops downstream of them are recorded as
usual. ``jvp(target)`` then walks the recorded entries forward and pushes tangents through
each one, with the primitive's ``defjvp`` rule where one is written, else by differentiating
its VJP rule: the VJP ``u -> J^T u`` is linear in ``u``, so the gradient of ``<J^T u, t>``
with respect to ``u`` is ``J t`` (the transposition trick TensorFlow also uses). As in
TensorFlow, a float input of a recorded op that has no tangent (a constant) gets a zero one
once another input has a tangent, so its term is there too: ``c * x`` at an infinite ``x``
has tangent ``c dx + x 0``, NaN. All of it is done with tapeflow ops, so an outer
GradientTape or accumulator differentiates it again.
"""
from . import dispatch, nest
from .backend import np
from .backprop import UnconnectedGradients, sum_to_shape
from .engine_ops import OPS, load_rules
from .recording import _Tape
from .tensor import Tensor, _TensorLike, convert_to_tensor

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """Compute Jacobian-vector products of ops run inside its context.

    Args:
        primals: a Tensor or Variable, or a nested structure of them, to differentiate by.
        tangents: the direction: same structure, each shaped (and cast to the dtype) like
            its primal.

    Raises:
        ValueError: if the structures or shapes of ``primals`` and ``tangents`` differ.

    TensorFlow counterpart: ``tf.autodiff.ForwardAccumulator``.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
        ...     y = x * x
        >>> print(acc.jvp(y))
        tf.Tensor([2. 0.], shape=(2,), dtype=float32)
    """

    def __init__(self, primals, tangents):
        _load_rules()
        flat_p = nest.flatten(primals)
        flat_t = nest.flatten(tangents)
        if len(flat_p) != len(flat_t):
            raise ValueError(f"The two structures don't have the same number of elements. "
                             f"primals: {len(flat_p)}, tangents: {len(flat_t)}")
        self._tape = _Tape(True, False)
        self._tangents = {}
        self._recording = False
        for p, t in zip(flat_p, flat_t):
            if not isinstance(p, _TensorLike):
                raise ValueError(f"Expected a Tensor or Variable primal, got {p!r}")
            t = convert_to_tensor(t, dtype=p.dtype)
            if t._value.shape != p._value.shape:
                raise ValueError(f"Tangent {t} was expected to be of shape {p.shape} but is "
                                 f"instead of shape {t.shape}")
            if p._value.dtype.kind not in "fcV":
                continue
            self._tape.watched.add(p._id)
            self._tangents[p._id] = t

    def __enter__(self):
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        dispatch.push_tape(self._tape)
        self._recording = True
        return self

    def __exit__(self, typ, value, traceback):
        if self._recording:
            dispatch.remove_tape(self._tape)
            self._recording = False

    def jvp(self, primals, unconnected_gradients="none"):
        """The tangent of each of ``primals``: ``J t`` for the accumulator's direction ``t``.

        Args:
            primals: a Tensor or nested structure computed inside the context.
            unconnected_gradients: ``'none'`` (give ``None``) or ``'zero'`` (zeros) for a
                tensor that does not depend on the accumulator's primals.

        Returns:
            Tangents packed like ``primals``.

        Raises:
            AttributeError: for a leaf of ``primals`` that is not a Tensor (TensorFlow's
                first line, then a hint).
            ValueError: for an unknown ``unconnected_gradients``.
        """
        try:
            unconnected = UnconnectedGradients(getattr(unconnected_gradients, "value",
                                                       unconnected_gradients))
        except ValueError:
            raise ValueError(f"{unconnected_gradients!r} is not a valid "
                             "UnconnectedGradients") from None
        flat = nest.flatten(primals)
        for p in flat:
            if not isinstance(p, _TensorLike):
                raise AttributeError(
                    f"'{type(p).__name__}' object has no attribute '_id'\nHint: the `primals` "
                    f"of ForwardAccumulator.jvp must be Tensors or Variables, got {p!r}.")
        self._resolve({p._id: p._value.shape for p in flat})
        out = []
        for p in flat:
            t = self._tangents.get(p._id)
            if t is None and unconnected is UnconnectedGradients.ZERO:
                t = Tensor(np.zeros_like(p._value))
            out.append(t)
        return nest.pack_sequence_as(primals, out)

    def _resolve(self, wanted):
        """Push tangents through every pending entry that leads to an id in ``wanted``."""
        entries = self._tape.entries
        need = {i: s for i, s in wanted.items() if i not in self._tangents}
        if not need or not entries:
            return
        todo = []
        for e in reversed(entries):
            if any(o in need for o in e.out_ids):
                todo.append(e)
                for i, s in zip(e.in_ids, e.in_shapes):
                    if i not in self._tangents:
                        need.setdefault(i, s)
        if not todo:
            return
        done = set(map(id, todo))
        self._tape.entries = [e for e in entries if id(e) not in done]
        was_recording = self._recording
        if was_recording:
            dispatch.remove_tape(self._tape)
        try:
            for e in reversed(todo):
                shapes = ([need.get(e.out_ids[0])] if e.prim.n_outputs == 1
                          else [o._value.shape for o in e.out])
                for o, t in zip(e.out_ids, _entry_jvp(e, self._tangents, shapes)):
                    if t is not None:
                        self._tangents[o] = t
        finally:
            if was_recording:
                dispatch.push_tape(self._tape)


_rules_loaded = [False]


def _load_rules():
    if not _rules_loaded[0]:
        load_rules("jvp")
        _rules_loaded[0] = True


def _entry_jvp(e, tangents, out_shapes):
    """Output tangents of one entry from its input tangents (``None`` where there are none)."""
    in_t = [tangents.get(i) for i in e.in_ids]
    live = [t for t in in_t if t is not None]
    if not live:
        return [None] * len(out_shapes)
    prim = e.prim
    inputs = e.in_shapes if e.inputs is None else e.inputs
    if len(live) < len(in_t) and e.inputs is not None:
        # TensorFlow's accumulator gives every float input without a tangent a zero one, so
        # its term of the JVP is there too: 0 times an inf or nan partial is nan (x * c at an
        # infinite x, with c a constant, has tangent t c + x 0)
        in_t = [Tensor(np.zeros_like(x._value)) if t is None and x._value.dtype.kind in "fcV"
                else t for t, x in zip(in_t, inputs)]
    attrs = e.attrs or {}
    if prim.jvp is not None:
        out = prim.jvp(in_t, e.out, *inputs, **attrs)
        out = [out] if prim.n_outputs == 1 else list(out)
    else:
        out = _jvp_by_transposition(e, in_t, inputs, attrs, out_shapes, live[0]._value.dtype)
    return [t if t is None or t._value.shape == s else _broadcast(t, s)
            for t, s in zip(out, out_shapes)]


def _broadcast(t, shape):
    return OPS.broadcast_to(t, shape)


def _jvp_by_transposition(e, in_t, inputs, attrs, out_shapes, dtype):
    from .tape import GradientTape
    prim = e.prim
    us = [Tensor(np.zeros(s, dtype) if s else dtype.type(0)) for s in out_shapes]
    u = us[0] if prim.n_outputs == 1 else tuple(us)
    targets, seeds = [], []
    with GradientTape() as tape:
        tape.watch(us)
        for k, t in enumerate(in_t):
            if t is None or k >= len(prim.vjps) or prim.vjps[k] is None:
                continue
            v = prim.vjps[k](u, e.out, *inputs, **attrs)
            if v is None:
                continue
            if v._value.shape != e.in_shapes[k]:
                v = sum_to_shape(v, e.in_shapes[k])
            if t._value.dtype != v._value.dtype:
                t = OPS.cast(t, v.dtype)
            targets.append(v)
            seeds.append(t)
    if not targets:
        return [None] * len(us)
    return tape.gradient(targets, us, output_gradients=seeds)
