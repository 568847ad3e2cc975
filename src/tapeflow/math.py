"""``tf.math``: re-exports of the element-wise, reduction and comparison ops."""
from .ops.array_ops import (conj)
from .ops.math_ops import (abs, acos, acosh, add, add_n, argmax, argmin, asin, asinh, atan,
                           atan2, atanh, bincount, ceil, confusion_matrix, cos, cosh,
                           count_nonzero, cumprod, cumsum, digamma, divide, divide_no_nan,
                           equal, erf, erfc, exp, expm1, floor, floordiv, floormod, greater,
                           greater_equal, imag, in_top_k, is_finite, is_inf, is_nan,
                           l2_normalize, less, less_equal, lgamma, log, log1p, log_sigmoid,
                           logical_and, logical_not, logical_or, logical_xor, maximum,
                           minimum, mod, multiply, negative, not_equal, polygamma, polyval,
                           pow, real, reciprocal, reciprocal_no_nan, reduce_all, reduce_any,
                           reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean,
                           reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance,
                           rint, round, rsqrt, segment_mean, segment_sum, sigmoid, sign,
                           sin, sinh, softplus, softsign, sqrt, square, squared_difference,
                           subtract, tan, tanh, top_k, truediv, unsorted_segment_sum, xdivy,
                           xlog1py, xlogy)

__all__ = [
    "abs", "acos", "acosh", "add", "add_n", "argmax", "argmin", "asin", "asinh", "atan",
    "atan2", "atanh", "bincount", "ceil", "confusion_matrix", "conj", "cos", "cosh",
    "count_nonzero", "cumprod", "cumsum", "digamma", "divide", "divide_no_nan", "equal",
    "erf", "erfc", "exp", "expm1", "floor", "floordiv", "floormod", "greater",
    "greater_equal", "imag", "in_top_k", "is_finite", "is_inf", "is_nan", "l2_normalize",
    "less", "less_equal", "lgamma", "log", "log1p", "log_sigmoid", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
    "negative", "not_equal", "polygamma", "polyval", "pow", "real", "reciprocal",
    "reciprocal_no_nan", "reduce_all", "reduce_any", "reduce_euclidean_norm",
    "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
    "reduce_std", "reduce_sum", "reduce_variance", "rint", "round", "rsqrt", "segment_mean",
    "segment_sum", "sigmoid", "sign", "sin", "sinh", "softplus", "softsign", "sqrt",
    "square", "squared_difference", "subtract", "tan", "tanh", "top_k", "truediv",
    "unsorted_segment_sum", "xdivy", "xlog1py", "xlogy",
]
