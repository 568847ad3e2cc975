"""The Strategy base, the default strategy, ReplicaContext, ReduceOp and the accepted
cross-device-ops names.

A strategy owns its replicas: ``num_replicas_in_sync`` in all, ``_local_replica_ids()`` of them
in this process. ``run`` calls the replica function once per local replica; ``merge_call``
pauses the replicas and runs a function once in cross-replica context; ``reduce`` and
``ReplicaContext.all_reduce`` combine values over every replica (in-process sums, then a
communicator across processes).
"""
import contextlib
import enum

from .._core import nest
from .._core.tensor import Tensor, convert_to_tensor, traced_shape
from ..ops import array_ops as _a
from ..ops import math_ops as _m
from ..ops import reduction_ops as _r
from . import _context, collective_ops
from .communicator import LocalCommunicator
from .input_lib import DistributedDataset, DistributedDatasetsFromFunction
from .values import DistributedValues, Mirrored, PerReplica, mirror_variable

__all__ = ["ReduceOp", "ReplicaContext", "Strategy", "StrategyExtended",
           "CrossDeviceOps", "HierarchicalCopyAllReduce", "NcclAllReduce",
           "ReductionToOneDevice", "CommunicationImplementation", "CommunicationOptions"]


class ReduceOp(enum.Enum):
    """How values combine across replicas (``tf.distribute.ReduceOp``): ``SUM`` or ``MEAN``.

    >>> import tapeflow as tf
    >>> tf.distribute.ReduceOp("SUM")
    <ReduceOp.SUM: 'SUM'>
    """

    SUM = "SUM"
    MEAN = "MEAN"


def _reduce_op(op):
    if isinstance(op, ReduceOp):
        return op
    if isinstance(op, str):
        return ReduceOp(op.upper())
    raise ValueError(f"{op!r} is not a valid ReduceOp")


class CrossDeviceOps:
    """Base of the cross-device reduction choices; tapeflow accepts them and reduces the same
    way whichever is given (one process: sums in replica order; MPI: Allreduce)."""

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs


class HierarchicalCopyAllReduce(CrossDeviceOps):
    """Accepted for TensorFlow's API (``num_packs=1``); no effect."""

    def __init__(self, num_packs=1):
        super().__init__(num_packs=num_packs)


class NcclAllReduce(CrossDeviceOps):
    """Accepted for TensorFlow's API (``num_packs=1``); no effect."""

    def __init__(self, num_packs=1):
        super().__init__(num_packs=num_packs)


class ReductionToOneDevice(CrossDeviceOps):
    """Accepted for TensorFlow's API; no effect."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        super().__init__(reduce_to_device=reduce_to_device, accumulation_fn=accumulation_fn)


class CommunicationImplementation(enum.Enum):
    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """``tf.distribute.experimental.CommunicationOptions``: accepted; MPI decides packing."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation


class ReplicaContext:
    """The replica running a function under ``strategy.run`` (``tf.distribute.ReplicaContext``).

    Attributes:
        strategy: the strategy.
        replica_id_in_sync_group: this replica's index among all replicas (an int32 Tensor).
        num_replicas_in_sync: the number of replicas.
    """

    def __init__(self, strategy, replica_id_in_sync_group, local_id=0):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._local_id = local_id
        self._thread = None  # set by in-process strategies that park replicas

    @property
    def strategy(self):
        return self._strategy

    @property
    def replica_id_in_sync_group(self):
        return convert_to_tensor(self._replica_id, dtype="int32")

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def devices(self) -> tuple:
        return (self._strategy._devices[self._local_id],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Run ``merge_fn(strategy, *args, **kwargs)`` once for all replicas, in cross-replica
        context, with each argument combined over replicas (PerReplica); every replica gets
        its view of the result."""
        kwargs = kwargs or {}
        if self._thread is not None:
            return self._thread.merge(merge_fn, args, kwargs)
        _context.push(self._strategy, None)
        try:
            return merge_fn(self._strategy, *args, **kwargs)
        finally:
            _context.pop()

    def all_reduce(self, reduce_op, value, options=None):
        """``value`` (a nest of tensors) reduced over all replicas; each replica gets the
        result.

        Args:
            reduce_op: ``ReduceOp.SUM``/``MEAN`` or ``"SUM"``/``"MEAN"``.
            value: a tensor or a nest of tensors.
        """
        op = _reduce_op(reduce_op)
        if type(value) is list and all(type(v) is Tensor for v in value):
            # the optimizer's gradients: a flat list already
            return self._strategy._all_reduce_in_replica(self, op, value)
        flat = [convert_to_tensor(v) for v in nest.flatten(value)]
        out = self._strategy._all_reduce_in_replica(self, op, flat)
        return nest.pack_sequence_as(value, out)

    def all_gather(self, value, axis, options=None):
        """Every replica's ``value`` concatenated along ``axis``, on each replica."""
        flat = [convert_to_tensor(v) for v in nest.flatten(value)]
        out = self._strategy._all_gather_in_replica(self, flat, axis)
        return nest.pack_sequence_as(value, out)

    def __repr__(self):
        return f"<tf.distribute.ReplicaContext replica {self._replica_id}>"


class StrategyExtended:
    """``strategy.extended``: the few members TF code reaches for."""

    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def worker_devices(self) -> tuple:
        return tuple(self._strategy._devices)

    @property
    def parameter_devices(self) -> tuple:
        return tuple(self._strategy._devices)

    def update(self, var, fn, args=(), kwargs=None, group=True):
        return fn(var, *args, **(kwargs or {}))


class Strategy:
    """Base of the strategies (``tf.distribute.Strategy``).

    Subclasses fix the replicas (``_devices`` local, ``num_replicas_in_sync`` in all) and the
    communicator across processes (``_comm``).
    """

    _is_default = False

    def __init__(self, devices=("/job:localhost/replica:0/task:0/device:CPU:0",), comm=None):
        self._devices = tuple(devices)
        self._comm = comm if comm is not None else LocalCommunicator()
        self.extended = StrategyExtended(self)

    # replicas ------------------------------------------------------------------------
    @property
    def num_replicas_in_sync(self) -> int:
        return len(self._devices) * self._comm.size

    def _local_replica_ids(self):
        return list(range(len(self._devices)))

    def _global_replica_ids(self):
        n = len(self._devices)
        return [self._comm.rank * n + i for i in range(n)]

    def _num_workers(self):
        return self._comm.size

    def _worker_id(self):
        return self._comm.rank

    # scope and variables ---------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Variables, models, optimizers and metrics made inside are this strategy's."""
        _context.push(self, None)
        try:
            yield self
        finally:
            _context.pop()

    def _on_variable_created(self, var):
        if self._comm.size > 1:
            var.assign(collective_ops.broadcast(var, self._comm, 0))
        mirror_variable(var, len(self._devices))

    # running ---------------------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None, options=None):
        """Call ``fn(*args, **kwargs)`` on every replica; each gets its component of
        distributed arguments.

        Args:
            fn: the replica function (usually a training step).
            args: a tuple or list of arguments, PerReplica values split per replica.
            kwargs: optional keyword arguments, likewise.
            options: accepted (``RunOptions``), no effect.

        Returns:
            The per-replica results: a PerReplica value where they differ, the plain result
            with one local replica.

        Raises:
            ValueError: if ``args`` is not a list or tuple.

        >>> import tapeflow as tf
        >>> s = tf.distribute.OneDeviceStrategy("/cpu:0")
        >>> float(s.run(tf.reduce_sum, args=([1.0, 2.0],)))
        3.0
        """
        if not isinstance(args, (list, tuple)):
            raise ValueError(f"positional args must be a list or tuple, got {type(args)}")
        kwargs = kwargs or {}
        return self._call_for_each_replica(fn, tuple(args), kwargs)

    def _call_for_each_replica(self, fn, args, kwargs):
        ctx = ReplicaContext(self, self._comm.rank * len(self._devices), 0)
        _context.push(self, ctx)
        try:
            return fn(*args, **kwargs)
        finally:
            _context.pop()

    # reductions ------------------------------------------------------------------------
    def reduce(self, reduce_op, value, axis):
        """Combine a per-replica value over replicas (and over ``axis`` if given).

        ``axis=None``: elementwise over replicas. ``axis=0``: also over the batch; ``MEAN``
        then divides by the true number of elements (uneven slices count correctly).

        Args:
            reduce_op: ``ReduceOp.SUM``/``MEAN`` or ``"SUM"``/``"MEAN"`` (any case).
            value: a PerReplica value (a ``run`` result) or a tensor.
            axis: ``None``, or the batch axis to reduce too.

        Returns:
            The reduced tensor (the same on every worker).

        Raises:
            ValueError: on a SUM of a non-distributed value with several replicas.

        >>> import tapeflow as tf
        >>> s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
        >>> batch = next(iter(s.experimental_distribute_dataset(
        ...     tf.data.Dataset.range(7).batch(7))))
        >>> x = s.run(lambda b: tf.cast(b, tf.float32), args=(batch,))
        >>> float(s.reduce("SUM", x, axis=0)), float(s.reduce("MEAN", x, axis=0))
        (21.0, 3.0)
        """
        op = _reduce_op(reduce_op)
        parts = self._local_parts(value, op)
        if axis is None:
            local = parts[0] if len(parts) == 1 else _m.add_n(parts)
            count = len(parts)
        else:
            local = _m.add_n([_r.reduce_sum(p, axis=axis) for p in parts])
            count = sum(traced_shape(p)[axis] for p in parts)
        count = _a.cast(count, local.dtype)
        if self._comm.size > 1:
            if axis is None:
                local = collective_ops.all_reduce(local, self._comm, "sum")
                count = _m.multiply(count, _a.cast(self._comm.size, local.dtype))
            else:  # slices may be uneven: the counts travel with the sums, in one call
                local, count = collective_ops.pack_all_reduce([local, count], self._comm)
        if op is ReduceOp.MEAN:
            return _m.divide(local, count)
        return local

    def _local_parts(self, value, op):
        if isinstance(value, DistributedValues):
            return [convert_to_tensor(v) for v in value.values]
        value = convert_to_tensor(value)
        if len(self._devices) > 1 and op is ReduceOp.SUM:
            raise ValueError(f"A non-DistributedValues value {value!s} cannot be reduced with "
                             f"the given reduce op {op}.")
        return [value]

    def gather(self, value, axis):
        """The per-replica values concatenated along ``axis`` (all replicas, all workers)."""
        parts = self.experimental_local_results(value)
        local = parts[0] if len(parts) == 1 else _a.concat(list(parts), axis)
        if self._comm.size > 1:
            local = collective_ops.all_gather(local, self._comm, axis)
        return local

    def experimental_local_results(self, value):
        """The components of ``value`` on this worker's replicas, as a tuple."""
        if isinstance(value, DistributedValues):
            return value.values
        n = len(self._devices)
        if hasattr(value, "_num_replicas") and n > 1:
            return (value,) * n
        return (value,)

    def _all_reduce_in_replica(self, ctx, op, tensors):
        out = tensors
        if ctx._thread is not None:
            out = ctx.merge_call(lambda s, *v: s._merge_reduce(op, v), args=tuple(tensors))
            out = list(out)
        if self._comm.size > 1:
            out = collective_ops.pack_all_reduce(out, self._comm, "sum")
            if op is ReduceOp.MEAN:  # the in-process merge left a sum
                n = self.num_replicas_in_sync
                out = [_m.divide(t, _a.cast(n, t.dtype)) for t in out]
        return out

    def _merge_reduce(self, op, per_replica):
        n = len(self._devices)
        out = []
        for v in per_replica:
            parts = list(v.values) if isinstance(v, DistributedValues) else [v] * n
            total = _m.add_n(parts)
            if op is ReduceOp.MEAN and self._comm.size == 1:
                total = _m.divide(total, _a.cast(n, total.dtype))
            out.append(Mirrored((total,) * n))
        return out

    def _all_gather_in_replica(self, ctx, tensors, axis):
        out = tensors
        if ctx._thread is not None:
            out = list(ctx.merge_call(
                lambda s, *v: [Mirrored((_a.concat(list(p.values), axis),) * len(s._devices))
                               for p in v], args=tuple(tensors)))
        if self._comm.size > 1:
            out = [collective_ops.all_gather(t, self._comm, axis) for t in out]
        return out

    # input -----------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """Iterate ``dataset`` (batched by the GLOBAL batch size) as per-replica batches."""
        return DistributedDataset(dataset, self)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """Per-replica batches from ``dataset_fn(InputContext)``, called once per worker."""
        return DistributedDatasetsFromFunction(dataset_fn, self)

    def experimental_distribute_values_from_function(self, value_fn):
        """A PerReplica of ``value_fn(ValueContext)`` for each local replica."""
        values = []
        for local in self._local_replica_ids():
            rid = self._comm.rank * len(self._devices) + local
            values.append(value_fn(_ValueContext(rid, self.num_replicas_in_sync)))
        return values[0] if len(values) == 1 else PerReplica(values)


class _ValueContext:
    def __init__(self, replica_id, num_replicas):
        self.replica_id_in_sync_group = replica_id
        self.num_replicas_in_sync = num_replicas


class _DefaultDistributionStrategy(Strategy):
    """The strategy in force outside any scope: one replica, nothing distributed."""

    _is_default = True

    def __init__(self):
        super().__init__()
        self._default_replica_context = ReplicaContext(self, 0)

    def _on_variable_created(self, var):
        pass


_context.DEFAULT_CLASS.append(_DefaultDistributionStrategy)


def on_variable_created(var):
    """The engine's hook: a variable made under a strategy becomes that strategy's."""
    top = _context.current()
    if top is not None and not top[0]._is_default:
        top[0]._on_variable_created(var)
