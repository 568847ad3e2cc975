"""``keras.utils.image_dataset_from_directory`` and ``smart_resize``."""
from ..._core.backend import np
from . import dataset_utils as du

__all__ = ["image_dataset_from_directory", "smart_resize"]

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
                   "mitchellcubic")


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last"):
    """Resize images to ``size`` without distorting them: first crop the largest centred
    window of the target aspect ratio, then resize it (``keras.preprocessing.image.
    smart_resize``).

    Args:
        x: an image ``(height, width, channels)`` or a batch ``(n, height, width, channels)``
            (channels first with ``data_format='channels_first'``), array or tensor.
        size: ``(height, width)``.
        interpolation: a ``tf.image.resize`` method ('bilinear', 'nearest', 'bicubic',
            'area', 'lanczos3', 'lanczos5', 'gaussian', 'mitchellcubic').

    Returns:
        float32 images of the new size: a NumPy array for a NumPy input, else a tensor.

    Raises:
        ValueError: for a ``size`` that is not 2 integers or an input of rank other than 3, 4.
    """
    import tapeflow as ops
    tf_image = ops.image
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = ops.convert_to_tensor(x)
    if not 3 <= len(img.shape) <= 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or "
                         "`(batch_size, height, width, channels)`, but got input with incorrect "
                         f"rank, of shape {img.shape}.")
    last = data_format == "channels_last"
    height, width = (img.shape[-3], img.shape[-2]) if last else (img.shape[-2], img.shape[-1])
    th, tw = size
    ch = max(min(height, int(float(width * th) / tw)), 1)
    cw = max(min(width, int(float(height * tw) / th)), 1)
    h0, w0 = int(float(height - ch) / 2), int(float(width - cw) / 2)
    rows, cols = slice(h0, h0 + ch), slice(w0, w0 + cw)
    if last:
        img = img[..., rows, cols, :]
        img = tf_image.resize(img, size, method=interpolation)
    else:
        img = img[..., rows, cols]
        perm = (0, 2, 3, 1) if len(img.shape) == 4 else (1, 2, 0)
        back = (0, 3, 1, 2) if len(img.shape) == 4 else (2, 0, 1)
        img = ops.transpose(tf_image.resize(ops.transpose(img, perm), size,
                                            method=interpolation), back)
    return np.array(img) if isinstance(x, np.ndarray) else img


def _load_image(path, image_size, num_channels, interpolation, data_format,
                crop_to_aspect_ratio, pad_to_aspect_ratio):
    import tapeflow as ops
    tf_image, io = ops.image, ops.io
    img = tf_image.decode_image(io.read_file(path), channels=num_channels,
                                expand_animations=False)
    if crop_to_aspect_ratio:
        if data_format == "channels_first":
            img = ops.transpose(img, (2, 0, 1))
        img = smart_resize(img, image_size, interpolation=interpolation,
                           data_format=data_format)
    else:
        if pad_to_aspect_ratio:
            img = tf_image.resize_with_pad(img, image_size[0], image_size[1],
                                           method=interpolation)
        else:
            img = tf_image.resize(img, image_size, method=interpolation)
        if data_format == "channels_first":
            img = ops.transpose(img, (2, 0, 1))
    return img


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf",
                                 verbose=True):
    """A ``tf.data.Dataset`` of images read from a folder tree
    (``keras.utils.image_dataset_from_directory``).

    With ``labels='inferred'``, each sub-folder of ``directory`` is a class (sorted by name);
    its image files (.bmp .gif .jpeg .jpg .png, also in nested folders) are listed sorted,
    then shuffled with ``np.random.RandomState(seed)`` and, per epoch, by
    ``Dataset.shuffle(8 * batch_size, seed)``: the same order as Keras for the same seed.

    Args:
        directory: the root folder.
        labels: 'inferred', None (images only) or a list of int labels, one per file in
            sorted order.
        label_mode: 'int' (int32 ``(batch,)``), 'categorical' (float32 one-hot
            ``(batch, classes)``), 'binary' (float32 ``(batch, 1)``, two classes) or None.
        class_names: the sub-folders to use, in this order (with 'inferred').
        color_mode: 'rgb', 'rgba' or 'grayscale' (3, 4 or 1 channels).
        batch_size: elements per batch (None: single images).
        image_size: ``(height, width)`` (or an int) to resize to.
        shuffle, seed: as above (a seed is needed with ``validation_split`` and shuffling).
        validation_split, subset: the last ``int(validation_split * n)`` files (after the
            file shuffle) form 'validation', the rest 'training'; 'both' returns the pair.
        interpolation: the ``tf.image.resize`` method.
        crop_to_aspect_ratio: crop the centre to the target aspect ratio before resizing
            (:func:`smart_resize`); ``pad_to_aspect_ratio`` pads with zeros instead.
        data_format: 'channels_last' (default) or 'channels_first'.
        format: 'tf' (a ``tf.data.Dataset``; Keras's 'grain' is not available).

    Returns:
        A dataset of float32 images ``(batch, height, width, channels)`` (with labels: pairs
        ``(images, labels)``) with attributes ``class_names`` and ``file_paths``; with
        ``subset='both'``, a list ``[train, validation]``. Prints "Found N files belonging to
        K classes." (when ``verbose``) and "Using N files for training."/"...validation.".

    Raises:
        ValueError: for invalid arguments (with Keras's messages), or no image found.
    """
    du.check_labels_arg(labels, label_mode, class_names, "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. Received: '
                         f"color_mode={color_mode}")
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise NotImplementedError('tapeflow has no grain datasets: use format="tf".')
    du.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = du.index_directory(
        directory, labels, formats=ALLOWLIST_FORMATS, class_names=class_names, shuffle=shuffle,
        seed=seed, follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    if data_format is None:
        data_format = "channels_last"
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set "
                         "to `True`.")
    buffer = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0

    def load(path):
        return _load_image(path, image_size, channels, interpolation, data_format,
                           crop_to_aspect_ratio, pad_to_aspect_ratio)

    def make(paths, labels, shuffle):
        return du.paths_labels_dataset(paths, labels, label_mode, num_classes, load, shuffle,
                                       buffer, seed)

    if subset == "both":
        train = du.get_training_or_validation_split(paths, labels, validation_split, "training")
        val = du.get_training_or_validation_split(paths, labels, validation_split,
                                                  "validation")
        if not train[0]:
            raise ValueError(f"No training images found in directory {directory}. Allowed "
                             f"formats: {ALLOWLIST_FORMATS}")
        if not val[0]:
            raise ValueError(f"No validation images found in directory {directory}. Allowed "
                             f"formats: {ALLOWLIST_FORMATS}")
        return [du.finish(make(*train, shuffle), batch_size, class_names, train[0]),
                du.finish(make(*val, False), batch_size, class_names, val[0])]
    paths, labels = du.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise ValueError(f"No images found in directory {directory}. Allowed formats: "
                         f"{ALLOWLIST_FORMATS}")
    return du.finish(make(paths, labels, shuffle), batch_size, class_names, paths)
