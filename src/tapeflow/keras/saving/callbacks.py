"""``fit`` callbacks that write Keras files: ModelCheckpoint and BackupAndRestore (Keras 3's
behaviour, file names and messages; every file written atomically)."""
import json
import os
import shutil
import warnings

from ...checkpoint import atomic as _atomic
from ..callbacks.callback import Callback, MonitorCallback
from ..config import print_msg

__all__ = ["ModelCheckpoint", "BackupAndRestore"]

# Metrics whose value should grow; any other monitored value should shrink.


class ModelCheckpoint(MonitorCallback):
    """Save the model (or its weights) during ``fit`` (``tf.keras.callbacks.ModelCheckpoint``).

    ``filepath`` may hold ``str.format`` fields filled from the epoch (1-based), the batch
    (with an integer ``save_freq``) and the logs: ``"ckpt-{epoch:02d}-{val_loss:.2f}.keras"``.

    Args:
        filepath: ends in ``.keras``, or in ``.weights.h5`` with ``save_weights_only``.
        monitor: the log compared when ``save_best_only`` (default ``'val_loss'``).
        verbose: 1 prints a line per save (Keras's text), 0 is silent.
        save_best_only: save only when ``monitor`` improves (a missing value warns and
            saves).
        save_weights_only: call ``save_weights`` instead of ``save``.
        mode: 'auto' (loss and error metrics fall, accuracies rise), 'min' or 'max'.
        save_freq: 'epoch', or an integer number of batches.
        initial_value_threshold: the best value to beat at the start.

    Raises:
        ValueError: for a file name that does not fit the format, or a bad ``save_freq``.

    >>> import tapeflow as tf
    >>> cb = tf.keras.callbacks.ModelCheckpoint("ckpt-{epoch:02d}.weights.h5",
    ...                                         save_weights_only=True)
    >>> cb.filepath.format(epoch=3)
    'ckpt-03.weights.h5'
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                             "'epoch' or integer values")
        if save_weights_only:
            if not self.filepath.endswith(".weights.h5"):
                raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, "
                                 "the filepath provided must end in `.weights.h5` (Keras "
                                 f"weights format). Received: filepath={self.filepath}")
        elif not self.filepath.endswith((".keras", ".h5")):
            raise ValueError("The filepath provided must end in `.keras` (Keras model "
                             f"format). Received: filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            added = batch + 1
        else:
            added = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _should_save(self, epoch, logs, filepath):
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        if self.monitor_op is None:
            self._set_monitor_op()
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.",
                          stacklevel=3)
            return True
        best_str = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best_str} to "
                          f"{current:.5f}, saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best_str}")
        return False

    def _save_model(self, epoch, batch, logs):
        logs = dict(logs or {})
        filepath = self._get_file_path(epoch, batch, logs)
        if not self._should_save(epoch, logs, filepath):
            return
        if os.path.isdir(filepath):
            raise OSError("Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}")
        folder = os.path.dirname(filepath)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from e


class BackupAndRestore(Callback):
    """Back up the training state so an interrupted ``fit`` resumes where it stopped
    (``tf.keras.callbacks.BackupAndRestore``).

    Files, as Keras 3 writes them: ``<backup_dir>/latest.weights.h5`` (the model and its
    optimizer) and ``<backup_dir>/training_metadata.json`` (``{"epoch": e, "batch": b}``,
    the next epoch to run). At the start of ``fit`` a backup found there is loaded and
    training starts at its epoch; at a normal end the directory is deleted
    (``delete_checkpoint``). Each file is replaced atomically, so a crash leaves the previous
    backup loadable.

    Args:
        backup_dir: the directory of the backup.
        save_freq: 'epoch', or back up every that many batches.
        double_checkpoint: also keep the previous backup as ``*.bkp``, used when the latest
            one cannot be read.
        delete_checkpoint: remove ``backup_dir`` when ``fit`` ends normally.

    Raises:
        ValueError: for an empty ``backup_dir`` or a bad ``save_freq``; at the start of
            ``fit``, for a model not built yet.
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = os.fspath(backup_dir)
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._training_metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._prev_weights_path = f"{self._weights_path}.bkp"
        self._prev_training_metadata_path = f"{self._training_metadata_path}.bkp"
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError("Invalid value for argument `save_freq`. Received: "
                             f"save_freq={save_freq}. Expected either 'epoch' or an integer "
                             "value.")

    def on_train_begin(self, logs=None):
        try:
            self._load_model()
        except OSError:
            if not os.path.exists(self._prev_weights_path):
                raise
            _copy(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_training_metadata_path):
                _copy(self._prev_training_metadata_path, self._training_metadata_path)
            elif os.path.exists(self._training_metadata_path):
                os.remove(self._training_metadata_path)
            self._load_model()

    def _load_model(self):
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built "
                             f"before you call `fit()`. Model {self.model} is unbuilt. You can "
                             "build it beforehand by calling it on a batch of data.")
        if os.path.exists(self._weights_path):
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as f:
                self.model._initial_epoch = json.loads(f.read())["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model()

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch":
            return False
        added = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _save_model(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint and os.path.exists(self._weights_path):
            _copy(self._weights_path, self._prev_weights_path)
        if self.double_checkpoint and os.path.exists(self._training_metadata_path):
            _copy(self._training_metadata_path, self._prev_training_metadata_path)
        self.model.save_weights(self._weights_path, overwrite=True)
        with _atomic.atomic_path(self._training_metadata_path) as tmp:
            with open(tmp, "w") as f:
                f.write(json.dumps({"epoch": self._current_epoch,
                                    "batch": self._last_batch_seen}))

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)


def _copy(source, target):
    with _atomic.atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)
