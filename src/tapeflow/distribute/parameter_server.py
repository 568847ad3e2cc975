"""Parameter-server training in one process: ``ParameterServerStrategy``,
``coordinator.ClusterCoordinator`` and the variable partitioners.

TensorFlow's coordinator sends each scheduled function to a free worker over RPC. tapeflow
has no remote runtime: the strategy accepts a cluster whose every worker and ps task is a
``tf.distribute.Server`` of this process (else ``tf.errors.UnavailableError``, where TF would
need the network), and the coordinator runs each scheduled function at once in the calling
thread, on the workers in turn (TF: whichever is free, so its order varies). Errors of a
scheduled function are raised by ``join``/``fetch``, as in TF. Variables live in this
process (TF: on the ps tasks) and are plain variables.
"""
import math

from .._core import dtypes as _dt
from .._core.tensor import TensorShape
from . import _context
from . import cluster_resolver as _cr
from .strategy import Strategy

__all__ = ["ParameterServerStrategy", "ClusterCoordinator", "RemoteValue", "PerWorkerValue",
           "Partitioner", "MinSizePartitioner", "FixedShardsPartitioner",
           "experimental_get_current_worker_index"]


class Partitioner:
    """Base of the variable partitioners
    (``tf.distribute.experimental.partitioners.Partitioner``): ``partitioner(shape, dtype,
    axis=0)`` returns the number of shards per axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


def _element_bytes(dtype, bytes_per_string):
    dtype = _dt.as_dtype(dtype)
    return bytes_per_string if dtype == _dt.string else dtype.size


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes``, at most ``max_shards`` and
    at most the length of the axis (``tf.distribute.experimental.partitioners.
    MinSizePartitioner``).

    Args:
        min_shard_bytes: minimum bytes per shard (default 256 KiB).
        max_shards: upper bound on the shards (default 1).
        bytes_per_string: the size assumed for a string element (default 16).

    Raises:
        ValueError: for a non-positive argument.

    >>> import tapeflow as tf
    >>> p = tf.distribute.experimental.partitioners.MinSizePartitioner(
    ...     min_shard_bytes=4, max_shards=2)
    >>> p(tf.TensorShape([6, 1]), tf.float32)
    [2, 1]
    """

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        if min_shard_bytes < 1:
            raise ValueError(f"Argument `min_shard_bytes` must be positive. Received: "
                             f"{min_shard_bytes}")
        if max_shards < 1:
            raise ValueError(f"Argument `max_shards` must be positive. Received: {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: "
                             f"{bytes_per_string}")
        self._min_shard_bytes = min_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        shape = TensorShape(shape)
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is "
                             f"only {shape}")
        total = shape.num_elements() * _element_bytes(dtype, self._bytes_per_string)
        out = [1] * len(shape)
        out[axis] = max(1, min(shape[axis], self._max_shards,
                               math.ceil(total / self._min_shard_bytes)))
        return out


class FixedShardsPartitioner(Partitioner):
    """``num_shards`` shards along the axis, fewer if the axis is shorter
    (``tf.distribute.experimental.partitioners.FixedShardsPartitioner``)."""

    def __init__(self, num_shards):
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        shape = TensorShape(shape)
        out = [1] * len(shape)
        out[axis] = min(self._num_shards, shape[axis])
        return out


class ParameterServerStrategy(Strategy):
    """Asynchronous training with a coordinator, workers and parameter servers
    (``tf.distribute.ParameterServerStrategy``, also
    ``tf.distribute.experimental.ParameterServerStrategy``).

    One replica; functions reach the workers through
    :class:`ClusterCoordinator`. In tapeflow every worker and ps task must be a
    ``tf.distribute.Server`` started in this process (TensorFlow's in-process cluster).

    Args:
        cluster_resolver: a ClusterResolver whose cluster has ``worker`` and ``ps`` jobs.
        variable_partitioner: a Partitioner; accepted (variables are not sharded here).

    Raises:
        ValueError: an empty cluster, no ps or no worker task, or a ``task_type`` the
            cluster lacks (TF's texts).
        tf.errors.UnavailableError: a worker or ps address not served in this process.
    """

    def __init__(self, cluster_resolver, variable_partitioner=None):
        spec = cluster_resolver.cluster_spec()
        if not spec:
            raise ValueError("Cluster spec must be non-empty in "
                             "`tf.distribute.cluster_resolver.ClusterResolver`.")
        task_type = cluster_resolver.task_type
        if task_type is not None and task_type not in spec.jobs:
            raise ValueError(f"`task_type` {task_type!r} not found in cluster_spec.")
        if "ps" not in spec.jobs or not spec.num_tasks("ps"):
            raise ValueError("There must be at least one ps.")
        if "worker" not in spec.jobs or not spec.num_tasks("worker"):
            raise ValueError("There must be at least one worker.")
        _cr.connect(spec, jobs=("worker", "ps"))
        super().__init__(["/device:CPU:0"])
        self.cluster_resolver = cluster_resolver
        self._cluster_spec = spec
        self._variable_partitioner = variable_partitioner
        self._num_workers = spec.num_tasks("worker")
        self._num_ps = spec.num_tasks("ps")
        self._coordinator = None

    def _on_variable_created(self, var):
        pass  # one copy, in this process (TF: on a ps task)


class RemoteValue:
    """The result of :meth:`ClusterCoordinator.schedule`
    (``tf.distribute.coordinator.RemoteValue``): ``fetch()`` gives NumPy values, ``get()``
    tensors; both raise the scheduled function's error."""

    def __init__(self, value=None, error=None):
        self._result, self._error = value, error

    def get(self):
        if self._error is not None:
            raise self._error
        return self._result

    def fetch(self):
        from .._core import nest
        return nest.map_structure(_numpy, self.get())


def _numpy(x):
    return x.numpy() if hasattr(x, "numpy") else x


class PerWorkerValue:
    """One value per worker (``tf.distribute.coordinator.PerWorkerValue``)."""

    def __init__(self, values):
        self._values = tuple(values)


class _PerWorkerDataset:
    def __init__(self, datasets):
        self._datasets = datasets

    def __iter__(self):
        return _PerWorkerIterator([iter(d) for d in self._datasets])


class _PerWorkerIterator(PerWorkerValue):
    """Iterators of the per-worker datasets; a scheduled function receives its worker's."""

    def __next__(self):
        return next(self._values[_worker[0]])


_worker = [0]


def experimental_get_current_worker_index():
    """The index of the worker running the current scheduled function
    (``tf.distribute.coordinator.experimental_get_current_worker_index``)."""
    return _worker[0]


class ClusterCoordinator:
    """Schedules functions on the workers of a ParameterServerStrategy
    (``tf.distribute.coordinator.ClusterCoordinator``).

    Here a scheduled function runs at once, in this thread, on the next worker in turn
    (with its per-worker dataset iterator); its error is kept and raised by ``join`` (once)
    or by ``fetch`` of its RemoteValue, as TF raises it.

    Args:
        strategy: a ParameterServerStrategy.

    Raises:
        ValueError: for another strategy.
    """

    def __init__(self, strategy):
        if not isinstance(strategy, ParameterServerStrategy):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is "
                             "supported to work with `tf.distribute.experimental.coordinator."
                             "ClusterCoordinator` currently.")
        self.strategy = strategy
        strategy._coordinator = self
        self._next = 0
        self._error = None

    def schedule(self, fn, args=None, kwargs=None) -> RemoteValue:
        """Run ``fn(*args, **kwargs)`` on a worker; returns its RemoteValue."""
        if self._error is not None:  # TF refuses new work until the error is seen
            error, self._error = self._error, None
            raise error
        worker = self._next
        self._next = (self._next + 1) % self.strategy._num_workers
        _worker[0] = worker
        from .._core import nest

        def local(x):  # a per-worker value is its worker's component on that worker
            return x._values[worker] if isinstance(x, PerWorkerValue) else x

        args = nest.map_structure(local, tuple(args or ()))
        kwargs = nest.map_structure(local, dict(kwargs or {}))
        _context.push(self.strategy, None)
        try:
            value = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - raised later by join/fetch, as TF
            self._error = exc
            return RemoteValue(error=exc)
        finally:
            _context.pop()
            _worker[0] = 0
        return RemoteValue(value)

    def join(self):
        """Wait for the scheduled functions (all done here); raises the first error."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def done(self) -> bool:
        """Whether all scheduled functions finished (always, here); raises an error kept."""
        self.join()
        return True

    def fetch(self, val):
        """NumPy values of RemoteValues in a nest (other leaves unchanged)."""
        from .._core import nest
        return nest.map_structure(
            lambda v: v.fetch() if isinstance(v, RemoteValue) else v, val)

    def create_per_worker_dataset(self, dataset_fn):
        """A dataset per worker made by ``dataset_fn()`` (or from a dataset); iterate it
        for a per-worker iterator to pass to scheduled functions."""
        n = self.strategy._num_workers
        if callable(dataset_fn):
            datasets = [dataset_fn() for _ in range(n)]
        else:
            datasets = [dataset_fn] * n
        return _PerWorkerDataset(datasets)
