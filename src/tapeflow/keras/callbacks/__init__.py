"""Callbacks for ``Model.fit`` / ``evaluate`` / ``predict`` (``tf.keras.callbacks``), with
Keras 3's rules and printed messages.

- ``callback``: the ``Callback`` base, ``CallbackList`` and the callbacks on ``fit``'s logs.
- ``tensorboard``: ``TensorBoard`` (event files through ``tf.summary``).
- ``ModelCheckpoint`` and ``BackupAndRestore`` write Keras files, so they live with the
  saving code (``keras/saving/callbacks.py``).
"""
from ..saving.callbacks import BackupAndRestore, ModelCheckpoint
from .callback import (
    Callback,
    CallbackList,
    CSVLogger,
    EarlyStopping,
    History,
    LambdaCallback,
    LearningRateScheduler,
    MonitorCallback,  # noqa: F401 - importable here, as before
    ProgbarLogger,
    ReduceLROnPlateau,
    TerminateOnNaN,
)
from .tensorboard import TensorBoard

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping",
           "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau", "CSVLogger",
           "TerminateOnNaN", "TensorBoard", "ModelCheckpoint", "BackupAndRestore"]
