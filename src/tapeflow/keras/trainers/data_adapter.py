"""The data ``fit``/``evaluate``/``predict`` step over, as Keras 3's data adapters: one
epoch of ``(x, y, sample_weight)`` batches from arrays or a ``tf.data.Dataset``, class
weights as sample weights, and a global batch's per-replica slices under a strategy."""
import math
import warnings

from ..._core import nest
from ..._core.backend import np
from ..._core.tensor import Tensor
from ...data.dataset import Dataset
from ...ops import random_ops as _random

__all__ = ["class_weight_to_sample_weights"]


def _static_shape(x):
    """The shape a trace knows (``None`` for unknown dims; None for an unknown rank),
    without reading values."""
    shape = getattr(x, "shape", None)
    if shape is None:
        return np.shape(x)
    if getattr(shape, "rank", 0) is None:
        return None
    return tuple(shape)


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
                 steps=None, class_weight=None, epoch_reset=True, warn_cap=True):
        from ..config import max_steps_per_epoch
        cap = max_steps_per_epoch()  # keras.config's debugging cap, as Keras's EpochIterator
        if cap and (not steps or cap < steps):
            if warn_cap:
                warnings.warn("Limiting steps_per_epoch to %d" % cap, stacklevel=3)
            steps = cap
        self.dataset = x if isinstance(x, Dataset) else None
        if class_weight is not None and sorted(class_weight) != list(range(len(class_weight))):
            raise ValueError("Expected `class_weight` to be a dict with keys from 0 to one less "
                             f"than the number of classes, found {class_weight}")
        self.class_weight = class_weight
        from ..utils.py_dataset import PyDataset
        self.py_dataset = x if isinstance(x, PyDataset) else None
        if self.py_dataset is not None:
            if y is not None:
                raise ValueError("When providing `x` as a PyDataset, `y` should not be passed. "
                                 "Instead, the targets should be included as part of the "
                                 "PyDataset.")
            self.shuffle, self._fixed_steps = shuffle, steps
            self.steps = steps if steps is not None else self.py_dataset.num_batches
            # Keras's fit and evaluate reset their epoch iterator once before the first
            # epoch, which calls the PyDataset's on_epoch_end (predict does not)
            self._reset_pending = epoch_reset
            # Keras (TF backend) reads the first two batches to learn the data's spec
            from ..utils.py_dataset import standardize_batch
            num = self.py_dataset.num_batches
            probe = [standardize_batch(self.py_dataset[i])
                     for i in range(2 if num is None else min(2, num))]
            if not probe:
                raise ValueError("The PyDataset has length 0")
            return
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
        if self.py_dataset is not None:
            from ..utils.py_dataset import iterate_epoch
            if self._reset_pending:
                self._reset_pending = False
                self.py_dataset.on_epoch_end()
            for batch in iterate_epoch(self.py_dataset, self.shuffle, self._fixed_steps):
                batch = nest.map_structure(lambda a: None if a is None else Tensor(_value(a)),
                                           batch)
                yield self._weighted(_unpack(batch))
            return
        if self.dataset is not None:
            if self._fixed_steps is None:
                seen = 0
                for batch in self.dataset:
                    seen += 1
                    yield self._weighted(_unpack(batch))
                # Keras's epoch iterator (of a dataset of known cardinality) makes the next
                # epoch's iterator as soon as it has seen every batch, then a fresh one when
                # that epoch begins: each later epoch of a reshuffling dataset reads the
                # iterator after next (TF's shuffle seeds advance per iterator made). Of a
                # dataset of unknown cardinality it makes one per epoch.
                card = self.dataset._cardinality
                if card >= 0 and seen >= card:
                    from ...data.ops.sampling import unread_iterator
                    unread_iterator(self.dataset)
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
        order = (_random.epoch_permutation(self.n) if self.shuffle
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


def _per_replica_shapes(shapes, strategy):
    """The spec's flat shapes for a batch split by ``_distribute``: each tensor's slices
    (one per local replica, a PerReplica's components) all take its shape (``None`` batch
    dimension: the slices' sizes vary, 4 and 3 for 7 rows over 2 replicas)."""
    if strategy is None:
        return shapes
    n = len(strategy._local_replica_ids())
    return None if shapes is None else [s for s in shapes for _ in range(n)]


def _distribute(strategy, data):
    """This worker's per-replica slices of a global batch (``x``, ``(x, y)`` or
    ``(x, y, sample_weight)``)."""
    from ...distribute.input_lib import combine, split_batch
    return combine(split_batch(data, strategy.num_replicas_in_sync,
                               strategy._global_replica_ids()))
