"""``tf.keras.preprocessing.image``: image files and arrays, ``smart_resize``, and Keras 1's
augmentation API that TF 2.21 still exposes (``ImageDataGenerator`` with ``flow`` and
``flow_from_directory``, the ``random_*``/``apply_*`` transforms). The affine transforms use
SciPy (``pip install "tapeflow[special]"``); brightness uses Pillow (``tapeflow[image]``).

Random draws go through NumPy's global generator exactly as Keras's, so the same
``np.random.seed`` (or ``seed=``) gives the same augmented batches."""
import math
import os
import threading
import warnings

from ..._core.backend import np
from ..utils.image_dataset_utils import smart_resize
from ..utils.image_utils import array_to_img, img_to_array, load_img, save_img
from ..utils.py_dataset import PyDataset

__all__ = ["DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator",
           "apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
           "array_to_img", "img_to_array", "load_img", "random_brightness",
           "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "save_img", "smart_resize"]


def _ndimage():
    try:
        from scipy import ndimage
    except ImportError:
        raise ImportError("Image transformations require SciPy. Install it with: "
                          'pip install "tapeflow[special]"') from None
    return ndimage


class Iterator(PyDataset):
    """Batches of ``n`` samples by index, reshuffled (``np.random.permutation``) after each
    epoch; a ``PyDataset`` and also a Python iterator that cycles forever
    (``tf.keras.preprocessing.image.Iterator``)."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self.n, self.batch_size, self.seed, self.shuffle = n, batch_size, seed, shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length "
                             f"{len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        rows = self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)]
        return self._get_batches_of_transformed_samples(rows)

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current = 0 if self.n == 0 else self.batch_index * self.batch_size % self.n
            self.batch_index = self.batch_index + 1 if self.n > current + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        with self.lock:
            rows = next(self.index_generator)
        return self._get_batches_of_transformed_samples(rows)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


def _valid_files(directory, formats, follow_links):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda walked: walked[0]):
        for fname in sorted(files):
            if fname.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. '
                              "Please verify your output.", stacklevel=2)
            if fname.lower().endswith(formats):
                yield root, fname


def _class_files(directory, formats, split, class_indices, follow_links):
    name = os.path.basename(directory)
    files = list(_valid_files(directory, formats, follow_links))
    if split:
        files = files[int(split[0] * len(files)):int(split[1] * len(files))]
    rel = [os.path.join(name, os.path.relpath(os.path.join(root, f), directory))
           for root, f in files]
    return [class_indices[name]] * len(rel), rel


class DirectoryIterator(Iterator):
    """Batches of augmented images read from class sub-folders
    (``ImageDataGenerator.flow_from_directory``).

    Prints "Found N images belonging to K classes.". ``class_mode``: 'categorical' (float32
    one-hot), 'binary'/'sparse' (float32 class ids), 'input' (the images again) or None.

    Raises:
        ValueError: for an unknown color mode, class mode or subset.
    """

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256),
                 color_mode="rgb", classes=None, class_mode="categorical", batch_size=32,
                 shuffle=True, seed=None, data_format=None, save_to_dir=None, save_prefix="",
                 save_format="png", follow_links=False, subset=None, interpolation="nearest",
                 keep_aspect_ratio=False, dtype=None):
        data_format = data_format or "channels_last"
        self.dtype = dtype or "float32"
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}.get(color_mode)
        if channels is None:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or '
                             '"grayscale".')
        self.color_mode, self.data_format = color_mode, data_format
        self.image_shape = (self.target_size + (channels,) if data_format == "channels_last"
                            else (channels,) + self.target_size)
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, \
            save_format
        self.interpolation = interpolation
        split = None
        if subset is not None:
            v = image_data_generator._validation_split
            if subset == "validation":
                split = (0, v)
            elif subset == "training":
                split = (v, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset};expected "training" or '
                                 '"validation"')
        self.split, self.subset = split, subset
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: "
                             f"{self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [d for d in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        labels, self.filenames = [], []
        for sub in classes:
            labs, names = _class_files(os.path.join(directory, sub), self.white_list_formats,
                                       split, self.class_indices, follow_links)
            labels += labs
            self.filenames += names
        self.samples = len(self.filenames)
        self.classes = np.array(labels, dtype="int32").reshape(self.samples)
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self.classes

    @property
    def sample_weight(self):
        return None

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        gen = self.image_data_generator
        for i, j in enumerate(index_array):
            img = load_img(self.filepaths[j], color_mode=self.color_mode,
                           target_size=self.target_size, interpolation=self.interpolation,
                           keep_aspect_ratio=self.keep_aspect_ratio)
            x = img_to_array(img, data_format=self.data_format)
            img.close()
            if gen:
                x = gen.standardize(gen.apply_transform(x, gen.get_random_transform(x.shape)))
            batch_x[i] = x
        _save_batch(self, batch_x, index_array, 10_000_000)
        if self.class_mode == "input":
            batch_y = batch_x.copy()
        elif self.class_mode in {"binary", "sparse"}:
            batch_y = self.classes[index_array].astype(self.dtype)
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            batch_y[np.arange(len(index_array)), self.classes[index_array]] = 1.0
        else:
            return batch_x
        return batch_x, batch_y


def _save_batch(it, batch_x, index_array, top):
    if not it.save_to_dir:
        return
    for i, j in enumerate(index_array):
        img = array_to_img(batch_x[i], it.data_format, scale=True)
        name = f"{it.save_prefix}_{j}_{np.random.randint(top)}.{it.save_format}"
        img.save(os.path.join(it.save_to_dir, name))


class NumpyArrayIterator(Iterator):
    """Batches of augmented images from a rank-4 array (``ImageDataGenerator.flow``).

    Raises:
        ValueError: for arrays of different lengths, a rank other than 4, an unknown subset,
            or a split leaving the subsets different classes.
    """

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False,
                 sample_weight=None, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, ignore_class_split=False,
                 dtype=None):
        data_format = data_format or "channels_last"
        self.dtype = dtype or "float32"
        if isinstance(x, (tuple, list)):
            misc = ([np.asarray(x[1])] if not isinstance(x[1], list)
                    else [np.asarray(m) for m in x[1]])
            x = x[0]
            for m in misc:
                if len(x) != len(m):
                    raise ValueError("All of the arrays in `x` should have the same length. "
                                     f"Found a pair with: len(x[0]) = {len(x)}, len(x[?]) = "
                                     f"{len(m)}")
        else:
            misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, y.shape = "
                             f"{np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, "
                             f"sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or '
                                 '"validation".')
            cut = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:cut]), np.unique(y[cut:]))):
                raise ValueError("Training and validation subsets have different number of "
                                 "classes after the split. If your numpy arrays are sorted by "
                                 "the label, you might want to shuffle them.")
            part = slice(None, cut) if subset == "validation" else slice(cut, None)
            x = x[part]
            misc = [np.asarray(m[part]) for m in misc]
            y = None if y is None else y[part]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed "
                             f"an array with shape {self.x.shape}")
        axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention '
                          f'"{data_format}" (channels on axis {axis}), i.e. expected either 1, '
                          f"3, or 4 channels on axis {axis}. However, it was passed an array "
                          f"with shape {self.x.shape} ({self.x.shape[axis]} channels).",
                          stacklevel=2)
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, \
            save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        gen = self.image_data_generator
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = gen.get_random_transform(x.shape)
            batch_x[i] = gen.standardize(gen.apply_transform(x.astype(self.dtype), params))
        _save_batch(self, batch_x, index_array, 10_000)
        misc = [m[index_array] for m in self.x_misc]
        inputs = batch_x if not misc else [batch_x] + misc
        if self.y is None:
            return inputs
        out = (inputs, self.y[index_array])
        if self.sample_weight is not None:
            out += (self.sample_weight[index_array],)
        return out


def _flip(x, axis):
    return np.flip(np.asarray(x), axis)


class ImageDataGenerator:
    """Real-time image augmentation and normalization
    (``tf.keras.preprocessing.image.ImageDataGenerator``, deprecated in Keras).

    Each sample gets a random rotation (degrees), shifts (a fraction of the size when
    < 1, else pixels; a list: one of its values with a random sign), shear (degrees), zoom,
    channel shift, flips and brightness, then ``standardize`` (``preprocessing_function``,
    ``rescale``, sample-wise then feature-wise centering/scaling, ZCA whitening fitted by
    :meth:`fit`). ``flow`` iterates arrays, ``flow_from_directory`` class folders.

    Raises:
        ValueError: for an unknown ``data_format``, a ``validation_split`` outside (0, 1), a
            bad ``zoom_range`` or ``brightness_range``.
    """

    def __init__(self, featurewise_center=False, samplewise_center=False,
                 featurewise_std_normalization=False, samplewise_std_normalization=False,
                 zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None,
                 shear_range=0.0, zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest",
                 cval=0.0, horizontal_flip=False, vertical_flip=False, rescale=None,
                 preprocessing_function=None, data_format=None, validation_split=0.0,
                 interpolation_order=1, dtype=None):
        data_format = data_format or "channels_last"
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening, self.zca_epsilon = zca_whitening, zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range, self.height_shift_range = width_shift_range, height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode, self.cval = fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype or "float32"
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and '
                             'column) or `"channels_first"` (channel before row and column). '
                             f"Received: {data_format}")
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (
            (3, 1, 2) if data_format == "channels_last" else (1, 2, 3))
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: "
                             f"{validation_split}")
        self._validation_split = validation_split
        self.mean = self.std = self.zca_whitening_matrix = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                             f"Received: {zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which "
                              "overrides setting of `featurewise_center`.", stacklevel=2)
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which "
                              "overrides setting of`featurewise_std_normalization`.",
                              stacklevel=2)
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, "
                          "which overrides setting of `featurewise_center`.", stacklevel=2)
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                          "which overrides setting of `samplewise_center`.", stacklevel=2)
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError("`brightness_range should be tuple or list of two floats. "
                             f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None,
             save_to_dir=None, save_prefix="", save_format="png", ignore_class_split=False,
             subset=None):
        """A :class:`NumpyArrayIterator` over rank-4 ``x`` (and ``y``, ``sample_weight``)."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed,
                                  data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset,
                                  dtype=self.dtype)

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb",
                            classes=None, class_mode="categorical", batch_size=32,
                            shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                            save_format="png", follow_links=False, subset=None,
                            interpolation="nearest", keep_aspect_ratio=False):
        """A :class:`DirectoryIterator` over ``directory``'s class sub-folders."""
        return DirectoryIterator(directory, self, target_size=target_size,
                                 color_mode=color_mode, keep_aspect_ratio=keep_aspect_ratio,
                                 classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir,
                                 save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def standardize(self, x):
        """Apply the normalization settings to one image (in place where Keras does)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        for flag, attr, what in (("featurewise_center", "mean", "featurewise_center"),
                                 ("featurewise_std_normalization", "std",
                                  "featurewise_std_normalization")):
            if getattr(self, flag):
                stat = getattr(self, attr)
                if stat is None:
                    warnings.warn(f"This ImageDataGenerator specifies `{what}`, but it hasn't "
                                  "been fit on any training data. Fit it first by calling "
                                  "`.fit(numpy_data)`.", stacklevel=2)
                elif attr == "mean":
                    x -= stat
                else:
                    x /= stat + 1e-6
        if self.zca_whitening:
            if self.zca_whitening_matrix is None:
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, but it "
                              "hasn't been fit on any training data. Fit it first by calling "
                              "`.fit(numpy_data)`.", stacklevel=2)
            else:
                flat = x.reshape(-1, math.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
        return x

    def _shift(self, spec, size):
        try:
            t = np.random.choice(spec)
            t *= np.random.choice([-1, 1])
        except ValueError:
            t = np.random.uniform(-spec, spec)
        if np.max(spec) < 1:
            t *= size
        return t

    def get_random_transform(self, img_shape, seed=None):
        """The random parameters for one image of shape ``img_shape`` (a dict: theta, tx,
        ty, shear, zx, zy, flip_horizontal, flip_vertical, channel_shift_intensity,
        brightness), drawn in Keras's order from NumPy's global generator."""
        rows, cols = self.row_axis - 1, self.col_axis - 1
        if seed is not None:
            np.random.seed(seed)
        theta = (np.random.uniform(-self.rotation_range, self.rotation_range)
                 if self.rotation_range else 0)
        tx = self._shift(self.height_shift_range, img_shape[rows]) \
            if self.height_shift_range else 0
        ty = self._shift(self.width_shift_range, img_shape[cols]) \
            if self.width_shift_range else 0
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_h = (np.random.random() < 0.5) * self.horizontal_flip
        flip_v = (np.random.random() < 0.5) * self.vertical_flip
        shift = (np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
                 if self.channel_shift_range != 0 else None)
        brightness = (np.random.uniform(self.brightness_range[0], self.brightness_range[1])
                      if self.brightness_range is not None else None)
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_h, "flip_vertical": flip_v,
                "channel_shift_intensity": shift, "brightness": brightness}

    def apply_transform(self, x, transform_parameters):
        """Apply :meth:`get_random_transform`'s parameters to one image."""
        p = transform_parameters
        rows, cols, chan = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0),
                                   p.get("shear", 0), p.get("zx", 1), p.get("zy", 1),
                                   row_axis=rows, col_axis=cols, channel_axis=chan,
                                   fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], chan)
        if p.get("flip_horizontal", False):
            x = _flip(x, cols)
        if p.get("flip_vertical", False):
            x = _flip(x, rows)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x, seed=None):
        """One image randomly augmented."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x, augment=False, rounds=1, seed=None):
        """Compute the feature-wise mean, std and ZCA matrix from rank-4 sample images.

        Raises:
            ValueError: for an input that is not rank 4.
        """
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: "
                             + str(x.shape))
        if x.shape[self.channel_axis] not in {1, 3, 4}:
            warnings.warn("Expected input to be images (as Numpy array) following the data "
                          f'format convention "{self.data_format}" (channels on axis '
                          f"{self.channel_axis}), i.e. expected either 1, 3 or 4 channels on "
                          f"axis {self.channel_axis}. However, it was passed an array with "
                          f"shape {x.shape} ({x.shape[self.channel_axis]} channels).",
                          stacklevel=2)
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            ax = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        shape = [1, 1, 1]
        shape[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=(0, self.row_axis, self.col_axis)), shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=(0, self.row_axis, self.col_axis)), shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            self.zca_whitening_matrix = (u * (np.sqrt(n) / (s + self.zca_epsilon))).dot(u.T)


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                    cval=0.0, interpolation_order=1):
    """``x`` (rank 3) rotated by a uniform random angle in ``[-rg, rg]`` degrees."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """``x`` shifted by random fractions ``[-hrg, hrg]`` of its height and ``[-wrg, wrg]`` of
    its width."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """``x`` sheared by a random angle in ``[-intensity, intensity]`` degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                cval=0.0, interpolation_order=1):
    """``x`` zoomed by random factors (one per axis) in ``zoom_range``.

    Raises:
        ValueError: unless ``zoom_range`` has two values.
    """
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: "
                         f"{zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def apply_channel_shift(x, intensity, channel_axis=0):
    """Add ``intensity`` to every channel, clipped to ``x``'s original range."""
    x = np.rollaxis(x, channel_axis, 0)
    lo, hi = np.min(x), np.max(x)
    x = np.stack([np.clip(c + intensity, lo, hi) for c in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """:func:`apply_channel_shift` by a uniform random intensity in ``±intensity_range``."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x, brightness, scale=True):
    """Pillow's ``ImageEnhance.Brightness(brightness)`` of a channels-last image (through
    8-bit: values are rounded to the 0-255 grid)."""
    from PIL import ImageEnhance
    lo, hi = np.min(x), np.max(x)
    outside = lo < 0 or hi > 255
    img = ImageEnhance.Brightness(array_to_img(x, scale=outside or scale)).enhance(brightness)
    x = img_to_array(img)
    if not scale and outside:
        x = x / 255 * (hi - lo) + lo
    return x


def random_brightness(x, brightness_range, scale=True):
    """:func:`apply_brightness_shift` by a uniform random factor in ``brightness_range``.

    Raises:
        ValueError: unless ``brightness_range`` has two values.
    """
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. Received: "
                         f"{brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(brightness_range[0],
                                                       brightness_range[1]), scale)


def _about_center(matrix, x, y):
    ox, oy = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    to_center = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1]])
    back = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]])
    return to_center @ matrix @ back


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1,
                           col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0, order=1):
    """A rank-3 image rotated by ``theta`` degrees, shifted by ``(tx, ty)`` pixels (rows,
    columns), sheared by ``shear`` degrees and zoomed by ``(zx, zy)``, about its centre,
    sampled by ``scipy.ndimage.affine_transform`` (spline ``order``, ``fill_mode``: 'constant',
    'nearest', 'reflect' or 'wrap').

    Raises:
        ValueError: for repeated or invalid axes, an input of rank other than 3 or a channel
            axis in the middle.
        ImportError: without SciPy.
    """
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    axes = {row_axis, col_axis, channel_axis}
    if axes != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {axes - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    parts = []
    if theta != 0:
        t = np.deg2rad(theta)
        parts.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0],
                               [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return x
    matrix = parts[0]
    for part in parts[1:]:
        matrix = np.dot(matrix, part)
    matrix = _about_center(matrix, x.shape[row_axis], x.shape[col_axis])
    x = np.rollaxis(x, channel_axis, 0)
    if col_axis > row_axis:
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    ndimage = _ndimage()
    x = np.stack([ndimage.affine_transform(c, matrix[:2, :2], matrix[:2, 2], order=order,
                                           mode=fill_mode, cval=cval) for c in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)
