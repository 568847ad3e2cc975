"""``tf.math``: re-exports of the element-wise, reduction and comparison ops."""
from .ops.math_ops import (abs, add, add_n, argmax, argmin, ceil, cos, cumprod, cumsum,
                           divide, equal, exp, expm1, floor, floordiv, floormod, greater,
                           greater_equal, is_finite, is_inf, is_nan, less, less_equal, log,
                           log1p, logical_and, logical_not, logical_or, logical_xor, maximum,
                           minimum, mod, multiply, negative, not_equal, pow, reciprocal,
                           reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
                           reduce_prod, reduce_sum, round, rsqrt, sigmoid, sign, sin, softplus,
                           sqrt, square, squared_difference, subtract, tanh, truediv)

__all__ = [
    "abs", "add", "add_n", "argmax", "argmin", "ceil", "cos", "cumprod", "cumsum", "divide",
    "equal", "exp", "expm1", "floor", "floordiv", "floormod", "greater", "greater_equal",
    "is_finite", "is_inf", "is_nan", "less", "less_equal", "log", "log1p", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
    "negative", "not_equal", "pow", "reciprocal", "reduce_all", "reduce_any", "reduce_max",
    "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum", "round", "rsqrt", "sigmoid",
    "sign", "sin", "softplus", "sqrt", "square", "squared_difference", "subtract", "tanh",
    "truediv",
]
