"""``tf.math``: the element-wise, reduction and comparison ops, bound from the modules
that define them (each name is the same object as ``tf.<name>``)."""
import types as _types

from .ops import special_functions as _special
from .ops.array_ops import conj, invert_permutation
from .ops.bincount_ops import bincount
from .ops.clip_ops import l2_normalize
from .ops.complex_ops import angle, sign
from .ops.confusion_matrix_ops import confusion_matrix
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
    divide_no_nan,
    equal,
    exp,
    expm1,
    floor,
    floordiv,
    floormod,
    greater,
    greater_equal,
    imag,
    is_finite,
    is_inf,
    is_nan,
    less,
    less_equal,
    log,
    log1p,
    log_sigmoid,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    multiply_no_nan,
    negative,
    not_equal,
    polyval,
    pow,
    real,
    reciprocal,
    reciprocal_no_nan,
    rint,
    round,
    rsqrt,
    scalar_mul,
    sigmoid,
    sin,
    sinh,
    softplus,
    softsign,
    sqrt,
    square,
    squared_difference,
    subtract,
    tan,
    tanh,
    truediv,
    xdivy,
    xlog1py,
    xlogy,
)
from .ops.nn_ops import log_softmax, softmax
from .ops.numerics_ops import is_non_decreasing, is_strictly_increasing
from .ops.reduction_ops import (
    count_nonzero,
    cumprod,
    cumsum,
    cumulative_logsumexp,
    reduce_all,
    reduce_any,
    reduce_euclidean_norm,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    reduce_sum,
    reduce_variance,
)
from .ops.segment_ops import (
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_sqrt_n,
    unsorted_segment_sum,
)
from .ops.sort_ops import in_top_k, top_k
from .ops.special_functions import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e
from .ops.special_math_ops import digamma, erf, erfc, lbeta, lgamma, polygamma

__all__ = ["angle", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "special",
    "abs", "acos", "acosh", "add", "add_n", "argmax", "argmin", "asin", "asinh", "atan",
    "atan2", "atanh", "bincount", "ceil", "confusion_matrix", "conj", "cos", "cosh",
    "count_nonzero", "cumprod", "cumsum", "cumulative_logsumexp", "digamma", "divide",
    "divide_no_nan", "equal", "erf", "erfc", "exp", "expm1", "floor", "floordiv",
    "floormod", "greater", "greater_equal", "imag", "in_top_k", "invert_permutation",
    "is_finite", "is_inf", "is_nan", "is_non_decreasing", "is_strictly_increasing",
    "l2_normalize", "lbeta", "less", "less_equal", "lgamma", "log", "log1p", "log_sigmoid",
    "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum",
    "minimum", "mod", "multiply", "multiply_no_nan", "negative", "not_equal", "polygamma",
    "polyval", "pow", "real", "reciprocal", "reciprocal_no_nan", "reduce_all", "reduce_any",
    "reduce_euclidean_norm", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min",
    "reduce_prod", "reduce_std", "reduce_sum", "reduce_variance", "rint", "round", "rsqrt",
    "scalar_mul", "segment_max", "segment_mean", "segment_min", "segment_sum", "sigmoid",
    "sign", "sin", "sinh", "softmax", "softplus", "softsign", "sqrt", "square",
    "squared_difference", "subtract", "tan", "tanh", "top_k", "truediv",
    "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min",
    "unsorted_segment_sqrt_n", "unsorted_segment_sum", "xdivy", "xlog1py", "xlogy",
]

special = _types.ModuleType("tapeflow.math.special", "``tf.math.special``: Bessel functions, "
                            "Dawson's, exponential, Fresnel and Spence's integrals (SciPy, "
                            "the extra ``tapeflow[special]``).")
for _name in _special.__all__:
    setattr(special, _name, getattr(_special, _name))
special.__all__ = list(_special.__all__)
del _name
