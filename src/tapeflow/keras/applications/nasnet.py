"""NASNetMobile and NASNetLarge (``keras.applications.nasnet``): the architecture found
by neural architecture search (Zoph et al., 2018)."""
import os

from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["NASNetMobile", "NASNetLarge", "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
# (cache file name, URL, md5) by (default size, include_top)
_FILES = {
    (224, True): ("nasnet_mobile.h5", "NASNet-mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
    (224, False): ("nasnet_mobile_no_top.h5", "NASNet-mobile-no-top.h5",
                   "1ed92395b5b598bdda52abe5c0dbfd63"),
    (331, True): ("nasnet_large.h5", "NASNet-large.h5", "11577c9a518f0070763c2b964a382f17"),
    (331, False): ("nasnet_large_no_top.h5", "NASNet-large-no-top.h5",
                   "d81d89dc07e6e56530c4e77faddd61b5"),
}


def _bn(name=None):
    return L.BatchNormalization(axis=-1, momentum=0.9997, epsilon=1e-3, name=name)


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6,  # noqa: N802
           stem_block_filters=96, skip_reduction=True, filter_multiplier=2, include_top=True,
           weights="imagenet", input_tensor=None, pooling=None, classes=1000,
           default_size=None, classifier_activation="softmax", name="NASNet"):
    """The NASNet-A builder: a stem, then three stacks of ``num_blocks`` normal cells
    separated by reduction cells."""
    if not (weights in ("imagenet", None) or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the path "
                         "to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, '
                         "`classes` should be 1000")
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` "
                         "weights, the input_shape argument must be static (no None entries). "
                         f"Got: `input_shape={input_shape}`.")
    default_size = default_size or 331
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    if penultimate_filters % (24 * (filter_multiplier ** 2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple "
                         "of 24 * (`filter_multiplier` ** 2). "
                         f"Current value: {penultimate_filters}")
    filters = penultimate_filters // 24
    x = L.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False,
                 name="stem_conv1", kernel_initializer="he_normal")(img_input)
    x = _bn("stem_bn1")(x)
    p = None
    x, p = _reduction_a_cell(x, p, filters // (filter_multiplier ** 2), block_id="stem_1")
    x, p = _reduction_a_cell(x, p, filters // filter_multiplier, block_id="stem_2")
    for stack in range(3):
        width = filters * filter_multiplier ** stack
        if stack:
            x, p0 = _reduction_a_cell(x, p, width, block_id=f"reduce_{stack * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            block = i if stack == 0 else stack * num_blocks + i + 1
            x, p = _normal_a_cell(x, p, width, block_id=f"{block}")
    x = L.Activation("relu")(x)
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights, pool_name=None)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        if (default_size, include_top) not in _FILES:
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or "
                             "NASNetMobile")
        fname, remote, file_hash = _FILES[(default_size, include_top)]
        return fname, BASE_WEIGHTS_PATH + remote, file_hash
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                 input_tensor=None, pooling=None, classes=1000,
                 classifier_activation="softmax", name="nasnet_mobile"):
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                  skip_reduction=False, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling,
                  classes=classes, default_size=224,
                  classifier_activation=classifier_activation, name=name)


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="nasnet_large"):
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
                  skip_reduction=True, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling,
                  classes=classes, default_size=331,
                  classifier_activation=classifier_activation, name=name)


_PRE = ("Call ``keras.applications.nasnet.preprocess_input`` on the inputs (scales pixels to "
        "[-1, 1]). Argument order: input_shape, include_top, weights, input_tensor, pooling, "
        "classes, classifier_activation, name.")
iu.model_doc(NASNetMobile, "NASNet-A Mobile (default input 224x224)", "NASNetMobile", _PRE)
iu.model_doc(NASNetLarge, "NASNet-A Large (default input 331x331)", "NASNetLarge", _PRE)


def _separable_conv_block(ip, filters, kernel_size=(3, 3), strides=(1, 1), block_id=None):
    x = L.Activation("relu")(ip)
    if strides == (2, 2):
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel_size),
                            name=f"separable_conv_1_pad_{block_id}")(x)
    x = L.SeparableConv2D(filters, kernel_size, strides=strides,
                          name=f"separable_conv_1_{block_id}",
                          padding="valid" if strides == (2, 2) else "same", use_bias=False)(x)
    x = _bn(f"separable_conv_1_bn_{block_id}")(x)
    x = L.Activation("relu")(x)
    x = L.SeparableConv2D(filters, kernel_size, name=f"separable_conv_2_{block_id}",
                          padding="same", use_bias=False)(x)
    return _bn(f"separable_conv_2_bn_{block_id}")(x)


def _adjust_block(p, ip, filters, block_id=None):
    """``p`` (the previous cell's output) brought to ``ip``'s size and ``filters``."""
    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:
        p = L.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = L.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = L.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                      name=f"adjust_conv_1_{block_id}", kernel_initializer="he_normal")(p1)
        p2 = L.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
        p2 = L.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
        p2 = L.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = L.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                      name=f"adjust_conv_2_{block_id}", kernel_initializer="he_normal")(p2)
        p = L.concatenate([p1, p2], axis=-1)
        return _bn(f"adjust_bn_{block_id}")(p)
    if p.shape[-1] != filters:
        p = L.Activation("relu")(p)
        p = L.Conv2D(filters, (1, 1), strides=(1, 1), padding="same",
                     name=f"adjust_conv_projection_{block_id}", use_bias=False,
                     kernel_initializer="he_normal")(p)
        return _bn(f"adjust_bn_{block_id}")(p)
    return p


def _normal_a_cell(ip, p, filters, block_id=None):
    p = _adjust_block(p, ip, filters, block_id)
    h = L.Activation("relu")(ip)
    h = L.Conv2D(filters, (1, 1), strides=(1, 1), padding="same",
                 name=f"normal_conv_1_{block_id}", use_bias=False,
                 kernel_initializer="he_normal")(h)
    h = _bn(f"normal_bn_1_{block_id}")(h)
    x1_1 = _separable_conv_block(h, filters, kernel_size=(5, 5),
                                 block_id=f"normal_left1_{block_id}")
    x1_2 = _separable_conv_block(p, filters, block_id=f"normal_right1_{block_id}")
    x1 = L.add([x1_1, x1_2], name=f"normal_add_1_{block_id}")
    x2_1 = _separable_conv_block(p, filters, (5, 5), block_id=f"normal_left2_{block_id}")
    x2_2 = _separable_conv_block(p, filters, (3, 3), block_id=f"normal_right2_{block_id}")
    x2 = L.add([x2_1, x2_2], name=f"normal_add_2_{block_id}")
    x3 = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                            name=f"normal_left3_{block_id}")(h)
    x3 = L.add([x3, p], name=f"normal_add_3_{block_id}")
    x4_1 = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                              name=f"normal_left4_{block_id}")(p)
    x4_2 = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                              name=f"normal_right4_{block_id}")(p)
    x4 = L.add([x4_1, x4_2], name=f"normal_add_4_{block_id}")
    x5 = _separable_conv_block(h, filters, block_id=f"normal_left5_{block_id}")
    x5 = L.add([x5, h], name=f"normal_add_5_{block_id}")
    x = L.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip, p, filters, block_id=None):
    p = _adjust_block(p, ip, filters, block_id)
    h = L.Activation("relu")(ip)
    h = L.Conv2D(filters, (1, 1), strides=(1, 1), padding="same",
                 name=f"reduction_conv_1_{block_id}", use_bias=False,
                 kernel_initializer="he_normal")(h)
    h = _bn(f"reduction_bn_1_{block_id}")(h)
    h3 = L.ZeroPadding2D(padding=iu.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
    x1_1 = _separable_conv_block(h, filters, (5, 5), strides=(2, 2),
                                 block_id=f"reduction_left1_{block_id}")
    x1_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2),
                                 block_id=f"reduction_right1_{block_id}")
    x1 = L.add([x1_1, x1_2], name=f"reduction_add_1_{block_id}")
    x2_1 = L.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                          name=f"reduction_left2_{block_id}")(h3)
    x2_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2),
                                 block_id=f"reduction_right2_{block_id}")
    x2 = L.add([x2_1, x2_2], name=f"reduction_add_2_{block_id}")
    x3_1 = L.AveragePooling2D((3, 3), strides=(2, 2), padding="valid",
                              name=f"reduction_left3_{block_id}")(h3)
    x3_2 = _separable_conv_block(p, filters, (5, 5), strides=(2, 2),
                                 block_id=f"reduction_right3_{block_id}")
    x3 = L.add([x3_1, x3_2], name=f"reduction_add3_{block_id}")
    x4 = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same",
                            name=f"reduction_left4_{block_id}")(x1)
    x4 = L.add([x2, x4])
    x5_1 = _separable_conv_block(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
    x5_2 = L.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                          name=f"reduction_right5_{block_id}")(h3)
    x5 = L.add([x5_1, x5_2], name=f"reduction_add4_{block_id}")
    x = L.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}")
    return x, ip


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.nasnet.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
