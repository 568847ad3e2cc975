"""``import keras`` inside tests/compat runs ``tapeflow.keras`` (Keras 3 on TF's backend, as
the Keras 3 guides use it); put on sys.path only by the compat harness.

``keras.X`` submodules (``from keras import layers, ops``) are the same module objects as
``tapeflow.keras.X``, handed back by an alias finder as the ``tensorflow`` shim does."""
import importlib
import importlib.abc
import importlib.util
import sys

import tapeflow.keras


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.startswith("keras."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("tapeflow.keras." + spec.name.split(".", 1)[1])

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Alias())
sys.modules[__name__] = tapeflow.keras
