"""``keras.ops.numpy``: Keras 3's NumPy-like functions (the same objects as ``keras.ops``)."""
from ._array import *  # noqa: F403
from ._array import __all__ as _array_all
from ._elementwise import *  # noqa: F403
from ._elementwise import __all__ as _elementwise_all
from ._reduce import *  # noqa: F403
from ._reduce import __all__ as _reduce_all

__all__ = sorted(n for n in _array_all + _elementwise_all + _reduce_all if n != "shape_of")
