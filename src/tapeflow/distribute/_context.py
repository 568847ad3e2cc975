"""Which strategy is current, per thread: ``scope()`` and replica contexts push onto a stack.

Kept free of heavy imports: Keras losses, optimizers and ``tf.nn`` look here (only once this
module is loaded, through ``sys.modules``) to learn whether they run under a strategy.
"""
import threading

from ..ops import nn_ops as _nn_ops
from ..ops import stateful_random_ops as _random

__all__ = ["get_strategy", "has_strategy", "in_cross_replica_context", "get_replica_context",
           "push", "pop", "current", "default_strategy"]


class _State(threading.local):
    def __init__(self):
        self.stack = []  # (strategy, replica context or None for cross-replica)


_state = _State()
_default = []  # the default strategy, made on first use
# Its class, registered by strategy.py (which imports this module: importing it back here
# would close a circle).
DEFAULT_CLASS = []


def default_strategy():
    if not _default:
        _default.append(DEFAULT_CLASS[0]())
    return _default[0]


def push(strategy, replica_context=None):
    _state.stack.append((strategy, replica_context))


def pop():
    _state.stack.pop()


def current():
    """``(strategy, replica_context)`` on top of this thread's stack, or ``None``."""
    stack = _state.stack
    return stack[-1] if stack else None


def get_strategy():
    """The current strategy: the one whose ``scope()`` or ``run`` is active, else the default
    (one replica, no scope), as ``tf.distribute.get_strategy``.

    >>> import tapeflow as tf
    >>> tf.distribute.get_strategy().num_replicas_in_sync
    1
    """
    top = current()
    return top[0] if top else default_strategy()


def has_strategy():
    """Whether a non-default strategy is current (``tf.distribute.has_strategy``).

    >>> import tapeflow as tf
    >>> tf.distribute.has_strategy()
    False
    """
    top = current()
    return bool(top) and not top[0]._is_default


def in_cross_replica_context():
    """True inside ``strategy.scope()`` (or a ``merge_call``), False in a replica function and
    outside any scope (``tf.distribute.in_cross_replica_context``).

    >>> import tapeflow as tf
    >>> tf.distribute.in_cross_replica_context()
    False
    """
    top = current()
    return bool(top) and top[1] is None


def get_replica_context():
    """The ReplicaContext of the replica running this code; ``None`` in cross-replica context;
    outside any strategy the default replica context (replica 0 of 1), as
    ``tf.distribute.get_replica_context``.

    >>> import tapeflow as tf
    >>> int(tf.distribute.get_replica_context().replica_id_in_sync_group)
    0
    """
    top = current()
    if top is None:
        return default_strategy()._default_replica_context
    return top[1]


def replica_id():
    """This thread's replica index under an in-process strategy (0 elsewhere)."""
    top = current()
    if top is None or top[1] is None:
        return 0
    return top[1]._local_id


def _replicas_and_context():
    return (get_strategy().num_replicas_in_sync,
            has_strategy() and in_cross_replica_context())


_nn_ops.register_distribution(_replicas_and_context)


def _generator_strategy():
    top = current()
    if top is None or top[0]._is_default:
        return None
    return top[0], len(top[0]._devices)


def _generator_replica():
    top = current()
    if top is None or top[1] is None:
        return None
    ctx = top[1]
    return ctx._replica_id, ctx._local_id


_random.register_distribution(_generator_strategy, _generator_replica)
