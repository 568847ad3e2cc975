"""MultiWorkerMirroredStrategy: one replica per process, processes joined by MPI.

Under a launcher (``mpiexec -n N python -m mpi4py train.py``, ``srun ...``) each process is a
worker with one replica: variables made in scope are broadcast from rank 0 at creation,
gradients are all-reduced once per step in one packed buffer per dtype (in
``optimizer.apply_gradients``), datasets are split so each rank gets its slice of every global
batch. Without a launcher it is a one-worker strategy, as in TensorFlow without ``TF_CONFIG``.
"""
import json
import os
import sys
import threading
import time

from .. import _logging
from . import cluster_resolver as _cr
from . import communicator as _comm_lib
from .strategy import CommunicationOptions, Strategy

__all__ = ["MultiWorkerMirroredStrategy", "ClusterResolver", "cap_blas_threads",
           "abort_on_exception"]


class ClusterResolver(_cr.ClusterResolver):
    """Who this worker is (``strategy.cluster_resolver``): ``task_type`` 'worker', ``task_id``
    the MPI rank, and the cluster spec TF_CONFIG would give."""

    def __init__(self, comm):
        self.task_type = "worker"
        self.task_id = comm.rank
        self._size = comm.size
        self.rpc_layer = "mpi"
        self.environment = ""

    def cluster_spec(self):
        tf_config = os.environ.get("TF_CONFIG")
        if tf_config:
            return _cr.ClusterSpec(json.loads(tf_config).get("cluster", {}))
        return _cr.ClusterSpec({"worker": [f"rank:{r}" for r in range(self._size)]})

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return ""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {}


class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous training across processes (``tf.distribute.MultiWorkerMirroredStrategy``).

    One replica per process; ``num_replicas_in_sync`` is the number of MPI ranks (1 without a
    launcher). Under a launcher it needs mpi4py (``pip install "tapeflow[mpi]"``), caps BLAS
    threads to the cores per rank and makes an uncaught exception on any rank end the job.

    Args:
        cluster_resolver: accepted for TensorFlow's API; the MPI launcher decides the cluster.
        communication_options: accepted (``CommunicationOptions``); tapeflow always packs all
            gradients of a dtype into one buffer.

    Raises:
        ImportError: under a launcher without mpi4py, naming the ``tapeflow[mpi]`` extra.

    >>> import tapeflow as tf
    >>> tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync  # no launcher
    1
    """

    def __init__(self, cluster_resolver=None, communication_options=None):
        comm = _comm_lib.world()
        super().__init__(["/job:worker/replica:0/task:%d/device:CPU:0" % comm.rank], comm)
        self.communication_options = communication_options or CommunicationOptions()
        if cluster_resolver is None:
            # no launcher: TF_CONFIG's cluster, if any (task_type None without one, as TF)
            cluster_resolver = (ClusterResolver(comm) if comm.size > 1
                                else _cr.TFConfigClusterResolver())
        self.cluster_resolver = cluster_resolver
        if comm.size > 1:
            cap_blas_threads(comm)
            abort_on_exception(comm)
            from ..checkpoint import workers
            workers.register(comm)   # checkpoints: the chief writes, every worker waits


_capped = []


def cap_blas_threads(comm):
    """Limit BLAS threads to the cores this rank is bound to, or else ``cores // ranks on this
    node`` (at least 1), through
    threadpoolctl, since two ranks with all-core BLAS pools oversubscribe the machine.

    Environment variables (``OPENBLAS_NUM_THREADS``) act only before NumPy loads its BLAS,
    which happened when tapeflow was imported; without threadpoolctl this logs what to set
    in the launcher's environment instead.

    Returns:
        The thread count applied, or ``None`` if it could not be applied.
    """
    if _capped:
        return _capped[0]
    total = os.cpu_count() or 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = total
    # A launcher that bound this rank to some cores (srun --cpus-per-task) already shared
    # them out; otherwise share the node's cores among its ranks.
    n = max(1, cores if cores < total else total // max(1, comm.local_size))
    try:
        from threadpoolctl import threadpool_info, threadpool_limits
    except ImportError:
        if comm.rank == 0:
            _logging.warning(
                "threadpoolctl is not installed, so BLAS may use %d threads on each of %d "
                "ranks: install tapeflow[mpi] or launch with OMP_NUM_THREADS=%d "
                "OPENBLAS_NUM_THREADS=%d in the environment.", cores, comm.local_size, n, n)
        _capped.append(None)
        return None
    current = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    n = min([n] + current)  # never more threads than the user allowed
    _capped.append(n)
    _capped.append(threadpool_limits(limits=n, user_api="blas"))
    return n


_hooked = []


def _abort(comm):
    # The traceback reaches the launcher through its output forwarding, which MPI_Abort
    # tears down: give it a moment to pass on what was flushed (a loaded machine lost the
    # traceback's last lines without it).
    sys.stdout.flush()
    sys.stderr.flush()
    time.sleep(0.5)
    comm.abort(1)


def abort_on_exception(comm):
    """Make an uncaught exception in any thread of this rank print its traceback and abort
    the whole MPI job (``MPI_Abort``), so no other rank waits forever in a collective."""
    if _hooked:
        return
    _hooked.append(True)
    previous, previous_thread = sys.excepthook, threading.excepthook

    def hook(exc_type, exc, tb):
        previous(exc_type, exc, tb)
        _abort(comm)

    def thread_hook(args):
        previous_thread(args)
        _abort(comm)

    sys.excepthook = hook
    threading.excepthook = thread_hook
