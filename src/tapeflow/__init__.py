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
from ._core.indexed_slices import IndexedSlices
from ._core.recording import executing_eagerly, init_scope
from ._core.tape import GradientTape, UnconnectedGradients
from ._core.tensor import TensorShape, constant, convert_to_tensor, get_static_value, is_tensor
from ._core.tensor import TensorType as Tensor
from ._core.tensor_spec import TensorSpec
from ._core.variable import Variable, device, name_scope

# Bound here, not lazily: importing the subpackage ``tapeflow.function`` would otherwise
# shadow the decorator of the same name.
from .function import (
    function,
    print,  # noqa: A004 - TensorFlow's name
)

# tf.reduce_*, tf.concat and tf.cast take RaggedTensors (and SparseTensors) too, as
# TensorFlow dispatches them; the ragged and sparse packages load on first use.
from .ops import composite_dispatch as _cd  # noqa: E402
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
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
    tensordot,
    tile,
    transpose,
    unstack,
    where,
    zeros,
)
from .ops.array_ops import slice_ as slice
from .ops.clip_ops import clip_by_value
from .ops.complex_ops import complex  # noqa: E402
from .ops.control_flow_ops import (
    TensorArray,
    case,
    cond,
    foldl,
    foldr,
    map_fn,
    scan,
    switch_case,
    while_loop,
)
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
from .ops.script_ops import numpy_function, py_function

concat = _cd.dispatch_concat(concat)
reduce_sum = _cd.dispatch_reduce(reduce_sum, "reduce_sum")
reduce_mean = _cd.dispatch_reduce(reduce_mean, "reduce_mean")
reduce_max = _cd.dispatch_reduce(reduce_max, "reduce_max")
reduce_min = _cd.dispatch_reduce(reduce_min, "reduce_min")
reduce_prod = _cd.dispatch_reduce(reduce_prod, "reduce_prod")
cast = _cd.dispatch_cast(cast)
# IndexedSlices stay sparse through these, as in TensorFlow.
from .ops.indexed_slices_ops import clip_by_global_norm, clip_by_norm  # noqa: E402

__version__ = "0.1.0"

# TensorFlow returns inf and nan silently (1/0, sqrt(-1)); so does tapeflow. Only warnings
# raised inside tapeflow's own modules are silenced.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapeflow\.")

_LAZY_MODULES = {
    "math", "nn", "random", "linalg", "nest", "config", "keras", "data", "autodiff",
    "debugging", "test", "dtypes", "image", "autograph", "summary", "train", "strings",
    "ragged", "io", "sparse", "distribute", "version",
}
_LAZY_ATTRS = {
    "RaggedTensor": ("tapeflow.ops.ragged.ragged_tensor", "RaggedTensor"),
    "SparseTensor": ("tapeflow.ops.sparse.sparse_tensor", "SparseTensor"),
    "RaggedTensorSpec": ("tapeflow.data.composite", "RaggedTensorSpec"),
    "SparseTensorSpec": ("tapeflow.data.composite", "SparseTensorSpec"),
    "custom_gradient": ("tapeflow._core.custom_gradient", "custom_gradient"),
    "recompute_grad": ("tapeflow._core.custom_gradient", "recompute_grad"),
    "Module": ("tapeflow.checkpoint.module", "Module"),
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
