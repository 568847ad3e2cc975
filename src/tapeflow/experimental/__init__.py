"""``tf.experimental``: TensorFlow's NumPy API on tensors (``tf.experimental.numpy``),
extension types and API dispatch, and the ragged shape classes (``DynamicRaggedShape``,
``RowPartition``).

Sits beside the public ``tf.*`` modules (any floor may be used; Keras is not imported).
``numpy`` loads on first use.
"""
import importlib as _importlib

_LAZY_MODULES = {"numpy"}
_LAZY_ATTRS = {
    "ExtensionType": "extension_type", "BatchableExtensionType": "extension_type",
    "ExtensionTypeSpec": "extension_type",
    "dispatch_for_api": "dispatch", "dispatch_for_unary_elementwise_apis": "dispatch",
    "dispatch_for_binary_elementwise_apis": "dispatch", "unregister_dispatch_for": "dispatch",
    "DynamicRaggedShape": "..ops.ragged.dynamic_ragged_shape",
    "RowPartition": "..ops.ragged.row_partition",
}


def __getattr__(name):
    if name in _LAZY_MODULES:
        module = _importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    if name in _LAZY_ATTRS:
        where = _LAZY_ATTRS[name]
        module = (_importlib.import_module(where, __name__) if where.startswith(".")
                  else _importlib.import_module(f"{__name__}.{where}"))
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeflow.experimental' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_ATTRS))
