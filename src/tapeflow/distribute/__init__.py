"""``tf.distribute``: data-parallel training over replicas in this process (threads) and across
processes (MPI through mpi4py, the optional ``tapeflow[mpi]`` extra, imported only under a
launcher).

Layout: ``_context`` (the current strategy per thread), ``values`` (PerReplica, Mirrored,
mirrored variables), ``input_lib`` (batch splitting), ``communicator`` (local, threads, MPI),
``collective_ops`` (collectives as ops), ``strategy`` (base, ReplicaContext, ReduceOp),
``mirrored`` (MirroredStrategy, OneDeviceStrategy), ``multi_worker``
(MultiWorkerMirroredStrategy) and ``hvd`` (Horovod's names on the same communicator).
Saving under a strategy is not handled here yet: see docs/distribute.md.
"""
import types as _types

from .._core import variable as _variable
from ._context import get_replica_context, get_strategy, has_strategy, in_cross_replica_context
from .input_lib import InputContext, InputOptions, InputReplicationMode
from .mirrored import MirroredStrategy, OneDeviceStrategy
from .multi_worker import MultiWorkerMirroredStrategy
from .strategy import (
    CommunicationImplementation,
    CommunicationOptions,
    CrossDeviceOps,
    HierarchicalCopyAllReduce,
    NcclAllReduce,
    ReduceOp,
    ReductionToOneDevice,
    ReplicaContext,
    Strategy,
    StrategyExtended,
    on_variable_created,
)
from .values import DistributedValues, Mirrored, MirroredVariable, PerReplica

__all__ = [
    "MirroredStrategy", "OneDeviceStrategy", "MultiWorkerMirroredStrategy", "Strategy",
    "StrategyExtended", "ReduceOp", "ReplicaContext", "InputContext", "InputOptions",
    "InputReplicationMode", "DistributedValues", "PerReplica", "Mirrored", "MirroredVariable",
    "CrossDeviceOps", "HierarchicalCopyAllReduce", "NcclAllReduce", "ReductionToOneDevice",
    "get_strategy", "has_strategy", "in_cross_replica_context", "get_replica_context",
    "experimental_set_strategy", "experimental",
]

experimental = _types.SimpleNamespace(
    CommunicationOptions=CommunicationOptions,
    CommunicationImplementation=CommunicationImplementation,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
)

_set = []


def experimental_set_strategy(strategy):
    """Make ``strategy`` current in this thread until called again (``None`` resets), as
    ``tf.distribute.experimental_set_strategy``."""
    while _set:
        _set.pop().__exit__(None, None, None)
    if strategy is not None:
        scope = strategy.scope()
        scope.__enter__()
        _set.append(scope)


if on_variable_created not in _variable._on_create:
    _variable._on_create.append(on_variable_created)
