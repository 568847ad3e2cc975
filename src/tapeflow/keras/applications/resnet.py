"""ResNet50/101/152 (``keras.applications.resnet``) and the residual stacks ResNetV2 shares
(He et al., 2015 and 2016)."""
from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

__all__ = ["ResNet50", "ResNet101", "ResNet152", "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}
_EPS = 1.001e-5


def _bn_axis():
    return 3 if backend.image_data_format() == "channels_last" else 1


def ResNet(stack_fn, preact, use_bias, include_top=True, weights="imagenet",  # noqa: N802
           input_tensor=None, input_shape=None, pooling=None, classes=1000,
           classifier_activation="softmax", name="resnet", weights_name=None):
    """The ResNet skeleton around ``stack_fn`` (the residual stages); ``preact`` for V2."""
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 224, 32, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = L.ZeroPadding2D(((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = L.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = L.BatchNormalization(axis=_bn_axis(), epsilon=_EPS, name="conv1_bn")(x)
        x = L.Activation("relu", name="conv1_relu")(x)
    x = L.ZeroPadding2D(((1, 1), (1, 1)), name="pool1_pad")(x)
    x = L.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = L.BatchNormalization(axis=_bn_axis(), epsilon=_EPS, name="post_bn")(x)
        x = L.Activation("relu", name="post_relu")(x)
    if include_top:
        x = iu.classifier(x, classes, classifier_activation, weights)
    x = iu.pool_or_top(x, include_top, pooling, ("avg_pool", "max_pool"))

    def weights_file():
        fname = (f"{weights_name}_weights_tf_dim_ordering_tf_kernels"
                 f"{'' if include_top else '_notop'}.h5")
        return (fname, BASE_WEIGHTS_PATH + fname,
                WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return iu.finish_model(x, img_input, input_tensor, name, weights,
                           weights_file if weights_name in WEIGHTS_HASHES else None)


def residual_block_v1(x, filters, kernel_size=3, stride=1, conv_shortcut=True, name=None):
    """A bottleneck block: 1x1, kxk, 1x1 convolutions plus the (projected) shortcut."""
    axis = _bn_axis()
    if conv_shortcut:
        shortcut = L.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = L.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_1_bn")(x)
    x = L.Activation("relu", name=f"{name}_1_relu")(x)
    x = L.Conv2D(filters, kernel_size, padding="SAME", name=f"{name}_2_conv")(x)
    x = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_2_bn")(x)
    x = L.Activation("relu", name=f"{name}_2_relu")(x)
    x = L.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_3_bn")(x)
    x = L.Add(name=f"{name}_add")([shortcut, x])
    return L.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def residual_block_v2(x, filters, kernel_size=3, stride=1, conv_shortcut=False, name=None):
    """A pre-activation bottleneck block (batch norm and relu before each convolution)."""
    axis = _bn_axis()
    preact = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_preact_bn")(x)
    preact = L.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = L.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = L.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = L.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_1_bn")(x)
    x = L.Activation("relu", name=f"{name}_1_relu")(x)
    x = L.ZeroPadding2D(((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = L.Conv2D(filters, kernel_size, strides=stride, use_bias=False,
                 name=f"{name}_2_conv")(x)
    x = L.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_2_bn")(x)
    x = L.Activation("relu", name=f"{name}_2_relu")(x)
    x = L.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return L.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def constructor(public_name, blocks, preact, module, preprocessing):
    """The public builder ``public_name`` (``ResNet50``, ``ResNet101V2``, ...): the residual
    stages of ``blocks`` bottleneck blocks, V1 (post-activation) or V2 (``preact``), with
    Keras's arguments and defaults; bound to ``module`` (its ``__module__``)."""
    default_name = public_name.lower()
    stack = stack_residual_blocks_v2 if preact else stack_residual_blocks_v1

    # V1 downsamples at the first block of stages 3-5, V2 at the last block of stages 2-4
    first, last = (2, 1) if preact else (1, 2)

    def stack_fn(x):
        x = stack(x, 64, blocks[0], stride1=first, name="conv2")
        x = stack(x, 128, blocks[1], stride1=2, name="conv3")
        x = stack(x, 256, blocks[2], stride1=2, name="conv4")
        return stack(x, 512, blocks[3], stride1=last, name="conv5")

    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", name=default_name):
        return ResNet(stack_fn, preact, True, include_top=include_top, weights=weights,
                      input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
                      classes=classes, classifier_activation=classifier_activation,
                      name=name, weights_name=default_name)
    build.__name__ = build.__qualname__ = public_name
    build.__module__ = module
    depth = public_name[len("ResNet"):].removesuffix("V2")
    iu.model_doc(build, f"ResNet{'V2' if preact else ''} with {depth} layers", public_name,
                 preprocessing)
    return build


_PRE = ("Call ``keras.applications.resnet.preprocess_input`` on the inputs (caffe mode: BGR, "
        "minus the ImageNet mean).")
ResNet50 = constructor("ResNet50", (3, 4, 6, 3), False, __name__, _PRE)
ResNet101 = constructor("ResNet101", (3, 4, 23, 3), False, __name__, _PRE)
ResNet152 = constructor("ResNet152", (3, 8, 36, 3), False, __name__, _PRE)


def preprocess_input(x, data_format=None):
    """Convert RGB images in [0, 255] to BGR minus the ImageNet mean
    (``tf.keras.applications.resnet.preprocess_input``; ``imagenet_utils.preprocess_input``
    in ``"caffe"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
