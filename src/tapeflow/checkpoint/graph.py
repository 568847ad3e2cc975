"""An object graph as saved: nodes in breadth-first order from the root, each variable
keyed once by its first (shortest) path, as TensorFlow's ``ObjectGraphView`` does."""
from collections import deque

from .._core.backend import np
from .._core.variable import as_variable
from . import tracking
from ._proto import Node, ObjectGraph

__all__ = ["serialize", "OBJECT_GRAPH_KEY", "VALUE", "escape", "checkpoint_key"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE = "VARIABLE_VALUE"


def escape(name: str) -> str:
    """TensorFlow's escaping of a local name inside a key: ``.`` -> ``..``, ``/`` -> ``.S``."""
    return name.replace(".", "..").replace("/", ".S")


def checkpoint_key(path, attribute=VALUE) -> str:
    return "/".join(escape(p) for p in path) + f"/.ATTRIBUTES/{escape(attribute)}"


def full_name(var) -> str:
    path = getattr(var, "path", None)
    return path if path is not None else var.name.split(":")[0]


def walk(root):
    """``(objects, edges, paths)``: objects in breadth-first order (node ids), each
    object's ``[(child id, name)]`` and its path of names from the root."""
    objects, ids, edges, paths = [root], {id(root): 0}, [], [()]
    queue = deque([0])
    while queue:
        i = queue.popleft()
        mine = []
        for name, child in tracking.children(objects[i]):
            j = ids.get(id(child))
            if j is None:
                j = ids[id(child)] = len(objects)
                objects.append(child)
                paths.append(paths[i] + (name,))
                queue.append(j)
            mine.append((j, name))
        edges.append(mine)
    return objects, edges, paths


def serialize(root):
    """``(ObjectGraph, [(key, dtype name, shape, NumPy value)])`` for ``root``."""
    objects, edges, paths = walk(root)
    nodes = [Node() for _ in objects]
    tensors = []
    for i, obj in enumerate(objects):
        nodes[i].children = edges[i]
        if as_variable(obj) is not None:
            key = checkpoint_key(paths[i])
            nodes[i].attributes = [(VALUE, full_name(obj), key)]
            # Saving is TensorFlow's SaveV2 op: it reads the stored value itself.
            value = obj._value
            tensors.append((key, obj.dtype.name, tuple(value.shape), value))
        elif hasattr(obj, "_checkpoint_tensors"):
            # Other saveables (a dataset iterator): the graph names the attribute's key;
            # the tensor sits at that key plus a suffix, as TensorFlow lays them out.
            for name, (suffix, dtype_name, value) in obj._checkpoint_tensors().items():
                key = checkpoint_key(paths[i], name)
                nodes[i].attributes.append((name, "", key))
                tensors.append((key + suffix, dtype_name, tuple(np.shape(value)), value))
    has = [bool(n.attributes) for n in nodes]
    changed = True
    while changed:  # a node has values if any node below it does (graphs may have cycles)
        changed = False
        for i, n in enumerate(nodes):
            if not has[i] and any(has[j] for j, _ in n.children):
                has[i] = changed = True
    for n, h in zip(nodes, has):
        n.has_values = h
    return ObjectGraph(nodes), tensors
