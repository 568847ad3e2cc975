"""The cases of Keras 3's image augmentation layers, shared by
``tools/record_keras_augmentation.py`` (which runs them under Keras 3.15 / TensorFlow 2.21) and
``tests/keras/test_augmentation.py``
(which runs them under tapeflow against the recorded fixture).

A case builds ``cls(**kwargs)`` after ``keras.utils.set_random_seed(SEED)`` and calls it on
the named input: twice with ``training=True`` (the layer's SeedGenerator advances between),
once on the first image alone (rank 3), once with ``training=False``. ``data`` names a dict
input (images with labels, bounding boxes or segmentation masks) instead of images.
"""
import numpy as np

SEED = 1337


def images():
    """The inputs, by name: small float32 batches."""
    rng = np.random.default_rng(20261129)
    rgb = rng.uniform(0, 255, (3, 6, 7, 3)).astype(np.float32)
    levels = np.floor(rng.uniform(0, 256, (2, 9, 10, 3))).astype(np.float32)
    skewed = (rng.beta(2.0, 5.0, (2, 8, 8, 3)) * 255).astype(np.float32)
    return {
        "rgb": rgb,
        "unit": rgb / np.float32(255.0),
        "levels": levels,
        "skewed": skewed,
        "flat": np.stack([np.full((5, 5, 3), 7.0, np.float32), skewed[0, :5, :5]]),
        "rgb_cf": np.ascontiguousarray(rgb.transpose(0, 3, 1, 2)),
        "big": rng.uniform(0, 255, (2, 16, 16, 3)).astype(np.float32),
        "wide": rng.uniform(0, 255, (2, 24, 22, 1)).astype(np.float32),
        "levels_u8": levels.astype(np.uint8),
    }


def data():
    """The dict inputs, by name."""
    im = images()
    labels = np.eye(3, dtype=np.float32)[[0, 2, 1]]
    boxes = np.array([[[0, 0, 2, 3], [1, 1, 4, 5], [2, 0, 6, 6]],
                      [[1, 2, 3, 4], [0, 0, 1, 1], [3, 3, 5, 6]],
                      [[0, 1, 5, 5], [2, 2, 3, 3], [1, 0, 2, 2]]], np.float32)
    box_labels = np.array([[1, 2, 0], [0, 1, 2], [2, 2, 1]], np.int32)
    masks = np.floor(np.random.default_rng(5).uniform(0, 3, (3, 6, 7, 1))).astype(np.float32)
    return {
        "labelled": {"images": im["rgb"], "labels": labels},
        "all": {"images": im["rgb"], "labels": labels, "segmentation_masks": masks,
                "bounding_boxes": {"boxes": boxes, "labels": box_labels}},
        "boxed_xywh": {"images": im["rgb"], "bounding_boxes": {
            "boxes": np.concatenate([boxes[..., :2], boxes[..., 2:] - boxes[..., :2]], -1),
            "labels": box_labels}},
        "boxed": {"images": im["rgb"], "bounding_boxes": {"boxes": boxes,
                                                          "labels": box_labels}},
        "masked": {"images": im["rgb"], "segmentation_masks": masks},
    }


def case(cls, kwargs=None, x="rgb", label=None, tol=1e-4, data=None):
    return {"label": label or cls, "cls": cls, "kwargs": kwargs or {}, "x": x, "tol": tol,
            "data": data}


CASES = [
    case("Equalization", x="levels", tol=0.0),
    case("Equalization", {"bins": 64}, x="skewed", label="EqualizationBins", tol=0.0),
    case("Equalization", {"value_range": (0, 1)}, x="unit", label="EqualizationUnit",
         tol=1e-6),
    case("Equalization", x="flat", label="EqualizationFlat", tol=0.0),
    case("RandomPosterization", {"factor": 4, "seed": 3}, x="levels", tol=0.0),
    case("RandomPosterization", {"factor": (2, 2)}, x="levels", label="PosterizationFixed",
         tol=0.0),
    case("RandomPosterization", {"factor": (1, 8), "value_range": (0, 1)}, x="unit",
         label="PosterizationUnit", tol=1e-6),
    case("RandomColorDegeneration", {"factor": 0.8, "seed": 5}),
    case("RandomColorDegeneration", {"factor": (0.1, 0.9), "value_range": (0, 1)},
         x="unit", label="ColorDegenerationUnit", tol=1e-6),
    case("RandomSharpness", {"factor": 0.9, "seed": 2}),
    case("RandomSharpness", {"factor": (0.2, 0.4), "value_range": (0, 1)}, x="unit",
         label="SharpnessUnit", tol=1e-6),
    case("RandomSaturation", {"factor": 0.7, "seed": 9}, x="unit", tol=2e-5),
    case("RandomSaturation", {"factor": (0.2, 0.9), "value_range": (0, 1)}, x="unit",
         label="SaturationUnit", tol=2e-5),
    case("RandomHue", {"factor": 0.6, "seed": 4}, tol=2e-3),
    case("RandomHue", {"factor": (0.3, 1.0), "value_range": (0, 1)}, x="unit",
         label="HueUnit", tol=1e-5),
    case("RandomGaussianBlur", {"seed": 8}),
    case("RandomGaussianBlur", {"factor": (0.5, 1.0), "kernel_size": 5, "sigma": (0.3, 0.9)},
         label="GaussianBlurWide"),
    case("RandomErasing", {"seed": 6}),
    case("RandomErasing", {"factor": 1.0, "scale": (0.1, 0.5), "fill_value": 10.0},
         label="ErasingFill"),
    case("RandomErasing", {"scale": 0.4, "fill_value": (1.0, 2.0, 3.0)},
         label="ErasingFillRGB"),
    case("ContrastLimitedAdaptiveHistogramEqualization", {"tile_grid_size": (2, 3)},
         x="levels", label="CLAHE", tol=2e-4),
    case("ContrastLimitedAdaptiveHistogramEqualization",
         {"tile_grid_size": (3, 2), "clip_limit": 0.0}, x="skewed", label="CLAHENoClip",
         tol=2e-4),
    case("ContrastLimitedAdaptiveHistogramEqualization",
         {"value_range": (0, 1), "clip_limit": 2.0, "tile_grid_size": (2, 2)}, x="unit",
         label="CLAHEUnit", tol=1e-6),
    case("MaxNumBoundingBoxes", {"max_number": 5, "bounding_box_format": "xyxy"},
         data="boxed"),
    case("MaxNumBoundingBoxes", {"max_number": 2, "fill_value": -7,
                                 "bounding_box_format": "xyxy"},
         data="boxed", label="MaxNumBoundingBoxesCut"),
    case("MixUp", {"seed": 11}),
    case("MixUp", {"alpha": 0.8, "seed": 2}, data="labelled", label="MixUpLabels"),
    case("CutMix", {"seed": 7}),
    case("CutMix", {"factor": (0.3, 0.6)}, data="labelled", label="CutMixLabels"),
    case("RandomColorDegeneration", {"factor": 0.8, "data_format": "channels_first"},
         x="rgb_cf", label="ColorDegenerationCF"),
    case("RandomSharpness", {"factor": 0.9, "data_format": "channels_first"}, x="rgb_cf",
         label="SharpnessCF"),
    case("RandomErasing", {"data_format": "channels_first"}, x="rgb_cf", label="ErasingCF"),
    case("RandomShear", {"x_factor": 0.3, "y_factor": 0.2, "seed": 4}, tol=2e-3),
    case("RandomShear", {"x_factor": (0.1, 0.5), "interpolation": "nearest",
                         "fill_mode": "constant", "fill_value": 9.0}, x="big",
         label="ShearNearest", tol=2e-3),
    case("RandomShear", {"y_factor": 0.4, "fill_mode": "wrap"}, data="masked",
         label="ShearMasks", tol=2e-3),
    case("RandomPerspective", {"seed": 3}, tol=2e-3),
    case("RandomPerspective", {"factor": (0.5, 1.0), "scale": 0.4,
                               "interpolation": "nearest", "fill_value": 3.0}, x="big",
         label="PerspectiveNearest", tol=2e-3),
    case("RandomElasticTransform", {"seed": 12}, tol=2e-3),
    case("RandomElasticTransform", {"scale": (0.5, 1.0), "fill_mode": "constant",
                                    "fill_value": 5.0}, x="wide", label="ElasticWide",
         tol=2e-3),
    case("RandomElasticTransform", {"interpolation": "nearest", "fill_mode": "nearest",
                                    "value_range": (0, 1)}, x="unit",
         label="ElasticNearest", tol=2e-3),
    case("RandomShear", {"x_factor": 0.3, "data_format": "channels_first"}, x="rgb_cf",
         label="ShearCF", tol=2e-3),
    case("RandomColorJitter", {"brightness_factor": 0.2, "contrast_factor": 0.5,
                               "saturation_factor": 0.6, "hue_factor": 0.3, "seed": 21},
         tol=2e-3),
    case("RandomColorJitter", {"value_range": (0, 1), "contrast_factor": (0.1, 0.3),
                               "hue_factor": 0.5}, x="unit", label="ColorJitterUnit",
         tol=1e-5),
    case("RandomColorJitter", {"brightness_factor": (-0.3, 0.1)}, label="ColorJitterBright"),
    case("AugMix", {"seed": 31}, tol=2e-3),
    case("AugMix", {"num_chains": 2, "chain_depth": 4, "factor": 0.6, "alpha": 0.5,
                    "all_ops": False}, x="big", label="AugMixSome", tol=2e-3),
    case("AugMix", {"value_range": (0, 1), "interpolation": "nearest"}, x="unit",
         label="AugMixUnit", tol=2e-5),
    case("RandAugment", {"seed": 41}, tol=2e-3),
    case("RandAugment", {"num_ops": 4, "factor": 0.8}, x="big", label="RandAugmentMany",
         tol=2e-3),
    case("RandAugment", {"value_range": (0, 1), "num_ops": 3, "factor": 0.3}, x="unit",
         label="RandAugmentUnit", tol=2e-5),
]

CASES += [
    case("RandomShear", {"x_factor": 0.4, "y_factor": 0.3, "seed": 5,
                         "bounding_box_format": "xyxy"}, data="boxed", label="ShearBoxes",
         tol=2e-3),
    case("RandomShear", {"x_factor": (0.1, 0.3), "y_factor": 0.5,
                         "bounding_box_format": "xywh"}, data="boxed_xywh",
         label="ShearBoxesXYWH", tol=2e-3),
    case("RandomPerspective", {"scale": 0.6, "seed": 8, "bounding_box_format": "xyxy"},
         data="boxed", label="PerspectiveBoxes", tol=2e-3),
    case("RandomPerspective", {"factor": (0.2, 0.8), "bounding_box_format": "xywh"},
         data="boxed_xywh", label="PerspectiveBoxesXYWH", tol=2e-3),
    case("RandAugment", {"num_ops": 4, "factor": 0.7, "seed": 17,
                         "bounding_box_format": "xyxy"}, data="boxed",
         label="RandAugmentBoxes", tol=2e-3),
    case("RandAugment", {"num_ops": 3, "factor": 0.4, "seed": 19,
                         "bounding_box_format": "xyxy"}, data="boxed",
         label="RandAugmentBoxes2", tol=2e-3),
    case("RandomHue", {"factor": 0.4, "seed": 2, "bounding_box_format": "xyxy"},
         data="all", label="HueAll", tol=2e-3),
    case("MixUp", {"seed": 3, "bounding_box_format": "xyxy"}, data="all",
         label="MixUpAll"),
    case("AugMix", {"seed": 6, "bounding_box_format": "xyxy"}, data="all",
         label="AugMixAll", tol=2e-3),
    case("ContrastLimitedAdaptiveHistogramEqualization", {"bounding_box_format": "xyxy"},
         data="boxed", label="CLAHEBoxes"),
    case("RandomElasticTransform", {"bounding_box_format": "xyxy"}, data="boxed",
         label="ElasticBoxes"),
    case("RandomShear", {"x_factor": 0.2}, data="boxed", label="ShearBoxesNoFormat"),
    case("CutMix", {"bounding_box_format": "xyxy"}, data="boxed", label="CutMixBoxes"),
]
CF = {"data_format": "channels_first"}
CASES += [
    case("Equalization", dict(CF), x="rgb_cf", label="EqualizationCF", tol=0.0),
    case("RandomPosterization", dict(CF, factor=3, seed=2), x="rgb_cf",
         label="PosterizationCF", tol=0.0),
    case("RandomSaturation", dict(CF, factor=0.7, value_range=(0, 1)), x="rgb_cf",
         label="SaturationCF", tol=2e-3),
    case("RandomHue", dict(CF, factor=0.6, seed=1), x="rgb_cf", label="HueCF", tol=2e-3),
    case("RandomGaussianBlur", dict(CF, seed=3), x="rgb_cf", label="GaussianBlurCF"),
    case("ContrastLimitedAdaptiveHistogramEqualization", dict(CF, tile_grid_size=(2, 2)),
         x="rgb_cf", label="CLAHECF", tol=2e-4),
    case("RandomPerspective", dict(CF, seed=5), x="rgb_cf", label="PerspectiveCF",
         tol=2e-3),
    case("RandomElasticTransform", dict(CF, seed=6), x="rgb_cf", label="ElasticCF",
         tol=2e-3),
    case("CutMix", dict(CF, seed=7), x="rgb_cf", label="CutMixCF"),
    case("MixUp", dict(CF, seed=8), x="rgb_cf", label="MixUpCF"),
    # Keras makes the jitter's steps channels-last whatever data_format says (so its
    # saturation and hue steps fail on channels-first images, and contrast averages over
    # the last two axes): the same here
    case("RandomColorJitter", dict(CF, brightness_factor=0.2, contrast_factor=0.4, seed=9),
         x="rgb_cf", label="ColorJitterCF", tol=2e-3),
    case("RandAugment", dict(CF, num_ops=3, seed=10), x="rgb_cf", label="RandAugmentCF",
         tol=2e-3),
    case("AugMix", dict(CF, seed=11), x="rgb_cf", label="AugMixCF", tol=2e-3),
]

# Constructions Keras refuses: (class, kwargs); the recorder stores the error's class and text.
ERRORS = [
    ("RandomPosterization", {"factor": 9}),
    ("RandomPosterization", {"factor": 4, "value_range": (0, 1, 2)}),
    ("RandomColorDegeneration", {"factor": 1.5}),
    ("RandomSharpness", {"factor": (0.2, 0.3, 0.4)}),
    ("RandomSaturation", {"factor": "big"}),
    ("RandomHue", {"factor": -0.5}),
    ("RandomGaussianBlur", {"kernel_size": 4}),
    ("RandomGaussianBlur", {"kernel_size": (3, 5, 7)}),
    ("RandomGaussianBlur", {"sigma": 2.0}),
    ("RandomErasing", {"scale": 1.5}),
    ("Equalization", {"value_range": 255}),
    ("CutMix", {"factor": 2.0}),
    ("RandomShear", {"x_factor": 1.5}),
    ("RandomShear", {"x_factor": 0.2, "fill_mode": "mirror"}),
    ("RandomShear", {"x_factor": 0.2, "interpolation": "bicubic"}),
    ("RandomPerspective", {"scale": 1.5}),
    ("RandomPerspective", {"interpolation": "area"}),
    ("RandomElasticTransform", {"fill_mode": "edge"}),
    ("RandomElasticTransform", {"scale": (0.1, 0.2, 0.3)}),
    ("AugMix", {"factor": 1.2}),
    ("RandAugment", {"factor": -0.2}),
    ("RandomColorJitter", {"brightness_factor": 2.0}),
    ("RandomColorJitter", {"contrast_factor": 1.5}),
    ("MaxNumBoundingBoxes", {"max_number": 3, "factor": 0.5}),
]

# The layers that drew from TensorFlow's stateful ops before session 10, now on the base.
XY = {"bounding_box_format": "xyxy"}
CASES += [
    case("RandomFlip", {"seed": 3}),
    case("RandomFlip", {"mode": "horizontal"}, x="big", label="FlipHorizontal", tol=0.0),
    case("RandomFlip", dict(XY, mode="vertical", seed=4), data="all", label="FlipAll"),
    case("RandomFlip", dict(XY, seed=5), data="all", label="FlipBothAll"),
    case("RandomFlip", dict(CF, seed=6), x="rgb_cf", label="FlipCF"),
    case("RandomBrightness", {"factor": 0.3, "seed": 5}),
    case("RandomBrightness", {"factor": (-0.2, 0.1), "value_range": (0, 1)}, x="unit",
         label="BrightnessUnit", tol=1e-6),
    case("RandomBrightness", dict(XY, factor=0.2, seed=2), data="all", label="BrightnessAll"),
    case("RandomContrast", {"factor": 0.4, "seed": 6}),
    case("RandomContrast", {"factor": (0.1, 0.6)}, x="big", label="ContrastPair"),
    case("RandomContrast", dict(CF, factor=0.5, seed=3), x="rgb_cf", label="ContrastCF"),
    case("RandomRotation", {"factor": 0.2, "seed": 7}, tol=2e-3),
    case("RandomRotation", {"factor": (-0.1, 0.3), "interpolation": "nearest",
                            "fill_mode": "constant", "fill_value": 4.0}, x="big",
         label="RotationNearest", tol=2e-3),
    case("RandomRotation", dict(XY, factor=0.15, seed=8), data="all", label="RotationAll",
         tol=2e-3),
    case("RandomRotation", dict(CF, factor=0.3, fill_mode="wrap", seed=9), x="rgb_cf",
         label="RotationCF", tol=2e-3),
    case("RandomTranslation", {"height_factor": 0.2, "width_factor": 0.3, "seed": 8},
         tol=2e-3),
    case("RandomTranslation", {"height_factor": (-0.3, 0.1), "width_factor": 0.25,
                               "fill_mode": "nearest", "interpolation": "nearest"}, x="big",
         label="TranslationNearest", tol=2e-3),
    case("RandomTranslation", dict(XY, height_factor=0.2, width_factor=0.2, seed=2),
         data="all", label="TranslationAll", tol=2e-3),
    case("RandomTranslation", dict(CF, height_factor=0.3, width_factor=0.1, seed=4),
         x="rgb_cf", label="TranslationCF", tol=2e-3),
    case("RandomZoom", {"height_factor": 0.3, "seed": 9}, tol=2e-3),
    case("RandomZoom", {"height_factor": (-0.4, 0.2), "width_factor": (0.1, 0.3),
                        "interpolation": "nearest", "fill_mode": "constant"}, x="big",
         label="ZoomNearest", tol=2e-3),
    case("RandomZoom", dict(XY, height_factor=0.3, width_factor=0.2, seed=3), data="all",
         label="ZoomAll", tol=2e-3),
    case("RandomZoom", dict(CF, height_factor=-0.3, seed=5), x="rgb_cf", label="ZoomCF",
         tol=2e-3),
    case("RandomCrop", {"height": 4, "width": 5, "seed": 10}, tol=0.0),
    case("RandomCrop", {"height": 3, "width": 3}, x="big", label="CropNoSeed", tol=0.0),
    case("RandomCrop", {"height": 8, "width": 9, "seed": 1}, label="CropUp"),
    case("RandomCrop", dict(XY, height=4, width=4, seed=2), data="all", label="CropAll"),
    case("RandomCrop", dict(CF, height=3, width=5, seed=3), x="rgb_cf", label="CropCF",
         tol=0.0),
    case("Solarization", {"addition_factor": 0.2, "threshold_factor": 0.5, "seed": 11}),
    case("Solarization", {"addition_factor": (0.1, 0.3), "threshold_factor": 0.7,
                          "value_range": (0, 1)}, x="unit", label="SolarizationUnit",
         tol=1e-5),
    case("Solarization", dict(XY, threshold_factor=0.4, seed=2), data="all",
         label="SolarizationAll"),
    case("AutoContrast", x="skewed"),
    case("AutoContrast", {"value_range": (0, 1)}, x="unit", label="AutoContrastUnit",
         tol=1e-6),
    case("AutoContrast", x="flat", label="AutoContrastFlat"),
    case("RandomInvert", {"seed": 12}),
    case("RandomInvert", {"factor": (0.2, 0.7), "value_range": (0, 1)}, x="unit",
         label="InvertUnit", tol=1e-6),
    case("RandomInvert", dict(XY, factor=0.6, seed=3), data="all", label="InvertAll"),
    case("RandomGrayscale", {"seed": 13}),
    case("RandomGrayscale", dict(CF, factor=0.9, seed=2), x="rgb_cf", label="GrayscaleCF"),
]
ERRORS += [
    ("RandomFlip", {"mode": "diagonal", "name": "flip"}),
    ("RandomBrightness", {"factor": 1.5}),
    ("RandomBrightness", {"factor": 0.2, "value_range": (1, 2, 3)}),
    ("RandomContrast", {"factor": 1.5}),
    ("RandomRotation", {"factor": 0.2, "fill_mode": "mirror"}),
    ("RandomRotation", {"factor": 0.2, "interpolation": "bicubic"}),
    ("RandomTranslation", {"height_factor": 1.5, "width_factor": 0.1}),
    ("RandomTranslation", {"height_factor": (0.1, 0.2, 0.3), "width_factor": 0.1}),
    ("RandomZoom", {"height_factor": -1.0}),
    ("RandomZoom", {"height_factor": 0.2, "width_factor": "x"}),
    ("RandomZoom", {"height_factor": 0.2, "fill_mode": "mirror"}),
    ("Solarization", {"addition_factor": 2.0}),
    ("Solarization", {"threshold_factor": (0.1, 0.2, 0.3)}),
    ("AutoContrast", {"value_range": (0, 1, 2)}),
    ("RandomInvert", {"factor": 1.5}),
    ("RandomGrayscale", {"factor": 1.5}),
]

# The deterministic image layers in channels_first (session 10).
CASES += [
    case("CenterCrop", dict(CF, height=3, width=4), x="rgb_cf", label="CenterCropCF",
         tol=0.0),
    case("CenterCrop", dict(CF, height=8, width=9), x="rgb_cf", label="CenterCropUpCF"),
    case("Resizing", dict(CF, height=4, width=5), x="rgb_cf", label="ResizingCF"),
    case("Resizing", dict(CF, height=5, width=3, interpolation="nearest",
                          crop_to_aspect_ratio=True), x="rgb_cf", label="ResizingCropCF",
         tol=0.0),
    case("Resizing", dict(CF, height=4, width=4, pad_to_aspect_ratio=True, fill_value=2.0),
         x="rgb_cf", label="ResizingPadCF"),
    case("Resizing", dict(CF, height=9, width=8, interpolation="bicubic", antialias=True),
         x="rgb_cf", label="ResizingBicubicCF"),
]

# Integer images: which layers cast to the compute dtype, which keep uint8 (session 10).
CASES += [
    case(cls, dict(kwargs, seed=4), x="levels_u8", label=cls + "Uint8", tol=1e-4)
    for cls, kwargs in [("RandomFlip", {}), ("RandomCrop", {"height": 5, "width": 6}),
                        ("RandomInvert", {}), ("RandomGrayscale", {"factor": 0.7}),
                        ("RandomRotation", {"factor": 0.1}), ("Solarization", {}),
                        ("RandomZoom", {"height_factor": 0.2})]
] + [case("AutoContrast", x="levels_u8", label="AutoContrastUint8"),
     case("CenterCrop", {"height": 4, "width": 4}, x="levels_u8", label="CenterCropUint8"),
     case("Resizing", {"height": 4, "width": 6}, x="levels_u8", label="ResizingUint8",
          tol=0.0)]

# Resizing and CenterCrop on the base: dict inputs with boxes and masks (session 10).
CASES += [
    case("Resizing", dict(XY, height=4, width=5), data="all", label="ResizingAll"),
    case("Resizing", dict(XY, height=4, width=4, crop_to_aspect_ratio=True), data="all",
         label="ResizingCropAll"),
    case("Resizing", dict(XY, height=5, width=4, pad_to_aspect_ratio=True), data="all",
         label="ResizingPadAll"),
    case("CenterCrop", dict(XY, height=4, width=4), data="all", label="CenterCropAll"),
    case("CenterCrop", dict(XY, height=8, width=9), data="all", label="CenterCropUpAll"),
]
