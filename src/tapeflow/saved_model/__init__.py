"""``tf.saved_model``: TensorFlow's SavedModel format, written and read.

Loaded on first use (``tf.saved_model`` is a lazy attribute of ``tapeflow``), and its pieces
load lazily too: ``load`` (``loader.py``: parse, revive the object graph, restore the
variables, import each FunctionDef as a traced ``tf.function``) does not import the writer
and ``save`` (``save.py``) does not import the importer (``_Package`` keeps the functions
when a submodule of the same name is imported). The wire codec is
``tapeflow/_protobuf.py``; TF's op definitions ``function/tf_op_defs.py``. Design:
``docs/saving.md`` and the SavedModel design note.
"""
import importlib as _importlib
import sys as _sys
import types as _types

ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
GPU = "gpu"
PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"
REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
SERVING = "serve"
TPU = "tpu"
TRAINING = "train"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"

_LAZY = {
    "save": ("save", "save"),
    "load": ("loader", "load"),
    "contains_saved_model": ("loader", "contains_saved_model"),
    "SaveOptions": ("options", "SaveOptions"),
    "LoadOptions": ("options", "LoadOptions"),
    "experimental": ("experimental", None),
}

__all__ = sorted([n for n in globals() if n.isupper() and n[0] != "_"] + list(_LAZY))


class _Package(_types.ModuleType):
    """The package's module type: importing the submodule ``save`` (or ``load``) must not
    hide the function of that name (Python's import sets the submodule as an attribute of
    its package), as TF's API module keeps ``tf.saved_model.save`` the function."""

    def __setattr__(self, name, value):
        if name in _LAZY and isinstance(value, _types.ModuleType) and \
                _LAZY[name][1] is not None:
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name in _LAZY:
        module, attr = _LAZY[name]
        mod = _importlib.import_module(f"{__name__}.{module}")
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeflow.saved_model' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
