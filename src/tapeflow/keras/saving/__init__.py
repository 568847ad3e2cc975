"""Saving and loading Keras files (``tf.keras.saving``), in Keras 3's formats.

- ``weights_h5``: the ``.weights.h5`` layout (Keras 3's group paths and variable order).
- ``serialization`` / ``object_registration`` / ``functional``: the ``config.json`` format
  (``serialize_keras_object``, registered classes, functional graphs).
- ``saving_lib``: ``.weights.h5`` and ``.keras`` files, written atomically (``checkpoint.atomic``).
- ``callbacks``: ``ModelCheckpoint`` and ``BackupAndRestore`` for ``fit``.

h5py is the optional extra ``tapeflow[h5]``; it is imported when a file is read or written.
"""
from .object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from .saving_lib import load_model, load_weights, save_model, save_weights
from .serialization import SafeModeScope, deserialize_keras_object, serialize_keras_object

__all__ = ["CustomObjectScope", "SafeModeScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object",
           "load_model", "load_weights", "register_keras_serializable", "save_model",
           "save_weights", "serialize_keras_object"]
