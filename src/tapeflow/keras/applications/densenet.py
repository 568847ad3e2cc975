"""DenseNet121/169/201 (``keras.applications.densenet``): densely connected convolutional
networks (Huang et al., 2017)."""
from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "preprocess_input",
           "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"
# blocks per stage -> (file stem, md5 with top, md5 without)
_WEIGHTS = {
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7",
                      "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b",
                      "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807",
                      "c13680b51ded0fb44dff2d8f86ac8bb1"),
}
_EPS = 1.001e-5


def dense_block(x, blocks, name):
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    x = L.BatchNormalization(axis=3, epsilon=_EPS, name=f"{name}_bn")(x)
    x = L.Activation("relu", name=f"{name}_relu")(x)
    x = L.Conv2D(int(x.shape[3] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return L.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x, growth_rate, name):
    """One dense layer: batch norm, relu, 1x1 and 3x3 convolutions, concatenated to ``x``."""
    x1 = L.BatchNormalization(axis=3, epsilon=_EPS, name=f"{name}_0_bn")(x)
    x1 = L.Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = L.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(x1)
    x1 = L.BatchNormalization(axis=3, epsilon=_EPS, name=f"{name}_1_bn")(x1)
    x1 = L.Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = L.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(x1)
    return L.Concatenate(axis=3, name=f"{name}_concat")([x, x1])


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             name="densenet"):
    """A DenseNet with ``blocks[i]`` dense layers in stage ``i``."""
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 224, 32, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = L.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = L.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = L.BatchNormalization(axis=3, epsilon=_EPS, name="conv1_bn")(x)
    x = L.Activation("relu", name="conv1_relu")(x)
    x = L.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = L.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, n in enumerate(blocks, 2):
        x = dense_block(x, n, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = L.BatchNormalization(axis=3, epsilon=_EPS, name="bn")(x)
    x = L.Activation("relu", name="relu")(x)
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights)
    x = iu.pool_or_top(x, include_top, pooling, ("avg_pool", "max_pool"))

    def weights_file():
        if tuple(blocks) not in _WEIGHTS:
            raise ValueError("weights_path is None")
        stem, top_hash, notop_hash = _WEIGHTS[tuple(blocks)]
        fname = f"{stem}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
        return fname, BASE_WEIGHTS_PATH + fname, top_hash if include_top else notop_hash
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="densenet121"):
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="densenet169"):
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="densenet201"):
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


for _fn, _n in ((DenseNet121, 121), (DenseNet169, 169), (DenseNet201, 201)):
    iu.model_doc(_fn, f"DenseNet-{_n}", f"DenseNet{_n}", "Call "
                 "``keras.applications.densenet.preprocess_input`` on the inputs (torch mode: "
                 "scaled to [0, 1], then standardised per channel).")


def preprocess_input(x, data_format=None):
    """Scale pixels to [0, 1] and standardise each channel with the ImageNet statistics
    (``tf.keras.applications.densenet.preprocess_input``; ``"torch"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="torch")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
