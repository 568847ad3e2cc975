"""What a checkpoint sees of an object: its named children, and deferred restoration.

An object graph has named edges: ``tf.Module`` and plain trackable objects by attribute
(assignment order), lists and tuples by index (``"0"``, ``"1"``, ...), dicts by key.
Objects of the floors above (Keras layers and optimizers) are trackable through
:func:`register_children`: they register their class and their layout on import.

Deferred restoration: a restore that meets a node whose object does not exist yet (a
layer not built, optimizer slots before the first step) registers itself on the nearest
existing object; that object calls :func:`created` when it makes variables or children,
and the restore continues there.
"""
import functools
import weakref

from .._core.variable import as_variable

__all__ = ["children", "is_trackable", "created", "register_pending", "register_children",
           "Placeholder", "StructNode", "attribute_children", "holds_state", "tracked"]


class Placeholder:
    """A child without state (Keras 3's InputLayer slot in ``_operations``)."""

    def _trackable_children(self):
        return []


class StructNode:
    """A structural node made on the fly (Keras 3's ``_functional`` wrapper)."""

    def __init__(self, items):
        self._items = items

    def _trackable_children(self):
        return self._items


# (class, children function) pairs registered by the floors above (Keras registers its
# layers and optimizers: keras/saving/checkpoint_layout.py); checked in registration order.
_REGISTERED = []


def register_children(cls, children_fn):
    """Make instances of ``cls`` trackable, with ``children_fn(obj)`` -> ``[(name, child)]``.

    How a floor above ``checkpoint`` (Keras) tells it the layout of its objects without
    ``checkpoint`` importing it.
    """
    _REGISTERED.append((cls, children_fn))


def is_trackable(value) -> bool:
    """Whether ``value`` can be a node of an object graph."""
    if isinstance(value, (list, tuple, dict)) or as_variable(value) is not None or \
            hasattr(value, "_trackable_children"):
        return True
    return any(isinstance(value, cls) for cls, _ in _REGISTERED)


def holds_state(value, depth=0):
    """Whether ``value`` holds something trackable (a container: somewhere inside it)."""
    if isinstance(value, (list, tuple)):
        return depth < 20 and any(holds_state(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return depth < 20 and any(holds_state(v, depth + 1) for v in value.values())
    return is_trackable(value)


def tracked(value, depth=0):
    """Whether ``value`` is a node of a ``tf.Module``'s object graph as TensorFlow tracks
    it: a list or a dict always (TF wraps it in a ``ListWrapper``/``DictWrapper``; empty, or
    holding nothing trackable, its node has no children), a tuple when an item is tracked,
    else a trackable."""
    if isinstance(value, (list, dict)):
        return True
    if isinstance(value, tuple):
        return depth < 20 and any(tracked(v, depth + 1) for v in value)
    return is_trackable(value)


def children(obj) -> list:
    """``[(local name, child)]`` of ``obj`` in the order TensorFlow lists them."""
    if as_variable(obj) is not None:
        return []
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if tracked(v)]
    if isinstance(obj, dict):
        return [(k, v) for k, v in obj.items() if isinstance(k, str) and tracked(v)]
    method = getattr(obj, "_trackable_children", None)
    if method is not None:
        return method()
    for cls, children_fn in _REGISTERED:
        if isinstance(obj, cls):
            return children_fn(obj)
    return []


def attribute_children(obj, skip=(), empty_containers=True) -> list:
    """Children by attribute, in assignment order (``AutoTrackable``): with
    ``empty_containers`` every list and dict attribute (TF's rule, :func:`tracked`), else
    only those holding state (Keras 3's objects)."""
    keep = tracked if empty_containers else holds_state
    return [(name, value) for name, value in vars(obj).items()
            if name not in skip and keep(value)]


# -- deferred restoration ----------------------------------------------------------------
_PENDING = {}  # id(owner) -> (weakref to owner, [(restore session, node id)])
def register_pending(owner, session, node_id):
    """Ask ``owner`` to resume ``session`` at ``node_id`` when it gains state."""
    key = id(owner)
    entry = _PENDING.get(key)
    if entry is None or entry[0]() is not owner:
        try:
            ref = weakref.ref(owner, functools.partial(_forget, key))
        except TypeError:
            return
        entry = _PENDING[key] = (ref, [])
    if all(s is not session or n != node_id for s, n in entry[1]):
        entry[1].append((session, node_id))


def _forget(key, _ref):
    if _PENDING is not None:  # None during interpreter shutdown
        _PENDING.pop(key, None)


def created(owner):
    """Called by ``owner`` after it made variables or children: resume pending restores."""
    if not _PENDING:
        return
    entry = _PENDING.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return
    from .._core.recording import init_scope
    with init_scope():   # restoring is initialization, outside any function being traced
        remaining = [(s, n) for s, n in entry[1] if not s.resume(n, owner)]
    if remaining:
        entry[1][:] = remaining
    else:
        _PENDING.pop(id(owner), None)
