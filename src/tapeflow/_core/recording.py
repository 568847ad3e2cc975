"""What is recording on this thread: the tapes, the ``tf.function`` tracer, and a tape's entries.

The leaf of the engine: it imports nothing of tapeflow. ``dispatch`` records into what it holds,
``tensor`` and ``variable`` test it on every read, ``tape`` pushes and pops it.
"""
import contextlib
import threading

__all__ = ["ACTIVE", "tape_stack", "push_tape", "remove_tape", "current_tracer",
           "push_tracer", "pop_tracer", "Entry", "suspend", "init_scope", "executing_eagerly"]


class _ThreadState(threading.local):
    def __init__(self):
        self.stack = []
        # The innermost tf.function tracer of this thread (function/tracer.py), or None.
        self.tracer = None


_state = _ThreadState()
# How many tapes are recording in all threads together. While it is zero no thread needs
# to look at its own (thread-local) stack: the check on the hot path is one list index.
ACTIVE = [0]
_lock = threading.Lock()


def tape_stack() -> list:
    """This thread's stack of recording tapes, innermost last."""
    return _state.stack


def push_tape(tape):
    _state.stack.append(tape)
    with _lock:
        ACTIVE[0] += 1


def remove_tape(tape):
    stack = _state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is tape:
            del stack[i]
            with _lock:
                ACTIVE[0] -= 1
            return


def current_tracer():
    """This thread's innermost ``tf.function`` tracer, or None."""
    return _state.tracer


def push_tracer(tracer):
    """Make ``tracer`` this thread's innermost; it counts as an active tape while it traces,
    so every op reaches :func:`record` (and the tracer) behind the same one-attribute test."""
    tracer.parent = _state.tracer
    _state.tracer = tracer
    with _lock:
        ACTIVE[0] += 1


def pop_tracer(tracer):
    _state.tracer = tracer.parent
    with _lock:
        ACTIVE[0] -= 1


class Entry:
    """One recorded op: what the reverse sweep needs, and ids for everything else."""

    __slots__ = ("prim", "in_ids", "in_shapes", "inputs", "out", "out_ids", "attrs")

    def __init__(self, prim, in_ids, in_shapes, inputs, out, out_ids, attrs):
        self.prim = prim
        self.in_ids = in_ids
        self.in_shapes = in_shapes
        self.inputs = inputs
        self.out = out
        self.out_ids = out_ids
        self.attrs = attrs


class _Tape:
    """The recording itself: watched ids, entries in execution order, watched variables."""

    __slots__ = ("watched", "entries", "persistent", "watch_accessed", "variables", "events",
                 "started", "meter")

    def __init__(self, persistent, watch_accessed):
        self.watched = set()
        self.entries = []
        self.meter = None  # the size check's count, made at its first run (events.py)
        self.persistent = persistent
        self.watch_accessed = watch_accessed
        self.variables = {}
        self.events = None  # what explain() needs: see events.py
        self.started = None

    def watch_variable(self, v):
        if v._id not in self.variables:
            self.variables[v._id] = v
        self.watched.add(v._id)


def suspend(lift=False):
    """A context manager in which ops are not recorded as steps (a loop's later iterations
    at trace time); with ``lift`` also variable writes are outside the function, never
    undone (``tf.init_scope``)."""
    return _Suspend(lift)


class _Suspend:
    __slots__ = ("tracers", "lift")

    def __init__(self, lift):
        self.lift = lift

    def __enter__(self):
        tracers = []
        tr = _state.tracer
        while tr is not None:
            tr.suspended += 1
            tr.lifted += self.lift
            tracers.append(tr)
            tr = tr.parent
        self.tracers = tracers

    def __exit__(self, *exc):
        for tr in self.tracers:
            tr.suspended -= 1
            tr.lifted -= self.lift


@contextlib.contextmanager
def init_scope():
    """``tf.init_scope``: code that runs as if outside any ``tf.function`` being traced
    (initialization: its ops are not part of the program and its variable writes stay when
    a first trace that created variables is undone); a no-op in eager mode."""
    if _state.tracer is None:
        yield
        return
    with suspend(lift=True):
        yield


def executing_eagerly() -> bool:
    """False while a ``tf.function`` traces its body, else True (``tf.executing_eagerly``)."""
    return _state.tracer is None
