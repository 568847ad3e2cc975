"""Horovod's TensorFlow 2 names on tapeflow's communicator: port a Horovod script by changing
``import horovod.tensorflow as hvd`` to ``import tapeflow.distribute.hvd as hvd``.

``init()`` joins the MPI job (a one-rank job without a launcher); ``DistributedGradientTape``
averages (or sums) gradients over ranks in one packed all-reduce per dtype;
``broadcast_variables`` copies rank 0's values; ``DistributedOptimizer`` all-reduces in
``apply_gradients``.

>>> import tapeflow as tf
>>> import tapeflow.distribute.hvd as hvd
>>> hvd.init(); hvd.rank(), hvd.size()
(0, 1)
"""
from .._core.tape import GradientTape
from .._core.tensor import convert_to_tensor
from . import collective_ops
from . import communicator as _communicator

__all__ = ["init", "is_initialized", "shutdown", "rank", "size", "local_rank", "local_size",
           "Average", "Sum", "Adasum", "Compression", "allreduce", "allgather", "broadcast",
           "broadcast_variables", "DistributedGradientTape", "DistributedOptimizer"]

Average, Sum, Adasum = "average", "sum", "adasum"
_state = {"comm": None}


class Compression:
    """Accepted for Horovod's API: gradients travel uncompressed."""

    none = None
    fp16 = None


def init(comm=None):
    """Join the job: MPI under a launcher, else one rank. ``comm`` may give a communicator
    (a ``ThreadCommunicator`` rank for in-process tests). Under MPI, as
    ``MultiWorkerMirroredStrategy``: BLAS threads capped per rank, and an uncaught exception
    on any rank aborts the job."""
    _state["comm"] = comm if comm is not None else _communicator.world()
    if comm is None and _state["comm"].size > 1:
        from .multi_worker import abort_on_exception, cap_blas_threads
        cap_blas_threads(_state["comm"])
        abort_on_exception(_state["comm"])


def _comm():
    if _state["comm"] is None:
        raise ValueError("Horovod has not been initialized; use hvd.init().")
    return _state["comm"]


def is_initialized() -> bool:
    return _state["comm"] is not None


def shutdown():
    _state["comm"] = None


def rank() -> int:
    return _comm().rank


def size() -> int:
    return _comm().size


def local_rank() -> int:
    return _comm().local_rank


def local_size() -> int:
    return _comm().local_size


def _op_name(op, average):
    if average is not None:
        return "mean" if average else "sum"
    if op in (None, Average):
        return "mean"
    if op == Sum:
        return "sum"
    raise NotImplementedError(f"op={op!r}: tapeflow's hvd has Average and Sum")


def allreduce(tensor, average=None, device_dense="", device_sparse="", compression=None,
              op=None, prescale_factor=1.0, postscale_factor=1.0, name=None, process_set=None):
    """``tensor`` averaged (``op=Average``, the default) or summed over all ranks."""
    t = convert_to_tensor(tensor)
    if prescale_factor != 1.0:
        t = t * prescale_factor
    out = collective_ops.all_reduce(t, _comm(), _op_name(op, average))
    return out * postscale_factor if postscale_factor != 1.0 else out


def allgather(tensor, name=None, process_set=None):
    """Every rank's ``tensor`` concatenated along the first axis."""
    return collective_ops.all_gather(tensor, _comm(), 0)


def broadcast(tensor, root_rank, name=None, process_set=None):
    """Rank ``root_rank``'s ``tensor`` on every rank."""
    return collective_ops.broadcast(tensor, _comm(), root_rank)


def broadcast_variables(variables, root_rank=0, process_set=None):
    """Assign rank ``root_rank``'s values to ``variables`` on every rank (same order on all)."""
    comm = _comm()
    for v in variables:
        v.assign(collective_ops.broadcast(v, comm, root_rank))


def _reduce_grads(grads, op):
    comm = _comm()
    flat = list(grads)
    if comm.size == 1:
        return flat
    return collective_ops.pack_all_reduce(flat, comm, op)


class DistributedGradientTape:
    """A GradientTape whose ``gradient`` all-reduces the gradients over ranks
    (``hvd.DistributedGradientTape``; ``op=Average`` by default: the SUM over ranks / size).

    Args:
        gradtape: the ``tf.GradientTape`` that recorded the step.
        op: ``hvd.Average`` or ``hvd.Sum``.
        (Horovod's other arguments are accepted and ignored.)
    """

    def __init__(self, gradtape, device_dense="", device_sparse="", compression=None,
                 sparse_as_dense=False, op=Average, gradient_predivide_factor=1.0,
                 num_groups=0, groups=None, process_set=None, scale_local_gradients=True):
        if not isinstance(gradtape, GradientTape):
            raise TypeError("DistributedGradientTape wraps a tf.GradientTape")
        self._tape = gradtape
        self._op = _op_name(op, None)

    def __getattr__(self, name):
        return getattr(self._tape, name)

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients=None):
        kwargs = {} if unconnected_gradients is None else {
            "unconnected_gradients": unconnected_gradients}
        grads = self._tape.gradient(target, sources, output_gradients=output_gradients,
                                    **kwargs)
        single = not isinstance(grads, (list, tuple))
        reduced = _reduce_grads([grads] if single else grads, self._op)
        return reduced[0] if single else reduced


class DistributedOptimizer:
    """Wrap a Keras optimizer so ``apply_gradients`` averages the gradients over ranks first
    (``hvd.DistributedOptimizer``)."""

    def __init__(self, optimizer, name=None, device_dense="", device_sparse="",
                 compression=None, sparse_as_dense=False, backward_passes_per_step=1,
                 op=Average, gradient_predivide_factor=1.0, average_aggregated_gradients=False,
                 num_groups=0, groups=None, process_set=None, scale_local_gradients=True):
        self._optimizer = optimizer
        self._op = _op_name(op, None)

    def __getattr__(self, name):
        return getattr(self._optimizer, name)

    def apply_gradients(self, grads_and_vars, **kwargs):
        pairs = list(grads_and_vars)
        grads = _reduce_grads([g for g, _ in pairs], self._op)
        return self._optimizer.apply_gradients(zip(grads, [v for _, v in pairs]), **kwargs)
