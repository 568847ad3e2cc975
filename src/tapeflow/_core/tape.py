"""GradientTape: watch, record (via dispatch), gradient, jacobian, reset, stop_recording."""
import contextlib

from . import events as _events
from . import explain as _explain
from . import nest
from .backend import np
from .backprop import UnconnectedGradients, _not_a_tensor, backward
from .engine_ops import OPS
from .recording import _Tape, push_tape, remove_tape
from .tensor import Tensor, _TensorLike, convert_to_tensor
from .variable import Variable, as_variable

__all__ = ["GradientTape", "UnconnectedGradients"]


def _warn(message, *args):
    """A warning on TensorFlow's logger, as TensorFlow logs its tape warnings."""
    from .. import _logging
    _logging.warning(message, *args)


def _vlog(message, *args):
    """What TensorFlow logs only at verbosity 1 (not shown by default)."""
    from .. import _logging
    _logging.vlog(1, message, *args)


_CONSUMED = ("A non-persistent GradientTape can only be used to compute one set of "
             "gradients (or jacobians)")


def _shape_of(value, arg, method):
    """``value.shape`` as TensorFlow reads it in jacobian/batch_jacobian, naming ``arg``."""
    if isinstance(value, _TensorLike):
        return value._value.shape
    raise AttributeError(
        f"'{type(value).__name__}' object has no attribute 'shape': the `{arg}` of "
        f"GradientTape.{method} must be a single Tensor or Variable, but received "
        f"{value!r}.")


def _output_gradient(og, t, k):
    """``output_gradients[k]`` checked against ``target[k]``: TensorFlow's class
    (InvalidArgumentError from the first op of the sweep), a message naming the argument."""
    from .errors import InvalidArgumentError
    v = t._value
    g = convert_to_tensor(og) if not isinstance(og, _TensorLike) else og
    if g._value.dtype != v.dtype:
        if isinstance(og, _TensorLike):
            raise InvalidArgumentError(
                None, None, f"output_gradients[{k}] has dtype {g.dtype.name} but target[{k}] "
                f"has dtype {t.dtype.name}: they must be the same.")
        g = convert_to_tensor(og, dtype=t.dtype)
    if g._value.shape != v.shape:
        try:  # TensorFlow accepts one that broadcasts to the target (a scalar)
            g = Tensor(np.broadcast_to(g._value, v.shape).copy())
        except ValueError:
            raise InvalidArgumentError(
                None, None, f"Shape of output_gradients[{k}] {g.shape} does not match the "
                f"shape of target[{k}] {t.shape}.") from None
    return g


def _check_batch_ranks(tshape, sshape):
    """batch_jacobian's shape checks, in TensorFlow's order and words."""
    if not tshape:
        raise IndexError("list index out of range\nHint: the `target` of "
                         "GradientTape.batch_jacobian must have rank >= 2 (batch first); "
                         "it is a scalar.")
    for shape in (tshape, sshape):
        if len(shape) < 2:
            raise ValueError(f"Shape {tuple(shape)} must have rank at least 2")
    if tshape[0] != sshape[0]:
        raise ValueError(f"Need first dimension of target shape ({tuple(tshape)}) and source "
                         f"shape ({tuple(sshape)}) to match.")


def _creation_order(variables):
    """The variables of an id -> variable dict in creation order (ids grow with creation)."""
    return tuple(variables[i] for i in sorted(variables))


def _check_unconnected(value):
    if value is UnconnectedGradients.NONE:
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


class GradientTape:
    """Record operations for automatic differentiation, as ``tf.GradientTape``.

    Ops run inside the ``with`` block are recorded when one of their inputs is watched:
    trainable Variables are watched when they are read (unless
    ``watch_accessed_variables=False``), tensors when passed to :meth:`watch`.

    Args:
        persistent: allow more than one ``gradient``/``jacobian`` call on this tape.
        watch_accessed_variables: watch every trainable Variable the block reads.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as g:
        ...     g.watch(x)
        ...     y = x * x
        >>> print(g.gradient(y, x))
        tf.Tensor(6.0, shape=(), dtype=float32)
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._tape = None
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recording = False
        self._watched_variables = {}  # id -> variable, kept when the tape is consumed
        self._consumed_at = None
        self._retained = None

    def __enter__(self):
        self._push_tape()
        return self

    def __exit__(self, typ, value, traceback):
        if self._recording:
            self._pop_tape()

    def _push_tape(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to "
                             "re-enter an already-active tape.")
        if self._tape is None:
            self._tape = _Tape(self._persistent, self._watch_accessed_variables)
            self._tape.started = _events.user_site(3)
        push_tape(self._tape)
        self._recording = True

    def _pop_tape(self):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        remove_tape(self._tape)
        self._recording = False

    def watch(self, tensor):
        """Watch a tensor, a variable, or a nested structure of them.

        Args:
            tensor: a Tensor or Variable, or a list/tuple/dict nesting them.

        Raises:
            ValueError: if a leaf is not a Tensor or Variable.

        Integer and bool tensors are not watched: a warning says so, as in TensorFlow.
        """
        if self._tape is None:
            self._tape = _Tape(self._persistent, self._watch_accessed_variables)
        for t in nest.flatten(tensor):
            # a wrapper of a Variable (keras.Variable) is neither a tf.Tensor nor a
            # tf.Variable: TensorFlow refuses it here too
            if not isinstance(t, _TensorLike) or (
                    not isinstance(t, Variable) and as_variable(t) is not None):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable or ExtensionType.")
            if t._value.dtype.kind not in "fcV":
                _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                      "got %r", t.dtype)
                continue
            if not isinstance(t, Variable):  # a Tensor, or a slice of a Variable
                self._tape.watched.add(t._id)
            else:
                self._tape.watch_variable(t)

    @contextlib.contextmanager
    def stop_recording(self):
        """A context in which ops are not recorded on this tape.

        Raises:
            RuntimeError: if the tape was never entered or has been used up.
            ValueError: if the tape is not recording (outside its ``with`` block, or
                already inside ``stop_recording``).
        """
        if self._tape is None:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        shadow = _events.start_shadow(self._tape)
        try:
            yield
        finally:
            _events.end_shadow(self._tape, shadow)
            self._push_tape()

    def reset(self):
        """Forget everything recorded so far, as if the block had just been entered.

        Raises:
            ValueError: if the tape is not recording (outside its ``with`` block or inside
                ``stop_recording``), as in TensorFlow.
        """
        self._pop_tape()
        self._tape = None
        self._push_tape()

    def watched_variables(self) -> tuple:
        """The variables this tape watches, in the order they were created (as TensorFlow)."""
        if self._tape is not None:
            return _creation_order(self._tape.variables)
        return _creation_order(self._watched_variables)

    def _begin_gradient(self):
        if self._tape is None:
            raise RuntimeError(_CONSUMED)
        if self._recording:
            if not self._persistent:
                self._pop_tape()
            else:
                _warn(
                    "Calling GradientTape.gradient on a persistent tape inside its context is "
                    "significantly less efficient than calling it outside the context (it "
                    "causes the gradient ops to be recorded on the tape, leading to increased "
                    "CPU and memory usage). Only call GradientTape.gradient inside the context "
                    "if you actually want to trace the gradient in order to compute higher "
                    "order derivatives.")

    def _end_gradient(self):
        if not self._persistent:
            _events.note_consumed(self)
            self._watched_variables = self._tape.variables
            self._tape = None

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of ``target`` with respect to ``sources``.

        Args:
            target: a Tensor or Variable, or a nested structure of them; several targets
                are summed.
            sources: a Tensor or Variable, or a nested structure (list, tuple, dict) of them.
            output_gradients: optional upstream gradients, one per target, each shaped
                like its target (or a scalar, broadcast) and of its dtype.
            unconnected_gradients: ``UnconnectedGradients.NONE`` (or ``'none'``) or
                ``ZERO`` (``'zero'``): what an unconnected source gets.

        Returns:
            Gradients packed like ``sources``: Tensors shaped and typed like each source,
            ``None`` for an unconnected, unwatched or integer source.

        Raises:
            RuntimeError: on a second call to a non-persistent tape.
            ValueError: for an unknown ``unconnected_gradients``, or a number of output
                gradients other than the number of targets (TensorFlow silently drops
                the extra ones).
            InvalidArgumentError: for an output gradient whose shape or dtype differs
                from its target's.
            TypeError, AttributeError: for a target or source that is not a Tensor or
                Variable (TensorFlow's classes and first lines).
        """
        unconnected = _check_unconnected(unconnected_gradients)
        self._begin_gradient()
        flat_sources = nest.flatten(sources)
        result = self._gradient(target, flat_sources, output_gradients, unconnected)
        _events.remember_none(self, target, flat_sources, result)
        self._end_gradient()
        return nest.pack_sequence_as(sources, result)

    def _target_grads(self, target, output_gradients):
        flat_targets = nest.flatten(target)
        if output_gradients is None:
            flat_og = None
        else:
            flat_og = nest.flatten(output_gradients)
            if len(flat_og) != len(flat_targets):
                raise ValueError(
                    f"Length of output_gradients ({len(flat_og)}) must match the number of "
                    f"targets ({len(flat_targets)}).")
        pairs = []
        for k, t in enumerate(flat_targets):
            if not isinstance(t, _TensorLike):
                if target is None:
                    raise TypeError("Argument `target` should be a list or nested structure "
                                    "of Tensors, Variables or CompositeTensors to be "
                                    "differentiated, but received None.")
                raise _not_a_tensor(t, "target")
            v = t._value
            if v.dtype.kind not in "fcV":
                _vlog("The dtype of the target tensor must be floating (e.g. tf.float32) "
                      "when calling GradientTape.gradient, got %r", t.dtype)
            if flat_og is None:
                # ones_like is an op inside a trace: the seed takes each call's shape
                g = Tensor(v.dtype.type(1)) if v.ndim == 0 else OPS.ones_like(t)
            else:
                g = _output_gradient(flat_og[k], t, k)
            pairs.append((t._id, g))
        return pairs

    def _gradient(self, target, flat_sources, output_gradients, unconnected):
        watched = self._tape.watched
        ids = []
        live = []
        for s in flat_sources:
            if not isinstance(s, _TensorLike):
                raise _not_a_tensor(s, "sources")
            if s._value.dtype.kind not in "fcV":
                _vlog("The dtype of the source tensor must be floating (e.g. tf.float32) "
                      "when calling GradientTape.gradient, got %r", s.dtype)
                ids.append(None)
                continue
            i = s._id
            ids.append(i)
            if i in watched:
                live.append(i)
        pairs = self._target_grads(target, output_gradients)
        if len(live) < len(ids):  # a target that is itself a source gets its seed, watched
            targets = {t for t, _ in pairs}  # or not, as in TensorFlow
            live += [i for i in ids if i in targets and i not in watched]
        found = backward(self._tape.entries, pairs, live, keep_sparse=True)
        out = [found.get(i) for i in ids]
        if unconnected is UnconnectedGradients.ZERO:
            out = [Tensor(np.zeros_like(s._value)) if g is None else g
                   for g, s in zip(out, flat_sources)]
        return out

    def explain(self, target, sources):
        """Why each source's gradient is ``None``: one short reason per source.

        Beyond TensorFlow. The reasons name the place in your code where the chain broke:
        never watched, integer dtype, not connected, left the tape through ``.numpy()`` /
        ``float()`` / ``np.*``, written by ``assign``, recorded under ``stop_recording``,
        or the tape consumed by an earlier ``gradient`` call.

        Args:
            target: the Tensor (or nested structure) you take the gradient of.
            sources: a Tensor/Variable or a nested structure of them.

        Returns:
            A str per source, packed like ``sources``.

        Example:
            >>> import tapeflow as tf
            >>> w = tf.Variable(2.0, name="w")
            >>> with tf.GradientTape() as tape:
            ...     loss = tf.constant(float(w * 3.0)) ** 2
            >>> print(tape.explain(loss, w).split(":")[:2])
            ["w (Variable 'w", "0')"]
        """
        return _explain.explain(self, target, sources)

    def summary(self, print_fn=None):
        """Print the number of entries, the ops, the bytes held and where recording began.

        Args:
            print_fn: the function that prints the text (default ``print``).
        """
        _explain.summary(self, print_fn)

    def to_dot(self, target=None, filename=None, format=None):  # noqa: A002
        """The recorded graph as Graphviz DOT text, the path to ``target`` in red.

        See :func:`tapeflow._core.explain.to_dot` for rendering to PNG/SVG.
        """
        return _explain.to_dot(self, target, filename, format)

    def _check_pfor(self, use_pfor):
        if not use_pfor and not self._persistent:
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the jacobian "
                "with eager execution enabled and with  experimental_use_pfor set to False.")

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """The Jacobian of ``target`` with respect to each source.

        Args:
            target: a Tensor of shape ``T``.
            sources: a Tensor or Variable of shape ``S``, or a nested structure of them.
            unconnected_gradients: as in :meth:`gradient`.
            parallel_iterations: accepted for TensorFlow's signature.
            experimental_use_pfor: True (default) runs one reverse sweep with a batch of
                one-hot cotangents; False runs one sweep per element of ``target``.

        Returns:
            Per source a Tensor of shape ``T + S`` (``None`` if unconnected), packed like
            ``sources``.

        Raises:
            RuntimeError: on a non-persistent tape that was already used, or with
                ``experimental_use_pfor=False`` on a non-persistent tape (as TensorFlow).

        Example:
            >>> import tapeflow as tf
            >>> x = tf.constant([1.0, 2.0])
            >>> with tf.GradientTape() as g:
            ...     g.watch(x)
            ...     y = x * x
            >>> print(g.jacobian(y, x).numpy())
            [[2. 0.]
             [0. 4.]]
        """
        from . import jacobians
        unconnected = _check_unconnected(unconnected_gradients)
        self._check_pfor(experimental_use_pfor)
        if target is None or isinstance(target, (list, tuple, dict, float, int)):
            _shape_of(target, "target", "jacobian")
        self._begin_gradient()
        flat_sources = nest.flatten(sources)
        result = jacobians.jacobian(self, target, flat_sources, unconnected,
                                    bool(experimental_use_pfor))
        self._end_gradient()
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: ``result[i] = d target[i] / d source[i]``.

        Args:
            target: a Tensor of shape ``[b, y1, ...]``; row ``i`` depends on ``source[i]`` only.
            source: a Tensor or Variable of shape ``[b, x1, ...]``.
            unconnected_gradients: as in :meth:`gradient`.
            parallel_iterations, experimental_use_pfor: as in :meth:`jacobian`.

        Returns:
            A Tensor of shape ``[b, y1, ..., x1, ...]``; zeros if unconnected, as in
            TensorFlow.

        Raises:
            ValueError: if target or source has rank < 2 or their first dimensions
                differ (TensorFlow's texts).
            IndexError: for a scalar target, as TensorFlow.
            AttributeError: for a target or source that is not a Tensor or Variable.
            RuntimeError: as in :meth:`jacobian`.
        """
        from . import jacobians
        unconnected = _check_unconnected(unconnected_gradients)
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the "
                "batch_jacobian with eager execution enabled and  with experimental_use_pfor "
                "set to False.")
        _check_batch_ranks(_shape_of(target, "target", "batch_jacobian"),
                           _shape_of(source, "source", "batch_jacobian"))
        self._begin_gradient()
        result = jacobians.batch_jacobian(self, target, source, unconnected,
                                          bool(experimental_use_pfor))
        self._end_gradient()
        return result
