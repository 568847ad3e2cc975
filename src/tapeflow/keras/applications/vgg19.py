"""VGG19 (``keras.applications.vgg19``)."""
from . import imagenet_utils as iu
from ._vgg import vgg

__all__ = ["VGG19", "preprocess_input", "decode_predictions"]

# md5 of the (top, no-top) weight files
WEIGHTS_HASHES = ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg19"):
    return vgg((2, 2, 4, 4, 4), "vgg19", WEIGHTS_HASHES, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name)


iu.model_doc(VGG19, "VGG19", "VGG19", "Call ``keras.applications.vgg19.preprocess_input`` on "
             "the inputs (caffe mode: BGR, minus the ImageNet mean).")


def preprocess_input(x, data_format=None):
    """Convert RGB images in [0, 255] to BGR minus the ImageNet mean
    (``tf.keras.applications.vgg19.preprocess_input``; ``"caffe"`` mode)."""
    return iu.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
