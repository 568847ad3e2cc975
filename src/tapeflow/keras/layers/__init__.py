"""Keras 3 layers (``tf.keras.layers``)."""
from . import _operation  # noqa: F401 - registers the node that KerasTensor arithmetic records
from .activation import ELU, Activation, LeakyReLU, PReLU, ReLU, Softmax
from .adaptive_pooling import (
    AdaptiveAveragePooling1D,
    AdaptiveAveragePooling2D,
    AdaptiveAveragePooling3D,
    AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D,
    AdaptiveMaxPooling3D,
)
from .attention import AdditiveAttention, Attention, MultiHeadAttention
from .audio import MelSpectrogram, STFTSpectrogram
from .conv import AveragePooling1D, AveragePooling2D, Conv1D, Conv2D, MaxPooling1D, MaxPooling2D
from .conv3d import AveragePooling3D, Conv3D, MaxPooling3D
from .conv3d_transpose import Conv3DTranspose
from .conv_depthwise import DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D
from .conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from .conv_transpose import Conv1DTranspose, Conv2DTranspose
from .core_extra import Identity, Lambda, Masking
from .dense import Dense
from .dot import Dot, dot
from .dropout import (
    ActivityRegularization,
    AlphaDropout,
    Dropout,
    GaussianDropout,
    GaussianNoise,
    SpatialDropout1D,
    SpatialDropout2D,
)
from .einsum_dense import EinsumDense
from .embedding import Embedding
from .flatten import Flatten
from .grouped_query_attention import GroupedQueryAttention
from .input_layer import Input, InputLayer
from .input_spec import InputSpec
from .layer import Layer
from .layers_3d import (
    Cropping3D,
    GlobalAveragePooling3D,
    GlobalMaxPooling3D,
    SpatialDropout3D,
    UpSampling3D,
    ZeroPadding3D,
)
from .merging import (
    Add,
    Average,
    Concatenate,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    average,
    concatenate,
    maximum,
    minimum,
    multiply,
    subtract,
)
from .normalization import (
    BatchNormalization,
    GroupNormalization,
    LayerNormalization,
    UnitNormalization,
)
from .pooling import (
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
)
from .preprocessing.category_encoding import CategoryEncoding
from .preprocessing.discretization import Discretization
from .preprocessing.hashed_crossing import HashedCrossing
from .preprocessing.hashing import Hashing
from .preprocessing.image_preprocessing.augmentation_color import (
    ContrastLimitedAdaptiveHistogramEqualization,
    Equalization,
    RandomColorDegeneration,
    RandomErasing,
    RandomGaussianBlur,
    RandomHue,
    RandomPosterization,
    RandomSaturation,
    RandomSharpness,
)
from .preprocessing.image_preprocessing.augmentation_geometry import (
    RandomElasticTransform,
    RandomPerspective,
    RandomShear,
)
from .preprocessing.image_preprocessing.augmentation_mix import CutMix, MixUp
from .preprocessing.image_preprocessing.augmentation_pipeline import (
    AugMix,
    RandAugment,
    RandomColorJitter,
)
from .preprocessing.image_preprocessing.center_crop import CenterCrop
from .preprocessing.image_preprocessing.color import (
    AutoContrast,
    RandomGrayscale,
    RandomInvert,
    Solarization,
)
from .preprocessing.image_preprocessing.max_num_bounding_boxes import MaxNumBoundingBoxes
from .preprocessing.image_preprocessing.random_brightness import RandomBrightness
from .preprocessing.image_preprocessing.random_contrast import RandomContrast
from .preprocessing.image_preprocessing.random_crop import RandomCrop
from .preprocessing.image_preprocessing.random_flip import RandomFlip
from .preprocessing.image_preprocessing.random_rotation import RandomRotation
from .preprocessing.image_preprocessing.random_translation import RandomTranslation
from .preprocessing.image_preprocessing.random_zoom import RandomZoom
from .preprocessing.image_preprocessing.resizing import Resizing
from .preprocessing.integer_lookup import IntegerLookup
from .preprocessing.normalization import Normalization
from .preprocessing.pipeline import Pipeline
from .preprocessing.rescaling import Rescaling
from .preprocessing.string_lookup import StringLookup
from .preprocessing.text_vectorization import TextVectorization
from .reshape import (
    Cropping1D,
    Cropping2D,
    Permute,
    RepeatVector,
    Reshape,
    UpSampling1D,
    UpSampling2D,
    ZeroPadding1D,
    ZeroPadding2D,
)
from .reversible_embedding import ReversibleEmbedding
from .rms_normalization import RMSNormalization
from .rnn import (
    GRU,
    LSTM,
    RNN,
    Bidirectional,
    GRUCell,
    LSTMCell,
    SimpleRNN,
    SimpleRNNCell,
    TimeDistributed,
)
from .stacked_rnn_cells import StackedRNNCells
from .tfsm_layer import TFSMLayer
from .wrapper import SpectralNormalization, Wrapper

__all__ = ["Activation", "Add", "Average", "AveragePooling1D", "AveragePooling2D", "AvgPool2D",
           "BatchNormalization", "Bidirectional", "Concatenate", "Conv1D", "Conv2D",
           "Convolution2D", "Dense", "Dropout", "Embedding", "Flatten", "GRU", "GRUCell",
           "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D", "Identity", "Input", "InputLayer", "InputSpec", "LSTM", "LSTMCell",
           "Lambda",
           "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling1D", "MaxPooling2D", "Maximum",
           "Minimum", "Multiply", "Normalization", "RNN", "ReLU", "Rescaling", "Reshape",
           "SimpleRNN", "SimpleRNNCell", "Softmax", "Subtract", "TimeDistributed"]
__all__ += ["CenterCrop", "Conv1DTranspose", "Conv2DTranspose", "Convolution2DTranspose",
            "Cropping1D", "Cropping2D", "ELU", "GroupNormalization", "LeakyReLU", "Masking",
            "MultiHeadAttention", "PReLU", "RandomBrightness", "RandomContrast", "RandomCrop",
            "RandomFlip", "RandomRotation",
            "RandomTranslation", "RandomZoom", "Resizing", "SpatialDropout1D",
            "SpatialDropout2D", "UpSampling1D", "UpSampling2D", "ZeroPadding1D",
            "ZeroPadding2D", "ActivityRegularization", "GaussianDropout", "GaussianNoise",
            "Permute", "RepeatVector", "UnitNormalization", "Attention", "AlphaDropout"]

MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
Convolution2D = Conv2D
Convolution2DTranspose = Conv2DTranspose
# Keras's aliases: the same class objects under a second name.
AvgPool1D = AveragePooling1D
MaxPool1D = MaxPooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
Convolution1D = Conv1D
Convolution1DTranspose = Conv1DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
__all__ += ["AvgPool1D", "MaxPool1D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalMaxPool1D",
            "GlobalMaxPool2D", "Convolution1D", "Convolution1DTranspose",
            "SeparableConvolution1D", "SeparableConvolution2D", "DepthwiseConv1D",
            "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D", "Dot", "dot",
            "EinsumDense", "RMSNormalization"]
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool3D = GlobalMaxPooling3D
__all__ += ["Cropping3D", "GlobalAveragePooling3D", "GlobalMaxPooling3D", "SpatialDropout3D",
            "UpSampling3D", "ZeroPadding3D", "GlobalAvgPool3D", "GlobalMaxPool3D",
            "AdditiveAttention"]
Convolution3D = Conv3D
MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
__all__ += ["SpectralNormalization", "Wrapper", "ReversibleEmbedding", "StackedRNNCells",
            "AutoContrast", "RandomGrayscale", "RandomInvert", "Pipeline", "Solarization"]
__all__ += ["Conv3D", "Convolution3D", "MaxPooling3D", "MaxPool3D", "AveragePooling3D",
            "AvgPool3D"]
__all__ += ["CategoryEncoding", "Discretization", "HashedCrossing", "Hashing",
            "IntegerLookup", "StringLookup",
            "TextVectorization"]
__all__ += ["TFSMLayer"]
__all__ += ["ContrastLimitedAdaptiveHistogramEqualization", "Equalization",
            "MaxNumBoundingBoxes", "RandomColorDegeneration", "RandomErasing",
            "RandomGaussianBlur", "RandomHue", "RandomPosterization", "RandomSaturation",
            "RandomSharpness", "CutMix", "MixUp", "RandomElasticTransform",
            "RandomPerspective", "RandomShear", "AugMix", "RandAugment", "RandomColorJitter"]
Convolution3DTranspose = Conv3DTranspose
__all__ += ["Conv3DTranspose", "Convolution3DTranspose", "ConvLSTM1D", "ConvLSTM2D",
            "ConvLSTM3D"]
__all__ += ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D",
            "AdaptiveAveragePooling3D",
            "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]
# Keras exports its GroupedQueryAttention class under this name only
GroupQueryAttention = GroupedQueryAttention
del GroupedQueryAttention
__all__ += ["GroupQueryAttention", "MelSpectrogram", "STFTSpectrogram"]


def serialize(layer) -> dict:
    """A layer's Keras 3 config dict (``keras.layers.serialize``): module, class name,
    config and registered name, as ``keras.saving.serialize_keras_object`` gives."""
    from ..saving.serialization import serialize_keras_object
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """The layer a :func:`serialize` dict describes (``keras.layers.deserialize``): built-in
    layers, registered classes and ``custom_objects``.

    Raises:
        TypeError: for a class that cannot be found (Keras's text).
    """
    from ..saving.serialization import deserialize_keras_object
    return deserialize_keras_object(config, custom_objects=custom_objects)


__all__ += ["serialize", "deserialize", "add", "subtract", "multiply", "average", "maximum",
            "minimum", "concatenate"]
