"""``tf.random``: re-exports of the random ops."""
from .ops.random_ops import (
    categorical,
    gamma,
    normal,
    poisson,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from .ops.stateful_random_ops import (
    Algorithm,
    Generator,
    get_global_generator,
    set_global_generator,
)
from .ops.stateless_random_ops import (
    fold_in,
    split,
    stateless_binomial,
    stateless_categorical,
    stateless_gamma,
    stateless_normal,
    stateless_poisson,
    stateless_truncated_normal,
    stateless_uniform,
)

__all__ = ["Algorithm", "Generator", "categorical", "fold_in", "gamma", "get_global_generator",
           "normal", "poisson", "split", "set_global_generator", "set_seed", "shuffle",
           "stateless_binomial", "stateless_categorical", "stateless_gamma",
           "stateless_poisson", "stateless_normal", "stateless_truncated_normal",
           "stateless_uniform", "truncated_normal", "uniform"]
