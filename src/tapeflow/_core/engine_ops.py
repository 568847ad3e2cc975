"""The ops the engine's own computations use, supplied from below by the op layer.

The reverse sweep, jacobians and forward mode compute with ordinary differentiable ops so
that an outer tape records them (that is how higher derivatives come free). Those ops are
declared in ``tapeflow.ops``, which imports the engine; rather than reaching up into it, the
engine reads them here, and ``tapeflow.ops`` fills this table when it is imported
(:func:`install`). No module of ``_core`` imports ``ops``: the engine reads top to bottom.
"""
import types

__all__ = ["OPS", "install", "load_rules"]

# add, negative, multiply, reduce_sum, zeros_like, ones_like, cast, reshape, transpose, stack,
# unstack, concat, broadcast_to, stop_gradient
OPS = types.SimpleNamespace()
_RULES = {}     # "batching" / "jvp" -> a function that registers the built-in ops' rules
_loaded = set()


def install(rules=None, **ops):
    """Give the engine its ops (keyword: name -> function) and the loaders of the rule
    tables (``rules``: kind -> function registering them on first use)."""
    for name, fn in ops.items():
        setattr(OPS, name, fn)
    _RULES.update(rules or {})


def load_rules(kind):
    """Register the built-in ops' rules of ``kind`` ("batching", "jvp") once."""
    if kind not in _loaded:
        _loaded.add(kind)
        _RULES[kind]()
