"""VGG16 (``keras.applications.vgg16``)."""
from . import imagenet_utils as iu
from ._vgg import vgg

__all__ = ["VGG16", "preprocess_input", "decode_predictions"]

# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc")


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg16"):
    return vgg((2, 2, 3, 3, 3), "vgg16", WEIGHTS_HASHES, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name)


iu.model_doc(VGG16, "VGG16", "VGG16", "Call ``keras.applications.vgg16.preprocess_input`` on "
             "the inputs (caffe mode: BGR, minus the ImageNet mean).")


def preprocess_input(x, data_format=None):
    """Convert RGB images in [0, 255] to BGR minus the ImageNet mean
    (``tf.keras.applications.vgg16.preprocess_input``; ``"caffe"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
