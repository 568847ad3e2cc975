"""The object graph a SavedModel holds, walked from the object ``tf.saved_model.save`` gets.

Nodes in breadth-first order from the root, as TensorFlow's ``ObjectGraphView`` lists them
(the checkpoint's walk, ``checkpoint/graph.py``): a tf.Module's (or trackable object's)
children in the checkpoint's order, then its ``tf.function`` attributes (by attribute name,
as TF's ``_list_functions_for_serialization`` finds them with ``dir``), then on the root the
``signatures`` map. A ``tf.function`` node has a child ``trace_<k>`` per concrete function
(a bare concrete function node); a signature map has one child per signature.

TF's counterpart: ``tensorflow/python/saved_model/save.py`` (``_AugmentedGraphView``).
"""
from collections import deque

from .._core.variable import as_variable
from ..checkpoint import tracking
from ..function.concrete_function import ConcreteFunction
from ..function.polymorphic import Function
from . import revive

__all__ = ["SavedNode", "SignatureMap", "walk"]


class SignatureMap:
    """The root's ``signatures`` child: ``{key: ConcreteFunction}`` in key order."""

    def __init__(self, signatures):
        self.signatures = dict(sorted(signatures.items()))


class SavedNode:
    """One node: ``obj``, its ``kind`` (``user``, ``list``, ``dict``, ``tuple``, ``variable``,
    ``function``, ``concrete``, ``signature_map``), ``children`` (``[(name, node id)]``) and
    ``path`` (names from the root, for checkpoint keys). A ``concrete`` node of a signature
    carries its key in ``signature``."""

    __slots__ = ("obj", "kind", "children", "path", "signature")

    def __init__(self, obj, kind, path, signature=None):
        self.obj, self.kind, self.path, self.signature = obj, kind, path, signature
        self.children = []


def _kind(obj):
    if as_variable(obj) is not None:
        return "variable"
    if isinstance(obj, (Function, revive.RestoredFunction)):
        return "function"
    if isinstance(obj, (ConcreteFunction, revive.RestoredConcreteFunction)):
        return "concrete"
    if isinstance(obj, SignatureMap):
        return "signature_map"
    if isinstance(obj, list):
        return "list"
    if isinstance(obj, dict):
        return "dict"
    if isinstance(obj, tuple):
        return "tuple"
    return "user"


def functions_of(obj):
    """``[(attribute name, Function)]`` of an object's ``tf.function`` attributes (methods
    bound to it included), by name."""
    if as_variable(obj) is not None or isinstance(
            obj, (list, tuple, dict, Function, ConcreteFunction, SignatureMap)):
        return []
    out = []
    seen = set()
    if isinstance(obj, revive.UserObject):
        return []     # its functions are attributes: children already
    names = set(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        names.update(k for k, v in vars(cls).items() if isinstance(v, Function))
    for name in sorted(names):
        if name in seen:
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a property that fails is not a function
            continue
        if isinstance(value, (Function, revive.RestoredFunction)):
            seen.add(name)
            out.append((name, value))
    return out


def concrete_functions(function):
    """The traces of a ``tf.function`` to save: those made so far; one with an
    ``input_signature`` and no trace is traced now (TF does the same). A function loaded
    from a SavedModel has its saved traces."""
    if isinstance(function, revive.RestoredFunction):
        return list(function.concrete_functions)
    if not function._traces and function._input_signature is not None:
        function.get_concrete_function()
    return list(function._traces)


def _children(node, is_root, signature_map):
    obj, kind = node.obj, node.kind
    if kind == "function":
        return [(f"trace_{k}", c) for k, c in enumerate(concrete_functions(obj))]
    if kind == "signature_map":
        return list(obj.signatures.items())
    if kind in ("variable", "concrete"):
        return []
    if isinstance(obj, revive.UserObject):
        # a loaded object: its saved children are its attributes, in the saved order
        out = [(n, c) for n, c in vars(obj).items() if n != "signatures" and _holds(c)]
    elif isinstance(obj, (list, tuple)):
        out = [(str(i), v) for i, v in enumerate(obj) if _holds(v)]
    elif isinstance(obj, dict):
        out = [(k, v) for k, v in obj.items() if isinstance(k, str) and _holds(v)]
    else:
        out = [(n, c) for n, c in tracking.children(obj)]
    have = {n for n, _ in out}
    out += [(n, f) for n, f in functions_of(obj) if n not in have]
    if is_root and signature_map is not None:
        out.append(("signatures", signature_map))
    return out


def _holds(value, depth=0):
    """Whether a value is saved: trackable (the checkpoint's rule), a loaded object or
    function, a list or dict (TF tracks every one, empty too), or a tuple holding one."""
    if isinstance(value, (revive.UserObject, revive.RestoredFunction, list, dict)):
        return True
    if isinstance(value, tuple):
        return depth < 20 and any(_holds(v, depth + 1) for v in value)
    return tracking.is_trackable(value)


def loaded_signatures(obj):
    """The signatures of an object loaded from a SavedModel (``{key: concrete}``), or
    None for any other object."""
    sigs = getattr(obj, "signatures", None) if isinstance(obj, revive.UserObject) else None
    return dict(sigs) if isinstance(sigs, revive.SignatureMap) else None


def walk(root, signature_map=None):
    """The nodes (:class:`SavedNode`) in breadth-first order; node 0 is ``root``. An object
    reached twice is one node. A concrete function that is a signature appears as its own
    node under ``signatures`` (its wrapper)."""
    nodes = [SavedNode(root, _kind(root), ())]
    ids = {id(root): 0}
    queue = deque([0])
    while queue:
        i = queue.popleft()
        node = nodes[i]
        for name, child in _children(node, i == 0, signature_map):
            key = id(child)
            if node.kind == "signature_map":
                key = ("signature", name)   # a wrapper of its own, even of a shared trace
            j = ids.get(key)
            if j is None:
                j = ids[key] = len(nodes)
                nodes.append(SavedNode(child, _kind(child), node.path + (name,),
                                       signature=name if node.kind == "signature_map"
                                       else None))
                queue.append(j)
            node.children.append((name, j))
    return nodes
