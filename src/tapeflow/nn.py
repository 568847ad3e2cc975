"""``tf.nn``: re-exports of activations, losses, normalisation, convolution and pooling."""
from .ops._dilated_conv import convolution
from .ops.clip_ops import l2_normalize
from .ops.ctc_ops import ctc_beam_search_decoder, ctc_greedy_decoder, ctc_loss
from .ops.manip_ops import space_to_batch
from .ops.math_ops import sigmoid, softplus, softsign, tanh
from .ops.nn_conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from .ops.nn_conv_ops import (
                              atrous_conv2d,
                              avg_pool,
                              avg_pool1d,
                              avg_pool2d,
                              conv1d,
                              conv1d_transpose,
                              conv2d,
                              conv2d_transpose,
                              depth_to_space,
                              depthwise_conv2d,
                              max_pool,
                              max_pool1d,
                              max_pool2d,
                              separable_conv2d,
                              space_to_depth,
)
from .ops.nn_ops import (
                              batch_normalization,
                              bias_add,
                              compute_average_loss,
                              crelu,
                              dropout,
                              elu,
                              embedding_lookup,
                              gelu,
                              l2_loss,
                              leaky_relu,
                              log_poisson_loss,
                              log_softmax,
                              moments,
                              normalize_moments,
                              relu,
                              relu6,
                              scale_regularization_loss,
                              selu,
                              sigmoid_cross_entropy_with_logits,
                              silu,
                              softmax,
                              softmax_cross_entropy_with_logits,
                              sparse_softmax_cross_entropy_with_logits,
                              sufficient_statistics,
                              swish,
                              weighted_cross_entropy_with_logits,
)

__all__ = [
    "atrous_conv2d", "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_normalization",
    "conv3d", "conv3d_transpose", "max_pool3d",
    "bias_add", "compute_average_loss", "conv1d", "ctc_beam_search_decoder",
    "ctc_greedy_decoder", "ctc_loss",
    "conv1d_transpose", "conv2d",
    "conv2d_transpose", "convolution", "crelu", "depth_to_space", "depthwise_conv2d",
    "dropout", "elu", "embedding_lookup", "gelu", "l2_loss", "l2_normalize", "leaky_relu",
    "log_poisson_loss", "log_softmax", "max_pool", "max_pool1d", "max_pool2d", "moments",
    "normalize_moments", "relu", "relu6", "scale_regularization_loss", "selu",
    "separable_conv2d", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "softsign", "space_to_batch",
    "space_to_depth",
    "sparse_softmax_cross_entropy_with_logits", "sufficient_statistics", "swish", "tanh",
    "weighted_cross_entropy_with_logits",
]
