"""compile / fit / evaluate / predict for ``Model``, as Keras 3 runs them.

``fit`` runs the custom training loop a user would write (a GradientTape step per batch),
reports through callbacks (Keras's progress bar, History) and returns the History.
"""
import math
import sys

from .._core import nest
from .._core.backend import np
from .._core.tape import GradientTape
from .._core.tensor import Tensor, _TensorLike
from ..data.dataset import Dataset
from ..ops import random_ops as _random
from . import losses as _losses
from . import metrics as _metrics
from . import optimizers as _optimizers
from .callbacks import CallbackList

__all__ = ["Trainer"]

_METRICS_BY_NAME = {
    "sparse_categorical_accuracy": _metrics.SparseCategoricalAccuracy,
    "categorical_accuracy": _metrics.CategoricalAccuracy,
    "binary_accuracy": _metrics.BinaryAccuracy,
    "mse": _metrics.MeanSquaredError, "mean_squared_error": _metrics.MeanSquaredError,
    "mae": _metrics.MeanAbsoluteError, "mean_absolute_error": _metrics.MeanAbsoluteError,
}


def _accuracy_for(name, y_true, y_pred):
    """Keras's choice for 'accuracy': binary, sparse categorical or categorical."""
    t, p = np.shape(y_true), np.shape(y_pred)
    if p[-1:] == (1,):
        return _metrics.BinaryAccuracy(name=name)
    if len(t) < len(p) or (t[-1:] == (1,) and p[-1] > 1):
        return _metrics.SparseCategoricalAccuracy(name=name)
    return _metrics.CategoricalAccuracy(name=name)


def _make_metric(identifier, y_true, y_pred):
    if isinstance(identifier, _metrics.Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier.lower() in ("accuracy", "acc"):
            return _accuracy_for(identifier, y_true, y_pred)
        cls = _METRICS_BY_NAME.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret metric identifier: {identifier}")
        return cls(name=identifier)
    if callable(identifier):
        return _metrics.MeanMetricWrapper(identifier, name=identifier.__name__)
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


def _value(x):
    if x is None:
        return None
    return x._value if isinstance(x, _TensorLike) else np.asarray(x)


def _unpack(batch):
    if isinstance(batch, tuple):
        if len(batch) == 1:
            return batch[0], None, None
        if len(batch) == 2:
            return batch[0], batch[1], None
        return batch[0], batch[1], batch[2]
    return batch, None, None


class _Batches:
    """One epoch of ``(x, y, sample_weight)`` batches from arrays or a Dataset."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                 steps=None):
        self.dataset = x if isinstance(x, Dataset) else None
        if self.dataset is not None:
            if y is not None:
                raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be "
                                 "passed. Instead, the targets should be included as part of "
                                 "the dataset `x`.")
            card = self.dataset._cardinality
            self.steps = steps if steps is not None else (card if card >= 0 else None)
            self._fixed_steps, self._iterator = steps, None
            return
        self.arrays = nest.map_structure(_value, (x, y, sample_weight))
        self.n = len(nest.flatten(self.arrays[0])[0])
        self.batch_size = batch_size or 32
        self.shuffle = shuffle
        self.steps = steps if steps is not None else math.ceil(self.n / self.batch_size)

    def __iter__(self):
        if self.dataset is not None:
            if self._fixed_steps is None:
                for batch in self.dataset:
                    yield _unpack(batch)
                return
            # With a step count, one iterator runs on across epochs, as in Keras.
            for _ in range(self._fixed_steps):
                if self._iterator is None:
                    self._iterator = iter(self.dataset)
                try:
                    batch = next(self._iterator)
                except StopIteration:
                    self._iterator = None
                    return
                yield _unpack(batch)
            return
        order = (_random._rng(None).permutation(self.n) if self.shuffle
                 else np.arange(self.n))
        for step in range(self.steps):
            idx = order[step * self.batch_size:(step + 1) * self.batch_size]
            x, y, w = nest.map_structure(
                lambda a, idx=idx: None if a is None else Tensor(a[idx]),
                self.arrays)
            yield x, y, w


def _unscaled(loss):
    """The loss as shown in the logs: Keras scales it by ``1 / num_replicas_in_sync`` under
    a strategy for the gradients, and shows it unscaled."""
    ctx = sys.modules.get("tapeflow.distribute._context")
    n = 1 if ctx is None else ctx.get_strategy().num_replicas_in_sync
    return loss if n == 1 else loss * float(n)


def _distribute(strategy, data):
    """This worker's per-replica slices of a global batch ``(x, y, sample_weight)``."""
    from ..distribute.input_lib import combine, split_batch
    return combine(split_batch(data, strategy.num_replicas_in_sync,
                               strategy._global_replica_ids()))


class Trainer:
    """The training API of ``Model`` (``compile``, ``fit``, ``evaluate``, ``predict``)."""

    compiled = False
    stop_training = False

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """Set the optimizer, the loss and the metrics ``fit`` and ``evaluate`` use.

        Args:
            optimizer: an optimizer or its name ('adam', 'sgd', 'rmsprop').
            loss: a Loss, a loss function or a loss name.
            metrics: a list of metrics or names ('accuracy' picks binary, sparse or
                categorical accuracy from the data, as Keras does).
        """
        self.optimizer = _optimizers.get(optimizer)
        ctx = sys.modules.get("tapeflow.distribute._context")
        if ctx is not None and ctx.has_strategy():
            self._distribute_strategy = ctx.get_strategy()
        self.loss = loss
        self._loss_fn = None if loss is None else _losses.get(loss)
        self._metric_ids = list(metrics or [])
        self._compiled_metrics = None
        self._loss_tracker = _metrics.Mean(name="loss")
        self.compiled = True
        self.stop_training = False

    @property
    def metrics(self) -> list:
        """The loss tracker, then the compiled metrics (once built by a first batch)."""
        if not self.compiled:
            return []
        return [self._loss_tracker] + list(self._compiled_metrics or [])

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        """Reset the loss tracker and every compiled metric."""
        for m in self.metrics:
            m.reset_state()

    def _check_compiled(self):
        if not self.compiled:
            raise RuntimeError("You must call `compile()` before using the model.")

    def _update_metrics(self, loss, x, y, y_pred, sample_weight):
        if self._compiled_metrics is None:
            self._compiled_metrics = [_make_metric(m, _value(y), _value(y_pred))
                                      for m in self._metric_ids]
        batch = len(nest.flatten(x)[0])
        self._loss_tracker.update_state(loss, sample_weight=batch)
        for m in self._compiled_metrics:
            m.update_state(y, y_pred, sample_weight=sample_weight)

    def _logs(self):
        return {m.name: float(m.result()) for m in sorted(self.metrics, key=lambda m: m.name)}

    def _loss_value(self, y, y_pred, sample_weight):
        if self._loss_fn is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        if isinstance(self._loss_fn, _losses.Loss):
            loss = self._loss_fn(y, y_pred, sample_weight=sample_weight)
        else:
            loss = _losses._reduce(self._loss_fn(y, y_pred), "sum_over_batch_size",
                                   sample_weight)
        extra = getattr(self, "losses", None)
        if extra:
            for term in extra:
                loss = loss + _losses.scale_loss_for_distribution(term)
        return loss

    def train_step(self, data):
        """One optimisation step on a batch ``(x, y, sample_weight)``; returns the logs.

        Under a strategy with several replicas ``fit`` calls it once per replica on the
        replica's slice of the batch (``strategy.run``), as Keras 3 on TensorFlow does: the
        loss is scaled by ``1 / num_replicas_in_sync`` and the optimizer sums the gradients
        over replicas and updates once.
        """
        x, y, sample_weight = data
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._loss_value(y, y_pred, sample_weight)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables, strict=True))
        self._update_metrics(_unscaled(loss), x, y, y_pred, sample_weight)
        return self._logs()

    def test_step(self, data):
        """Compute the loss and update the metrics on a batch; returns the logs."""
        x, y, sample_weight = data
        y_pred = self(x, training=False)
        loss = self._loss_value(y, y_pred, sample_weight)
        self._update_metrics(_unscaled(loss), x, y, y_pred, sample_weight)
        return self._logs()

    def _run_step(self, step, batch):
        """``step(batch)``, or under the model's strategy (several replicas) ``step`` on every
        replica's slice, then the logs read once in cross-replica context."""
        strategy = getattr(self, "_distribute_strategy", None)
        if strategy is None:
            ctx = sys.modules.get("tapeflow.distribute._context")
            if ctx is not None and ctx.has_strategy():
                strategy = ctx.get_strategy()
        if strategy is None or strategy.num_replicas_in_sync == 1:
            return step(batch)
        strategy.run(step, args=(_distribute(strategy, batch),))
        return self._logs()

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Train for ``epochs`` passes over the data (``tf.keras.Model.fit``).

        Args:
            x, y: arrays (or tensors), or a Dataset of ``(x, y)`` batches as ``x``.
            batch_size: for arrays (default 32).
            epochs: the number of epochs.
            verbose: 'auto' or 1 (progress bar), 2 (one line per epoch), 0 (silent).
            callbacks: a list of Callbacks.
            validation_split: the fraction of the arrays (taken from the end) held out.
            validation_data: ``(x_val, y_val)`` or a Dataset, evaluated after each epoch.
            shuffle: reshuffle array data before each epoch.

        Returns:
            The History callback (``history.history`` maps each log to its per-epoch list).

        Raises:
            RuntimeError: if the model is not compiled.
        """
        self._check_compiled()
        if validation_split and validation_data is None:
            n = len(nest.flatten(nest.map_structure(_value, x))[0])
            split = int(n * (1.0 - validation_split))
            cut = lambda a, s: None if a is None else nest.map_structure(  # noqa: E731
                lambda v: _value(v)[s], a)
            validation_data = (cut(x, slice(split, None)), cut(y, slice(split, None)))
            x, y = cut(x, slice(None, split)), cut(y, slice(None, split))
            sample_weight = cut(sample_weight, slice(None, split))
        batches = _Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch)
        callback_list = CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                     model=self, verbose=verbose, epochs=epochs,
                                     steps=batches.steps)
        self.stop_training = False
        callback_list.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callback_list.on_epoch_begin(epoch)
            logs = {}
            for step, batch in enumerate(batches):
                callback_list.on_train_batch_begin(step)
                logs = self._run_step(self.train_step, batch)
                callback_list.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                if isinstance(validation_data, Dataset):
                    vx, vy, vw = validation_data, None, None
                else:
                    vx, vy, vw = _unpack(tuple(validation_data))
                val_logs = self.evaluate(vx, vy, batch_size=validation_batch_size or batch_size,
                                         sample_weight=vw, steps=validation_steps,
                                         callbacks=callback_list, return_dict=True)
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callback_list.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callback_list.on_train_end()
        self.history = callback_list.history
        return self.history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss and metrics over the data (``tf.keras.Model.evaluate``).

        Returns:
            ``[loss, metric, ...]`` (a scalar if there are no metrics), or a dict with
            ``return_dict=True``.
        """
        self._check_compiled()
        batches = _Batches(x, y, sample_weight, batch_size, False, steps)
        if not isinstance(callbacks, CallbackList):
            callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                     verbose=verbose, epochs=1, steps=batches.steps)
        callbacks.on_test_begin()
        self.reset_metrics()
        logs = {}
        for step, batch in enumerate(batches):
            callbacks.on_test_batch_begin(step)
            logs = self._run_step(self.test_step, batch)
            callbacks.on_test_batch_end(step, logs)
        logs = self._logs() if self._compiled_metrics is not None else logs
        callbacks.on_test_end(logs)
        if return_dict:
            return logs
        results = [logs[m.name] for m in self.metrics if m.name in logs]
        return results[0] if len(results) == 1 else results

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for every example, as NumPy arrays (``Model.predict``)."""
        batches = _Batches(x, None, None, batch_size, False, steps)
        callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                 verbose=verbose, epochs=1, steps=batches.steps)
        callbacks.on_predict_begin()
        outputs = []
        for step, (bx, _, _) in enumerate(batches):
            callbacks.on_predict_batch_begin(step)
            outputs.append(nest.map_structure(_value, self(bx, training=False)))
            callbacks.on_predict_batch_end(step, {"outputs": outputs[-1]})
        callbacks.on_predict_end()
        return nest.map_structure(lambda *parts: np.concatenate(parts), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """One training step on one batch; returns the loss (and metrics)."""
        self._check_compiled()
        self.reset_metrics()
        logs = self._run_step(self.train_step, (x, y, sample_weight))
        if return_dict:
            return logs
        results = [logs[m.name] for m in self.metrics]
        return results[0] if len(results) == 1 else results
