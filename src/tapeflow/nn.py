"""``tf.nn``: re-exports of activations, losses, convolution and pooling."""
from .ops.conv_ops import avg_pool2d, conv2d, max_pool2d
from .ops.nn_ops import (bias_add, elu, l2_loss, leaky_relu, log_softmax, relu, relu6, selu,
                         sigmoid, sigmoid_cross_entropy_with_logits, silu, softmax,
                         softmax_cross_entropy_with_logits, softplus,
                         sparse_softmax_cross_entropy_with_logits, swish, tanh)

__all__ = [
    "avg_pool2d", "conv2d", "max_pool2d",
    "bias_add", "elu", "l2_loss", "leaky_relu", "log_softmax", "relu", "relu6", "selu",
    "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "sparse_softmax_cross_entropy_with_logits",
    "swish", "tanh",
]
