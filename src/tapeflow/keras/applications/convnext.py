"""ConvNeXt Tiny/Small/Base/Large/XLarge (``keras.applications.convnext``): a ResNet
modernised with large depthwise kernels, LayerNorm and GELU (Liu et al., 2022). The model
normalises raw pixels in [0, 255] itself."""
import numpy as np

from .. import backend, initializers
from .. import layers as L
from .. import random as _random
from ..layers.layer import Layer
from ..models import Model, Sequential
from . import imagenet_utils as iu

__all__ = ["ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge",
           "ConvNeXtXLarge", "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"
# sha256 of the (top, no-top) weight files
WEIGHTS_HASHES = {
    "convnext_tiny": ("8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
                      "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1"),
    "convnext_small": ("ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
                       "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab"),
    "convnext_base": ("52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
                      "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45"),
    "convnext_large": ("070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
                       "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd"),
    "convnext_xlarge": ("c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
                        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
}
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768]},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768]},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024]},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536]},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048]},
}


class StochasticDepth(Layer):
    """Drops the whole residual branch of a sample with probability ``drop_path_rate``
    while training (scaling the kept ones); the identity in inference."""

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        if not training:
            return x
        from ...ops import math_ops
        keep = 1 - self.drop_path_rate
        shape = (x.shape[0],) + (1,) * (len(x.shape) - 1)
        mask = math_ops.floor(keep + _random.uniform(shape, 0, 1))
        return x / keep * mask

    def get_config(self):
        return dict(super().get_config(), drop_path_rate=self.drop_path_rate)


class LayerScale(Layer):
    """Multiplies by a learned per-channel ``gamma`` (initially ``init_values``)."""

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, _):
        self.gamma = self.add_weight(shape=(self.projection_dim,), trainable=True,
                                     initializer=initializers.Constant(self.init_values))
        self.built = True

    def call(self, x):
        return x * self.gamma

    def get_config(self):
        return dict(super().get_config(), init_values=self.init_values,
                    projection_dim=self.projection_dim)


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0, layer_scale_init_value=1e-6,  # noqa: N802
                  name=None):
    """Depthwise 7x7, LayerNorm, 4x pointwise expansion with GELU, projection, layer scale,
    residual sum."""
    def apply(inputs):
        x = L.Conv2D(filters=projection_dim, kernel_size=7, padding="same",
                     groups=projection_dim, name=f"{name}_depthwise_conv")(inputs)
        x = L.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = L.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = L.Activation("gelu", name=f"{name}_gelu")(x)
        x = L.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim,
                           name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            last = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")
        else:
            last = L.Activation("linear", name=f"{name}_identity")
        return inputs + last(x)
    return apply


def ConvNeXt(depths, projection_dims, drop_path_rate=0.0,  # noqa: N802
             layer_scale_init_value=1e-6, default_size=224, name="convnext",
             include_preprocessing=True, include_top=True, weights=None, input_tensor=None,
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             weights_name=None):
    """The ConvNeXt builder: four stages of ``depths[i]`` blocks ``projection_dims[i]``
    wide."""
    if not (weights in ("imagenet", None) or __import__("os").path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the path "
                         "to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights="imagenet"` with `include_top=True`, `classes` '
                         f"should be 1000. Received classes={classes}")
    input_shape = iu.obtain_input_shape(input_shape, default_size, 32,
                                        backend.image_data_format(), include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    inputs = iu.model_inputs(input_tensor, img_input)
    x = img_input
    if include_preprocessing and input_shape[2] == 3:
        x = L.Normalization(mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                            variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2,
                                      (0.225 * 255) ** 2],
                            name=f"{name}_prestem_normalization")(x)
    downsample = [Sequential([
        L.Conv2D(projection_dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
        L.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")],
        name=f"{name}_stem")]
    for i in range(3):
        downsample.append(Sequential([
            L.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
            L.Conv2D(projection_dims[i + 1], kernel_size=2, strides=2,
                     name=f"{name}_downsampling_conv_{i}")],
            name=f"{name}_downsampling_block_{i}"))
    rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    cur = 0
    for i in range(4):
        x = downsample[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dims[i], rates[cur + j], layer_scale_init_value,
                              name=f"{name}_stage_{i}_block_{j}")(x)
        cur += depths[i]
    if include_top:
        iu.validate_activation(classifier_activation, weights)
        x = L.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = L.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        x = L.Dense(classes, activation=classifier_activation, name=f"{name}_head_dense")(x)
    else:
        x = iu.pool_or_top(x, include_top, pooling)
        x = L.LayerNormalization(epsilon=1e-6)(x)
    model = Model(inputs=inputs, outputs=x, name=name)
    if weights == "imagenet":
        expected = MODEL_CONFIGS[weights_name.split("convnext_")[-1]]
        if depths != expected["depths"] or projection_dims != expected["projection_dims"]:
            raise ValueError(f"Architecture configuration does not match {weights_name} "
                             "variant.")
        if weights_name not in name:
            raise ValueError(f'Model name "{name}" does not match weights variant '
                             f'"{weights_name}".')
        fname = name + (".h5" if include_top else "_notop.h5")
        iu.load_weights(model, weights, fname, BASE_WEIGHTS_PATH + fname,
                        WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    else:
        iu.load_weights(model, weights)
    return model


def _variant(size):
    def fn(include_top=True, include_preprocessing=True, weights="imagenet",
           input_tensor=None, input_shape=None, pooling=None, classes=1000,
           classifier_activation="softmax", name=f"convnext_{size}"):
        return ConvNeXt(weights_name=f"convnext_{size}", drop_path_rate=0.0,
                        layer_scale_init_value=1e-6, default_size=224, name=name,
                        include_top=include_top, include_preprocessing=include_preprocessing,
                        weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                        pooling=pooling, classes=classes,
                        classifier_activation=classifier_activation, **MODEL_CONFIGS[size])
    fn.__name__ = fn.__qualname__ = "ConvNeXt" + ("XLarge" if size == "xlarge"
                                                  else size.capitalize())
    return iu.model_doc(fn, f"ConvNeXt-{size.capitalize()}", fn.__name__,
                        "The model normalises raw pixels in [0, 255] itself "
                        "(``include_preprocessing``; ``preprocess_input`` is the identity).")


ConvNeXtTiny = _variant("tiny")
ConvNeXtSmall = _variant("small")
ConvNeXtBase = _variant("base")
ConvNeXtLarge = _variant("large")
ConvNeXtXLarge = _variant("xlarge")


def preprocess_input(x, data_format=None):
    """The identity: ConvNeXt models normalise inside
    (``tf.keras.applications.convnext.preprocess_input``)."""
    return x


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes per sample (see ``imagenet_utils.decode_predictions``)."""
    return iu.decode_predictions(preds, top=top)
