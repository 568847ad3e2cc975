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
from ._core.variable import Variable, device, name_scope, variable_creator_scope

# Bound here, not lazily: importing the subpackage ``tapeflow.function`` would otherwise
# shadow the decorator of the same name.
from .function import (
    function,
    print,  # noqa: A004 - TensorFlow's name
)
from .ops.array_ops import (
    broadcast_to,
    cast,
    concat,
    expand_dims,
    identity,
    invert_permutation,
    newaxis,
    ones_like,
    rank,
    reshape,
    shape,
    size,
    split,
    squeeze,
    stack,
    stop_gradient,
    transpose,
    unstack,
    where,
    zeros_like,
)
from .ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value
from .ops.complex_ops import complex, sign
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
from .ops.creation_ops import (
    eye,
    fill,
    linspace,
    meshgrid,
    one_hot,
    ones,
    range,
    sequence_mask,
    zeros,
)
from .ops.indexing_ops import (
    boolean_mask,
    gather,
    gather_nd,
    scatter_nd,
    strided_slice,
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from .ops.indexing_ops import slice_ as slice
from .ops.linalg_ops import norm
from .ops.manip_ops import (
    batch_to_space,
    pad,
    repeat,
    reverse,
    reverse_sequence,
    roll,
    space_to_batch,
    space_to_batch_nd,
    tile,
)
from .ops.math_ops import (
    abs,
    acos,
    acosh,
    add,
    add_n,
    argmax,
    argmin,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    ceil,
    cos,
    cosh,
    divide,
    equal,
    exp,
    floor,
    floordiv,
    greater,
    greater_equal,
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
    not_equal,
    pow,
    round,
    scalar_mul,
    sigmoid,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
    truncatediv,
    truncatemod,
)
from .ops.reduction_ops import (
    cumprod,
    cumsum,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from .ops.script_ops import numpy_function, py_function
from .ops.sort_ops import argsort, sort, unique
from .ops.special_math_ops import einsum, tensordot

__version__ = "0.1.0"

# TensorFlow returns inf and nan silently (1/0, sqrt(-1)); so does tapeflow. Only warnings
# raised inside tapeflow's own modules are silenced.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapeflow\.")

_LAZY_MODULES = {
    "math", "nn", "random", "linalg", "nest", "config", "keras", "data", "autodiff",
    "debugging", "test", "dtypes", "image", "autograph", "summary", "train", "strings",
    "ragged", "io", "sparse", "distribute", "version", "saved_model", "signal", "audio",
    "lookup", "types", "experimental", "profiler", "graph_util", "compat",
}
_LAZY_ATTRS = {
    "RaggedTensor": ("tapeflow.ops.ragged.ragged_tensor", "RaggedTensor"),
    "SparseTensor": ("tapeflow.ops.sparse.sparse_tensor", "SparseTensor"),
    "RaggedTensorSpec": ("tapeflow.ops.ragged.ragged_tensor_spec", "RaggedTensorSpec"),
    "SparseTensorSpec": ("tapeflow.ops.sparse.sparse_tensor_spec", "SparseTensorSpec"),
    "custom_gradient": ("tapeflow._core.custom_gradient", "custom_gradient"),
    "recompute_grad": ("tapeflow._core.custom_gradient", "recompute_grad"),
    "Module": ("tapeflow.checkpoint.module", "Module"),
    "VariableAggregation": ("tapeflow._core.variable", "VariableAggregation"),
    "VariableSynchronization": ("tapeflow._core.variable", "VariableSynchronization"),
    "get_logger": ("tapeflow._logging", "get_logger"),
    "Graph": ("tapeflow.function.graph_def", "Graph"),
    "group": ("tapeflow._tfapi", "group"),
    "type_spec_from_value": ("tapeflow._tfapi", "type_spec_from_value"),
    "vectorized_map": ("tapeflow._tfapi", "vectorized_map"),
    "saturate_cast": ("tapeflow.ops.numerics_ops", "saturate_cast"),
    "ensure_shape": ("tapeflow.ops.array_ops", "ensure_shape"),
    "dynamic_partition": ("tapeflow.ops.data_flow_ops", "dynamic_partition"),
    "dynamic_stitch": ("tapeflow.ops.data_flow_ops", "dynamic_stitch"),
    "edit_distance": ("tapeflow.ops.edit_distance_ops", "edit_distance"),
    "zeros_initializer": ("tapeflow.ops.init_ops", "zeros_initializer"),
    "ones_initializer": ("tapeflow.ops.init_ops", "ones_initializer"),
    "constant_initializer": ("tapeflow.ops.init_ops", "constant_initializer"),
    "random_uniform_initializer": ("tapeflow.ops.init_ops", "random_uniform_initializer"),
    "random_normal_initializer": ("tapeflow.ops.init_ops", "random_normal_initializer"),
    # TF 2.21 binds these to Keras's modules
    "initializers": ("tapeflow.keras", "initializers"),
    "losses": ("tapeflow.keras", "losses"),
    "metrics": ("tapeflow.keras", "metrics"),
    "optimizers": ("tapeflow.keras", "optimizers"),
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
