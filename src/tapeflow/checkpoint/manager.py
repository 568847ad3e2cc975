"""``tf.train.CheckpointManager``: numbered saves in a directory, keeping the last N."""
import collections
import glob
import os
import time
import warnings

from . import atomic, bundle, state, workers

__all__ = ["CheckpointManager"]


def _evaluate(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    return int(value)


class CheckpointManager:
    """Save numbered checkpoints of a ``tf.train.Checkpoint`` and delete old ones
    (``tf.train.CheckpointManager``).

    Each ``save`` writes ``<directory>/<checkpoint_name>-<N>`` (data, then index), then
    the ``checkpoint`` state file listing it, and only then deletes checkpoints beyond
    ``max_to_keep``; the state file is rewritten without them. A crash at any point
    leaves a state file that names complete checkpoints only.

    Args:
        checkpoint: the ``tf.train.Checkpoint`` to save and restore.
        directory: where the files go (created if needed).
        max_to_keep: how many recent checkpoints to keep; None keeps all.
        keep_checkpoint_every_n_hours: additionally keep one checkpoint per this many
            hours (not deleted, no longer listed).
        checkpoint_name: the file prefix (default ``ckpt``).
        step_counter: a variable or int; with ``checkpoint_interval``, saves happen only
            every that many steps.
        checkpoint_interval: the minimum number of steps between saves.
        init_fn: called by ``restore_or_initialize`` when there is no checkpoint.
        last_checkpoint_step: the step of the last checkpoint, if known.

    Raises:
        ValueError: for ``max_to_keep <= 0`` or ``checkpoint_interval`` without
            ``step_counter``.

    >>> import tapeflow as tf, tempfile
    >>> ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    >>> manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=2)
    >>> for _ in range(3):
    ...     path = manager.save()
    >>> [p.rsplit("/", 1)[1] for p in manager.checkpoints]
    ['ckpt-2', 'ckpt-3']
    """

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None, last_checkpoint_step=None):
        self._checkpoint = checkpoint
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._directory = os.fspath(directory)
        self._checkpoint_prefix = os.path.join(self._directory, checkpoint_name)
        self._init_fn = init_fn
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                             "not None.")
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._last_checkpoint_step = last_checkpoint_step
        recovered = state.get_checkpoint_state(self._directory)
        now = time.time()
        self._maybe_delete = collections.OrderedDict()
        if recovered is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now
        else:
            self._latest_checkpoint = recovered.model_checkpoint_path
            self._last_preserved_timestamp = recovered.last_preserved_timestamp
            if now < self._last_preserved_timestamp:
                warnings.warn("time.time() returned a value less than the last preserved "
                              "checkpoint's timestamp; the clock may have moved back.",
                              stacklevel=2)
                self._last_preserved_timestamp = now
            stamps = recovered.all_model_checkpoint_timestamps
            paths = recovered.all_model_checkpoint_paths
            if not stamps:
                stamps = [self._last_preserved_timestamp] * len(paths)
            for path, stamp in zip(paths, stamps):
                stamp = min(stamp, now)
                if stamp > self._last_preserved_timestamp:
                    self._maybe_delete[path] = stamp

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The path of the newest checkpoint, or None."""
        return self._latest_checkpoint

    @property
    def checkpoints(self) -> list:
        """The kept checkpoints' paths, oldest first."""
        return list(self._maybe_delete)

    def _record_state(self):
        paths, stamps = list(self._maybe_delete), list(self._maybe_delete.values())
        state.update_checkpoint_state(self._directory, self._latest_checkpoint, paths, stamps,
                                      self._last_preserved_timestamp)

    def _sweep(self, delete=True):
        """Drop the oldest checkpoints beyond ``max_to_keep`` from the list (and, unless
        ``delete`` is False, from the disk)."""
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = self._maybe_delete.popitem(last=False)
            hours = self._keep_checkpoint_every_n_hours
            if hours and stamp - hours * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            if delete:
                _remove(bundle.index_path(path))  # uncommits it first
                for data in glob.glob(glob.escape(path) + ".data-?????-of-?????"):
                    _remove(data)
        if delete:
            atomic.fsync_dir(self._directory)

    def _remove_orphans(self, keep):
        """Data files whose index is gone (a crash between the two deletions or renames)."""
        for data in glob.glob(glob.escape(self._checkpoint_prefix) + "-*.data-?????-of-?????"):
            prefix = data.rsplit(".data-", 1)[0]
            if prefix != keep and not os.path.exists(bundle.index_path(prefix)):
                _remove(data)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Write a new checkpoint, record it, then delete the oldest beyond ``max_to_keep``.

        Args:
            checkpoint_number: the ``N`` in ``ckpt-N`` (an int or variable); default the
                checkpoint's ``save_counter`` after incrementing it.
            check_interval: with ``checkpoint_interval``, skip the save if too few steps
                passed since the last one.

        Returns:
            The path written, or None when the interval skipped the save.

        Raises:
            OSError: if writing fails; the previous checkpoints and state are intact.
        """
        if self._checkpoint_interval is not None:
            step = _evaluate(self._step_counter)
            if self._last_checkpoint_step is not None:
                if step == self._last_checkpoint_step:
                    return None
                if check_interval and step < self._last_checkpoint_step + \
                        self._checkpoint_interval:
                    return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(counter.dtype.as_numpy_dtype(1))
        try:
            number = _evaluate(counter if checkpoint_number is None else checkpoint_number)
            path = self._checkpoint.write(f"{self._checkpoint_prefix}-{number}", options)
        except BaseException:
            counter.assign_sub(counter.dtype.as_numpy_dtype(1))
            raise
        self._maybe_delete.pop(path, None)
        self._maybe_delete[path] = time.time()
        self._latest_checkpoint = path
        if workers.is_writer():
            self._record_state()  # the new checkpoint is listed before anything is deleted
            self._sweep()
            self._record_state()
            self._remove_orphans(path)
        else:
            self._sweep(delete=False)   # the same list as the chief's, nothing touched
        workers.wait()
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint if there is one, else call ``init_fn``.

        Returns:
            The restored path, or None.
        """
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = _evaluate(self._step_counter)
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
