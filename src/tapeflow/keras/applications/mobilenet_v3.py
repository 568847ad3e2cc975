"""MobileNetV3Small/Large (``keras.applications.MobileNetV3Small``/``Large``; the module
``keras.applications.mobilenet_v3`` has only ``preprocess_input``/``decode_predictions``):
inverted residuals with squeeze-and-excitation and hard-swish (Howard et al., 2019). With
``include_preprocessing`` the model takes raw pixels in [0, 255]."""
import os
import warnings

from .. import layers as L
from .._symbolic import KerasTensor
from ..models import Model
from . import imagenet_utils as iu

__all__ = ["preprocess_input", "decode_predictions"]

BASE_WEIGHT_PATH = ("https://storage.googleapis.com/tensorflow/keras-applications/"
                    "mobilenet_v3/")
# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb",
                             "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7",
                            "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c",
                                         "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7",
                             "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862",
                            "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37",
                                         "cde8136e733e811080d9fcd8a252f7e4"),
}


def MobileNetV3(stack_fn, last_point_ch, input_shape=None, alpha=1.0,  # noqa: N802
                model_type="large", minimalistic=False, include_top=True, weights="imagenet",
                input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2,
                classifier_activation="softmax", include_preprocessing=True, name=None):
    """The MobileNetV3 skeleton around ``stack_fn`` (the inverted residual stages)."""
    iu.check_weights_arg(weights, include_top, classes, plain=False)
    if input_tensor is not None and type(input_tensor) is not KerasTensor:
        raise ValueError("input_tensor specified: ", input_tensor, "is not a keras tensor")
    if input_shape is not None and input_tensor is not None \
            and input_tensor.shape[2] != input_shape[1]:
        raise ValueError(f"input_shape[1] must equal input_tensor.shape[2].  Received "
                         f"input_shape={input_shape}, input_tensor.shape={input_tensor.shape}")
    if input_shape is None:
        input_shape = ((input_tensor.shape[2], input_tensor.shape[1], 3)
                       if input_tensor is not None else (None, None, 3))
    rows, cols = input_shape[:2]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received "
                         f"`input_shape={input_shape}`")
    if weights == "imagenet":
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, "
                             "`1.0` for non minimalistic or `1.0` for minimalistic only.")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. "
                          "Weights for input shape (224, 224) will be loaded as the default.",
                          stacklevel=2)
    img_input = iu.image_input(input_tensor, tuple(input_shape))
    if minimalistic:
        kernel, activation, se_ratio = 3, relu, None
    else:
        kernel, activation, se_ratio = 5, hard_swish, 0.25
    x = img_input
    if include_preprocessing:
        x = L.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = L.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False,
                 name="conv")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="conv_bn")(x)
    x = activation(x)
    x = stack_fn(x, kernel, activation, se_ratio)
    last_conv_ch = _depth(x.shape[-1] * 6)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    x = L.Conv2D(last_conv_ch, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="conv_1_bn")(x)
    x = activation(x)
    if include_top:
        x = L.GlobalAveragePooling2D(keepdims=True)(x)
        x = L.Conv2D(last_point_ch, kernel_size=1, padding="same", use_bias=True,
                     name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = L.Dropout(dropout_rate)(x)
        x = L.Conv2D(classes, kernel_size=1, padding="same", name="logits")(x)
        x = L.Flatten()(x)
        iu.validate_activation(classifier_activation, weights)
        x = L.Activation(activation=classifier_activation, name="predictions")(x)
    x = iu.pool_or_top(x, include_top, pooling, ("avg_pool", "max_pool"))
    model = Model(iu.model_inputs(input_tensor, img_input), x, name=name)
    if weights == "imagenet":
        key = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
        fname = (f"weights_mobilenet_v3_{key}.h5" if include_top
                 else f"weights_mobilenet_v3_{key}_no_top_v2.h5")
        iu.load_weights(model, weights, fname, BASE_WEIGHT_PATH + fname,
                        WEIGHTS_HASHES[key][0 if include_top else 1])
    elif weights is not None and os.path.exists(weights):
        iu.load_weights(model, weights)
    return model


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    def stack_fn(x, kernel, activation, se_ratio):
        def d(v):
            return _depth(v * alpha)
        plan = [(1, d(16), 3, 2, se_ratio, relu), (72.0 / 16, d(24), 3, 2, None, relu),
                (88.0 / 24, d(24), 3, 1, None, relu)]
        plan += [(e, d(f), kernel, s, se_ratio, activation) for e, f, s in (
            (4, 40, 2), (6, 40, 1), (6, 40, 1), (3, 48, 1), (3, 48, 1), (6, 96, 2),
            (6, 96, 1), (6, 96, 1))]
        for block_id, args in enumerate(plan):
            x = _inverted_res_block(x, *args, block_id)
        return x
    return MobileNetV3(stack_fn, 1024, input_shape, alpha, "small", minimalistic, include_top,
                       weights, input_tensor, classes, pooling, dropout_rate,
                       classifier_activation, include_preprocessing, name=name)


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    def stack_fn(x, kernel, activation, se_ratio):
        def d(v):
            return _depth(v * alpha)
        plan = [(1, d(16), 3, 1, None, relu), (4, d(24), 3, 2, None, relu),
                (3, d(24), 3, 1, None, relu), (3, d(40), kernel, 2, se_ratio, relu),
                (3, d(40), kernel, 1, se_ratio, relu), (3, d(40), kernel, 1, se_ratio, relu),
                (6, d(80), 3, 2, None, activation), (2.5, d(80), 3, 1, None, activation),
                (2.3, d(80), 3, 1, None, activation), (2.3, d(80), 3, 1, None, activation),
                (6, d(112), 3, 1, se_ratio, activation), (6, d(112), 3, 1, se_ratio, activation),
                (6, d(160), kernel, 2, se_ratio, activation),
                (6, d(160), kernel, 1, se_ratio, activation),
                (6, d(160), kernel, 1, se_ratio, activation)]
        for block_id, args in enumerate(plan):
            x = _inverted_res_block(x, *args, block_id)
        return x
    return MobileNetV3(stack_fn, 1280, input_shape, alpha, "large", minimalistic, include_top,
                       weights, input_tensor, classes, pooling, dropout_rate,
                       classifier_activation, include_preprocessing, name=name)


_ARGS = ("Argument order: input_shape, alpha, minimalistic (no squeeze-and-excitation, "
         "relu, 3x3 kernels), include_top, weights, input_tensor, classes, pooling, "
         "dropout_rate, classifier_activation, include_preprocessing (a Rescaling layer to "
         "[-1, 1], so the model takes raw pixels; ``preprocess_input`` is the identity), name.")
iu.model_doc(MobileNetV3Small, "MobileNetV3 small", "MobileNetV3Small", _ARGS)
iu.model_doc(MobileNetV3Large, "MobileNetV3 large", "MobileNetV3Large", _ARGS)


def relu(x):
    return L.ReLU()(x)


def hard_sigmoid(x):
    return L.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    return L.Activation("hard_swish")(x)


def _depth(v, divisor=8, min_value=None):
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _se_block(inputs, filters, se_ratio, prefix):
    x = L.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = L.Conv2D(_depth(filters * se_ratio), kernel_size=1, padding="same",
                 name=f"{prefix}squeeze_excite_conv")(x)
    x = L.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = L.Conv2D(filters, kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = hard_sigmoid(x)
    return L.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation,
                        block_id):
    shortcut, prefix, infilters = x, "expanded_conv_", x.shape[-1]
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = L.Conv2D(_depth(infilters * expansion), kernel_size=1, padding="same",
                     use_bias=False, name=f"{prefix}expand")(x)
        x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                                 name=f"{prefix}expand_bn")(x)
        x = activation(x)
    if stride == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel_size),
                            name=f"{prefix}depthwise_pad")(x)
    x = L.DepthwiseConv2D(kernel_size, strides=stride,
                          padding="same" if stride == 1 else "valid", use_bias=False,
                          name=f"{prefix}depthwise")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                             name=f"{prefix}depthwise_bn")(x)
    x = activation(x)
    if se_ratio:
        x = _se_block(x, _depth(infilters * expansion), se_ratio, prefix)
    x = L.Conv2D(filters, kernel_size=1, padding="same", use_bias=False,
                 name=f"{prefix}project")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                             name=f"{prefix}project_bn")(x)
    if stride == 1 and infilters == filters:
        x = L.Add(name=f"{prefix}add")([shortcut, x])
    return x


def preprocess_input(x, data_format=None):
    """The identity: MobileNetV3 models rescale inside
    (``tf.keras.applications.mobilenet_v3.preprocess_input``)."""
    return x


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
