"""The keras.applications cases: which model functions to build, with which arguments, and
the seeded weights both Keras 3.15 (``tools/record_keras_applications.py``) and tapeflow
(``tests/keras/test_applications.py``) give them before running a fixed input.

NumPy only: the same code runs under TensorFlow's venv and under tapeflow.
"""
import zlib

import numpy as np

# (key, module, function, keyword arguments, record an output?)
# Input sizes are each architecture's smallest (32, Xception 71, InceptionV3 75) so that
# building and running stay cheap; parameter counts do not depend on the input size (VGG's
# Flatten top aside).
CASES = []


def _add(key, module, fn, kwargs, output=False):
    CASES.append((key, module, fn, kwargs, output))


def _small(size=32):
    return {"weights": None, "input_shape": (size, size, 3)}


_add("MobileNet", "mobilenet", "MobileNet", _small(), True)
_add("MobileNet_a025_notop", "mobilenet", "MobileNet",
     dict(_small(), alpha=0.25, include_top=False, pooling="avg"), True)
_add("MobileNet_a05_d2", "mobilenet", "MobileNet",
     dict(_small(), alpha=0.5, depth_multiplier=2, classes=10, classifier_activation=None), True)
_add("MobileNetV2", "mobilenet_v2", "MobileNetV2", _small(), True)
_add("MobileNetV2_a035", "mobilenet_v2", "MobileNetV2",
     dict(_small(), alpha=0.35, classes=10, classifier_activation=None), True)
_add("MobileNetV2_a13_notop", "mobilenet_v2", "MobileNetV2",
     dict(_small(), alpha=1.3, include_top=False, pooling="max"), False)
_add("MobileNetV3Small", "mobilenet_v3", "MobileNetV3Small",
     dict(_small(), classes=10, classifier_activation=None), True)
_add("MobileNetV3Large", "mobilenet_v3", "MobileNetV3Large", _small(), True)
_add("MobileNetV3Small_min", "mobilenet_v3", "MobileNetV3Small",
     dict(_small(), minimalistic=True, alpha=0.75, include_top=False, pooling="avg"), True)
for _name in ("ResNet50", "ResNet101", "ResNet152"):
    _add(_name, "resnet", _name, _small(), _name == "ResNet50")
    _add(_name + "V2", "resnet_v2", _name + "V2", _small(), _name == "ResNet50")
_add("ResNet50_notop", "resnet50", "ResNet50",
     dict(_small(), include_top=False, pooling="avg"), True)
_add("VGG16", "vgg16", "VGG16", dict(_small(), classes=10, classifier_activation=None), True)
_add("VGG19", "vgg19", "VGG19", _small(), False)
_add("VGG16_notop", "vgg16", "VGG16", dict(_small(), include_top=False), False)
for _i in range(8):
    _add(f"EfficientNetB{_i}", "efficientnet", f"EfficientNetB{_i}", _small(), _i == 0)
for _s in ("B0", "B1", "B2", "B3", "S", "M", "L"):
    _add(f"EfficientNetV2{_s}", "efficientnet_v2", f"EfficientNetV2{_s}", _small(), _s == "B0")
for _n in ("121", "169", "201"):
    _add(f"DenseNet{_n}", "densenet", f"DenseNet{_n}", _small(), _n == "121")
_add("Xception", "xception", "Xception", dict(_small(71), classes=10), True)
_add("InceptionV3", "inception_v3", "InceptionV3", dict(_small(75), classes=10), True)
_add("InceptionResNetV2", "inception_resnet_v2", "InceptionResNetV2", dict(_small(75), classes=10),
     True)
_add("NASNetMobile", "nasnet", "NASNetMobile", dict(_small(), classes=10), True)
_add("NASNetLarge", "nasnet", "NASNetLarge", _small(), False)
for _s in ("Tiny", "Small", "Base", "Large", "XLarge"):
    _add(f"ConvNeXt{_s}", "convnext", f"ConvNeXt{_s}", _small(), _s == "Tiny")
_add("ConvNeXtTiny_notop", "convnext", "ConvNeXtTiny",
     dict(_small(), include_top=False, pooling="avg"), True)

# the keys whose summary() text is recorded
SUMMARIES = ("MobileNet_a025_notop", "MobileNetV3Small_min", "ResNet50V2")


def short_name(variable) -> str:
    """A variable's own name (``kernel``) whatever its prefix and suffix."""
    return variable.name.split("/")[-1].split(":")[0]


def weight_values(model):
    """``[(variable, value)]`` for every weight of ``model``: seeded per layer name and
    position (so the order of ``model.weights`` does not matter), scaled so that activations
    stay of order one through a deep network. A Normalization layer keeps its statistics."""
    out = []
    for layer in model.layers:
        if type(layer).__name__ == "Normalization":
            continue
        for i, v in enumerate(layer.weights):
            shape = tuple(v.shape)
            rng = np.random.default_rng(zlib.crc32(f"{layer.name}/{i}".encode()))
            name = short_name(v)
            if name in ("moving_variance", "variance"):
                value = rng.uniform(0.5, 1.5, shape)
            elif name == "gamma" and len(shape) == 1:
                value = 1.0 + 0.1 * rng.standard_normal(shape)
            elif len(shape) <= 1:
                value = 0.1 * rng.standard_normal(shape)
            else:
                fan_in = int(np.prod(shape[:-1]))
                if name == "depthwise_kernel":
                    fan_in = int(np.prod(shape[:2]))
                value = rng.standard_normal(shape) * np.sqrt(1.0 / fan_in)
            out.append((v, value.astype(np.float32)))
    return out


def set_weights(model):
    for v, value in weight_values(model):
        v.assign(value)


def input_image(shape, seed=7):
    """One fixed image batch ``(1, H, W, 3)`` in [0, 255]."""
    rng = np.random.default_rng(seed)
    return rng.uniform(0.0, 255.0, (1,) + tuple(shape)).astype(np.float32)


# the modules whose models take raw [0, 255] pixels (their preprocessing is in the model)
RAW_INPUT = ("efficientnet", "efficientnet_v2", "convnext", "mobilenet_v3")


def model_input(module, shape):
    """The fixed input of a case: raw pixels, or pixels scaled to [-1, 1]."""
    x = input_image(shape)
    return x if module in RAW_INPUT else x / np.float32(127.5) - np.float32(1.0)
