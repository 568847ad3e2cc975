"""The ``Callback`` base, ``CallbackList`` (what ``fit`` calls) and the callbacks that need only
``fit``'s logs and the model (History, ProgbarLogger, EarlyStopping, ...), with Keras 3's rules
and printed messages."""
import collections
import csv
import os
import warnings

from ..._core.backend import np
from ..config import print_msg
from ..utils.progbar import Progbar

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "MonitorCallback",
           "EarlyStopping", "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau",
           "CSVLogger", "TerminateOnNaN"]

_HOOKS = ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
          "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
          "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
          "on_predict_batch_begin", "on_predict_batch_end")


class Callback:
    """Base class: override any ``on_*`` hook; ``self.model`` and ``self.params`` are set
    by ``fit``."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params


def _noop(self, *args, **kwargs):
    return None


for _hook in _HOOKS + ("on_batch_begin", "on_batch_end"):
    setattr(Callback, _hook, _noop)


def _batch_begin(self, batch, logs=None):
    self.on_batch_begin(batch, logs)


def _batch_end(self, batch, logs=None):
    self.on_batch_end(batch, logs)


# As Keras, the train-batch hooks call the older on_batch_* hooks by default.
Callback.on_train_batch_begin = _batch_begin
Callback.on_train_batch_end = _batch_end


class History(Callback):
    """Records every epoch's logs in ``history`` (a dict of lists); ``fit`` returns it."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)


class ProgbarLogger(Callback):
    """Draws Keras's progress bar: one per epoch in ``fit``, one for ``evaluate`` and
    ``predict`` (validation inside ``fit`` stays silent)."""

    def __init__(self):
        super().__init__()
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self.seen = 0
        self._in_fit = False

    def set_params(self, params):
        super().set_params(params)
        verbose = params["verbose"]
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params["epochs"]
        self.target = params["steps"]

    def _reset(self):
        self.seen = 0
        self.progbar = Progbar(self.target, verbose=self.verbose, stateless_metrics=set())

    def _update(self, batch, logs):
        if self.progbar is None:
            self._reset()
        self.seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(self.seen, list((logs or {}).items()), finalize=False)

    def _finalize(self, logs):
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.seen
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_train_begin(self, logs=None):
        self._in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_begin(self, logs=None):
        if not self._in_fit:
            self._reset()

    def on_test_batch_end(self, batch, logs=None):
        if not self._in_fit:
            self._update(batch, logs)

    def on_test_end(self, logs=None):
        if not self._in_fit:
            self._finalize(logs)

    def on_predict_begin(self, logs=None):
        self._reset()

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def on_predict_end(self, logs=None):
        self._finalize(None)


class MonitorCallback(Callback):
    """A callback that watches one log (``monitor``) and knows whether it should go up or
    down (``mode``; 'auto' asks the metric, losses go down), as Keras 3's base.

    Raises:
        ValueError: in 'auto' mode, for a metric whose direction is unknown.
    """

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto "
                          "mode.", stacklevel=2)
            mode = "auto"
        self.monitor, self.mode, self.best = monitor, mode, baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = np.less
            for m in getattr(self.model, "metrics", None) or []:
                for sub in getattr(m, "metrics", [m]) + getattr(m, "weighted_metrics", []):
                    direction = getattr(sub, "_direction", None)
                    if sub.name == name and direction is not None:
                        self.monitor_op = np.greater if direction == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but "
                    "Keras isn't able to automatically determine whether that metric should "
                    "be maximized or minimized. Pass `mode='max'` in order to monitor based "
                    "on the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))


class EarlyStopping(MonitorCallback):
    """Stop training when ``monitor`` stops improving (``tf.keras.callbacks.EarlyStopping``).

    Args:
        monitor: the log to watch (default 'val_loss').
        min_delta: the smallest change that counts as an improvement.
        patience: epochs without improvement before stopping.
        verbose: 1 prints when it stops and when it restores weights.
        mode: 'min', 'max', or 'auto' (from the metric's direction; losses go down).
        baseline: a value to reach: until the monitored value beats it, epochs count
            towards ``patience`` even when they improve.
        restore_best_weights: put back the best epoch's weights at the end of training.
        start_from_epoch: epochs to wait before watching.
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.wait = self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best = None
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(list(logs.keys()))}",
                          stacklevel=2)
        return value


def _learning_rate(optimizer):
    return float(np.asarray(optimizer.learning_rate))


class LearningRateScheduler(Callback):
    """Set the learning rate at the start of each epoch to ``schedule(epoch, lr)`` (or
    ``schedule(epoch)``) and log it as ``learning_rate``
    (``tf.keras.callbacks.LearningRateScheduler``).

    Raises:
        ValueError: if the schedule returns something other than a float.
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            lr = self.schedule(epoch, _learning_rate(optimizer))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. "
                             f"Got: {lr}")
        optimizer.learning_rate = float(lr)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _learning_rate(self.model.optimizer)


class ReduceLROnPlateau(MonitorCallback):
    """Multiply the learning rate by ``factor`` after ``patience`` epochs without
    improvement of ``monitor`` (``tf.keras.callbacks.ReduceLROnPlateau``); logs
    ``learning_rate``.

    Raises:
        ValueError: for ``factor >= 1``.
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0. "
                             f"Received factor={factor}")
        self.factor, self.min_lr, self.patience = factor, min_lr, patience
        self.verbose, self.cooldown = verbose, cooldown
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _learning_rate(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` "
                          "which is not available. Available metrics are: "
                          f"{','.join(list(logs.keys()))}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old = _learning_rate(self.model.optimizer)
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    self.model.optimizer.learning_rate = new
                    if self.verbose > 0:
                        print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate "
                                  f"to {new}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0


class CSVLogger(Callback):
    """Write each epoch's logs to a CSV file (``tf.keras.callbacks.CSVLogger``): a header
    ``epoch`` plus the sorted log names (with ``val_`` columns added when no validation
    ran), a row per epoch.

    Args:
        filename: the file.
        separator: the column separator.
        append: add to an existing file (its header kept) instead of overwriting it.
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.writer = self.keys = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, mode, newline="")  # noqa: SIM115 - kept open
        self.writer = self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def handle(value):
            if isinstance(value, str):
                return value
            if isinstance(value, collections.abc.Iterable) and not (
                    isinstance(value, np.ndarray) and value.ndim == 0):
                return f'"[{", ".join(map(str, value))}]"'
            return value

        if self.keys is None:
            self.keys = sorted(logs.keys())
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys.extend([f"val_{k}" for k in self.keys])
        if not self.writer:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((k, handle(logs.get(k, "NA"))) for k in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


class TerminateOnNaN(Callback):
    """Stop training at the first batch whose loss is NaN or infinite
    (``tf.keras.callbacks.TerminateOnNaN``), or raise with ``raise_error=True``.

    Raises:
        RuntimeError: with ``raise_error=True``, at such a batch.
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: "
                                   f"{loss}. Terminating training immediately.")
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_epoch_end=lambda epoch, logs: ...)``."""

    def __init__(self, **hooks):
        super().__init__()
        for name, fn in hooks.items():
            if name not in _HOOKS + ("on_batch_begin", "on_batch_end"):
                raise ValueError(f"Unrecognized hook: {name}")
            setattr(self, name, fn)


class CallbackList:
    """Calls every hook on each callback in turn, adding History and ProgbarLogger."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        self.callbacks = list(callbacks or [])
        # As Keras 3: History, then the progress bar, after the user's callbacks.
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        for c in self.callbacks:
            if model is not None:
                c.set_model(model)
            c.set_params(params)

    @property
    def history(self):
        return next((c for c in self.callbacks if isinstance(c, History)), None)

    def __getattr__(self, name):
        if name not in _HOOKS:
            raise AttributeError(name)

        # Every hook gets a logs dict, ``{}`` when there are none (Keras 3's CallbackList
        # passes ``pythonify_logs(logs)``): ``on_train_begin(logs)``, ``on_epoch_end(epoch,
        # logs)``.
        n = 2 if ("epoch" in name or "batch" in name) else 1

        def call(*args):
            if len(args) < n or args[n - 1] is None:
                args = args[:n - 1] + ({},)
            for c in self.callbacks:
                getattr(c, name)(*args)
        return call
