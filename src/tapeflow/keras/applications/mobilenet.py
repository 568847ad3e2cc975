"""MobileNet (``keras.applications.mobilenet``): depthwise-separable convolutions with a
width multiplier ``alpha`` (Howard et al., 2017)."""
import warnings

from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["MobileNet", "preprocess_input", "decode_predictions"]

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3,  # noqa: N802
              include_top=True, weights="imagenet", input_tensor=None, pooling=None,
              classes=1000, classifier_activation="softmax", name=None):
    """MobileNet (``tf.keras.applications.MobileNet``).

    Args:
        input_shape: ``(rows, cols, 3)``, at least 32x32; default ``(224, 224, 3)`` with the
            top, ``(None, None, 3)`` without.
        alpha: the width multiplier (0.25, 0.5, 0.75 or 1.0 for ImageNet weights).
        depth_multiplier: the depthwise convolutions' channel multiplier.
        dropout: the dropout rate before the classifier.
        include_top: whether to end with the 1x1-convolution classifier.
        weights: None, ``"imagenet"`` or the path of a weights file.
        input_tensor: an optional KerasTensor to build the model on.
        pooling: None, ``"avg"`` or ``"max"`` global pooling without the top.
        classes: the number of classes of the top.
        classifier_activation: the top's activation (None for logits).
        name: the model name (default ``mobilenet_{alpha:.2f}_{rows}``).

    Returns:
        A functional ``keras.Model`` with Keras's layer names.

    Raises:
        ValueError: for invalid ``weights``, ``classes``, ``input_shape`` or, with ImageNet
            weights, ``alpha``/``depth_multiplier``.
    """
    iu.check_weights_arg(weights, include_top, classes)
    channels_first = backend.image_data_format() == "channels_first"
    default_size = 224
    if input_shape is not None:
        rows, cols = (input_shape[1], input_shape[2]) if channels_first else input_shape[:2]
        if rows == cols and rows in (128, 160, 192, 224):
            default_size = rows
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    rows, cols = (input_shape[1], input_shape[2]) if channels_first else input_shape[:2]
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be "
                             f"1.  Received depth_multiplier={depth_multiplier}")
        if alpha not in (0.25, 0.5, 0.75, 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of"
                             "`0.25`, `0.50`, `0.75` or `1.0` only.  "
                             f"Received alpha={alpha}")
        if rows != cols or rows not in (128, 160, 192, 224):
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in "
                          "[128, 160, 192, 224]. Weights for input shape (224, 224) will be "
                          "loaded as the default.", stacklevel=2)
    img_input = iu.image_input(input_tensor, input_shape)
    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    # (pointwise filters, stride) of the 13 depthwise-separable blocks
    plan = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [
        (1024, 2), (1024, 1)]
    for block_id, (filters, stride) in enumerate(plan, 1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, (stride, stride),
                                  block_id)
    if include_top:
        x = L.GlobalAveragePooling2D(keepdims=True)(x)
        x = L.Dropout(dropout, name="dropout")(x)
        x = L.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = L.Reshape((classes,), name="reshape_2")(x)
        iu.validate_activation(classifier_activation, weights)
        x = L.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = L.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = L.GlobalMaxPooling2D()(x)

    def weights_file():
        fname = (f"mobilenet_{_ALPHA_TEXT.get(alpha, '2_5')}_{rows}_tf"
                 f"{'' if include_top else '_no_top'}.h5")
        return fname, BASE_WEIGHT_PATH + fname
    return iu.finish_model(x, img_input, input_tensor, name or f"mobilenet_{alpha:0.2f}_{rows}",
                           weights, weights_file)


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    axis = 1 if backend.image_data_format() == "channels_first" else -1
    x = L.Conv2D(int(filters * alpha), kernel, padding="same", use_bias=False,
                 strides=strides, name="conv1")(inputs)
    x = L.BatchNormalization(axis=axis, name="conv1_bn")(x)
    return L.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, filters, alpha, depth_multiplier=1, strides=(1, 1),
                          block_id=1):
    axis = 1 if backend.image_data_format() == "channels_first" else -1
    x = inputs
    if strides != (1, 1):
        x = L.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = L.DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                          depth_multiplier=depth_multiplier, strides=strides, use_bias=False,
                          name=f"conv_dw_{block_id}")(x)
    x = L.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = L.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = L.Conv2D(int(filters * alpha), (1, 1), padding="same", use_bias=False,
                 strides=(1, 1), name=f"conv_pw_{block_id}")(x)
    x = L.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return L.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.mobilenet.preprocess_input``; see
    ``imagenet_utils.preprocess_input``, mode ``"tf"``)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
