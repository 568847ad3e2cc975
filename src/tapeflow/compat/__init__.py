"""``tf.compat``: the TF 1.x API bits TF 2.21 still ships under ``tf.compat.v1`` that
tapeflow has (``wrap_function``); ``tf.compat.v2`` is tapeflow itself."""
import importlib as _importlib

__all__ = ["v1", "v2"]


def __getattr__(name):
    if name == "v1":
        module = _importlib.import_module("tapeflow.compat.v1")
        globals()["v1"] = module
        return module
    if name == "v2":
        module = _importlib.import_module("tapeflow")
        globals()["v2"] = module
        return module
    raise AttributeError(f"module 'tapeflow.compat' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"v1", "v2"})
