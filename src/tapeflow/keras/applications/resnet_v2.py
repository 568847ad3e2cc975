"""ResNet50V2/101V2/152V2 (``keras.applications.resnet_v2``): pre-activation residual
networks (He et al., 2016)."""
from . import imagenet_utils as iu
from .resnet import constructor

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "preprocess_input",
           "decode_predictions"]


_PRE = ("Call ``keras.applications.resnet_v2.preprocess_input`` on the inputs (scales "
        "pixels to [-1, 1]).")
ResNet50V2 = constructor("ResNet50V2", (3, 4, 6, 3), True, __name__, _PRE)
ResNet101V2 = constructor("ResNet101V2", (3, 4, 23, 3), True, __name__, _PRE)
ResNet152V2 = constructor("ResNet152V2", (3, 8, 36, 3), True, __name__, _PRE)


def preprocess_input(x, data_format=None):
    """Scale pixels in [0, 255] to [-1, 1]
    (``tf.keras.applications.resnet_v2.preprocess_input``; ``"tf"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
