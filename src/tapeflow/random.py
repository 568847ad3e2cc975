"""``tf.random``: re-exports of the random ops."""
from .ops.random_ops import categorical, normal, set_seed, shuffle, truncated_normal, uniform
from .ops.stateful_random_ops import (
    Algorithm,
    Generator,
    get_global_generator,
    set_global_generator,
)
from .ops.stateless_random_ops import (
    stateless_categorical,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)

__all__ = ["Algorithm", "Generator", "categorical", "get_global_generator", "normal",
           "set_global_generator", "set_seed", "shuffle", "stateless_categorical",
           "stateless_normal", "stateless_truncated_normal", "stateless_uniform",
           "truncated_normal", "uniform"]
