"""ResNet50V2/101V2/152V2 (``keras.applications.resnet_v2``): pre-activation residual
networks (He et al., 2016)."""
from . import imagenet_utils as iu
from .resnet import ResNet, stack_residual_blocks_v2

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "preprocess_input",
           "decode_predictions"]


def _v2(blocks, weights_name, **kwargs):
    def stack_fn(x):
        x = stack_residual_blocks_v2(x, 64, blocks[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, blocks[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, blocks[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, blocks[3], stride1=1, name="conv5")
    return ResNet(stack_fn, True, True, weights_name=weights_name, **kwargs)


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
               input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
               name="resnet50v2"):
    return _v2((3, 4, 6, 3), "resnet50v2", include_top=include_top, weights=weights,
               input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
               classes=classes, classifier_activation=classifier_activation, name=name)


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="resnet101v2"):
    return _v2((3, 4, 23, 3), "resnet101v2", include_top=include_top, weights=weights,
               input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
               classes=classes, classifier_activation=classifier_activation, name=name)


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                name="resnet152v2"):
    return _v2((3, 8, 36, 3), "resnet152v2", include_top=include_top, weights=weights,
               input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
               classes=classes, classifier_activation=classifier_activation, name=name)


_PRE = ("Call ``keras.applications.resnet_v2.preprocess_input`` on the inputs (scales "
        "pixels to [-1, 1]).")
for _fn, _depth in ((ResNet50V2, 50), (ResNet101V2, 101), (ResNet152V2, 152)):
    iu.model_doc(_fn, f"ResNetV2 with {_depth} layers", f"ResNet{_depth}V2", _PRE)


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.resnet_v2.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
