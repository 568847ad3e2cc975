"""``import tensorflow as tf`` inside tests/compat runs tapeflow (this directory is put on
sys.path only by the compat harness; tapeflow itself never imports TensorFlow).

``tensorflow.X`` submodules (``from tensorflow.keras import layers``) are the same module
objects as ``tapeflow.X``: an alias finder imports the tapeflow module and hands it back, so
no second copy of a package (with its own classes) is loaded under the other name."""
import importlib
import importlib.abc
import importlib.util
import sys

import tapeflow


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.startswith("tensorflow."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("tapeflow." + spec.name.split(".", 1)[1])

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Alias())
sys.modules[__name__] = tapeflow
