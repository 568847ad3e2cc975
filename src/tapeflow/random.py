"""``tf.random``: re-exports of the random ops."""
from .ops.random_ops import normal, set_seed, shuffle, truncated_normal, uniform

__all__ = ["normal", "set_seed", "shuffle", "truncated_normal", "uniform"]
