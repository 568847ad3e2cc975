"""``tf.nn``: re-exports of activations, losses, normalisation, convolution and pooling."""
from .ops.nn_conv_ops import (avg_pool, avg_pool1d, avg_pool2d, conv1d, conv1d_transpose,
                              conv2d, conv2d_transpose, convolution, depthwise_conv2d,
                              max_pool, max_pool1d, max_pool2d)
from .ops.nn_ops import (batch_normalization, bias_add, compute_average_loss, crelu,
                         dropout, elu, embedding_lookup, gelu, l2_loss, l2_normalize,
                         leaky_relu, log_poisson_loss, log_softmax, moments,
                         normalize_moments, relu, relu6, selu, sigmoid,
                         sigmoid_cross_entropy_with_logits, silu, softmax,
                         softmax_cross_entropy_with_logits, softplus, softsign,
                         sparse_softmax_cross_entropy_with_logits, swish, tanh,
                         weighted_cross_entropy_with_logits)

__all__ = [
    "avg_pool", "avg_pool1d", "avg_pool2d", "batch_normalization", "bias_add",
    "compute_average_loss", "conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose",
    "convolution", "crelu", "depthwise_conv2d", "dropout", "elu", "embedding_lookup",
    "gelu", "l2_loss", "l2_normalize", "leaky_relu", "log_poisson_loss", "log_softmax",
    "max_pool", "max_pool1d", "max_pool2d", "moments", "normalize_moments", "relu", "relu6",
    "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "softsign",
    "sparse_softmax_cross_entropy_with_logits", "swish", "tanh",
    "weighted_cross_entropy_with_logits",
]
