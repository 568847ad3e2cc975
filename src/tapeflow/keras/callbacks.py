"""Callbacks for ``Model.fit`` / ``evaluate`` / ``predict`` (``tf.keras.callbacks``)."""
from .._core.backend import np
from .utils.progbar import Progbar

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping",
           "LambdaCallback", "ModelCheckpoint", "BackupAndRestore"]

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


for _hook in _HOOKS:
    setattr(Callback, _hook, _noop)


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
            print(f"Epoch {epoch + 1}/{self.epochs}")

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


class EarlyStopping(Callback):
    """Stop training when ``monitor`` stops improving (``tf.keras.callbacks.EarlyStopping``).

    Args:
        monitor: the log to watch (default 'val_loss').
        min_delta: the smallest change that counts as an improvement.
        patience: epochs without improvement before stopping.
        mode: 'min', 'max', or 'auto' (max for names containing 'acc', else min).
        baseline: a value to beat.
        restore_best_weights: put back the best epoch's weights when stopping.
        start_from_epoch: epochs to wait before watching.
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        maximise = mode == "max" or (mode == "auto" and "acc" in monitor)
        self._sign = 1.0 if maximise else -1.0
        self.min_delta = abs(min_delta)
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = -np.inf if self.baseline is None else self._sign * self.baseline
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        value = (logs or {}).get(self.monitor)
        if value is None or epoch < self.start_from_epoch:
            return
        score = self._sign * value
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if score - self.min_delta > self.best:
            self.best, self.best_epoch, self.wait = score, epoch, 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None and self.stopped_epoch:
            self.model.set_weights(self.best_weights)


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_epoch_end=lambda epoch, logs: ...)``."""

    def __init__(self, **hooks):
        super().__init__()
        for name, fn in hooks.items():
            if name not in _HOOKS:
                raise ValueError(f"Unrecognized hook: {name}")
            setattr(self, name, fn)


class CallbackList:
    """Calls every hook on each callback in turn, adding History and ProgbarLogger."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        self.callbacks = list(callbacks or [])
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
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

        def call(*args):
            for c in self.callbacks:
                getattr(c, name)(*args)
        return call


# Callbacks that write Keras files live with the saving code.
from .saving.callbacks import BackupAndRestore, ModelCheckpoint  # noqa: E402
