"""``tf.nn``: re-exports of activations and losses."""
from .ops.nn_ops import (bias_add, elu, l2_loss, leaky_relu, log_softmax, relu, relu6, selu,
                         sigmoid, sigmoid_cross_entropy_with_logits, silu, softmax,
                         softmax_cross_entropy_with_logits, softplus,
                         sparse_softmax_cross_entropy_with_logits, swish, tanh)

__all__ = [
    "bias_add", "elu", "l2_loss", "leaky_relu", "log_softmax", "relu", "relu6", "selu",
    "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "sparse_softmax_cross_entropy_with_logits",
    "swish", "tanh",
]
