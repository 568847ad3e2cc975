"""Keras 3's ImageNet models (``tf.keras.applications``): each module builds its
architecture with Keras's layer names, and offers ``preprocess_input`` and
``decode_predictions``; ``weights="imagenet"`` loads Keras's published weight files."""
from . import imagenet_utils, mobilenet, resnet, resnet50, resnet_v2, vgg16, vgg19
from .mobilenet import MobileNet
from .resnet import ResNet50, ResNet101, ResNet152
from .resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2
from .vgg16 import VGG16
from .vgg19 import VGG19

__all__ = ["imagenet_utils", "mobilenet", "resnet", "resnet50", "resnet_v2", "vgg16", "vgg19",
           "MobileNet", "ResNet50", "ResNet101", "ResNet152", "ResNet50V2", "ResNet101V2",
           "ResNet152V2", "VGG16", "VGG19"]
