"""tapeflow: TensorFlow's GradientTape programming model on NumPy.

``import tapeflow as tf`` and TensorFlow 2.21 custom-training-loop code runs unchanged.
Public names only re-export; ``keras``, ``data`` and ``function`` load on first use.
"""
import importlib as _importlib
import warnings as _warnings

from . import errors
from . import ops as _ops  # binds the Python operators on Tensor and Variable
from ._core.dtypes import (
    DType,
    as_dtype,
    bfloat16,
    bool,
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._core.tape import GradientTape, UnconnectedGradients
from ._core.tensor import Tensor, TensorShape, constant, convert_to_tensor, is_tensor
from ._core.variable import Variable
from ._misc import (
    clip_by_value,
    device,
    executing_eagerly,
    get_static_value,
    init_scope,
    name_scope,
)
from .ops.array_ops import (
    boolean_mask,
    broadcast_to,
    concat,
    einsum,
    expand_dims,
    eye,
    fill,
    gather,
    gather_nd,
    identity,
    linspace,
    meshgrid,
    newaxis,
    one_hot,
    ones,
    pad,
    range,
    rank,
    repeat,
    reshape,
    reverse,
    reverse_sequence,
    roll,
    scatter_nd,
    sequence_mask,
    shape,
    size,
    split,
    squeeze,
    stack,
    stop_gradient,
    strided_slice,
    tensor_scatter_nd_add,
    tensor_scatter_nd_update,
    tensordot,
    tile,
    transpose,
    unstack,
    where,
    zeros,
)
from .ops.array_ops import slice_ as slice
from .ops.math_ops import (
    abs,
    acos,
    acosh,
    add,
    add_n,
    argmax,
    argmin,
    argsort,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    cast,
    ceil,
    clip_by_global_norm,
    clip_by_norm,
    cos,
    cosh,
    cumprod,
    cumsum,
    divide,
    equal,
    exp,
    floor,
    floordiv,
    greater,
    greater_equal,
    invert_permutation,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    matmul,
    maximum,
    minimum,
    multiply,
    negative,
    norm,
    not_equal,
    ones_like,
    pow,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    round,
    scalar_mul,
    sigmoid,
    sign,
    sin,
    sinh,
    sort,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
    truncatediv,
    truncatemod,
    unique,
    zeros_like,
)

__version__ = "0.1.0"

# TensorFlow returns inf and nan silently (1/0, sqrt(-1)); so does tapeflow. Only warnings
# raised inside tapeflow's own modules are silenced.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapeflow\.")

_LAZY_MODULES = {
    "math", "nn", "random", "linalg", "nest", "config", "keras", "data", "autodiff",
    "debugging", "test", "dtypes", "image", "distribute",
}
_LAZY_ATTRS = {
    "function": ("tapeflow.function", "function"),
    "print": ("tapeflow.function", "print"),
    "custom_gradient": ("tapeflow._core.custom_gradient", "custom_gradient"),
    "recompute_grad": ("tapeflow._core.custom_gradient", "recompute_grad"),
}


def __getattr__(name):
    if name in _LAZY_MODULES:
        module = _importlib.import_module(f"tapeflow.{name}")
        globals()[name] = module
        return module
    if name in _LAZY_ATTRS:
        mod, attr = _LAZY_ATTRS[name]
        value = getattr(_importlib.import_module(mod), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeflow' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_ATTRS))
