"""Mixed precision as Keras 3 has it (``tf.keras.mixed_precision``, ``keras.mixed_precision``):
a ``DTypePolicy`` (``Policy``) names a layer's compute and variable dtypes; the global policy is
what layers made without a ``dtype`` take; ``LossScaleOptimizer`` scales the loss dynamically.

A layer whose compute dtype differs from its variable dtype (``"mixed_float16"``,
``"mixed_bfloat16"``) keeps float32 variables and, inside its ``call``, sees its float
variables cast to the compute dtype (Keras 3's autocast); its float inputs are cast to the
compute dtype and its outputs come out in it.
"""
from .policy import (
    DTypePolicy,
    Policy,
    dtype_policy,
    global_policy,
    set_dtype_policy,
    set_global_policy,
)

__all__ = ["DTypePolicy", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy", "LossScaleOptimizer"]


def __getattr__(name):
    if name == "LossScaleOptimizer":
        from ..optimizers import LossScaleOptimizer
        return LossScaleOptimizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
