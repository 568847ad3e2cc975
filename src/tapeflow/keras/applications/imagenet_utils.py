"""Utilities shared by the ImageNet models (``keras.applications.imagenet_utils``): input
preprocessing, decoding predictions into class names, and the helpers every model function
uses (input shape checks, the input tensor, the weight files in Keras's cache)."""
import json
import os
import urllib.error
import warnings

import numpy as np

from ..._core.tensor import Tensor
from .. import activations as _activations
from .. import backend as _backend
from .._symbolic import KerasTensor

__all__ = ["preprocess_input", "decode_predictions"]

CLASS_INDEX = None
CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/"
                    "data/imagenet_class_index.json")
_CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"

_CAFFE_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)


def preprocess_input(x, data_format=None, mode="caffe"):
    """Prepare a batch of images in [0, 255] for an ImageNet model
    (``tf.keras.applications.imagenet_utils.preprocess_input``).

    Args:
        x: a float NumPy array (changed in place when its dtype allows, as Keras does) or a
            tensor, 3-D or 4-D with 3 colour channels.
        data_format: ``"channels_last"`` or ``"channels_first"``; default the global
            ``keras.backend.image_data_format()``.
        mode: ``"caffe"`` (RGB to BGR, then minus the ImageNet mean per channel), ``"tf"``
            (scaled to [-1, 1]) or ``"torch"`` (scaled to [0, 1], then standardised per
            channel with the ImageNet statistics).

    Returns:
        The preprocessed array (NumPy in, NumPy out; float32 for integer input) or tensor.

    Raises:
        ValueError: for an unknown ``mode`` or ``data_format``.

    Example:
        >>> import numpy as np
        >>> preprocess_input(np.full((1, 1, 1, 3), 255.0), mode="tf")[0, 0, 0]
        array([1., 1., 1.])
    """
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError("Expected mode to be one of `caffe`, `tf` or `torch`. "
                         f"Received: mode={mode}")
    if data_format is None:
        data_format = _backend.image_data_format()
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or "
                         f"`channels_last`. Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _channel_view(ndim, data_format):
    """The shape that broadcasts a per-channel vector against an image batch."""
    if data_format == "channels_first":
        return (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)
    return (1,) * (ndim - 1) + (3,)


def _mean_std(mode):
    if mode == "torch":
        return _TORCH_MEAN, _TORCH_STD
    return _CAFFE_MEAN, None


def _preprocess_numpy(x, data_format, mode):
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(_backend.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
    elif data_format == "channels_first":
        x = x[::-1, ...] if x.ndim == 3 else x[:, ::-1, ...]
    else:
        x = x[..., ::-1]
    mean, std = _mean_std(mode)
    view = _channel_view(x.ndim, data_format)
    # in place, channel by channel, in x's own dtype (Keras subtracts python floats)
    x -= np.asarray(mean, x.dtype).reshape(view)
    if std is not None:
        x /= np.asarray(std, x.dtype).reshape(view)
    return x


def _preprocess_tensor(x, data_format, mode):
    from ... import constant, convert_to_tensor, reverse
    x = convert_to_tensor(x)
    ndim = len(x.shape)
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        x = x / 255.0
    else:
        axis = (0 if ndim == 3 else 1) if data_format == "channels_first" else -1
        x = reverse(x, axis=[axis])
    mean, std = _mean_std(mode)
    view = _channel_view(ndim, data_format)
    x = x + constant(-np.asarray(mean).reshape(view), dtype=x.dtype)
    if std is not None:
        x = x / constant(np.asarray(std).reshape(view), dtype=x.dtype)
    return x


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes of each row of ``preds``
    (``tf.keras.applications.imagenet_utils.decode_predictions``).

    The class index is Keras's ``imagenet_class_index.json``, read from
    ``$KERAS_HOME/models`` (default ``~/.keras/models``) or downloaded there once.

    Args:
        preds: an array or tensor of shape ``(samples, 1000)``.
        top: how many classes to return per sample.

    Returns:
        A list (one per sample) of lists of ``(class_name, class_description, score)``
        tuples, best first.

    Raises:
        ValueError: if ``preds`` is not of shape ``(samples, 1000)``.
        Exception: when the class index is not cached and cannot be downloaded (the
            message names the file, the cache folder and the URL).
    """
    global CLASS_INDEX
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D "
                         "array of shape (samples, 1000)). Received array with shape: "
                         f"{tuple(preds.shape)}")
    if CLASS_INDEX is None:
        path = cached_file("imagenet_class_index.json", CLASS_INDEX_PATH, _CLASS_INDEX_HASH)
        with open(path) as f:
            CLASS_INDEX = json.load(f)
    preds = np.asarray(preds)
    results = []
    for row in preds:
        best = row.argsort()[-top:][::-1]
        result = [tuple(CLASS_INDEX[str(i)]) + (row[i],) for i in best]
        result.sort(key=lambda r: r[2], reverse=True)
        results.append(result)
    return results


# ---- helpers of the model functions ----

def cached_file(fname, origin, file_hash=None):
    """The path of ``fname`` in Keras's cache folder ``models/``, downloaded from ``origin``
    when absent; offline and absent, an Exception that says where to put the file."""
    from ..utils.file_utils import get_file
    try:
        return get_file(fname, origin, file_hash=file_hash, cache_subdir="models")
    except (urllib.error.URLError, OSError) as e:
        folder = os.path.join(os.environ.get("KERAS_HOME") or os.path.join(
            os.path.expanduser("~"), ".keras"), "models")
        reason = getattr(e, "reason", e)
        raise Exception(
            f"URL fetch failure on {origin}: {getattr(e, 'errno', None)} -- {reason}. "
            f"The file {fname} is not in {folder} and could not be downloaded; "
            f"to work offline, download it from {origin} into {folder}.") from e


def check_weights_arg(weights, include_top, classes, plain=True):
    """The checks every model function makes of ``weights`` and ``classes``."""
    if not (weights in ("imagenet", None) or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), 'imagenet' (pre-training on ImageNet), or the "
                         f"path to the weights file to be loaded. Received weights={weights}"
                         if plain else
                         "The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the "
                         "path to the weights file to be loaded.  Received "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` "
                         f"should be 1000.  Received classes={classes}" if plain else
                         'If using `weights="imagenet"` with `include_top` as true, '
                         f"`classes` should be 1000.  Received classes={classes}")


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten,
                       weights=None):
    """The model's input shape: ``input_shape`` checked, or the default."""
    channels_first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                          f"passed an input_shape with {channels} input channels.",
                          stacklevel=3)
        default_shape = ((input_shape[0], default_size, default_size) if channels_first
                         else (default_size, default_size, input_shape[-1]))
    else:
        default_shape = ((3, default_size, default_size) if channels_first
                         else (default_size, default_size, 3))
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` "
                             f"weights, `input_shape` should be {default_shape}.  "
                             f"Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received "
                             f"`input_shape={input_shape}`")
        spatial = input_shape[1:] if channels_first else input_shape[:2]
        if any(d is not None and d < min_size for d in spatial):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; "
                             f"Received: input_shape={input_shape}")
    else:
        input_shape = default_shape if require_flatten else (
            (3, None, None) if channels_first else (None, None, 3))
    if require_flatten and None in tuple(input_shape):
        raise ValueError("If `include_top` is True, you should specify a static "
                         f"`input_shape`. Received: input_shape={input_shape}")
    return tuple(input_shape)


def correct_pad(inputs, kernel_size):
    """The ``ZeroPadding2D`` padding before a stride-2 ``valid`` convolution that makes it
    match TF's ``same`` padding of the original (TF-slim) models."""
    axis = 2 if _backend.image_data_format() == "channels_first" else 1
    size = inputs.shape[axis:axis + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Pretrained weights allow only a softmax or linear top."""
    if weights is None:
        return
    act = _activations.get(classifier_activation)
    if act not in (_activations.get("softmax"), _activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, "
                         "with `include_top=True`; Received: "
                         f"classifier_activation={classifier_activation}")


def image_input(input_tensor, input_shape):
    """The model's input KerasTensor: ``input_tensor`` if symbolic, else a new ``Input``."""
    from ..layers import Input
    if input_tensor is None:
        return Input(shape=input_shape)
    if type(input_tensor) is KerasTensor:
        return input_tensor
    if isinstance(input_tensor, Tensor):
        return Input(shape=tuple(input_tensor.shape)[1:], dtype=input_tensor.dtype)
    raise ValueError(f"input_tensor must be a Keras tensor. Received: {input_tensor!r}")


def source_inputs(tensor):
    """The ``Input`` tensors that ``tensor`` is computed from (Keras's
    ``operation_utils.get_source_inputs``)."""
    found, stack, seen = [], [tensor], set()
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if t._node is None:
            found.append(t)
        else:
            stack.extend(reversed(t._node.inputs))
    return found[0] if len(found) == 1 else found


def model_inputs(input_tensor, img_input):
    return source_inputs(input_tensor) if input_tensor is not None else img_input


def load_weights(model, weights, fname=None, origin=None, file_hash=None):
    """Load ``"imagenet"`` (``fname`` from Keras's cache or ``origin``) or a file path into
    ``model``; a legacy ``.h5`` file is matched layer by layer as Keras does."""
    if weights == "imagenet":
        path = cached_file(fname, origin, file_hash)
    elif weights is not None:
        path = weights
    else:
        return
    from . import _legacy_h5
    if _legacy_h5.is_legacy_h5(path):
        _legacy_h5.load_weights(model, path)
    else:
        model.load_weights(path)


MODEL_ARGS_DOC = """
    Args:
        include_top: whether to end with the ImageNet classifier.
        weights: None (random initialisation), ``"imagenet"`` (Keras's published weights,
            read from ``~/.keras/models`` or downloaded there) or the path of a weights
            file.
        input_tensor: an optional KerasTensor to build the model on.
        input_shape: ``(rows, cols, 3)``; default the ImageNet size with the top,
            ``(None, None, 3)`` without.
        pooling: without the top, None (the 4-D feature map), ``"avg"`` or ``"max"``
            (global pooling to ``(batch, channels)``).
        classes: the number of classes of the top.
        classifier_activation: the top's activation (None for logits).
        name: the model's name.

    Returns:
        A functional ``keras.Model`` with Keras's layer names, taking float32 images
        ``(batch, rows, cols, 3)``.

    Raises:
        ValueError: for invalid ``weights``, ``classes``, ``input_shape`` or, with ImageNet
            weights, a classifier activation other than softmax or None.
        Exception: for ImageNet weights absent from the cache and not downloadable.
"""


def model_doc(fn, summary, tf_name, preprocessing):
    """Give model function ``fn`` its docstring."""
    fn.__doc__ = (f"{summary} (``tf.keras.applications.{tf_name}``).\n\n    "
                  f"{preprocessing}\n{MODEL_ARGS_DOC}")
    return fn


def classifier(x, classes, classifier_activation, weights, pool_name="avg_pool", **dense):
    """Keras's ImageNet top: global average pooling (layer ``pool_name``) and the Dense
    layer ``predictions`` (``dense`` its further arguments), after checking that
    pretrained ``weights`` allow ``classifier_activation``."""
    from .. import layers as L
    x = L.GlobalAveragePooling2D(name=pool_name)(x)
    validate_activation(classifier_activation, weights)
    return L.Dense(classes, activation=classifier_activation, name="predictions", **dense)(x)


def finish_model(x, img_input, input_tensor, name, weights, weights_file=None):
    """The Model from the inputs to ``x``, named ``name``, with ``weights`` loaded: for
    ``"imagenet"``, ``weights_file()`` gives Keras's published file as ``(file name, url[,
    md5])`` (``weights_file`` None: an architecture Keras publishes no weights for)."""
    from ..models import Model
    model = Model(model_inputs(input_tensor, img_input), x, name=name)
    if weights != "imagenet":
        load_weights(model, weights)
    elif weights_file is not None:
        load_weights(model, weights, *weights_file())
    return model


def pool_or_top(x, include_top, pooling, pool_names=(None, None)):
    """Without the top, the ``pooling`` the caller asked for (layers named
    ``pool_names``)."""
    from .. import layers as L
    if include_top:
        return x
    if pooling == "avg":
        return L.GlobalAveragePooling2D(name=pool_names[0])(x)
    if pooling == "max":
        return L.GlobalMaxPooling2D(name=pool_names[1])(x)
    return x
