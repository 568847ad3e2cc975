"""``keras.ops`` (``tf.keras.ops``): Keras 3's backend-agnostic op namespace on tapeflow.

Each function is a thin binding over tapeflow's ops, with Keras 3's names, signatures and
dtype rules (``keras.backend.result_type``: ``int32 + float32`` is float32, Python numbers
are weak), so it is differentiable under ``GradientTape`` and traceable by ``tf.function``.
The submodules ``numpy``, ``nn``, ``linalg`` and ``image`` hold Keras's groups; the top
level holds the union of ``numpy``, ``nn``, ``linalg`` and Keras's core and math functions,
as Keras does.
"""
from . import image, linalg, nn, numpy  # noqa: F401 - the submodules, as Keras
from ._core import *  # noqa: F403
from ._core import __all__ as _core_all
from ._math import *  # noqa: F403
from ._math import __all__ as _math_all
from .linalg import *  # noqa: F403
from .linalg import __all__ as _linalg_all
from .nn import *  # noqa: F403
from .nn import __all__ as _nn_all
from .numpy import *  # noqa: F403
from .numpy import __all__ as _numpy_all

__all__ = sorted(set(_numpy_all + _nn_all + _linalg_all + _math_all + _core_all
                     + ["image", "linalg", "nn", "numpy"]))
