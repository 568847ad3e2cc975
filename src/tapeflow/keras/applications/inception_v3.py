"""InceptionV3 (``keras.applications.inception_v3``): factorised Inception modules
(Szegedy et al., 2015)."""
from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["InceptionV3", "preprocess_input", "decode_predictions"]

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"
WEIGHTS_PATH = _BASE + "inception_v3_weights_tf_dim_ordering_tf_kernels.h5"
WEIGHTS_PATH_NO_TOP = _BASE + "inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5"
_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """Convolution without bias, batch norm without scale, relu."""
    x = L.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                 name=None if name is None else f"{name}_conv")(x)
    x = L.BatchNormalization(axis=3, scale=False,
                             name=None if name is None else f"{name}_bn")(x)
    return L.Activation("relu", name=name)(x)


def _avg_branch(x, filters):
    pool = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return conv2d_bn(pool, filters, 1, 1)


def _block_35(x, pool_filters, name):
    b1 = conv2d_bn(x, 64, 1, 1)
    b5 = conv2d_bn(conv2d_bn(x, 48, 1, 1), 64, 5, 5)
    b3 = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    return L.concatenate([b1, b5, b3, _avg_branch(x, pool_filters)], axis=3, name=name)


def _block_17(x, mid, name):
    b1 = conv2d_bn(x, 192, 1, 1)
    b7 = conv2d_bn(conv2d_bn(conv2d_bn(x, mid, 1, 1), mid, 1, 7), 192, 7, 1)
    d = conv2d_bn(x, mid, 1, 1)
    for filters, (r, c) in ((mid, (7, 1)), (mid, (1, 7)), (mid, (7, 1)), (192, (1, 7))):
        d = conv2d_bn(d, filters, r, c)
    return L.concatenate([b1, b7, d, _avg_branch(x, 192)], axis=3, name=name)


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="inception_v3"):
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 299, 75, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = L.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = L.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _block_35(x, 32, "mixed0")
    x = _block_35(x, 64, "mixed1")
    x = _block_35(x, 64, "mixed2")
    b3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    d = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, strides=(2, 2),
                  padding="valid")
    pool = L.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = L.concatenate([b3, d, pool], axis=3, name="mixed3")
    x = _block_17(x, 128, "mixed4")
    x = _block_17(x, 160, "mixed5")
    x = _block_17(x, 160, "mixed6")
    x = _block_17(x, 192, "mixed7")
    b3 = conv2d_bn(conv2d_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    b7 = conv2d_bn(x, 192, 1, 1)
    b7 = conv2d_bn(conv2d_bn(b7, 192, 1, 7), 192, 7, 1)
    b7 = conv2d_bn(b7, 192, 3, 3, strides=(2, 2), padding="valid")
    pool = L.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = L.concatenate([b3, b7, pool], axis=3, name="mixed8")
    for i in range(2):
        b1 = conv2d_bn(x, 320, 1, 1)
        b3 = conv2d_bn(x, 384, 1, 1)
        b3 = L.concatenate([conv2d_bn(b3, 384, 1, 3), conv2d_bn(b3, 384, 3, 1)], axis=3,
                           name=f"mixed9_{i}")
        d = conv2d_bn(conv2d_bn(x, 448, 1, 1), 384, 3, 3)
        d = L.concatenate([conv2d_bn(d, 384, 1, 3), conv2d_bn(d, 384, 3, 1)], axis=3)
        x = L.concatenate([b1, b3, d, _avg_branch(x, 192)], axis=3, name=f"mixed{9 + i}")
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        url = WEIGHTS_PATH if include_top else WEIGHTS_PATH_NO_TOP
        return url.rsplit("/", 1)[1], url, _HASHES[0 if include_top else 1]
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


iu.model_doc(InceptionV3, "InceptionV3 (default input 299x299, at least 75x75)",
             "InceptionV3", "Call ``keras.applications.inception_v3.preprocess_input`` on the "
             "inputs (scales pixels to [-1, 1]).")


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.inception_v3.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
