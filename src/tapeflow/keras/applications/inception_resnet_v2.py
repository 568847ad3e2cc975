"""InceptionResNetV2 (``keras.applications.inception_resnet_v2``): Inception modules with
scaled residual connections (Szegedy et al., 2016)."""
from .. import backend
from .. import layers as L
from ..layers.layer import Layer
from . import imagenet_utils as iu

__all__ = ["InceptionResNetV2", "preprocess_input", "decode_predictions"]

BASE_WEIGHT_URL = ("https://storage.googleapis.com/tensorflow/keras-applications/"
                   "inception_resnet_v2/")
_FILES = (("inception_resnet_v2_weights_tf_dim_ordering_tf_kernels.h5",
           "e693bd0210a403b3192acc6073ad2e96"),
          ("inception_resnet_v2_weights_tf_dim_ordering_tf_kernels_notop.h5",
           "d19885ff4a710c122648d3b5c3b684e4"))


class CustomScaleLayer(Layer):
    """``inputs[0] + inputs[1] * scale``: the scaled residual sum."""

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def get_config(self):
        return dict(super().get_config(), scale=self.scale)

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu",
              use_bias=False, name=None):
    """Convolution, batch norm without scale (when no bias), activation."""
    x = L.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias,
                 name=name)(x)
    if not use_bias:
        x = L.BatchNormalization(axis=3, scale=False,
                                 name=None if name is None else f"{name}_bn")(x)
    if activation is not None:
        x = L.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    """A residual Inception block of type ``block35``, ``block17`` or ``block8``."""
    if block_type == "block35":
        branches = [conv2d_bn(x, 32, 1), conv2d_bn(conv2d_bn(x, 32, 1), 32, 3),
                    conv2d_bn(conv2d_bn(conv2d_bn(x, 32, 1), 48, 3), 64, 3)]
    elif block_type == "block17":
        # (layers are made in Keras's order: their automatic names depend on it)
        b0 = conv2d_bn(x, 192, 1)
        branches = [b0, conv2d_bn(conv2d_bn(conv2d_bn(x, 128, 1), 160, [1, 7]), 192, [7, 1])]
    elif block_type == "block8":
        b0 = conv2d_bn(x, 192, 1)
        branches = [b0, conv2d_bn(conv2d_bn(conv2d_bn(x, 192, 1), 224, [1, 3]), 256, [3, 1])]
    else:
        raise ValueError("Unknown Inception-ResNet block type. Expects \"block35\", "
                         f"\"block17\" or \"block8\", but got: {block_type}")
    block_name = f"{block_type}_{block_idx}"
    mixed = L.Concatenate(axis=3, name=f"{block_name}_mixed")(branches)
    up = conv2d_bn(mixed, x.shape[3], 1, activation=None, use_bias=True,
                   name=f"{block_name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = L.Activation(activation, name=f"{block_name}_ac")(x)
    return x


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                      input_shape=None, pooling=None, classes=1000,
                      classifier_activation="softmax", name="inception_resnet_v2"):
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 299, 75, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = L.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = L.MaxPooling2D(3, strides=2)(x)
    x = L.Concatenate(axis=3, name="mixed_5b")([
        conv2d_bn(x, 96, 1), conv2d_bn(conv2d_bn(x, 48, 1), 64, 5),
        conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1), 96, 3), 96, 3),
        conv2d_bn(L.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)])
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, 0.17, "block35", block_idx)
    x = L.Concatenate(axis=3, name="mixed_6a")([
        conv2d_bn(x, 384, 3, strides=2, padding="valid"),
        conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 256, 3), 384, 3, strides=2,
                  padding="valid"),
        L.MaxPooling2D(3, strides=2, padding="valid")(x)])
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, 0.1, "block17", block_idx)
    x = L.Concatenate(axis=3, name="mixed_7a")([
        conv2d_bn(conv2d_bn(x, 256, 1), 384, 3, strides=2, padding="valid"),
        conv2d_bn(conv2d_bn(x, 256, 1), 288, 3, strides=2, padding="valid"),
        conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 288, 3), 320, 3, strides=2,
                  padding="valid"),
        L.MaxPooling2D(3, strides=2, padding="valid")(x)])
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, 0.2, "block8", block_idx)
    x = inception_resnet_block(x, 1.0, "block8", 10, activation=None)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        fname, file_hash = _FILES[0 if include_top else 1]
        return fname, BASE_WEIGHT_URL + fname, file_hash
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


iu.model_doc(InceptionResNetV2, "Inception-ResNet-v2 (default input 299x299, at least "
             "75x75)", "InceptionResNetV2", "Call "
             "``keras.applications.inception_resnet_v2.preprocess_input`` on the inputs "
             "(scales pixels to [-1, 1]).")


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.inception_resnet_v2.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
