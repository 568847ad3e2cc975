"""compile / fit / evaluate / predict for ``Model``, as Keras 3 runs them.

``fit`` runs the custom training loop a user would write (a GradientTape step per batch),
reports through callbacks (Keras's progress bar, History) and returns the History.
"""
import math
import sys
import warnings

from .._core import dispatch as _dispatch
from .._core import nest
from .._core.backend import np
from .._core.tape import GradientTape
from .._core.tensor import Tensor
from ..data.dataset import Dataset
from ..ops import array_ops as _a
from ..ops import math_ops as _m
from ..ops import random_ops as _random
from ..ops import reduction_ops as _r
from . import _naming
from . import losses as _losses
from . import metrics as _metrics
from . import optimizers as _optimizers
from .callbacks import CallbackList

__all__ = ["Trainer"]

def _static_shape(x):
    """The shape a trace knows (``None`` for unknown dims; None for an unknown rank),
    without reading values."""
    shape = getattr(x, "shape", None)
    if shape is None:
        return np.shape(x)
    if getattr(shape, "rank", 0) is None:
        return None
    return tuple(shape)


def _binary_or_sparse(y_true, y_pred):
    """Keras's ``is_binary_or_sparse_categorical``: from the ranks and last dims only."""
    t, p = _static_shape(y_true) or (), _static_shape(y_pred) or ()
    last_t, last_p = (t[-1] if t else None), (p[-1] if p else None)
    binary = last_p == 1
    sparse = len(t) < len(p) or (last_t == 1 and last_p is not None and last_p > 1)
    return binary, sparse


def _accuracy_for(name, y_true, y_pred):
    """Keras's choice for 'accuracy': binary, sparse categorical or categorical."""
    binary, sparse = _binary_or_sparse(y_true, y_pred)
    if binary:
        return _metrics.BinaryAccuracy(name=name)
    if sparse:
        return _metrics.SparseCategoricalAccuracy(name=name)
    return _metrics.CategoricalAccuracy(name=name)


def _make_metric(identifier, y_true, y_pred):
    """A compiled metric as Keras 3's ``get_metric`` makes it: 'accuracy'/'acc' picks the
    binary, sparse or categorical variant from the shapes; other names go through
    ``keras.metrics.get``; a function is wrapped in ``MeanMetricWrapper``; the metric is
    named after a string identifier ('mae' logs as 'mae').

    Raises:
        ValueError: for None or an identifier ``keras.metrics.get`` does not know.
    """
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        metric = _accuracy_for(str(identifier), y_true, y_pred)
    else:
        metric = _metrics.get(identifier)
    if isinstance(identifier, str):
        name = identifier
    else:
        name = getattr(metric, "name", None) or getattr(metric, "__name__", None) or \
            type(metric).__name__
    if not isinstance(metric, _metrics.Metric):
        metric = _metrics.MeanMetricWrapper(metric)
    metric.name = name
    return metric


def _value(x):
    if x is None:
        return None
    a = np.asarray(x)
    if a.dtype.kind in "US":  # Keras takes no NumPy strings (feed a tf.data.Dataset)
        raise ValueError(f"Invalid dtype: {a.dtype.name}")
    return a


def _unpack(batch):
    """``(x, y, sample_weight)`` from what a step receives (Keras's
    ``unpack_x_y_sample_weight``)."""
    if isinstance(batch, list):
        batch = tuple(batch)
    if isinstance(batch, tuple):
        if len(batch) == 1:
            return batch[0], None, None
        if len(batch) == 2:
            return batch[0], batch[1], None
        if len(batch) == 3:
            return batch[0], batch[1], batch[2]
        raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                         f"`(x, y, sample_weight)`, found: {batch}")
    return batch, None, None


def _pack(x, y, sample_weight):
    """The data a step receives, as Keras packs it: ``x``, ``(x, y)`` or
    ``(x, y, sample_weight)``."""
    if y is None and sample_weight is None:
        return x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


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


class CompileMetrics(_metrics.Metric):
    """The metrics given to ``compile``, built on the first batch (so 'accuracy' can pick
    its variant from the data); ``result()`` is a dict of their results, as Keras 3's.

    For a model with several outputs, ``metrics`` is a list (one entry per output, in output
    order: a metric, a list of them or None) or a dict keyed by output names; each result is
    named ``'{output}_{metric}'`` (a repeated name gets ``_1``, ``_2``...).

    Args:
        metrics: metrics or names updated without sample weights.
        weighted_metrics: metrics or names updated with sample weights.
        output_names: the model's output names (or None).

    Raises:
        ValueError: for ``metrics`` or ``weighted_metrics`` not a list, tuple or dict; (at
            build) for per-output metrics that match neither the output names nor the
            number of outputs (Keras's texts).
    """

    def __init__(self, metrics, weighted_metrics, name="compile_metrics", output_names=None):
        super().__init__(name=name)
        for argument, given in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if given and not isinstance(given, (list, tuple, dict)):
                raise ValueError(f"Expected `{argument}` argument to be a list, tuple, or "
                                 f"dict. Received instead: {argument}={given} of type "
                                 f"{type(given)}")
        self._given = metrics, weighted_metrics
        self._user = _metric_list(metrics)
        self._user_weighted = _metric_list(weighted_metrics)
        self.output_names = output_names
        self.metrics, self.weighted_metrics = [], []
        self._groups = None   # several outputs: [(output name, metrics, weighted)]
        self._resolved_names = None
        self.built = False

    def build(self, y_true, y_pred):
        """Make the metrics; 'accuracy' and 'crossentropy' pick their variant from the ranks
        and last dims of ``y_true`` and ``y_pred`` (no values are read, so this runs while
        a step is traced)."""
        n_outputs = len(nest.flatten(y_pred))
        if n_outputs == 1:
            y_t, y_p = nest.flatten(y_true)[0], nest.flatten(y_pred)[0]
            self.metrics = [_make_metric(m, y_t, y_p) for m in self._user]
            self.weighted_metrics = [_make_metric(m, y_t, y_p) for m in self._user_weighted]
            self.built = True
            return
        flat = _is_flat_outputs(y_pred)
        names = self.output_names
        if flat and isinstance(y_pred, dict) and not (names and set(y_pred) == set(names)):
            names = sorted(y_pred)
        self._resolved_names = names if flat else None
        y_true = self._flatten_y(y_true)
        y_pred = self._flatten_y(y_pred)
        self._groups = []
        for given, weighted in zip(self._given, (False, True), strict=True):
            per_output = self._per_output(given, n_outputs, names, flat,
                                          "weighted_metrics" if weighted else "metrics")
            for i, entry in enumerate(per_output):
                if entry is None:
                    continue
                made = [_make_metric(m, y_true[i], y_pred[i]) for m in _metric_list(entry)]
                self._groups.append((names[i] if names else None, made, weighted))
                (self.weighted_metrics if weighted else self.metrics).extend(made)
        self.built = True

    def _per_output(self, given, n_outputs, names, flat, argument):
        if not given:
            return []
        if flat and isinstance(given, (list, tuple)) and len(given) == n_outputs:
            return list(given)
        if flat and names and isinstance(given, dict) and set(given) <= set(names):
            return [given.get(name) for name in names]
        raise ValueError(f"Invalid `{argument}`. `{argument}` should contain metrics objects "
                         "and either be a dict or a list matching the output names of the "
                         f"functional model {self.output_names} or match the output "
                         "structure of the model.\n"
                         f"Received: {argument}={given}")

    def _flatten_y(self, y):
        if isinstance(y, dict) and self._resolved_names is not None:
            return [y[name] for name in self._resolved_names]
        return nest.flatten(y)

    @property
    def variables(self) -> list:
        return [v for m in self.metrics + self.weighted_metrics for v in m.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        if self._groups is None:
            for m in self.metrics:
                m.update_state(y_true, y_pred)
            for m in self.weighted_metrics:
                m.update_state(y_true, y_pred, sample_weight=sample_weight)
            return
        y_true, y_pred = self._flatten_y(y_true), self._flatten_y(y_pred)
        weights = [None] * len(y_true)
        if sample_weight is not None:
            weights = self._flatten_y(sample_weight)
            if len(weights) < len(y_true):   # one weight array for every output
                weights = [weights[0]] * len(y_true)
        index = {name: i for i, name in enumerate(self._resolved_names or ())}
        for position, (name, group, weighted) in enumerate(self._groups):
            i = index.get(name, position) if name is not None else position
            for m in group:
                if weighted:
                    m.update_state(y_true[i], y_pred[i], sample_weight=weights[i])
                else:
                    m.update_state(y_true[i], y_pred[i])

    def result(self) -> dict:
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        results = {}
        if self._groups is None:
            for m in self.metrics:
                results.setdefault(m.name, m.result())
            for m in self.weighted_metrics:
                name = m.name if m.name not in results else f"weighted_{m.name}"
                results[name] = m.result()
            return results
        counts = {}

        def unique(name):
            if name not in counts:
                counts[name] = 1
                return name
            counts[name] += 1
            return f"{name}_{counts[name] - 1}"

        for weighted in (False, True):
            for output, group, is_weighted in self._groups:
                if is_weighted != weighted:
                    continue
                for m in group:
                    name = f"{output}_{m.name}" if output else m.name
                    if weighted and name in counts:
                        name = f"weighted_{m.name}"
                        name = f"{output}_{name}" if output else name
                    results[unique(name)] = m.result()
        return results

    def reset_state(self):
        for m in self.metrics + self.weighted_metrics:
            m.reset_state()


def _metric_list(metrics) -> list:
    """The metrics of a ``compile`` argument (or of one output's entry) as a flat list."""
    if metrics is None:
        return []
    if isinstance(metrics, (list, tuple, dict)):
        return nest.flatten(metrics)
    return [metrics]


def _get_loss(identifier, y_true, y_pred):
    """A compiled output's loss as Keras 3's ``get_loss`` makes it: 'crossentropy'/'ce'
    picks binary, sparse or categorical crossentropy from the shapes; a function is wrapped
    in ``LossFunctionWrapper`` named after the identifier (or the function)."""
    if identifier is None:
        return None
    if str(identifier).lower() in ("crossentropy", "ce"):
        binary, sparse = _binary_or_sparse(y_true, y_pred)
        loss = (_losses.binary_crossentropy if binary else
                _losses.sparse_categorical_crossentropy if sparse else
                _losses.categorical_crossentropy)
    else:
        loss = _losses.get(identifier)
    if not isinstance(loss, _losses.Loss):
        name = identifier if isinstance(identifier, str) else (
            getattr(loss, "name", None) or _naming.to_snake_case(
                getattr(loss, "__name__", type(loss).__name__)))
        loss = _losses.LossFunctionWrapper(loss, name=name)
    return loss


def _is_flat_outputs(y_pred):
    """A list, tuple or dict of tensors (one level), the structures per-output losses and
    metrics are keyed by."""
    return nest.is_nested(y_pred) and len(y_pred) == len(nest.flatten(y_pred))


def _struct_repr(structure):
    return nest.map_structure(lambda _: "*", structure)


class CompileLoss:
    """The loss given to ``compile`` for a model with several outputs (Keras 3's
    ``CompileLoss``): one loss for every output, a list (one per output, in output order,
    None for an output without a loss) or a dict keyed by output names; ``loss_weights`` a
    float, list or dict of the same form. Calling it returns the sum of the weighted
    per-output losses; with more than one loss, ``metrics`` holds one ``Mean`` per output
    (``'{output}_loss'``) of the unweighted losses.

    Args:
        loss: the loss structure given to ``compile``.
        loss_weights: None, a float, or a list/tuple/dict matching ``loss``.
        output_names: the model's output names (its output layers' names), or None.

    Raises:
        ValueError: for ``loss_weights`` of another type, keys of a loss dict that are not
            the output names, a ``loss_weights`` count that does not match the losses, or
            targets whose structure matches neither the outputs nor the losses (Keras's
            texts).
        KeyError: for a dict key missing from the outputs or the targets.
    """

    def __init__(self, loss, loss_weights=None, output_names=None):
        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float)):
            raise ValueError("Expected `loss_weights` argument to be a float (single output "
                             "case) or a list, tuple, or dict (multiple output case). "
                             f"Received instead: loss_weights={loss_weights} of type "
                             f"{type(loss_weights)}")
        self._user_loss, self._user_loss_weights = loss, loss_weights
        self.output_names = output_names
        self.metrics = []
        self.built = False
        # Set by the step function while a step traced over a spec with an unknown batch
        # dimension runs (fit's and evaluate's epoch loop over array data).
        self.unknown_batch = False
        self._flat_losses = None   # (path key or None, loss, weight, name) per loss

    def _keyed_outputs(self, y_pred):
        """The loss and weights given as dict, turned into lists in output order when the
        outputs are not a dict (Keras's first step of ``build``)."""
        loss, weights = self._user_loss, self._user_loss_weights
        if self.output_names and isinstance(loss, dict) and not isinstance(y_pred, dict):
            if set(self.output_names) != set(loss):
                raise ValueError(f"Expected keys {self.output_names} in loss dict, but "
                                 f"found loss.keys()={list(loss.keys())}")
            loss = [loss[name] for name in self.output_names]
            if isinstance(weights, dict):
                weights = [weights[name] for name in self.output_names]
        return loss, weights

    def build(self, y_true, y_pred):
        loss, weights = self._keyed_outputs(y_pred)
        if weights is not None:
            n_loss, flat_w = len(nest.flatten(loss)), nest.flatten(weights)
            same = (nest.is_nested(loss) == nest.is_nested(weights) and (
                not nest.is_nested(loss) or (type(loss) is type(weights) and
                                             len(loss) == len(weights))))
            if not same:
                if n_loss != len(flat_w):
                    raise ValueError("`loss_weights` must match the number of losses, got "
                                     f"{n_loss} losses and {len(weights)} weights.")
                weights = nest.pack_sequence_as(loss, flat_w)
        names = self.output_names or [None] * len(nest.flatten(y_pred))
        flat = []

        def add(key, one_loss, weight, y_t, y_p, name):
            if one_loss is None:
                return
            resolved = _get_loss(one_loss, y_t, y_p)
            flat.append((key, resolved, weight, name if name is not None else resolved.name))

        if not nest.is_nested(loss):
            # one loss for every output
            if not nest.is_nested(y_pred):
                add(None, loss, weights, y_true, y_pred, names[0] if names else None)
            elif isinstance(y_pred, dict):
                for key in sorted(y_pred):
                    add(key, loss, weights, y_true[key], y_pred[key], key)
            else:
                for i, (y_t, y_p) in enumerate(zip(y_true, y_pred, strict=False)):
                    add(i, loss, weights, y_t, y_p, names[i] if i < len(names) else None)
        elif isinstance(loss, dict):
            if not isinstance(y_pred, dict):
                raise KeyError("The path: () in the `loss` argument, can't be found in the "
                               "model's output (`y_pred`).")
            for key, one_loss in loss.items():
                if one_loss is None:
                    continue
                if not (isinstance(y_true, dict) and key in y_true and key in y_pred):
                    raise KeyError(f"The path: {(key,)} in the `loss` argument, can't be "
                                   "found in either the model's output (`y_pred`) or in the "
                                   "labels (`y_true`).")
                weight = weights[key] if isinstance(weights, dict) else None
                add(key, one_loss, weight, y_true[key], y_pred[key], key)
        else:
            if len(loss) != len(nest.flatten(y_pred)) or any(nest.is_nested(v) for v in loss):
                raise ValueError(f"Expected {len(nest.flatten(y_pred))} losses (one per "
                                 f"output), received loss={loss}")
            if not nest.is_nested(y_pred):
                add(None, loss[0], None if weights is None else weights[0], y_true, y_pred,
                    names[0] if names else None)
            elif isinstance(y_pred, dict):
                keys = sorted(y_pred)
                for i, key in enumerate(keys):
                    add(key, loss[i], None if weights is None else weights[i],
                        y_true[key], y_pred[key], key)
            else:
                for i, one_loss in enumerate(loss):
                    add(i, one_loss, None if weights is None else weights[i], y_true[i],
                        y_pred[i], names[i] if i < len(names) else None)
        self._flat_losses = flat
        if len(flat) > 1:
            self.metrics = [_metrics.Mean(name=f"{name}_loss") for _, _, _, name in flat]
        self.built = True

    @property
    def variables(self) -> list:
        return [v for m in self.metrics for v in m.variables]

    def reconcile(self, y_true, y_pred):
        """``y_true`` in the structure of ``y_pred`` (Keras's rules): a dict of targets
        keyed by output names for list outputs, one target for a single-item list, or
        targets for only the outputs that have a loss.

        Raises:
            ValueError: when no rule applies (Keras's text).
        """
        if _same_structure(y_true, y_pred):
            return y_true
        if not nest.is_nested(y_true) and hasattr(y_pred, "__len__") and len(y_pred) == 1:
            y_true = [y_true]
        elif isinstance(y_pred, (list, tuple)) and isinstance(y_true, dict):
            if self.output_names and set(self.output_names) == set(y_true):
                y_true = [y_true[name] for name in self.output_names]
        flat_true = nest.flatten(y_true)
        if len(flat_true) == len(nest.flatten(y_pred)):
            if isinstance(y_true, dict) and isinstance(y_pred, dict):
                if set(y_true) == set(y_pred):
                    return y_true
            else:
                return nest.pack_sequence_as(y_pred, flat_true)
        flat_loss = nest.flatten(self._user_loss)
        given = [i for i, v in enumerate(flat_loss) if v is not None]
        if len(flat_true) == len(given) and nest.is_nested(self._user_loss):
            full = [None] * len(flat_loss)
            for i, v in zip(given, flat_true, strict=True):
                full[i] = v
            return nest.pack_sequence_as(self._user_loss, full)
        raise ValueError("y_true and y_pred have different structures.\n"
                         f"y_true: {_struct_repr(y_true)}\n"
                         f"y_pred: {_struct_repr(y_pred)}\n")

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The sum of the weighted per-output losses (float32 scalar); updates each
        output's loss tracker with its unweighted loss."""
        y_true = self.reconcile(y_true, y_pred)
        if not self.built:
            self.build(y_true, y_pred)
        if isinstance(y_true, dict) and isinstance(y_pred, (list, tuple)):
            # targets packed as a partial dict loss: outputs in output order
            y_pred = dict(zip(self.output_names or (), y_pred, strict=False))
        trackers = self.metrics or [None] * len(self._flat_losses)
        total = None
        for (key, loss_fn, weight, _), tracker in zip(self._flat_losses, trackers,
                                                       strict=True):
            y_t = y_true if key is None else y_true[key]
            y_p = y_pred if key is None else y_pred[key]
            sw = sample_weight
            if key is not None and nest.is_nested(sample_weight):
                sw = sample_weight[key]
            value = loss_fn(y_t, y_p, sample_weight=sw)
            if value.dtype != "float32":
                value = _a.cast(value, "float32")
            if tracker is not None:
                # Keras weights by the static batch size: unknown (no weight) in a step
                # traced over a dataset spec whose batch dimension is None
                batch = None if self.unknown_batch else (
                    _static_shape(nest.flatten(y_p)[0]) or (None,))[0]
                tracker.update_state(_unscaled(value), sample_weight=batch)
            if weight is not None:
                value = _m.multiply(value, float(weight))
            total = value if total is None else _m.add(total, value)
        return total


def _same_structure(a, b):
    if not nest.is_nested(a) or not nest.is_nested(b):
        return nest.is_nested(a) == nest.is_nested(b)
    if isinstance(a, dict) != isinstance(b, dict) or len(a) != len(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(_same_structure(a[k], b[k]) for k in a)
    return type(a) is type(b) and all(_same_structure(x, y) for x, y in zip(a, b, strict=True))


def class_weight_to_sample_weights(y, class_weight):
    """Per-sample weights ``class_weight[label]`` (1.0 for a class not listed), labels from
    integer ids, a trailing axis of 1, or one-hot rows (their argmax), as Keras 3 maps them
    in its data adapters (on the data, before the steps)."""
    labels = np.asarray(y)
    if labels.ndim > 1:
        labels = np.argmax(labels, -1) if labels.shape[-1] != 1 else labels[..., 0]
    labels = np.round(labels).astype(np.int32)
    return np.array([class_weight.get(int(k), 1.0) for k in labels], np.float32)


def _check_cardinality(arrays):
    """Keras's error when x, y and sample_weight hold different numbers of samples."""
    parts = [(label, nest.flatten(a)) for label, a in zip(("x", "y", "sample_weight"), arrays)
             if a is not None]
    if len({len(a) for _, flat in parts for a in flat}) > 1:
        msg = ("Data cardinality is ambiguous. Make sure all arrays contain the same number "
               "of samples.")
        for label, flat in parts:
            msg += f"'{label}' sizes: {', '.join(str(len(a)) for a in flat)}\n"
        raise ValueError(msg)


class _Batches:
    """One epoch of ``(x, y, sample_weight)`` batches from arrays or a Dataset."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                 steps=None, class_weight=None):
        self.dataset = x if isinstance(x, Dataset) else None
        if class_weight is not None and sorted(class_weight) != list(range(len(class_weight))):
            raise ValueError("Expected `class_weight` to be a dict with keys from 0 to one less "
                             f"than the number of classes, found {class_weight}")
        self.class_weight = class_weight
        if self.dataset is not None:
            if y is not None:
                raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be "
                                 "passed. Instead, the targets should be included as part of "
                                 "the tf.data.Dataset.")
            card = self.dataset._cardinality
            self.steps = steps if steps is not None else (card if card >= 0 else None)
            self._fixed_steps, self._iterator = steps, None
            return
        if sample_weight is not None and nest.is_nested(y) and \
                not nest.is_nested(sample_weight):
            # one array weights every output: Keras repeats it in the structure of y
            sample_weight = nest.map_structure(lambda _: sample_weight, y)
        self.arrays = nest.map_structure(_value, (x, y, sample_weight))
        _check_cardinality(self.arrays)
        self.n = len(nest.flatten(self.arrays[0])[0])
        self.batch_size = batch_size or 32
        self.shuffle = shuffle
        self.steps = steps if steps is not None else math.ceil(self.n / self.batch_size)

    def spec_shapes(self, data):
        """The flat shapes of the element spec a step over these batches is traced with
        (Keras traces its step over the epoch's dataset): a Dataset's ``element_spec`` when
        it is known without drawing an element, else every tensor's shape with an unknown
        batch dimension (array data, whose last batch may be smaller)."""
        leaves = [t for t in nest.flatten(data) if t is not None]
        if any(type(t) is not Tensor for t in leaves):
            return None   # composites (ragged, sparse): keyed by their components' shapes
        shapes = [_static_shape(t) for t in leaves]
        shapes = [(None,) + s[1:] if s else s for s in shapes]   # unknown rank: None
        spec_fn = None if self.dataset is None else self.dataset._spec_fn
        if spec_fn is not None:
            spec = [_static_shape(s) for s in nest.flatten(spec_fn())]
            if len(spec) <= len(shapes):
                shapes[:len(spec)] = spec
        return shapes

    def _weighted(self, batch):
        x, y, w = batch
        if self.class_weight is None or y is None:
            return batch
        if w is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        return x, y, Tensor(class_weight_to_sample_weights(y, self.class_weight))

    def __iter__(self):
        if self.dataset is not None:
            if self._fixed_steps is None:
                for batch in self.dataset:
                    yield self._weighted(_unpack(batch))
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
                yield self._weighted(_unpack(batch))
            return
        order = (_random._rng(None).permutation(self.n) if self.shuffle
                 else np.arange(self.n))
        for step in range(self.steps):
            idx = order[step * self.batch_size:(step + 1) * self.batch_size]
            x, y, w = nest.map_structure(
                lambda a, idx=idx: None if a is None else Tensor(a[idx]),
                self.arrays)
            yield x, y, w


class _Feed:
    """One step's data for a step function, with the flat shapes of the spec it is traced
    with (``fit`` and ``evaluate`` hand Keras's step function the epoch's iterator)."""

    __slots__ = ("data", "relax_to")

    def __init__(self, data, relax_to):
        self.data, self.relax_to = data, relax_to

    def __iter__(self):
        yield self.data


def _unscaled(loss):
    """The loss as shown in the logs: Keras scales it by ``1 / num_replicas_in_sync`` under
    a strategy for the gradients, and shows it unscaled."""
    ctx = sys.modules.get("tapeflow.distribute._context")
    n = 1 if ctx is None else ctx.get_strategy().num_replicas_in_sync
    return loss if n == 1 else loss * float(n)


def _per_replica_shapes(shapes, strategy):
    """The spec's flat shapes for a batch split by ``_distribute``: each tensor's slices
    (one per local replica, a PerReplica's components) all take its shape (``None`` batch
    dimension: the slices' sizes vary, 4 and 3 for 7 rows over 2 replicas)."""
    if strategy is None:
        return shapes
    n = len(strategy._local_replica_ids())
    return None if shapes is None else [s for s in shapes for _ in range(n)]


def _concat_replicas(strategy, value):
    """The replicas' outputs of one predict step as one batch: concatenated along axis 0
    (stacked if scalars) over the local replicas and the workers (Keras 3's
    ``reduce_per_replica(..., "concat")``)."""
    from ..distribute.values import DistributedValues
    parts = (value.values if isinstance(value, DistributedValues) else (value,))
    if parts[0].shape.rank == 0:
        return _a.stack(list(parts), 0)
    return strategy.gather(value, 0)


def _distribute(strategy, data):
    """This worker's per-replica slices of a global batch (``x``, ``(x, y)`` or
    ``(x, y, sample_weight)``)."""
    from ..distribute.input_lib import combine, split_batch
    return combine(split_batch(data, strategy.num_replicas_in_sync,
                               strategy._global_replica_ids()))


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
            jit_compile: ``"auto"`` is False (no accelerator); kept as ``self.jit_compile``
                and given to ``tf.function`` (which accepts it).
        """
        self.optimizer = _optimizers.get(optimizer)
        self._remember_strategy()
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
                from ..distribute.values import select_replica
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
            from ._step_function import StepFunction

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
            from ._step_function import StepFunction
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
                if isinstance(validation_data, Dataset):
                    vx, vy, vw = validation_data, None, None
                else:
                    vx, vy, vw = _unpack(tuple(validation_data))
                val_logs = self.evaluate(vx, vy, batch_size=validation_batch_size or batch_size,
                                         sample_weight=vw, steps=validation_steps,
                                         callbacks=callback_list, return_dict=True)
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
        batches = _Batches(x, y, sample_weight, batch_size, False, steps)
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
        batches = _Batches(x, None, None, batch_size, False, steps)
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
