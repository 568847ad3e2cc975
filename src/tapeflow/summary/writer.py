"""Summary writers and the default-writer state of ``tf.summary`` (TF 2's eager API).

A writer appends ``Event`` records to ``<logdir>/events.out.tfevents.<time>.<host>.<pid>.v2``
through tensorboardX's synchronous ``EventsWriter`` (the TFRecord framing and CRCs
TensorBoard reads), in the calling thread: ``flush`` returns with every event on disk, as
TensorFlow's does. tensorboardX is the optional extra ``tapeflow[tensorboard]``, imported
only when a writer is created. The default writer, the default step and ``record_if``
conditions are per thread, as in TensorFlow.
"""
import contextlib
import os
import threading
import time

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "flush",
           "record_if", "should_record_summaries", "get_step", "set_step"]


class _State(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.record = []


_state = _State()


def _tensorboardx():
    try:
        import tensorboardX
    except ImportError as exc:
        raise ImportError('tf.summary writes event files with the tensorboardX package: '
                          'pip install "tapeflow[tensorboard]"') from exc
    return tensorboardX


class SummaryWriter:
    """Writes summaries to an event file (``tf.summary.SummaryWriter``). Make one with
    :func:`create_file_writer`; ops write to the writer made default by ``as_default``."""

    def __init__(self, logdir, max_queue=None, flush_millis=None, filename_suffix=None):
        self._logdir = str(logdir)
        os.makedirs(self._logdir, exist_ok=True)
        suffix = filename_suffix if filename_suffix is not None else ".v2"
        _tensorboardx()
        from tensorboardX.event_file_writer import EventsWriter
        # TF's file name: <time>.<host>.<pid>.<id>; EventsWriter adds time and host.
        self._file = EventsWriter(os.path.join(self._logdir, "events"),
                                  f".{os.getpid()}.{_next_id()}{suffix}")
        self._max_queue = 10 if max_queue is None else max(1, int(max_queue))
        self._flush_seconds = 120.0 if flush_millis is None else flush_millis / 1000.0
        self._pending, self._last_flush = 0, time.time()
        self._closed = False

    @property
    def logdir(self) -> str:
        return self._logdir

    def _write_value(self, tag, value, step):
        """Append one ``Summary.Value`` (its tag set here) at ``step``."""
        from tensorboardX.proto import summary_pb2
        value.tag = tag
        self._write(summary_pb2.Summary(value=[value]), step)

    def _write(self, summary, step):
        if self._closed:
            raise RuntimeError("SummaryWriter is closed")
        from tensorboardX.proto import event_pb2
        now = time.time()
        self._file.write_event(event_pb2.Event(wall_time=now, step=int(step), summary=summary))
        self._pending += 1
        if self._pending >= self._max_queue or now - self._last_flush >= self._flush_seconds:
            self.flush()

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Make this the default writer (and ``step`` the default step) inside the block.

        Raises:
            RuntimeError: if the writer is closed (TensorFlow's text).
        """
        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")
        old_writer, old_step = _state.writer, _state.step
        _state.writer = self
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            self.flush()
            _state.writer = old_writer
            if step is not None:
                _state.step = old_step

    def set_as_default(self, step=None):
        """Make this the default writer from now on."""
        _state.writer = self
        if step is not None:
            _state.step = step

    def init(self):
        """Kept for TensorFlow's API: the file is opened when the writer is made."""

    def flush(self):
        """Write buffered events to disk."""
        if not self._closed:
            self._file.flush()
            self._pending, self._last_flush = 0, time.time()

    def close(self):
        """Flush and close the event file; later writes raise."""
        if not self._closed:
            self._file.close()
            self._closed = True

    def __repr__(self):
        return f"<tapeflow.summary.SummaryWriter logdir='{self._logdir}'>"


class _NoopWriter:
    """A writer that records nothing (``tf.summary.create_noop_writer``)."""

    @contextlib.contextmanager
    def as_default(self, step=None):
        old_writer, old_step = _state.writer, _state.step
        _state.writer = self
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            _state.writer = old_writer
            if step is not None:
                _state.step = old_step

    def set_as_default(self, step=None):
        _state.writer = self

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def _write(self, summary, step):
        pass

    def _write_value(self, tag, value, step):
        pass


_ids = iter(range(1 << 62))


def _next_id():
    return next(_ids)


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A writer of event files in ``logdir`` (``tf.summary.create_file_writer``).

    Args:
        logdir: the directory (created if missing).
        max_queue: how many events to buffer before writing (default 10).
        flush_millis: the longest time between flushes (default 120000).
        filename_suffix: appended to the event file's name (default ``.v2``).

    Returns:
        A ``SummaryWriter``.

    Raises:
        ImportError: without the optional tensorboardX package (``tapeflow[tensorboard]``).
    """
    del name, experimental_trackable, experimental_mesh
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer():
    """A writer that writes nothing."""
    return _NoopWriter()


def flush(writer=None, name=None):
    """Flush ``writer`` (default: the default writer)."""
    writer = writer or _state.writer
    if writer is not None:
        writer.flush()


def default_writer():
    return _state.writer


@contextlib.contextmanager
def record_if(condition):
    """Write summaries inside the block only when ``condition`` (a bool, a bool tensor or a
    callable returning one) holds (``tf.summary.record_if``)."""
    _state.record.append(condition)
    try:
        yield
    finally:
        _state.record.pop()


def should_record_summaries() -> bool:
    """Whether a summary op would write now: a default writer, and every ``record_if``
    condition true."""
    if _state.writer is None or isinstance(_state.writer, _NoopWriter):
        return False
    for condition in _state.record:
        value = condition() if callable(condition) else condition
        if not bool(value):
            return False
    return True


def get_step():
    """The default step (``tf.summary.experimental.get_step``), or None."""
    return _state.step


def set_step(step):
    """Set the default step (an int, a tensor or a variable; None clears it)."""
    _state.step = step


def resolve_step(step):
    """``step`` (a tensor or variable as given, read when the write op runs; else an int),
    or the default step.

    Raises:
        ValueError: if neither is set, with TensorFlow's text.
    """
    if step is None:
        step = _state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    if hasattr(step, "dtype") and hasattr(step, "shape"):
        return step
    return int(step)


