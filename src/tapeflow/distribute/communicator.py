"""Communicators: how replicas in different processes (or threads) exchange NumPy buffers.

A communicator has ``rank``, ``size``, ``local_rank``, ``local_size`` and the collectives
``allreduce(buf, op)`` (in place), ``bcast(buf, root)`` (in place), ``allgather(array)``,
``barrier()`` and ``abort(code)``. It counts its calls (``calls``) so tests and benchmarks can
check that a training step makes exactly one all-reduce.

- ``LocalCommunicator``: one process, one replica; every collective is the identity.
- ``ThreadCommunicator``: N replicas as threads of one process (a barrier and a shared slot);
  for tests and ``hvd``-style code without a launcher.
- ``MPICommunicator``: one replica per process over mpi4py (``tapeflow[mpi]``), built by
  ``world()`` when a launcher (mpiexec, srun) started the process.
"""
import collections
import os
import sys
import threading

from .._core.backend import np

__all__ = ["Communicator", "LocalCommunicator", "ThreadCommunicator", "MPICommunicator",
           "launched_by_mpi", "world"]

_LAUNCHER_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS")


class Communicator:
    """The interface; subclasses implement the collectives on NumPy arrays."""

    rank = 0
    size = 1
    local_rank = 0
    local_size = 1

    def __init__(self):
        self.calls = collections.Counter()

    def allreduce(self, buf, op="sum"):
        """Reduce ``buf`` (a contiguous array) over all ranks, in place. ``op``: sum, max, min."""
        raise NotImplementedError

    def bcast(self, buf, root=0):
        """Overwrite ``buf`` on every rank with ``root``'s, in place."""
        raise NotImplementedError

    def allgather(self, array):
        """Every rank's ``array`` (shapes may differ), as a list in rank order."""
        raise NotImplementedError

    def barrier(self):
        raise NotImplementedError

    def abort(self, code=1):
        os._exit(code)


class LocalCommunicator(Communicator):
    """One process, one replica: collectives leave the data as it is."""

    def allreduce(self, buf, op="sum"):
        self.calls["allreduce"] += 1
        return buf

    def bcast(self, buf, root=0):
        self.calls["bcast"] += 1
        return buf

    def allgather(self, array):
        self.calls["allgather"] += 1
        return [array]

    def barrier(self):
        self.calls["barrier"] += 1


class _Group:
    def __init__(self, size):
        self.size = size
        self.barrier = threading.Barrier(size)
        self.slots = [None] * size


class ThreadCommunicator(Communicator):
    """One rank of an in-process group of ``size`` threads.

    Build the group with ``ThreadCommunicator.group(n)`` and give each thread its rank's
    communicator. Reductions add in rank order, so every rank gets bitwise the same result.
    """

    def __init__(self, group, rank):
        super().__init__()
        self._group = group
        self.rank, self.size = rank, group.size
        self.local_rank, self.local_size = rank, group.size

    @classmethod
    def group(cls, size):
        g = _Group(size)
        return [cls(g, r) for r in range(size)]

    def _exchange(self, value):
        g = self._group
        g.slots[self.rank] = value
        g.barrier.wait()
        values = list(g.slots)
        g.barrier.wait()
        return values

    def allreduce(self, buf, op="sum"):
        self.calls["allreduce"] += 1
        parts = self._exchange(buf.copy())
        fn = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]
        acc = parts[0].copy()
        for p in parts[1:]:
            fn(acc, p, out=acc)
        buf[...] = acc
        return buf

    def bcast(self, buf, root=0):
        self.calls["bcast"] += 1
        parts = self._exchange(buf.copy() if self.rank == root else None)
        buf[...] = parts[root]
        return buf

    def allgather(self, array):
        self.calls["allgather"] += 1
        return self._exchange(np.array(array))

    def barrier(self):
        self.calls["barrier"] += 1
        self._group.barrier.wait()


class MPICommunicator(Communicator):
    """MPI's COMM_WORLD through mpi4py: upper-case (buffer) calls, no pickling of arrays.

    Args:
        comm: an mpi4py communicator (default ``MPI.COMM_WORLD``).

    Raises:
        ImportError: if mpi4py is not installed (``pip install "tapeflow[mpi]"``).
    """

    def __init__(self, comm=None):
        super().__init__()
        mpi = import_mpi()
        self._MPI = mpi
        self.comm = comm if comm is not None else mpi.COMM_WORLD
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        node = self.comm.Split_type(mpi.COMM_TYPE_SHARED)
        self.local_rank, self.local_size = node.Get_rank(), node.Get_size()
        node.Free()
        self._ops = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN}

    def allreduce(self, buf, op="sum"):
        self.calls["allreduce"] += 1
        self.comm.Allreduce(self._MPI.IN_PLACE, buf, op=self._ops[op])
        return buf

    def bcast(self, buf, root=0):
        self.calls["bcast"] += 1
        self.comm.Bcast(buf, root=root)
        return buf

    def allgather(self, array):
        self.calls["allgather"] += 1
        return self.comm.allgather(np.ascontiguousarray(array))

    def barrier(self):
        self.calls["barrier"] += 1
        self.comm.Barrier()

    def abort(self, code=1):
        self.comm.Abort(code)


def import_mpi():
    """``mpi4py.MPI``, or an ImportError naming the extra to install."""
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError(
            "Running under an MPI launcher needs mpi4py: pip install \"tapeflow[mpi]\" "
            "(mpi4py with the MPICH wheels)") from exc
    return MPI


def launched_by_mpi() -> bool:
    """Whether an MPI launcher (mpiexec/mpirun, Slurm's srun) started this process, or
    ``python -m mpi4py`` already initialised MPI."""
    if any(v in os.environ for v in _LAUNCHER_VARS):
        return True
    if "SLURM_PROCID" in os.environ and "SLURM_STEP_NUM_TASKS" in os.environ:
        return True
    mpi = sys.modules.get("mpi4py.MPI")
    return bool(mpi is not None and mpi.Is_initialized())


_world = []


def world() -> Communicator:
    """This process's communicator: MPI under a launcher, else a one-rank LocalCommunicator."""
    if not _world:
        _world.append(MPICommunicator() if launched_by_mpi() else LocalCommunicator())
    return _world[0]
