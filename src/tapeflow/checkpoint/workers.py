"""Saving with several workers (``tf.distribute`` across processes): the chief (rank 0)
writes the files, the others only keep their counters in step, and every worker waits after
each save until the chief's files are complete, so a restore right after finds them.

TensorFlow's pattern has every worker save and the non-chiefs write to throwaway paths; with
one shared file system that is the chief's write alone. ``MultiWorkerMirroredStrategy``
registers its communicator here when it spans several processes.
"""

__all__ = ["register", "is_writer", "wait"]

_GROUP = []


def register(comm):
    """Save through ``comm`` (``rank``, ``barrier()``) from now on."""
    _GROUP[:] = [comm]


def is_writer() -> bool:
    """Whether this process writes checkpoint files (the chief, or the only process)."""
    return not _GROUP or _GROUP[0].rank == 0


def wait():
    """Every worker waits here until all have arrived (the chief after writing)."""
    if _GROUP:
        _GROUP[0].barrier()
