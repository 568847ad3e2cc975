"""``tf.distribute``: data-parallel training over replicas in this process (threads) and across
processes (MPI through mpi4py, the optional ``tapeflow[mpi]`` extra, imported only under a
launcher).

Layout: ``_context`` (the current strategy per thread), ``values`` (PerReplica, Mirrored,
mirrored variables), ``input_lib`` (batch splitting), ``communicator`` (local, threads, MPI),
``collective_ops`` (collectives as ops), ``strategy`` (base, ReplicaContext, ReduceOp),
``mirrored`` (MirroredStrategy, OneDeviceStrategy, CentralStorageStrategy), ``multi_worker``
(MultiWorkerMirroredStrategy), ``cluster_resolver`` (ClusterSpec, resolvers, Server),
``parameter_server`` (ParameterServerStrategy, ClusterCoordinator, partitioners, in one
process) and ``hvd`` (Horovod's names on the same communicator).
Saving under a strategy is not handled here yet: see docs/distribute.md.
"""
import types as _types

from .._core import variable as _variable
from . import cluster_resolver
from . import parameter_server as _ps
from ._context import get_replica_context, get_strategy, has_strategy, in_cross_replica_context
from .cluster_resolver import Server
from .input_lib import InputContext, InputOptions, InputReplicationMode
from .mirrored import CentralStorageStrategy, MirroredStrategy, OneDeviceStrategy
from .multi_worker import MultiWorkerMirroredStrategy
from .parameter_server import ParameterServerStrategy
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
    "experimental_set_strategy", "experimental", "cluster_resolver", "coordinator", "Server",
    "ParameterServerStrategy",
]

experimental = _types.SimpleNamespace(
    CommunicationOptions=CommunicationOptions,
    CommunicationImplementation=CommunicationImplementation,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    CentralStorageStrategy=CentralStorageStrategy,
    ParameterServerStrategy=ParameterServerStrategy,
    partitioners=_types.SimpleNamespace(
        Partitioner=_ps.Partitioner,
        MinSizePartitioner=_ps.MinSizePartitioner,
        FixedShardsPartitioner=_ps.FixedShardsPartitioner,
    ),
)
coordinator = _types.SimpleNamespace(
    ClusterCoordinator=_ps.ClusterCoordinator,
    RemoteValue=_ps.RemoteValue,
    PerWorkerValue=_ps.PerWorkerValue,
    experimental_get_current_worker_index=_ps.experimental_get_current_worker_index,
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
