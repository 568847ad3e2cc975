"""Keras 3's names and paths: ``dense``, ``dense_1``, ... and ``sequential/dense/kernel``."""
import collections
import contextlib
import re

_uids = collections.defaultdict(int)
_scope = []


def to_snake_case(name: str) -> str:
    """``'SparseCategoricalAccuracy'`` -> ``'sparse_categorical_accuracy'``, as Keras does."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def uniquify(name: str) -> str:
    """The first use of ``name`` keeps it; later ones get ``_1``, ``_2``, ... (process-wide)."""
    n = _uids[name]
    _uids[name] += 1
    return name if n == 0 else f"{name}_{n}"


def auto_name(cls_name: str) -> str:
    return uniquify(to_snake_case(cls_name))


@contextlib.contextmanager
def name_scope(name: str, owner=None):
    """Variables created inside get ``name/`` (and any outer scopes) as their path prefix.

    A scope opened again by the ``owner`` already innermost (a layer's ``add_weight``
    inside its own call) adds nothing.
    """
    if owner is not None and _scope and _scope[-1][1] is owner:
        yield
        return
    _scope.append((name, owner))
    try:
        yield
    finally:
        _scope.pop()


def current_path(name: str) -> str:
    return "/".join([n for n, _ in _scope] + [name])
