"""EfficientNetV2 B0..B3, S, M, L (``keras.applications.efficientnet_v2``): MBConv and
fused-MBConv stages (Tan and Le, 2021). With ``include_preprocessing`` (the default) the
model takes raw pixels in [0, 255]."""
import math

from .. import backend, initializers
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2", "EfficientNetV2B3",
           "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "preprocess_input",
           "decode_predictions"]

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/keras-applications/"
                     "efficientnet_v2/")
# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}
_KEYS = ("kernel_size", "num_repeat", "input_filters", "output_filters", "expand_ratio",
         "se_ratio", "strides", "conv_type")


def _stages(*rows):
    return [dict(zip(_KEYS, row)) for row in rows]


# per model: (kernel, repeats, in, out, expansion, se ratio, stride, 1 = fused / 0 = MBConv)
_B = _stages((3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1),
             (3, 2, 32, 48, 4, 0, 2, 1), (3, 3, 48, 96, 4, 0.25, 2, 0),
             (3, 5, 96, 112, 6, 0.25, 1, 0), (3, 8, 112, 192, 6, 0.25, 2, 0))
DEFAULT_BLOCKS_ARGS = {
    "efficientnetv2-s": _stages(
        (3, 2, 24, 24, 1, 0, 1, 1), (3, 4, 24, 48, 4, 0, 2, 1), (3, 4, 48, 64, 4, 0, 2, 1),
        (3, 6, 64, 128, 4, 0.25, 2, 0), (3, 9, 128, 160, 6, 0.25, 1, 0),
        (3, 15, 160, 256, 6, 0.25, 2, 0)),
    "efficientnetv2-m": _stages(
        (3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1), (3, 5, 48, 80, 4, 0, 2, 1),
        (3, 7, 80, 160, 4, 0.25, 2, 0), (3, 14, 160, 176, 6, 0.25, 1, 0),
        (3, 18, 176, 304, 6, 0.25, 2, 0), (3, 5, 304, 512, 6, 0.25, 1, 0)),
    "efficientnetv2-l": _stages(
        (3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1), (3, 7, 64, 96, 4, 0, 2, 1),
        (3, 10, 96, 192, 4, 0.25, 2, 0), (3, 19, 192, 224, 6, 0.25, 1, 0),
        (3, 25, 224, 384, 6, 0.25, 2, 0), (3, 7, 384, 640, 6, 0.25, 1, 0)),
    "efficientnetv2-b0": _B, "efficientnetv2-b1": _B, "efficientnetv2-b2": _B,
    "efficientnetv2-b3": _B,
}


def _conv_init():
    return initializers.VarianceScaling(scale=2.0, mode="fan_out",
                                        distribution="truncated_normal")


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    filters *= width_coefficient
    minimum = min_depth or depth_divisor
    return int(max(minimum, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    return int(math.ceil(depth_coefficient * repeats))


def _se(x, input_filters, filters, se_ratio, activation, name):
    filters_se = max(1, int(input_filters * se_ratio))
    se = L.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = L.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = L.Conv2D(filters_se, 1, padding="same", activation=activation,
                  kernel_initializer=_conv_init(), name=f"{name}se_reduce")(se)
    se = L.Conv2D(filters, 1, padding="same", activation="sigmoid",
                  kernel_initializer=_conv_init(), name=f"{name}se_expand")(se)
    return L.multiply([x, se], name=f"{name}se_excite")


def _skip(x, inputs, strides, input_filters, output_filters, survival_probability, name):
    if strides == 1 and input_filters == output_filters:
        if survival_probability:
            x = L.Dropout(survival_probability, noise_shape=(None, 1, 1, 1),
                          name=f"{name}drop")(x)
        x = L.add([x, inputs], name=f"{name}add")
    return x


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                survival_probability=0.8, name=None):
    """Expansion 1x1, depthwise kxk, squeeze-and-excitation, projection 1x1."""
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = L.Conv2D(filters=filters, kernel_size=1, strides=1, padding="same",
                         kernel_initializer=_conv_init(), use_bias=False,
                         name=f"{name}expand_conv")(x)
            x = L.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = L.Activation(activation, name=f"{name}expand_activation")(x)
        x = L.DepthwiseConv2D(kernel_size=kernel_size, strides=strides, padding="same",
                              depthwise_initializer=_conv_init(), use_bias=False,
                              name=f"{name}dwconv2")(x)
        x = L.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}bn")(x)
        x = L.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = _se(x, input_filters, filters, se_ratio, activation, name)
        x = L.Conv2D(filters=output_filters, kernel_size=1, strides=1, padding="same",
                     kernel_initializer=_conv_init(), use_bias=False,
                     name=f"{name}project_conv")(x)
        x = L.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}project_bn")(x)
        return _skip(x, inputs, strides, input_filters, output_filters, survival_probability,
                     name)
    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                     strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                     survival_probability=0.8, name=None):
    """A kxk expansion convolution in place of 1x1 + depthwise, then the projection."""
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = L.Conv2D(filters, kernel_size=kernel_size, strides=strides, padding="same",
                         kernel_initializer=_conv_init(), use_bias=False,
                         name=f"{name}expand_conv")(x)
            x = L.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = L.Activation(activation=activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = _se(x, input_filters, filters, se_ratio, activation, name)
        expanded = expand_ratio != 1
        x = L.Conv2D(output_filters, kernel_size=1 if expanded else kernel_size,
                     strides=1 if expanded else strides, kernel_initializer=_conv_init(),
                     padding="same", use_bias=False, name=f"{name}project_conv")(x)
        x = L.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}project_bn")(x)
        if not expanded:
            x = L.Activation(activation=activation, name=f"{name}project_activation")(x)
        return _skip(x, inputs, strides, input_filters, output_filters, survival_probability,
                     name)
    return apply


def EfficientNetV2(width_coefficient, depth_coefficient, default_size,  # noqa: N802
                   dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8, min_depth=8,
                   bn_momentum=0.9, activation="swish", blocks_args="default",
                   name="efficientnetv2", include_top=True, weights="imagenet",
                   input_tensor=None, input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", include_preprocessing=True,
                   weights_name=None):
    """The EfficientNetV2 family builder."""
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS[name]
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = img_input
    if include_preprocessing:
        if name.split("-")[-1].startswith("b") and input_shape[2] == 3:
            x = L.Rescaling(scale=1.0 / 255)(x)
            x = L.Normalization(mean=[0.485, 0.456, 0.406],
                                variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2], axis=3)(x)
        else:
            x = L.Rescaling(scale=1.0 / 128.0, offset=-1)(x)

    def rf(filters):
        return round_filters(filters, width_coefficient, min_depth, depth_divisor)

    x = L.Conv2D(filters=rf(blocks_args[0]["input_filters"]), kernel_size=3, strides=2,
                 kernel_initializer=_conv_init(), padding="same", use_bias=False,
                 name="stem_conv")(x)
    x = L.BatchNormalization(axis=3, momentum=bn_momentum, name="stem_bn")(x)
    x = L.Activation(activation, name="stem_activation")(x)
    total = float(sum(a["num_repeat"] for a in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        args = dict(args, input_filters=rf(args["input_filters"]),
                    output_filters=rf(args["output_filters"]))
        block = FusedMBConvBlock if args.pop("conv_type") else MBConvBlock
        for j in range(round_repeats(args.pop("num_repeat"), depth_coefficient)):
            if j > 0:
                args["strides"], args["input_filters"] = 1, args["output_filters"]
            x = block(activation=activation, bn_momentum=bn_momentum,
                      survival_probability=drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)(x)
            b += 1
    x = L.Conv2D(filters=rf(1280), kernel_size=1, strides=1, kernel_initializer=_conv_init(),
                 padding="same", use_bias=False, name="top_conv")(x)
    x = L.BatchNormalization(axis=3, momentum=bn_momentum, name="top_bn")(x)
    x = L.Activation(activation=activation, name="top_activation")(x)
    if include_top:
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = L.Dropout(dropout_rate, name="top_dropout")(x)
        iu.validate_activation(classifier_activation, weights)
        x = L.Dense(classes, activation=classifier_activation,
                    kernel_initializer=initializers.VarianceScaling(
                        scale=1.0 / 3.0, mode="fan_out", distribution="uniform"),
                    bias_initializer=initializers.Constant(0.0), name="predictions")(x)
    x = iu.pool_or_top(x, include_top, pooling, ("avg_pool", "max_pool"))

    def weights_file():
        fname = name + (".h5" if include_top else "_notop.h5")
        return (fname, BASE_WEIGHTS_PATH + fname,
                WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


def _variant(width, depth, size, key, suffix):
    def fn(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
           pooling=None, classes=1000, classifier_activation="softmax",
           include_preprocessing=True, name=f"efficientnetv2-{suffix}"):
        return EfficientNetV2(width_coefficient=width, depth_coefficient=depth,
                              default_size=size, name=name, include_top=include_top,
                              weights=weights, input_tensor=input_tensor,
                              input_shape=input_shape, pooling=pooling, classes=classes,
                              classifier_activation=classifier_activation,
                              include_preprocessing=include_preprocessing, weights_name=key)
    fn.__name__ = fn.__qualname__ = f"EfficientNetV2{suffix.upper()}"
    return iu.model_doc(fn, f"EfficientNetV2-{suffix.upper()} (default input {size}x{size}; "
                        "``include_preprocessing`` puts the input scaling in the model)",
                        fn.__name__, "With ``include_preprocessing`` the model takes raw "
                        "pixels in [0, 255] (``preprocess_input`` is the identity).")


EfficientNetV2B0 = _variant(1.0, 1.0, 224, "b0", "b0")
EfficientNetV2B1 = _variant(1.0, 1.1, 240, "b1", "b1")
EfficientNetV2B2 = _variant(1.1, 1.2, 260, "b2", "b2")
EfficientNetV2B3 = _variant(1.2, 1.4, 300, "b3", "b3")
EfficientNetV2S = _variant(1.0, 1.0, 384, "-s", "s")
EfficientNetV2M = _variant(1.0, 1.0, 480, "-m", "m")
EfficientNetV2L = _variant(1.0, 1.0, 480, "-l", "l")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNetV2 models preprocess inside
    (``tf.keras.applications.efficientnet_v2.preprocess_input``)."""
    return x


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
