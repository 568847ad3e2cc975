"""Images as arrays and files (``keras.utils.array_to_img``, ``img_to_array``, ``save_img``,
``load_img``), through Pillow: an optional dependency, ``pip install "tapeflow[image]"``."""
import io
import pathlib
import warnings

from ..._core.backend import np
from ..._core.tensor import _TensorLike

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(function):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{function}` requires PIL. "
                          'Install it with: pip install "tapeflow[image]"') from None
    return Image


def _channels_last(data_format):
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format != "channels_first"


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image from a ``(height, width, channels)`` array (``keras.utils.array_to_img``).

    Args:
        x: an array or tensor of rank 3 with 1 (grayscale), 3 (RGB) or 4 (RGBA) channels.
        data_format: 'channels_last' (default) or 'channels_first'.
        scale: stretch the values so the minimum becomes 0 and the maximum 255.
        dtype: the float dtype of the computation (default float32).

    Returns:
        A ``PIL.Image.Image`` (mode 'L', 'I', 'RGB' or 'RGBA').

    Raises:
        ImportError: without Pillow (the ``tapeflow[image]`` extra).
        ValueError: for a rank other than 3 or an unsupported channel count.

    >>> import numpy as np, tapeflow as tf
    >>> img = tf.keras.utils.array_to_img(np.array([[[0.0], [0.5]], [[1.0], [0.25]]]))
    >>> img.mode, img.size, np.asarray(img).ravel().tolist()
    ('L', (2, 2), [0, 127, 255, 63])
    """
    image = _pil("array_to_img")
    x = x.numpy() if isinstance(x, _TensorLike) else x
    x = np.array(x, dtype=dtype or "float32")
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array with "
                         f"shape: {x.shape}")
    if not _channels_last(data_format):
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    if x.shape[2] == 4:
        return image.fromarray(x.astype("uint8"), "RGBA")
    if x.shape[2] == 3:
        return image.fromarray(x.astype("uint8"), "RGB")
    if x.shape[2] == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {x.shape[2]}")


def img_to_array(img, data_format=None, dtype=None):
    """A float32 ``(height, width, channels)`` NumPy array from a PIL image
    (``keras.utils.img_to_array``); grayscale images get one channel.

    Raises:
        ValueError: for an image that is not 2- or 3-dimensional as an array.
    """
    x = np.asarray(img, dtype=dtype or "float32")
    last = _channels_last(data_format)
    if x.ndim == 3:
        return x if last else x.transpose(2, 0, 1)
    if x.ndim == 2:
        return x.reshape(x.shape + (1,)) if last else x.reshape((1,) + x.shape)
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Write an image array to ``path`` (``keras.utils.save_img``); the format comes from the
    file name unless ``file_format`` is given. RGBA saved as JPEG is converted to RGB with a
    warning.

    Args:
        path: a file name or a writable binary file object.
        x: the image array (see :func:`array_to_img`).
        data_format, scale: as for :func:`array_to_img`.
        file_format: e.g. 'png' or 'jpeg' (needed with a file object).
        **kwargs: passed to ``PIL.Image.Image.save``.
    """
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.",
                      stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """Read an image file as a PIL image (``keras.utils.load_img``).

    Args:
        path: a file name, ``pathlib.Path`` or ``io.BytesIO``.
        color_mode: 'rgb' (default), 'rgba' or 'grayscale'.
        target_size: optional ``(height, width)`` to resize to.
        interpolation: PIL's resampling for ``target_size``: 'nearest' (default),
            'bilinear', 'bicubic', 'hamming', 'box' or 'lanczos'.
        keep_aspect_ratio: crop the centre to the target's aspect ratio before resizing.

    Returns:
        A ``PIL.Image.Image``.

    Raises:
        ImportError: without Pillow (the ``tapeflow[image]`` extra).
        TypeError: for a ``path`` that is neither path-like nor ``io.BytesIO``.
        ValueError: for an unknown color mode or interpolation.
    """
    image = _pil("load_img")
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(path if not isinstance(path, pathlib.Path) else str(path.resolve()),
                  "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    modes = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)),
             "rgb": ("RGB", ("RGB",))}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    target_mode, keep = modes[color_mode]
    if img.mode not in keep:
        img = img.convert(target_mode)
    if target_size is not None:
        size = (target_size[1], target_size[0])
        if img.size != size:
            if interpolation not in _INTERPOLATIONS:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. "
                                 f"Supported methods are {', '.join(_INTERPOLATIONS)}")
            resample = getattr(image.Resampling, interpolation.upper())
            box = None
            if keep_aspect_ratio:
                width, height = img.size
                crop_h = min(height, (width * size[1]) // size[0])
                crop_w = min(width, (height * size[0]) // size[1])
                top, left = (height - crop_h) // 2, (width - crop_w) // 2
                box = [left, top, left + crop_w, top + crop_h]
            img = img.resize(size, resample, box=box)
    return img
