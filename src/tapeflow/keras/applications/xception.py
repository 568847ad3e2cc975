"""Xception (``keras.applications.xception``): depthwise-separable convolutions with
residual connections (Chollet, 2017)."""
from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["Xception", "preprocess_input", "decode_predictions"]

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/xception/"
WEIGHTS_PATH = _BASE + "xception_weights_tf_dim_ordering_tf_kernels.h5"
WEIGHTS_PATH_NO_TOP = _BASE + "xception_weights_tf_dim_ordering_tf_kernels_notop.h5"
_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def _sep_bn(x, filters, name):
    x = L.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return L.BatchNormalization(axis=-1, name=f"{name}_bn")(x)


def _entry_block(x, filters, block, first_act=True):
    """An entry-flow block: two separable convolutions, a max pool, a strided 1x1 shortcut
    (Keras names the activation before the second convolution ``sepconv2_act``)."""
    residual = L.Conv2D(filters[1], (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = L.BatchNormalization(axis=-1)(residual)
    if first_act:
        x = L.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sep_bn(x, filters[0], f"block{block}_sepconv1")
    x = L.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sep_bn(x, filters[1], f"block{block}_sepconv2")
    x = L.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return L.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             name="xception"):
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 299, 71, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = L.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = L.BatchNormalization(axis=-1, name="block1_conv1_bn")(x)
    x = L.Activation("relu", name="block1_conv1_act")(x)
    x = L.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = L.BatchNormalization(axis=-1, name="block1_conv2_bn")(x)
    x = L.Activation("relu", name="block1_conv2_act")(x)
    x = _entry_block(x, (128, 128), 2, first_act=False)
    x = _entry_block(x, (256, 256), 3)
    x = _entry_block(x, (728, 728), 4)
    for i in range(8):
        residual, prefix = x, f"block{i + 5}"
        for j in (1, 2, 3):
            x = L.Activation("relu", name=f"{prefix}_sepconv{j}_act")(x)
            x = _sep_bn(x, 728, f"{prefix}_sepconv{j}")
        x = L.add([x, residual])
    x = _entry_block(x, (728, 1024), 13)
    x = _sep_bn(x, 1536, "block14_sepconv1")
    x = L.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sep_bn(x, 2048, "block14_sepconv2")
    x = L.Activation("relu", name="block14_sepconv2_act")(x)
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        url = WEIGHTS_PATH if include_top else WEIGHTS_PATH_NO_TOP
        return url.rsplit("/", 1)[1], url, _HASHES[0 if include_top else 1]
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


iu.model_doc(Xception, "Xception (default input 299x299, at least 71x71)", "Xception",
             "Call ``keras.applications.xception.preprocess_input`` on the inputs (scales "
             "pixels to [-1, 1]).")


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.xception.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
