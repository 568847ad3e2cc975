"""EfficientNetB0..B7 (``keras.applications.efficientnet``): compound-scaled MBConv
networks (Tan and Le, 2019). Input preprocessing (rescaling and normalisation) is part of
the model: it takes raw pixels in [0, 255]."""
import math

from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3",
           "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7",
           "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/keras-applications/"
# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}
_KEYS = ("kernel_size", "repeats", "filters_in", "filters_out", "expand_ratio", "id_skip",
         "strides", "se_ratio")
DEFAULT_BLOCKS_ARGS = [dict(zip(_KEYS, row)) for row in (
    (3, 1, 32, 16, 1, True, 1, 0.25),
    (3, 2, 16, 24, 6, True, 2, 0.25),
    (5, 2, 24, 40, 6, True, 2, 0.25),
    (3, 3, 40, 80, 6, True, 2, 0.25),
    (5, 3, 80, 112, 6, True, 1, 0.25),
    (5, 4, 112, 192, 6, True, 2, 0.25),
    (3, 1, 192, 320, 6, True, 1, 0.25),
)]
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling", "config": {
    "scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling", "config": {
    "scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]


def _init(config):
    from .. import initializers
    return getattr(initializers, config["class_name"])(**config["config"])


def EfficientNet(width_coefficient, depth_coefficient, default_size,  # noqa: N802
                 dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8,
                 activation="swish", blocks_args="default", name="efficientnet",
                 include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                 pooling=None, classes=1000, classifier_activation="softmax",
                 weights_name=None):
    """The EfficientNet family: widths scaled by ``width_coefficient``, block repeats by
    ``depth_coefficient``."""
    blocks_args = DEFAULT_BLOCKS_ARGS if blocks_args == "default" else blocks_args
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)

    def round_filters(filters, divisor=depth_divisor):
        filters *= width_coefficient
        new = max(divisor, int(filters + divisor / 2) // divisor * divisor)
        return int(new + divisor if new < 0.9 * filters else new)

    def round_repeats(repeats):
        return int(math.ceil(depth_coefficient * repeats))

    x = L.Rescaling(1.0 / 255.0)(img_input)
    x = L.Normalization(axis=3)(x)
    if weights == "imagenet":
        # the published weights' normalisation divides by the variance, not the deviation
        x = L.Rescaling([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB])(x)
    x = L.ZeroPadding2D(padding=iu.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = L.Conv2D(round_filters(32), 3, strides=2, padding="valid", use_bias=False,
                 kernel_initializer=_init(CONV_KERNEL_INITIALIZER), name="stem_conv")(x)
    x = L.BatchNormalization(axis=3, name="stem_bn")(x)
    x = L.Activation(activation, name="stem_activation")(x)
    total = float(sum(round_repeats(a["repeats"]) for a in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError(f"repeats must be > 0. Received: repeats={args['repeats']}")
        args = dict(args, filters_in=round_filters(args["filters_in"]),
                    filters_out=round_filters(args["filters_out"]))
        for j in range(round_repeats(args.pop("repeats"))):
            if j > 0:
                args["strides"], args["filters_in"] = 1, args["filters_out"]
            x = block(x, activation, drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)
            b += 1
    x = L.Conv2D(round_filters(1280), 1, padding="same", use_bias=False,
                 kernel_initializer=_init(CONV_KERNEL_INITIALIZER), name="top_conv")(x)
    x = L.BatchNormalization(axis=3, name="top_bn")(x)
    x = L.Activation(activation, name="top_activation")(x)
    if include_top:
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = L.Dropout(dropout_rate, name="top_dropout")(x)
        iu.validate_activation(classifier_activation, weights)
        x = L.Dense(classes, activation=classifier_activation,
                    kernel_initializer=_init(DENSE_KERNEL_INITIALIZER), name="predictions")(x)
    x = iu.pool_or_top(x, include_top, pooling, ("avg_pool", "max_pool"))

    def weights_file():
        fname = name + (".h5" if include_top else "_notop.h5")
        return (fname, BASE_WEIGHTS_PATH + fname,
                WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32, filters_out=16,
          kernel_size=3, strides=1, expand_ratio=1, se_ratio=0.0, id_skip=True):
    """An MBConv block: expansion, depthwise convolution, squeeze-and-excitation,
    projection, and the identity shortcut (with drop-connect) when shapes agree."""
    filters = filters_in * expand_ratio
    conv_init = _init(CONV_KERNEL_INITIALIZER)
    x = inputs
    if expand_ratio != 1:
        x = L.Conv2D(filters, 1, padding="same", use_bias=False, kernel_initializer=conv_init,
                     name=f"{name}expand_conv")(x)
        x = L.BatchNormalization(axis=3, name=f"{name}expand_bn")(x)
        x = L.Activation(activation, name=f"{name}expand_activation")(x)
    if strides == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel_size),
                            name=f"{name}dwconv_pad")(x)
    x = L.DepthwiseConv2D(kernel_size, strides=strides,
                          padding="valid" if strides == 2 else "same", use_bias=False,
                          depthwise_initializer=_init(CONV_KERNEL_INITIALIZER),
                          name=f"{name}dwconv")(x)
    x = L.BatchNormalization(axis=3, name=f"{name}bn")(x)
    x = L.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        filters_se = max(1, int(filters_in * se_ratio))
        se = L.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se = L.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
        se = L.Conv2D(filters_se, 1, padding="same", activation=activation,
                      kernel_initializer=_init(CONV_KERNEL_INITIALIZER),
                      name=f"{name}se_reduce")(se)
        se = L.Conv2D(filters, 1, padding="same", activation="sigmoid",
                      kernel_initializer=_init(CONV_KERNEL_INITIALIZER),
                      name=f"{name}se_expand")(se)
        x = L.multiply([x, se], name=f"{name}se_excite")
    x = L.Conv2D(filters_out, 1, padding="same", use_bias=False,
                 kernel_initializer=_init(CONV_KERNEL_INITIALIZER),
                 name=f"{name}project_conv")(x)
    x = L.BatchNormalization(axis=3, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = L.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = L.add([x, inputs], name=f"{name}add")
    return x


def _variant(width, depth, size, dropout, key):
    def fn(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
           pooling=None, classes=1000, classifier_activation="softmax",
           name=f"efficientnet{key}"):
        return EfficientNet(width, depth, size, dropout, name=name, include_top=include_top,
                            weights=weights, input_tensor=input_tensor,
                            input_shape=input_shape, pooling=pooling, classes=classes,
                            classifier_activation=classifier_activation, weights_name=key)
    fn.__name__ = fn.__qualname__ = f"EfficientNet{key.upper()}"
    return iu.model_doc(fn, f"EfficientNet-{key.upper()} (default input {size}x{size})",
                        fn.__name__, "The model rescales and normalises raw pixels in "
                        "[0, 255] itself (``preprocess_input`` is the identity).")


EfficientNetB0 = _variant(1.0, 1.0, 224, 0.2, "b0")
EfficientNetB1 = _variant(1.0, 1.1, 240, 0.2, "b1")
EfficientNetB2 = _variant(1.1, 1.2, 260, 0.3, "b2")
EfficientNetB3 = _variant(1.2, 1.4, 300, 0.3, "b3")
EfficientNetB4 = _variant(1.4, 1.8, 380, 0.4, "b4")
EfficientNetB5 = _variant(1.6, 2.2, 456, 0.4, "b5")
EfficientNetB6 = _variant(1.8, 2.6, 528, 0.5, "b6")
EfficientNetB7 = _variant(2.0, 3.1, 600, 0.5, "b7")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNet models preprocess inside
    (``tf.keras.applications.efficientnet.preprocess_input``)."""
    return x


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
