"""The events a tape notes while it records, for ``explain``: the hooks the hot path calls.

The events (a tensor on a tape's path turned into NumPy, a variable written by ``assign``,
ops run under ``stop_recording``, the call that consumed a tape) are noted only when some
tape is recording and the tensor involved is watched by it: with no tape active every hook
costs one test of ``recording.ACTIVE[0]`` at its call site. The size check that
``dispatch.record`` runs every 1024 entries is here too. The reports built on these events
are in ``explain.py``.
"""
import linecache
import os
import sys
import threading
import warnings

from .recording import _state, _Tape, push_tape, remove_tape

__all__ = ["set_tape_size_warning", "user_site", "on_leave", "on_assign", "start_shadow",
           "end_shadow", "note_consumed", "remember_none", "held", "check_size"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TAPE_BYTES_WARNING = [512 * 1024 * 1024]
# The last gradient call that returned None for some source, for the optimizer's message.
_last_none = threading.local()


def set_tape_size_warning(nbytes: int) -> None:
    """Warn (once per tape) when a tape holds more than ``nbytes`` of saved tensors.

    Args:
        nbytes: the threshold in bytes (default 512 MiB); ``0`` or ``None`` turns it off.
    """
    _TAPE_BYTES_WARNING[0] = int(nbytes or 0)


# ----------------------------------------------------------------------------- sites


def user_site(skip=2):
    """``(filename, lineno)`` of the innermost frame outside tapeflow, or ``None``."""
    try:
        frame = sys._getframe(skip)
    except ValueError:
        return None
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno


def _where(site):
    if site is None:
        return "an unknown place"
    filename, lineno = site
    text = linecache.getline(filename, lineno).strip()
    place = f"{os.path.basename(filename)}:{lineno}"
    return f"{place} (`{text}`)" if text else place


# ----------------------------------------------------------------------------- events


def _note(tape, event):
    if tape.events is None:
        tape.events = []
    tape.events.append(event)


def on_leave(t, how, plain):
    """A watched tensor's value left the tapes as NumPy/Python (``numpy()``, ``float()``).

    Reading a trainable variable this way watches it, as in TensorFlow (where ``.numpy()``
    is a read): ``watched_variables()`` lists it and ``explain`` says where it left.
    ``plain`` tells that ``t`` is a plain ``Tensor`` (no variable to watch).
    """
    site = None
    for tape in _state.stack:
        if not plain and tape.watch_accessed and t._watchable(tape):
            tape.watch_variable(t)
        if t._id in tape.watched:
            site = site or user_site(3)
            _note(tape, ("left", t._id, how, site))


def on_assign(var, value, op):
    """A variable was written while a tape records: the value's chain stops there."""
    vid = getattr(value, "_id", None)
    site = None
    for tape in _state.stack:
        if vid in tape.watched or var._id in tape.watched:
            site = site or user_site(3)
            _note(tape, ("assign", vid, var._id, var.name, op, site))


class _ChainSet:
    """The ids a paused tape watches plus those made under ``stop_recording`` since."""

    __slots__ = ("parent", "own")

    def __init__(self, parent):
        self.parent = parent
        self.own = set()

    def __contains__(self, i):
        return i in self.parent or i in self.own

    def update(self, ids):
        self.own.update(ids)

    def add(self, i):
        self.own.add(i)


def start_shadow(tape):
    """While ``tape`` is paused, note (without saving values) the ops its tensors reach."""
    shadow = _Tape(False, False)
    shadow.watched = _ChainSet(tape.watched)
    shadow.events = user_site(4)
    push_tape(shadow)
    return shadow


def end_shadow(tape, shadow):
    remove_tape(shadow)
    parent = tape.watched
    used = {i for e in shadow.entries for i in e.in_ids if i in parent}
    if used:
        names = sorted({e.prim.name for e in shadow.entries})
        _note(tape, ("stopped", used, names, shadow.events))


def note_consumed(gtape):
    gtape._consumed_at = user_site(3)


def remember_none(gtape, target, flat_sources, result):
    """Keep what ``explain`` needs when a gradient call returned ``None`` for some source."""
    if any(g is None for g in result):
        gtape._retained = (gtape._tape, target)
        _last_none.record = (gtape, target, list(flat_sources), result)
    elif getattr(_last_none, "record", None) is not None:
        _last_none.record = None



# ----------------------------------------------------------------------------- size


class _SizeMeter:
    """What a tape's size check has counted so far (made at the first check)."""

    __slots__ = ("counted", "seen", "nbytes", "warned")

    def __init__(self):
        self.counted = 0
        self.seen = set()
        self.nbytes = 0
        self.warned = False


def held(tape):
    """The bytes of the arrays ``tape`` keeps alive, counting only new entries each time."""
    meter = tape.meter
    if meter is None:
        meter = tape.meter = _SizeMeter()
    seen = meter.seen
    entries = tape.entries
    for e in entries[meter.counted:]:
        saved = list(e.inputs or ())
        if e.out is not None:
            saved.extend(e.out if isinstance(e.out, tuple) else (e.out,))
        for t in saved:
            v = getattr(t, "_value", None)
            if v is not None and id(v) not in seen:
                seen.add(id(v))
                meter.nbytes += getattr(v, "nbytes", 0)
    meter.counted = len(entries)
    return meter.nbytes


def check_size(tape):
    """Warn once if ``tape`` holds more than the limit; ``dispatch.record`` calls this
    every 1024 entries (``dispatch._CHECK_MASK``), so recording pays one length test per op."""
    limit = _TAPE_BYTES_WARNING[0]
    if not limit or (tape.meter is not None and tape.meter.warned) or held(tape) <= limit:
        return
    tape.meter.warned = True
    warnings.warn(
        f"A GradientTape holds {tape.meter.nbytes:,} bytes in {len(tape.entries):,} recorded "
        f"ops (more than {limit:,}); it started recording at {_where(tape.started)}. A tape "
        f"keeps every op run inside its `with` block: a loop that accumulates a loss inside "
        f"a persistent tape for a whole epoch keeps every step alive. Open one tape per "
        f"step (tapeflow.debugging.set_tape_size_warning changes this limit).",
        ResourceWarning, stacklevel=5)
