"""``tf.experimental``: TensorFlow's NumPy API on tensors (``tf.experimental.numpy``).

Sits beside the public ``tf.*`` modules (any floor may be used; Keras is not imported).
``numpy`` loads on first use.
"""
import importlib as _importlib

_LAZY_MODULES = {"numpy"}


def __getattr__(name):
    if name in _LAZY_MODULES:
        module = _importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'tapeflow.experimental' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES)
