"""compile / fit / evaluate / predict for ``Model``, as Keras 3 runs them.

``fit`` runs the custom training loop a user would write (a GradientTape step per batch),
reports through callbacks (Keras's progress bar, History) and returns the History.
"""
import sys
import warnings

from ..._core import dispatch as _dispatch
from ..._core import nest
from ..._core.backend import np
from ..._core.tape import GradientTape
from ...data.dataset import Dataset
from ...ops import array_ops as _a
from ...ops import math_ops as _m
from ...ops import reduction_ops as _r
from .. import losses as _losses
from .. import metrics as _metrics
from .. import optimizers as _optimizers
from ..callbacks.callback import CallbackList
from .compile_utils import CompileLoss, CompileMetrics, _unscaled
from .data_adapter import (
    _Batches,
    _distribute,
    _Feed,
    _pack,
    _per_replica_shapes,
    _unpack,
    _value,
    class_weight_to_sample_weights,
)

__all__ = ["Trainer"]


def pythonify_logs(logs) -> dict:
    """Logs as callbacks see them: sorted by name, nested dicts flattened, tensors as Python
    floats (Keras 3's ``pythonify_logs``)."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            value = float(value)
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


def _concat_replicas(strategy, value):
    """The replicas' outputs of one predict step as one batch: concatenated along axis 0
    (stacked if scalars) over the local replicas and the workers (Keras 3's
    ``reduce_per_replica(..., "concat")``)."""
    from ...distribute.values import DistributedValues
    parts = (value.values if isinstance(value, DistributedValues) else (value,))
    if parts[0].shape.rank == 0:
        return _a.stack(list(parts), 0)
    return strategy.gather(value, 0)


class Trainer:
    """The training API of ``Model`` (``compile``, ``fit``, ``evaluate``, ``predict``) and
    Keras 3's step protocol: ``fit`` calls ``train_step(data)`` with ``x``, ``(x, y)`` or
    ``(x, y, sample_weight)``; the default step calls ``compute_loss`` and
    ``compute_metrics``; ``metrics`` lists the loss tracker, the compiled metrics, then the
    metrics the model holds as attributes."""

    compiled = False
    stop_training = False
    optimizer = None
    _loss_tracker = None
    _compile_metrics = None
    _compile_loss = None
    _loss_fn = None
    # Set by BackupAndRestore in on_train_begin: the epoch a resumed fit starts at.
    _initial_epoch = None
    _run_eagerly = False
    _jit_compile = False
    steps_per_execution = 1
    # Made by make_train_function / make_test_function / make_predict_function (on the
    # first fit / evaluate / predict), reset by compile.
    train_function = None
    test_function = None
    predict_function = None

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """Set the optimizer, the loss and the metrics ``fit`` and ``evaluate`` use.

        Args:
            optimizer: an optimizer or its name ('adam', 'sgd', 'rmsprop', ...).
            loss: a Loss, a loss function or a loss name (or None when ``train_step``
                computes its own); for several outputs also a list (one per output, in
                output order) or a dict keyed by output names (``CompileLoss``).
            loss_weights: a float scaling the loss, or a list/dict of per-output weights.
            metrics: metrics or names, updated without sample weights ('accuracy' picks
                binary, sparse or categorical accuracy from the data, as Keras does); for
                several outputs a list (per output) or a dict keyed by output names.
            weighted_metrics: metrics or names updated with the sample weights.
            run_eagerly: run ``train_step``, ``test_step`` and ``predict_step`` as Python
                on every batch; by default each is a ``tf.function(reduce_retracing=True)``
                (Python side effects such as ``print`` happen while tracing only, ``.numpy()``
                inside raises TensorFlow's error), as Keras 3 on TensorFlow runs them.
            steps_per_execution: kept as ``self.steps_per_execution`` (``fit`` runs one
                batch per call of the step function).
            auto_scale_loss: under the ``mixed_float16`` policy, wrap the optimizer in a
                ``LossScaleOptimizer`` (dynamic loss scaling), as Keras 3 does.
            jit_compile: ``"auto"`` is False (no accelerator); kept as ``self.jit_compile``
                and given to ``tf.function`` (which accepts it).
        """
        self.optimizer = _optimizers.get(optimizer)
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and \
                self.optimizer is not None and \
                not isinstance(self.optimizer, _optimizers.LossScaleOptimizer):
            # Keras 3 scales the loss of a mixed_float16 model dynamically
            self.optimizer = _optimizers.LossScaleOptimizer(self.optimizer,
                                                            name="loss_scale_optimizer")
        self._remember_strategy()
        # Keras 3 keeps an earlier compile's loss when given none (compile(optimizer) again)
        keep_loss = loss is None and self._compile_loss is not None
        previous = (self.loss, self._loss_fn, self._compile_loss, self._loss_weight) \
            if keep_loss else None
        self.loss = loss
        output_names = getattr(self, "output_names", None)
        per_output = isinstance(loss, (list, tuple, dict)) or isinstance(
            loss_weights, (list, tuple, dict))
        self._loss_fn = None if loss is None or per_output else _losses.get(loss)
        if self._loss_fn is not None and not isinstance(self._loss_fn, _losses.Loss):
            # a loss function is wrapped as Keras 3's CompileLoss does: the wrapper brings
            # (N,) labels and (N, 1) outputs to one rank before calling it
            self._loss_fn = _losses.LossFunctionWrapper(
                self._loss_fn, name=getattr(self._loss_fn, "__name__", None))
        self._compile_loss = None if loss is None else CompileLoss(loss, loss_weights,
                                                                   output_names)
        self._loss_weight = (1.0 if loss_weights is None or
                             isinstance(loss_weights, (list, tuple, dict)) else loss_weights)
        if keep_loss:
            self.loss, self._loss_fn, self._compile_loss, self._loss_weight = previous
        if metrics is not None or weighted_metrics is not None:
            # (Keras 3 keeps an earlier compile's metrics when given none.)
            self._compile_metrics = CompileMetrics(metrics, weighted_metrics,
                                                   output_names=output_names)
        self._loss_tracker = _metrics.Mean(name="loss")
        if jit_compile == "auto" or run_eagerly:
            if jit_compile is True:
                warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be "
                              "True. Disabling `jit_compile`.", stacklevel=2)
            jit_compile = False
        self._jit_compile = bool(jit_compile)
        self.run_eagerly = run_eagerly
        self.steps_per_execution = steps_per_execution
        self._compile_options = {"run_eagerly": run_eagerly,
                                 "steps_per_execution": steps_per_execution,
                                 "jit_compile": self._jit_compile,
                                 "metrics_given": metrics is not None or
                                 weighted_metrics is not None}
        self.train_function = self.test_function = self.predict_function = None
        self.compiled = True
        self.stop_training = False

    def _remember_strategy(self):
        """A model made in a strategy's scope trains, evaluates and predicts under it (Keras
        3 on TensorFlow keeps the strategy current at the model's creation); ``compile``
        in a scope sets it too."""
        ctx = sys.modules.get("tapeflow.distribute._context")
        if ctx is not None and ctx.has_strategy():
            self._distribute_strategy = ctx.get_strategy()

    def __getstate__(self):
        # A copy or pickle makes its own step functions (traced programs and closures
        # do not travel), as a copied Keras model starts with none.
        state = dict(vars(self))
        for name in ("train_function", "test_function", "predict_function"):
            state.pop(name, None)
        return state

    @property
    def run_eagerly(self) -> bool:
        """Whether the step functions made from now on run as Python on every batch
        (``compile(run_eagerly=...)``); a step function already made keeps its mode until
        ``compile`` or ``make_train_function(force=True)`` makes another, as in Keras."""
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    @property
    def jit_compile(self) -> bool:
        return self._jit_compile

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = value

    def _tracked_metrics(self):
        """Metrics held as attributes of this model or its layers (not the compiled ones)."""
        found = []
        for key, value in vars(self).items():
            if key in ("_loss_tracker", "_compile_metrics", "_compile_loss"):
                continue
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, _metrics.Metric) and all(item is not f for f in found):
                    found.append(item)
        for layer in self.layers:
            if isinstance(layer, Trainer):
                continue
            for item in vars(layer).values():
                if isinstance(item, _metrics.Metric) and all(item is not f for f in found):
                    found.append(item)
        return found

    @property
    def metrics(self) -> list:
        """The loss tracker, the compiled metrics (one ``CompileMetrics``), the per-output
        loss trackers (several outputs), then the metrics the model holds as attributes, as
        Keras 3 orders them."""
        out = []
        if self.compiled:
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            if self._compile_loss is not None:
                out.extend(self._compile_loss.metrics)
        return out + self._tracked_metrics()

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    @property
    def metrics_variables(self) -> list:
        return [v for m in self.metrics for v in m.variables]

    def reset_metrics(self):
        """Reset every metric of ``self.metrics``."""
        for m in self.metrics:
            m.reset_state()

    def _check_compiled(self):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss of ``(y, y_pred)`` plus every loss of ``self.losses``
        (``add_loss`` terms and weight and activity regularization), as Keras 3 sums them.
        With several outputs (or per-output losses) the compiled loss is ``CompileLoss``'s
        sum of the weighted per-output losses; ``y`` may then be a list (output order) or a
        dict keyed by output names, ``sample_weight`` one array for all outputs or one per
        output.

        Raises:
            ValueError: if there is nothing to compute (no compiled loss, no added loss),
                or for targets or losses that do not match the outputs (Keras's texts).
        """
        losses = []
        if self._compile_loss is not None and (
                self._loss_fn is None or nest.is_nested(y_pred) or nest.is_nested(y)):
            loss = self._compile_loss(y, y_pred, sample_weight)
            if loss is not None:
                losses.append(loss)
        elif self._loss_fn is not None:
            if isinstance(self._loss_fn, _losses.Loss):
                loss = self._loss_fn(y, y_pred, sample_weight=sample_weight)
            else:
                loss = _losses._reduce(self._loss_fn(y, y_pred), "sum_over_batch_size",
                                       sample_weight)
            if self._loss_weight != 1.0:
                loss = _m.multiply(loss, float(self._loss_weight))
            losses.append(loss)
        for extra in getattr(self, "losses", None) or ():
            if not extra.dtype.is_floating:
                extra = _a.cast(extra, "float32")
            losses.append(_losses.scale_loss_for_distribution(_r.reduce_sum(extra)))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        if len(losses) == 1:
            return losses[0]
        return _m.add_n([_a.cast(t, losses[0].dtype) if t.dtype != losses[0].dtype else t
                         for t in losses])

    def compute_metrics(self, x, y, y_pred, sample_weight=None) -> dict:
        """Update the compiled metrics; return ``get_metrics_result()``."""
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        """Each metric's current result by name (a compiled metrics' dict merged in)."""
        out = {}
        for m in self.metrics:
            if isinstance(m, CompileMetrics) and not m.built:
                continue
            result = m.result()
            if isinstance(result, dict):
                out.update(result)
            else:
                out[m.name] = result
        return out

    def _metrics_or_logs(self, logs):
        results = self.get_metrics_result()
        if isinstance(logs, dict) and set(logs) == set(results):
            return results
        return logs

    def _batch_size(self, x):
        """The batch size: in a traced step a tensor (Keras's ``tf.shape(x)[0]``), so the
        program serves every batch size; eagerly a Python float (cheaper)."""
        first = next(t for t in nest.flatten(x) if t is not None)
        if _dispatch.current_tracer() is None:
            return float(np.shape(first)[0])
        return _a.shape(first)[0]

    def train_step(self, data):
        """One optimisation step on ``data`` (``x``, ``(x, y)`` or ``(x, y, sample_weight)``);
        returns the metrics' results (Tensors).

        Under a strategy with several replicas ``fit`` calls it once per replica on the
        replica's slice of the batch (``strategy.run``, traced once per replica unless
        ``run_eagerly``), as Keras 3 on TensorFlow does: the loss is scaled by
        ``1 / num_replicas_in_sync`` (the loss tracker sees it unscaled) and the optimizer
        sums the gradients over replicas and updates once.
        """
        x, y, sample_weight = _unpack(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                     training=True)
            self._loss_tracker.update_state(_unscaled(loss), sample_weight=self._batch_size(x))
            loss = self.optimizer.scale_loss(loss)
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(loss, variables)
            self.optimizer.apply_gradients(zip(grads, variables, strict=True))
        else:
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def test_step(self, data):
        """Compute the loss and update the metrics on ``data``; returns the results."""
        x, y, sample_weight = _unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                 training=False)
        self._loss_tracker.update_state(_unscaled(loss), sample_weight=self._batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def predict_step(self, data):
        """The model's outputs for one batch."""
        x, _, _ = _unpack(data)
        return self(x, training=False)

    def _strategy(self):
        """The model's strategy (or the one in scope) when it has several replicas."""
        strategy = getattr(self, "_distribute_strategy", None)
        if strategy is None:
            ctx = sys.modules.get("tapeflow.distribute._context")
            if ctx is not None and ctx.has_strategy():
                strategy = ctx.get_strategy()
        if strategy is None or strategy.num_replicas_in_sync == 1:
            return None
        return strategy

    def _run_step(self, step, data, strategy=None):
        """``step(data)``, or under ``strategy`` (several replicas; ``data`` already split
        into PerReplica slices) ``step`` on every replica's slice, then the metrics' results
        read once in cross-replica context."""
        if strategy is None:
            return step(data)
        strategy.run(step, args=(data,))
        return self.get_metrics_result()

    def _maybe_symbolic_build(self, data):
        """Keras 3 on TensorFlow, for a model made under a strategy: before the first step
        of ``fit``, ``evaluate`` or ``*_on_batch`` the compiled metrics and the optimizer
        are built in the strategy's scope, so the step's first trace creates no variables
        and is not traced again. Keras finds the metrics' shapes with a symbolic call of
        the model (on replica 0's batch); tapeflow calls it on the batch (``training=False``,
        no state changes) when the compiled metrics are not built yet."""
        strategy = getattr(self, "_distribute_strategy", None)
        if strategy is None:
            return
        metrics = self._compile_metrics
        with strategy.scope():
            compile_loss = self._compile_loss
            loss_unbuilt = compile_loss is not None and not compile_loss.built
            if (metrics is not None and not metrics.built) or loss_unbuilt:
                from ...distribute.values import select_replica
                x, y, _ = _unpack(select_replica(data, 0))
                y_pred = self(x, training=False)
                if metrics is not None and not metrics.built:
                    metrics.build(y, y_pred)
                if loss_unbuilt and (self._loss_fn is None or nest.is_nested(y_pred)
                                     or nest.is_nested(y)):
                    y = compile_loss.reconcile(y, y_pred)
                    compile_loss.build(y, y_pred)
            if self.optimizer is not None and not self.optimizer.built:
                self.optimizer._build_once(self.trainable_variables)

    def _make_function(self, step_function, kind):
        """Keras 3's step function: ``function(iterator)`` runs ``step_function`` on the
        iterator's next ``steps_per_execution`` batches and returns the last step's logs.
        The step is a ``tf.function(reduce_retracing=True)`` unless ``run_eagerly``; under a
        strategy with several replicas the batch is split into per-replica slices outside
        and ``strategy.run(step_function, ...)`` with the metrics' read is what is traced,
        as Keras 3 on TensorFlow traces it (a Python ``print`` in the step runs once per
        replica per trace). ``function.experimental_trace_report()`` (tapeflow only) says
        what was traced and why, and any fall-back to eager execution."""
        compiled = []
        if not self.run_eagerly:
            from .._step_function import StepFunction

            # The epoch loop's calls and direct calls (train_on_batch) trace separately, as
            # in Keras, where the first are traced inside the function over the dataset
            # iterator: two functions, each with its own retracing detector. The strategy
            # (or None) is an argument, so its identity is part of the trace key.
            def multi_step_on_iterator(data, strategy):
                return self._run_step(step_function, data, strategy)

            def one_step_on_data(data, strategy):
                return self._run_step(step_function, data, strategy)

            compiled = [StepFunction(f, autograph=False, jit_compile=self.jit_compile,
                                     reduce_retracing=True, name=f"{kind}_{f.__name__}")
                        for f in (multi_step_on_iterator, one_step_on_data)]

        def function(iterator):
            relax_to = getattr(iterator, "relax_to", None)
            outputs, ran = None, False
            for _, data in zip(range(self.steps_per_execution), iterator):
                strategy = self._strategy()
                if strategy is not None and isinstance(iterator, _Feed):
                    # fit's and evaluate's batches are split per replica (Keras iterates a
                    # distributed dataset); train_on_batch's whole batch goes to every
                    # replica, as Keras 3 passes it to strategy.run
                    data = _distribute(strategy, data)
                if not ran:
                    self._maybe_symbolic_build(data)
                if not compiled:
                    outputs = self._run_step(step_function, data, strategy)
                elif relax_to is not None:
                    compile_loss = self._compile_loss
                    if compile_loss is not None:
                        compile_loss.unknown_batch = any(
                            s is not None and len(s) > 0 and s[0] is None for s in relax_to)
                    try:
                        outputs = compiled[0].call_with_spec(
                            _per_replica_shapes(relax_to, strategy), data, strategy)
                    finally:
                        if compile_loss is not None:
                            compile_loss.unknown_batch = False
                else:
                    outputs = compiled[1](data, strategy)
                ran = True
            if not ran:
                raise StopIteration
            return outputs

        function.experimental_trace_report = lambda: "\n".join(
            f.experimental_trace_report() for f in compiled) or "runs eagerly"
        return function

    def make_train_function(self, force=False):
        """Make ``self.train_function`` (``fit``'s and ``train_on_batch``'s step function)
        unless it exists; returns the existing one, or None when it made it (as Keras)."""
        if self.train_function is not None and not force:
            return self.train_function
        self.train_function = self._make_function(self.train_step, "train")

    def make_test_function(self, force=False):
        """Make ``self.test_function`` (``evaluate``'s and ``test_on_batch``'s)."""
        if self.test_function is not None and not force:
            return self.test_function
        self.test_function = self._make_function(self.test_step, "test")

    def make_predict_function(self, force=False):
        """Make ``self.predict_function``: ``predict_function(batches)`` runs
        ``predict_step`` on ``batches[0]``, as a ``tf.function(reduce_retracing=True)``
        keyed by the batch's shapes unless ``run_eagerly``. Under a strategy with several
        replicas ``strategy.run(predict_step, ...)`` is traced and the replicas' outputs are
        concatenated (``strategy.gather``), as Keras 3's ``reduce_per_replica(...,
        "concat")``; ``predict`` hands it the batch split per replica, ``predict_on_batch``
        the whole batch (each replica predicts all of it, as in Keras)."""
        if self.predict_function is not None and not force:
            return self.predict_function

        def one_step_on_data_distributed(data, strategy):
            if strategy is None:
                return self.predict_step(data[0])
            outputs = strategy.run(self.predict_step, args=(data[0],))
            return nest.map_structure(lambda v: _concat_replicas(strategy, v), outputs)

        compiled = None
        if not self.run_eagerly:
            from .._step_function import StepFunction
            compiled = StepFunction(one_step_on_data_distributed, autograph=False,
                                    jit_compile=self.jit_compile, reduce_retracing=True,
                                    name="predict_function")

        def predict_function(data):
            return (compiled or one_step_on_data_distributed)(data, self._strategy())

        predict_function.experimental_trace_report = (
            compiled.experimental_trace_report if compiled is not None
            else lambda: "runs eagerly")
        self.predict_function = predict_function

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
            ValueError: if the model is not compiled, or ``x``, ``y`` and
                ``sample_weight`` hold different numbers of samples (Keras's texts).
        """
        self._check_compiled()
        from ..config import max_epochs
        cap = max_epochs()  # keras.config's debugging cap
        if cap and cap < epochs:
            warnings.warn("Limiting epochs to %d" % cap, stacklevel=2)
            epochs = cap
        if validation_split and validation_data is None:
            n = len(nest.flatten(nest.map_structure(_value, x))[0])
            split = int(n * (1.0 - validation_split))
            cut = lambda a, s: None if a is None else nest.map_structure(  # noqa: E731
                lambda v: _value(v)[s], a)
            validation_data = (cut(x, slice(split, None)), cut(y, slice(split, None)))
            x, y = cut(x, slice(None, split)), cut(y, slice(None, split))
            sample_weight = cut(sample_weight, slice(None, split))
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same "
                                 "time.")
            if isinstance(y, (list, tuple, dict)):
                raise ValueError("`class_weight` is only supported for Models with a single "
                                 "output.")
            if y is not None:
                sample_weight = class_weight_to_sample_weights(y, class_weight)
        batches = _Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch,
                           class_weight=class_weight if isinstance(x, Dataset) else None)
        callback_list = CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                     model=self, verbose=verbose, epochs=epochs,
                                     steps=batches.steps)
        self.stop_training = False
        self.make_train_function()
        callback_list.on_train_begin()
        initial_epoch = self._initial_epoch or initial_epoch
        self._initial_epoch = None
        relax_to = None
        val_kwargs = {}   # Keras makes fit's validation iterator once: one cap warning
        training_logs = None   # the last epoch's logs: on_train_end gets them, as in Keras 3
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callback_list.on_epoch_begin(epoch)
            logs = {}
            for step, batch in enumerate(batches):
                callback_list.on_train_batch_begin(step)
                data = _pack(*batch)
                if step == 0 and epoch == initial_epoch:
                    relax_to = batches.spec_shapes(data)
                logs = self.train_function(_Feed(data, relax_to))
                callback_list.on_train_batch_end(step, pythonify_logs(logs))
                if self.stop_training:
                    break
            epoch_logs = pythonify_logs(self._metrics_or_logs(logs))
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                from ..utils.py_dataset import PyDataset
                if isinstance(validation_data, (Dataset, PyDataset)):
                    vx, vy, vw = validation_data, None, None
                else:
                    vx, vy, vw = _unpack(tuple(validation_data))
                val_logs = self.evaluate(vx, vy, batch_size=validation_batch_size or batch_size,
                                         sample_weight=vw, steps=validation_steps,
                                         callbacks=callback_list, return_dict=True,
                                         **val_kwargs)
                val_kwargs["_warn_cap"] = False
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            callback_list.on_epoch_end(epoch, epoch_logs)
            training_logs = epoch_logs
            if self.stop_training:
                break
        callback_list.on_train_end(training_logs)
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
        batches = _Batches(x, y, sample_weight, batch_size, False, steps,
                           warn_cap=kwargs.pop("_warn_cap", True))
        if not isinstance(callbacks, CallbackList):
            callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                     verbose=verbose, epochs=1, steps=batches.steps)
        self.make_test_function()
        callbacks.on_test_begin()
        self.reset_metrics()
        logs = {}
        relax_to = None
        for step, batch in enumerate(batches):
            callbacks.on_test_batch_begin(step)
            data = _pack(*batch)
            if step == 0:
                relax_to = batches.spec_shapes(data)
            logs = self.test_function(_Feed(data, relax_to))
            callbacks.on_test_batch_end(step, pythonify_logs(logs))
        logs = pythonify_logs(self._metrics_or_logs(logs))
        callbacks.on_test_end(logs)
        if return_dict:
            return logs
        return self._flatten_metrics_in_order(logs)

    def _flatten_metrics_in_order(self, logs):
        names = []
        for m in self.metrics:
            if isinstance(m, CompileMetrics):
                names += [sub.name for sub in m.metrics + m.weighted_metrics]
            else:
                names.append(m.name)
        results = [logs[n] for n in names if n in logs]
        results += [logs[k] for k in sorted(logs) if k not in names]
        return results[0] if len(results) == 1 else results

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for every example, as NumPy arrays (``Model.predict``)."""
        batches = _Batches(x, None, None, batch_size, False, steps, epoch_reset=False)
        callbacks = CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                 verbose=verbose, epochs=1, steps=batches.steps)
        self.make_predict_function()
        callbacks.on_predict_begin()
        outputs = []
        strategy = self._strategy()
        for step, (bx, _, _) in enumerate(batches):
            callbacks.on_predict_batch_begin(step)
            if strategy is not None:
                bx = _distribute(strategy, bx)
            outputs.append(nest.map_structure(_value, self.predict_function([bx])))
            callbacks.on_predict_batch_end(step, {"outputs": outputs[-1]})
        callbacks.on_predict_end()
        return nest.map_structure(lambda *parts: np.concatenate(parts), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on one batch; returns the loss (and metrics).

        ``train_step`` receives ``(x, y, sample_weight)`` (None where not given), as
        Keras 3 passes it; the step is traced per input shapes (``reduce_retracing``).

        Raises:
            ValueError: for both ``sample_weight`` and ``class_weight`` (Keras's text).
        """
        self._check_compiled()
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be "
                                 "specified at the same time. Received: sample_weight="
                                 f"{sample_weight}, class_weight={class_weight}")
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        self.make_train_function()
        self.reset_metrics()
        logs = pythonify_logs(self.train_function(iter([(x, y, sample_weight)])))
        if return_dict:
            return logs
        return self._flatten_metrics_in_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """The loss (and metrics) on one batch, without training; ``test_step`` receives
        ``(x, y, sample_weight)``."""
        self._check_compiled()
        self.make_test_function()
        self.reset_metrics()
        logs = pythonify_logs(self.test_function(iter([(x, y, sample_weight)])))
        if return_dict:
            return logs
        return self._flatten_metrics_in_order(logs)

    def predict_on_batch(self, x):
        """The model's outputs for one batch, as NumPy arrays; ``predict_step`` receives
        ``(x,)``, as Keras 3 passes it."""
        self.make_predict_function()
        return nest.map_structure(_value, self.predict_function([(x,)]))
