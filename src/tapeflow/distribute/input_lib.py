"""Input splitting: a global batch becomes one slice per replica, as TF's rebatching does.

Each replica gets a contiguous slice of ``ceil(n / N)`` rows, the last replicas less or
nothing (7 over 2 -> 4, 3; 4 over 3 -> 2, 2, 0). In one process the slices form a PerReplica
value; under MPI each rank keeps its own slice, so the union of step k's slices is the
one-process global batch k.
"""
import enum

from .._core import nest
from .._core.tensor import _TensorLike, convert_to_tensor, traced_shape
from .values import PerReplica

__all__ = ["split_sizes", "InputContext", "InputOptions", "InputReplicationMode",
           "DistributedDataset", "DistributedDatasetsFromFunction"]


def split_sizes(n, num_replicas):
    """Rows per replica for a global batch of ``n`` rows (TF 2.21's rule).

    >>> from tapeflow.distribute.input_lib import split_sizes
    >>> split_sizes(7, 2), split_sizes(8, 3), split_sizes(4, 3)
    ([4, 3], [3, 3, 2], [2, 2, 0])
    """
    per = -(-n // num_replicas)
    return [max(0, min(per, n - i * per)) for i in range(num_replicas)]


def _slice_leaf(x, start, stop):
    if x is None:
        return None
    t = x if isinstance(x, _TensorLike) else convert_to_tensor(x)
    return t[start:stop]


def split_batch(element, num_replicas, replicas):
    """The slices of one global batch (a nest of tensors) for the replica indices given."""
    leaves = [x for x in nest.flatten(element) if x is not None]
    n = traced_shape(leaves[0])[0] if leaves else 0
    sizes = split_sizes(n, num_replicas)
    starts = [sum(sizes[:i]) for i in range(num_replicas)]
    return [nest.map_structure(lambda x, i=i: _slice_leaf(x, starts[i], starts[i] + sizes[i]),
                               element) for i in replicas]


def combine(parts):
    if len(parts) == 1:
        return parts[0]
    flats = [nest.flatten(p) for p in parts]
    return nest.pack_sequence_as(parts[0], [PerReplica(c) for c in zip(*flats)])


class InputContext:
    """What a ``dataset_fn`` needs to know to build its pipeline (``tf.distribute.InputContext``).

    Args:
        num_input_pipelines: how many pipelines there are (one per worker).
        input_pipeline_id: this pipeline's index.
        num_replicas_in_sync: replicas training together.

    >>> import tapeflow as tf
    >>> ctx = tf.distribute.InputContext(2, 1, 4)
    >>> ctx.get_per_replica_batch_size(16)
    4
    >>> print(ctx)
    tf.distribute.InputContext(input pipeline id 1, total: 2)
    """

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_input_pipelines(self) -> int:
        return self._num_input_pipelines

    @property
    def input_pipeline_id(self) -> int:
        return self._input_pipeline_id

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size) -> int:
        """``global_batch_size // num_replicas_in_sync``.

        Raises:
            ValueError: if the global batch does not divide evenly.
        """
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


class InputReplicationMode(enum.Enum):
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions:
    """Options for distributing datasets (``tf.distribute.InputOptions``); accepted, and
    without effect on a CPU engine."""

    def __init__(self, experimental_fetch_to_device=None,
                 experimental_replication_mode=InputReplicationMode.PER_WORKER,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


class DistributedDataset:
    """A dataset of global batches, iterated as this worker's per-replica batches.

    Made by ``strategy.experimental_distribute_dataset``; iterate it (or ``iter``/``next``) and
    pass each element to ``strategy.run``.
    """

    def __init__(self, dataset, strategy):
        self._dataset = dataset
        self._strategy = strategy

    def __iter__(self):
        s = self._strategy
        n = s.num_replicas_in_sync
        mine = s._global_replica_ids()
        for element in self._dataset:
            if n == 1:
                yield element
            else:
                yield combine(split_batch(element, n, mine))

    @property
    def element_spec(self):
        return self._dataset.element_spec


class DistributedDatasetsFromFunction:
    """Per-replica batches from ``dataset_fn(InputContext)`` (one pipeline per worker)."""

    def __init__(self, dataset_fn, strategy):
        self._strategy = strategy
        n_workers = strategy._num_workers()
        ctx = InputContext(n_workers, strategy._worker_id(), strategy.num_replicas_in_sync)
        self._dataset = dataset_fn(ctx)

    def __iter__(self):
        local = len(self._strategy._local_replica_ids())
        if local == 1:
            yield from self._dataset
            return
        it = iter(self._dataset)
        while True:
            parts = []
            for _ in range(local):
                try:
                    parts.append(next(it))
                except StopIteration:
                    break
            if not parts:
                return
            while len(parts) < local:  # the last step: empty batches for the rest
                parts.append(nest.map_structure(lambda x: _slice_leaf(x, 0, 0), parts[0]))
            yield combine(parts)


# -- ``for x in distributed_dataset`` inside a tf.function --------------------------------
# As a tf.data loop: the pipeline runs (and a shuffle reshuffles) at every call of the
# function, where iterating the dataset while tracing would bake the first pass's batches
# into the program.
class _PerReplicaSpec(tuple):
    """The element spec of a loop over per-replica batches: to tf.nest a namedtuple of the
    components' specs, rebuilt (by ``type(spec)(*components)``) as a PerReplica value."""

    _fields = ()

    def __new__(cls, *components):
        return PerReplica(components)

    @classmethod
    def of(cls, specs):
        return tuple.__new__(cls, specs)


def _raw_leaves(element):
    # the pipeline's own elements are NumPy values (what a tf.data loop consumes)
    from .._core.backend import np
    return [v if isinstance(v, (np.ndarray, np.generic)) else np.asarray(v)
            for v in nest.flatten(element)]


def _loop_source(distributed):
    from ..function.ir import LoopSource
    dataset = distributed._dataset
    strategy = distributed._strategy
    local = len(strategy._local_replica_ids())
    # a pass over a shuffling pipeline moves its random state: each call differs
    moves = bool(getattr(dataset, "_rngs", ()))
    if isinstance(distributed, DistributedDataset) and strategy.num_replicas_in_sync == 1:
        return LoopSource(dataset._iter_values, dataset.element_spec, moves)
    spec = dataset.element_spec
    if local > 1:
        spec = nest.map_structure(lambda s: _PerReplicaSpec.of((s,) * local), spec)

    if isinstance(distributed, DistributedDataset):
        n, mine = strategy.num_replicas_in_sync, strategy._global_replica_ids()

        def values():
            for element in dataset._make_iter():
                leaves = _raw_leaves(element)
                sizes = split_sizes(leaves[0].shape[0] if leaves else 0, n)
                starts = [sum(sizes[:i]) for i in range(n)]
                yield [leaf[starts[i]:starts[i] + sizes[i]] for leaf in leaves for i in mine]
    else:
        def values():
            source = dataset._make_iter()
            while True:
                parts = []
                for _ in range(local):
                    element = next(source, None)
                    if element is None:
                        break
                    parts.append(_raw_leaves(element))
                if not parts:
                    return
                while len(parts) < local:  # the last step: empty batches for the rest
                    parts.append([leaf[:0] for leaf in parts[0]])
                yield [part[j] for j in range(len(parts[0])) for part in parts]

    return LoopSource(values, spec, moves)


def _register_loops():
    from ..function import ir
    ir.register_for_loop(DistributedDataset, _loop_source)
    ir.register_for_loop(DistributedDatasetsFromFunction, _loop_source)


_register_loops()
