"""The optimizers by name: ``keras.optimizers.serialize``, ``deserialize`` and ``get``.

The table of built-in classes is filled by ``keras.optimizers`` (the package's face, which sits
above every optimizer's file) when it is imported, so that ``LossScaleOptimizer``, which wraps
any optimizer, rebuilds its inner one from here without importing the face.
"""
from .optimizer import Optimizer

__all__ = ["register", "serialize", "deserialize", "get"]

_BY_NAME = {}   # lower-case class name -> class: get("adam") and deserialize
_ALIASES = {}   # names that deserialize alone reads (LossScaleOptimizer's two spellings)


def register(classes, **aliases):
    """File the built-in optimizer ``classes`` under their lower-case names (``get`` and
    ``deserialize`` find them) and ``aliases`` (name -> class) for ``deserialize`` alone."""
    _BY_NAME.update({c.__name__.lower(): c for c in classes})
    _ALIASES.update(aliases)


def serialize(optimizer) -> dict:
    """The optimizer as Keras 3 serializes it: module, class name and ``get_config()``."""
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """An optimizer from :func:`serialize`'s dict (or a ``{'class_name', 'config'}``)."""
    classes = dict(_BY_NAME, **_ALIASES)
    classes.update({k.lower(): v for k, v in (custom_objects or {}).items()})
    cls = classes.get(config["class_name"].lower())
    if cls is None:
        raise ValueError(f"Could not interpret optimizer identifier: {config}")
    return cls.from_config(dict(config["config"]))


def get(identifier):
    """An optimizer from a name ('adam', 'sgd', 'rmsprop', ...), a config dict or an
    instance.

    Raises:
        ValueError: for an unknown identifier.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
