"""``keras.utils.PyDataset`` (alias ``Sequence``): batches produced by Python code, by index."""
import itertools
import random
import warnings

from ..._core.backend import np

__all__ = ["PyDataset", "Sequence", "iterate_epoch"]


class PyDataset:
    """Base class of a dataset that gives its batches by index (``keras.utils.PyDataset``).

    Subclasses implement ``__getitem__(index)`` (a batch: ``x``, ``(x,)``, ``(x, y)``,
    ``(x, y, sample_weight)`` or a dict) and ``__len__`` (or a ``num_batches`` property, None
    for an endless dataset), and may override ``on_epoch_begin``/``on_epoch_end``.
    ``Model.fit``, ``evaluate`` and ``predict`` take one as ``x``; with ``shuffle=True`` fit
    visits the batches in a random order (Python's ``random``), as Keras does.

    Args:
        workers: threads fetching batches ahead (1: in the training loop).
        use_multiprocessing: accepted for Keras programs; tapeflow fetches with threads
            either way (same batches in the same order).
        max_queue_size: batches fetched ahead at most.
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _warn_if_super_not_called(self):
        warn = False
        for name, default in (("_workers", 1), ("_use_multiprocessing", False),
                              ("_max_queue_size", 10)):
            if not hasattr(self, name):
                setattr(self, name, default)
                warn = True
        if warn:
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in "
                          "its constructor. `**kwargs` can include `workers`, "
                          "`use_multiprocessing`, `max_queue_size`. Do not pass these "
                          "arguments to `fit()`, as they will be ignored.", stacklevel=2)

    @property
    def workers(self):
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        """The batch at ``index``.

        Raises:
            NotImplementedError: unless a subclass implements it.
        """
        del index
        raise NotImplementedError

    def __iter__(self):
        index_range = None
        try:
            num_batches = self.num_batches
            if num_batches is not None:
                index_range = range(num_batches)
        except NotImplementedError:
            pass
        for index in index_range if index_range is not None else itertools.count():
            yield self[index]

    @property
    def num_batches(self):
        """``len(self)``, or None for an endless dataset.

        Raises:
            NotImplementedError: without ``__len__`` or an overriding property.
        """
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def on_epoch_begin(self):
        """Called before each epoch."""

    def on_epoch_end(self):
        """Called after each epoch."""


Sequence = PyDataset


def standardize_batch(batch, class_weight=None):
    """A ``PyDataset`` batch as Keras reads it: an array becomes ``(x,)``, a list a tuple.

    Raises:
        ValueError: for anything but a dict or a tuple of 1 to 3 items, or class weights
            with sample weights.
    """
    if isinstance(batch, dict):
        return batch
    if isinstance(batch, np.ndarray):
        batch = (batch,)
    if isinstance(batch, list):
        batch = tuple(batch)
    if not isinstance(batch, tuple) or len(batch) not in {1, 2, 3}:
        raise ValueError("PyDataset.__getitem__() must return a tuple or a dict. If a tuple, it "
                         "must be ordered either (input,) or (inputs, targets) or (inputs, "
                         f"targets, sample_weights). Received: {str(batch)[:100]}... of type "
                         f"{type(batch)}")
    if class_weight is not None and len(batch) == 3:
        raise ValueError("You cannot specify `class_weight` and `sample_weight` at the same "
                         "time.")
    return batch


def iterate_epoch(dataset, shuffle=False, steps=None):
    """One epoch of ``dataset``'s batches (standardized), between its ``on_epoch_begin`` and
    ``on_epoch_end``; ``shuffle`` visits the indices in ``random.shuffle`` order; with
    ``workers > 1`` a thread pool fetches up to ``max_queue_size`` batches ahead."""
    num = dataset.num_batches
    if num is None:
        indices = itertools.count() if steps is None else range(steps)
    else:
        indices = list(range(num if steps is None else min(num, steps)))
        if shuffle:
            random.shuffle(indices)
    dataset.on_epoch_begin()
    try:
        workers = dataset.workers
        if workers > 1 or (workers > 0 and dataset.use_multiprocessing):
            yield from _prefetched(dataset, indices, max(workers, 1),
                                   max(dataset.max_queue_size, 1))
        else:
            for i in indices:
                yield standardize_batch(dataset[i])
    finally:
        dataset.on_epoch_end()


def _prefetched(dataset, indices, workers, depth):
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        pending = []
        it = iter(indices)
        for i in itertools.islice(it, depth):
            pending.append(pool.submit(dataset.__getitem__, i))
        while pending:
            batch = pending.pop(0).result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.submit(dataset.__getitem__, nxt))
            yield standardize_batch(batch)
