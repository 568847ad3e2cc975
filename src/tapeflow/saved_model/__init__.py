"""``tf.saved_model``: TensorFlow's SavedModel format, written and read.

Loaded on first use (``tf.saved_model`` is a lazy attribute of ``tapeflow``), and its pieces
load lazily too: ``load`` (``loader.py``: parse, revive the object graph, restore the
variables, import each FunctionDef as a traced ``tf.function``) does not import the writer
and ``save`` does not import the importer. A submodule must not share a name with the lazy
function it provides: importing ``tapeflow.saved_model.load`` would set the package's
``load`` attribute to the module. The wire codec is
``tapeflow/_protobuf.py``; TF's op definitions ``function/tf_op_defs.py``. Design:
``docs/saving.md`` and the SavedModel design note.
"""
import importlib as _importlib

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

# `save` joins __all__ (and tests/fixtures/public_api.txt) with save.py (helper smsave).
__all__ = sorted([n for n in globals() if n.isupper() and n[0] != "_"]
                 + [n for n in _LAZY if n != "save"])


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
