"""MobileNetV2 (``keras.applications.mobilenet_v2``): inverted residual blocks with linear
bottlenecks (Sandler et al., 2018)."""
import warnings

from .. import backend
from .. import layers as L
from .._symbolic import KerasTensor
from . import imagenet_utils as iu

__all__ = ["MobileNetV2", "preprocess_input", "decode_predictions"]

BASE_WEIGHT_PATH = ("https://storage.googleapis.com/tensorflow/keras-applications/"
                    "mobilenet_v2/")
_SIZES = (96, 128, 160, 192, 224)
# (filters, stride, expansion) of the 17 inverted residual blocks
_BLOCKS = ([(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6),
            (64, 2, 6)] + [(64, 1, 6)] * 3 + [(96, 1, 6)] * 3 + [(160, 2, 6)]
           + [(160, 1, 6)] * 2 + [(320, 1, 6)])


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name=None):
    iu.check_weights_arg(weights, include_top, classes, plain=False)
    if input_tensor is not None and type(input_tensor) is not KerasTensor:
        raise ValueError("input_tensor must be a valid Keras tensor type; Received "
                         f"{input_tensor} of type {type(input_tensor)}")
    if input_shape is not None and input_tensor is not None \
            and input_tensor.shape[2] != input_shape[1]:
        raise ValueError("input_tensor.shape[2] must equal input_shape[1]; Received "
                         f"`input_tensor.shape={input_tensor.shape}`, "
                         f"`input_shape={input_shape}`")
    default_size = 224
    probe = input_shape if input_shape is not None else (
        input_tensor.shape[1:] if input_tensor is not None else None)
    if probe is not None and probe[0] == probe[1] and probe[0] in _SIZES:
        default_size = probe[0]
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    rows, cols = input_shape[:2]
    if weights == "imagenet":
        if alpha not in (0.35, 0.5, 0.75, 1.0, 1.3, 1.4):
            raise ValueError("If imagenet weights are being loaded, alpha must be one of "
                             "`0.35`, `0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; Received "
                             f"`alpha={alpha}`")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in "
                          "[96, 128, 160, 192, 224]. Weights for input shape (224, 224) will "
                          "be loaded as the default.", stacklevel=2)
    img_input = iu.image_input(input_tensor, input_shape)
    x = L.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same",
                 use_bias=False, name="Conv1")(img_input)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = L.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion, stride, alpha, filters, block_id)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = L.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = L.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights, pool_name=None)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        fname = (f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
                 f"{'' if include_top else '_no_top'}.h5")
        return fname, BASE_WEIGHT_PATH + fname
    return iu.finish_model(x, img_input, input_tensor, name or f"mobilenetv2_{alpha:0.2f}_{rows}",
                           weights, weights_file)


iu.model_doc(MobileNetV2, "MobileNetV2 with width multiplier ``alpha`` (0.35, 0.5, 0.75, "
             "1.0, 1.3 or 1.4 for ImageNet weights; argument order: input_shape, alpha, "
             "include_top, weights, input_tensor, pooling, classes, classifier_activation, "
             "name)", "MobileNetV2", "Call ``keras.applications.mobilenet_v2.preprocess_input`` "
             "on the inputs (scales pixels to [-1, 1]).")


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    in_channels = inputs.shape[-1]
    pointwise = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = L.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False,
                     activation=None, name=f"{prefix}expand")(x)
        x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                                 name=f"{prefix}expand_BN")(x)
        x = L.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = L.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                          padding="same" if stride == 1 else "valid",
                          name=f"{prefix}depthwise")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                             name=f"{prefix}depthwise_BN")(x)
    x = L.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = L.Conv2D(pointwise, kernel_size=1, padding="same", use_bias=False, activation=None,
                 name=f"{prefix}project")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                             name=f"{prefix}project_BN")(x)
    if in_channels == pointwise and stride == 1:
        return L.Add(name=f"{prefix}add")([inputs, x])
    return x


def _make_divisible(v, divisor, min_value=None):
    """``v`` rounded to a multiple of ``divisor`` (at least ``min_value``), never more than
    10% below ``v`` (the channel rule of the TF-slim MobileNets)."""
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.mobilenet_v2.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
