"""What a checkpoint sees of an object: its named children, and deferred restoration.

An object graph has named edges: ``tf.Module`` and plain trackable objects by attribute
(assignment order), lists and tuples by index (``"0"``, ``"1"``, ...), dicts by key.
Keras objects are seen as TensorFlow 2.21 + Keras 3 write them into a
``tf.train.Checkpoint``, so checkpoints move between the two:

- a layer: its weights by attribute, Keras 3's private names where it keeps them
  (``Dense``/``Conv*``: ``_kernel``, ``Embedding``: ``_embeddings``), sublayers by
  attribute (a recurrent layer's ``cell``);
- ``Sequential``: ``_functional/_operations/<i>``, ``Model(inputs, outputs)``:
  ``_operations/<i>`` (index 0 the input layer), then ``optimizer`` once compiled;
- an optimizer: ``_variables/<i>`` (``iterations``, ``learning_rate``, then each slot),
  ``_trainable_variables/<i>``, ``_iterations``, ``_learning_rate``, ``_momentums``,
  ``_velocities``.

Deferred restoration: a restore that meets a node whose object does not exist yet (a
layer not built, optimizer slots before the first step) registers itself on the nearest
existing object; that object calls :func:`created` when it makes variables or children,
and the restore continues there.
"""
import functools
import weakref

from .._core.variable import Variable

__all__ = ["children", "is_trackable", "created", "register_pending", "Placeholder"]


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


_KERAS_RENAMES = {"Dense": {"kernel": "_kernel"}, "Conv2D": {"kernel": "_kernel"},
                  "Conv1D": {"kernel": "_kernel"}, "Conv3D": {"kernel": "_kernel"},
                  "Conv2DTranspose": {"kernel": "_kernel"},
                  "Embedding": {"embeddings": "_embeddings"}}
# Attributes that are structure, not state: Keras lays these out itself (below).
_KERAS_SKIP = frozenset(("_own_weights", "_added_losses", "_layers", "_fn_layers",
                         "_fn_inputs", "_fn_outputs", "_slots", "_variables",
                         "_trainable_variables", "_iterations", "_learning_rate",
                         "_input_layer", "_slot_refs", "_index", "_seq_layers", "_seq_output",
                         "_states"))

def _keras():
    import sys
    return sys.modules.get("tapeflow.keras")


def is_trackable(value) -> bool:
    """Whether ``value`` can be a node of an object graph."""
    if isinstance(value, (Variable, list, tuple, dict)) or hasattr(value, "_trackable_children"):
        return True
    k = _keras()
    return k is not None and isinstance(value, (k.layers.Layer, k.optimizers.Optimizer))


def _holds_state(value, depth=0):
    if isinstance(value, (list, tuple)):
        return depth < 20 and any(_holds_state(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return depth < 20 and any(_holds_state(v, depth + 1) for v in value.values())
    return is_trackable(value)


def children(obj) -> list:
    """``[(local name, child)]`` of ``obj`` in the order TensorFlow lists them."""
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if _holds_state(v)]
    if isinstance(obj, dict):
        return [(k, v) for k, v in obj.items() if isinstance(k, str) and _holds_state(v)]
    method = getattr(obj, "_trackable_children", None)
    if method is not None:
        return method()
    k = _keras()
    if k is not None:
        if isinstance(obj, k.optimizers.Optimizer):
            return _optimizer_children(obj)
        if isinstance(obj, k.layers.Layer):
            return _layer_children(obj, k)
    return []


def attribute_children(obj, skip=()) -> list:
    """Children by attribute, in assignment order (``AutoTrackable``)."""
    return [(name, value) for name, value in vars(obj).items()
            if name not in skip and _holds_state(value)]


def _layer_children(layer, k):
    out = []
    if isinstance(layer, k.Sequential):
        ops = [Placeholder()] + list(layer._layers)
        out.append(("_functional", StructNode([("_operations", ops)])))
    elif getattr(layer, "_fn_layers", None) is not None:
        out.append(("_operations", list(layer._fn_layers)))
    renames = {}
    for cls in type(layer).__mro__:
        renames.update(_KERAS_RENAMES.get(cls.__name__, {}))
    own = {id(w) for w in layer._own_weights}
    attached = set()
    for name, value in vars(layer).items():
        if name in _KERAS_SKIP or not _holds_state(value):
            continue
        if isinstance(value, Variable):
            if id(value) not in own:
                continue
            attached.add(id(value))
            name = renames.get(name, name)
        out.append((name, value))
    names = {n for n, _ in out}
    for w in layer._own_weights:  # weights in no attribute (yet, inside add_weight): by name
        name = renames.get(w.name, w.name)
        if id(w) not in attached and name not in names:
            names.add(name)
            out.append((name, w))
    return out


def _optimizer_children(opt):
    """Keras 3's layout: ``_variables`` (iterations, the learning rate unless a schedule,
    then the slots), ``_trainable_variables``, ``_iterations``, ``_learning_rate`` and the
    slot lists by attribute (``_momentums``, ``_velocities``...)."""
    lr = opt._learning_rate
    out = [("_variables", list(opt._variables)),
           ("_trainable_variables", list(getattr(opt, "_trainable_variables", []))),
           ("_iterations", opt._iterations)]
    if isinstance(lr, Variable):
        out.append(("_learning_rate", lr))
    out += [(n, v) for n, v in attribute_children(opt, _KERAS_SKIP)]
    return out


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
