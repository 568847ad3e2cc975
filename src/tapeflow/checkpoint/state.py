"""The ``checkpoint`` state file: which checkpoints a directory holds, newest last.

A text ``CheckpointState`` protobuf, written atomically (temporary, fsync, rename):
``model_checkpoint_path: "ckpt-3"``, then ``all_model_checkpoint_paths`` and
``all_model_checkpoint_timestamps`` per checkpoint, then ``last_preserved_timestamp``.
Paths inside the directory are stored relative, as TensorFlow's managers do.
"""
import os
import re
import time

from . import atomic, bundle

__all__ = ["CheckpointState", "get_checkpoint_state", "update_checkpoint_state",
           "latest_checkpoint", "checkpoints_iterator"]

_LINE = re.compile(r'^\s*(\w+)\s*:\s*(".*"|[-+0-9.eE]+|inf|nan)\s*$')


class CheckpointState:
    """The parsed state file (``tf.train.get_checkpoint_state``'s result)."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __repr__(self):
        return _format(self)


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unquote(text):
    return re.sub(r"\\(.)", lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), text[1:-1])


def _format(st):
    lines = [f"model_checkpoint_path: {_quote(st.model_checkpoint_path)}"]
    lines += [f"all_model_checkpoint_paths: {_quote(p)}" for p in st.all_model_checkpoint_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}"
              for t in st.all_model_checkpoint_timestamps]
    if st.last_preserved_timestamp:
        lines.append(f"last_preserved_timestamp: {st.last_preserved_timestamp!r}")
    return "\n".join(lines) + "\n"


def _state_path(directory, latest_filename):
    return os.path.join(directory, latest_filename or "checkpoint")


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's ``checkpoint`` state file (``tf.train.get_checkpoint_state``).

    Args:
        checkpoint_dir: the directory.
        latest_filename: the state file's name (default ``checkpoint``).

    Returns:
        A CheckpointState (``model_checkpoint_path``, ``all_model_checkpoint_paths``,
        ``all_model_checkpoint_timestamps``, ``last_preserved_timestamp``; relative paths
        joined to ``checkpoint_dir``), or None without a state file.
    """
    path = _state_path(checkpoint_dir, latest_filename)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    st = CheckpointState()
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        key, raw = m.groups()
        value = _unquote(raw) if raw.startswith('"') else float(raw)
        if key == "model_checkpoint_path":
            st.model_checkpoint_path = value
        elif key == "all_model_checkpoint_paths":
            st.all_model_checkpoint_paths.append(value)
        elif key == "all_model_checkpoint_timestamps":
            st.all_model_checkpoint_timestamps.append(value)
        elif key == "last_preserved_timestamp":
            st.last_preserved_timestamp = value
    if st.model_checkpoint_path and not os.path.isabs(st.model_checkpoint_path):
        st.model_checkpoint_path = os.path.join(checkpoint_dir, st.model_checkpoint_path)
    st.all_model_checkpoint_paths = [p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)
                                     for p in st.all_model_checkpoint_paths]
    return st


def _relative(directory, path):
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(directory or "."):
        return os.path.basename(path)
    return path


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None,
                            latest_filename=None):
    """Atomically replace the state file of ``save_dir``."""
    paths = list(all_model_checkpoint_paths or [])
    if model_checkpoint_path not in paths:
        paths.append(model_checkpoint_path)
    st = CheckpointState(_relative(save_dir, model_checkpoint_path),
                         [_relative(save_dir, p) for p in paths],
                         list(all_model_checkpoint_timestamps or []),
                         last_preserved_timestamp or 0.0)
    atomic.write_bytes(_state_path(save_dir, latest_filename), _format(st).encode("utf-8"))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint's path in ``checkpoint_dir`` (``tf.train.latest_checkpoint``).

    Read from the directory's ``checkpoint`` state file; None if there is none or its
    checkpoint's index file is missing.

    Args:
        checkpoint_dir: the directory.
        latest_filename: the state file's name (default ``checkpoint``).

    Returns:
        A path such as ``'dir/ckpt-3'``, or None.

    >>> import tapeflow as tf, tempfile, os
    >>> directory = tempfile.mkdtemp()
    >>> tf.train.latest_checkpoint(directory) is None
    True
    >>> ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    >>> _ = ckpt.save(os.path.join(directory, "ckpt"))
    >>> _ = ckpt.save(os.path.join(directory, "ckpt"))
    >>> os.path.basename(tf.train.latest_checkpoint(directory))
    'ckpt-2'
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    st = get_checkpoint_state(checkpoint_dir, latest_filename)
    if st is None or not st.model_checkpoint_path:
        return None
    if os.path.exists(bundle.index_path(st.model_checkpoint_path)):
        return st.model_checkpoint_path
    return None


def _wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1.0,
                             timeout=None):
    stop = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of ``checkpoint_dir`` as it appears
    (``tf.train.checkpoints_iterator``), e.g. for an evaluator beside a training job.

    Args:
        checkpoint_dir: the directory to watch.
        min_interval_secs: the least time between two yielded checkpoints.
        timeout: seconds to wait for a new checkpoint before stopping (None: forever).
        timeout_fn: called on a timeout; the iteration stops if it returns True, else
            waiting goes on.

    Yields:
        Checkpoint paths, newest each time.
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    path = None
    while True:
        path = _wait_for_new_checkpoint(checkpoint_dir, path, timeout=timeout)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        start = time.time()
        yield path
        wait = start + min_interval_secs - time.time()
        if wait > 0:
            time.sleep(wait)
