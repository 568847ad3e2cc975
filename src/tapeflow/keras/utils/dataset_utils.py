"""What Keras's ``*_dataset_from_directory`` utilities share (listing a folder tree, the
training/validation split, labels as a dataset) and ``keras.utils.split_dataset``."""
import os

from ..._core.backend import np

__all__ = ["check_validation_split_arg", "get_training_or_validation_split", "index_directory",
           "labels_to_dataset", "split_dataset"]


def _data():
    from ... import data
    return data


def _iter_valid_files(directory, follow_links, formats):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda walked: walked[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                yield root, fname


def _index_subdirectory(directory, class_indices, follow_links, formats):
    dirname = os.path.basename(directory)
    filenames, labels = [], []
    for root, fname in _iter_valid_files(directory, follow_links, formats):
        labels.append(class_indices[dirname])
        filenames.append(os.path.join(dirname, os.path.relpath(os.path.join(root, fname),
                                                               directory)))
    return filenames, labels


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False, verbose=True):
    """``(file_paths, labels, class_names)`` of the files under ``directory`` whose names end
    with one of ``formats``, as Keras lists them: class folders sorted by name, the files of
    each (recursively) sorted by folder then name, then, with ``shuffle``, paths and labels
    shuffled alike by ``np.random.RandomState(seed)``. Prints "Found N files belonging to K
    classes." (or "Found N files." without labels) when ``verbose``.

    Raises:
        ValueError: for ``class_names`` that are not sub-folders, ``class_names`` with explicit
            or no labels, or a ``labels`` list whose length is not the number of files.
    """
    if labels == "inferred":
        subdirs = [d.rstrip("/") for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError("The `class_names` passed did not match the names of the "
                                 "subdirectories of the target directory. Expected: "
                                 f"{subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = class_names
    else:
        subdirs = [""]
        if class_names is not None:
            if labels is None:
                raise ValueError("When `labels=None` (no labels), argument `class_names` "
                                 "cannot be specified.")
            raise ValueError("When argument `labels` is specified, argument `class_names` "
                             "cannot be specified (the `class_names` will be the sorted list "
                             "of labels).")
    class_names = subdirs
    class_indices = dict(zip(class_names, range(len(class_names))))
    filenames, per_class = [], []
    for subdir in subdirs:
        names, labs = _index_subdirectory(os.path.join(directory, subdir), class_indices,
                                          follow_links, formats)
        filenames += names
        per_class.append(labs)
    if labels == "inferred":
        labels = np.array([lab for labs in per_class for lab in labs], dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError("Expected the lengths of `labels` to match the number of files in "
                             f"the target directory. len(labels) is {len(labels)} while we "
                             f"found {len(filenames)} files in directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print(f"Found {len(filenames)} files.")
        else:
            print(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    file_paths = [os.path.join(directory, fname) for fname in filenames]
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(file_paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, class_names


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    """Keras's checks of ``validation_split``/``subset``/``seed``.

    Raises:
        ValueError: for a split outside (0, 1), one of split/subset without the other, an
            unknown subset, or a shuffled split without ``seed``.
    """
    if validation_split and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide "
                         "a `seed` argument, to make sure that there is no overlap between the "
                         "training and validation subset.")


def get_training_or_validation_split(samples, labels, validation_split, subset):
    """The last ``int(validation_split * n)`` samples are the validation subset, the rest the
    training subset; prints "Using N files for training/validation."."""
    if not validation_split:
        return samples, labels
    num_val = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - num_val} files for training.")
        samples = samples[:-num_val]
        labels = None if labels is None else labels[:-num_val]
    elif subset == "validation":
        print(f"Using {num_val} files for validation.")
        samples = samples[-num_val:]
        labels = None if labels is None else labels[-num_val:]
    else:
        raise ValueError('`subset` must be either "training" or "validation", received: '
                         f"{subset}")
    return samples, labels


def labels_to_dataset(labels, label_mode, num_classes):
    """The labels as a dataset: int32 scalars ('int'), float32 ``(1,)`` ('binary') or float32
    one-hot ``(num_classes,)`` ('categorical')."""
    import tapeflow as ops
    ds = _data().Dataset.from_tensor_slices(labels)
    if label_mode == "binary":
        return ds.map(lambda x: ops.expand_dims(ops.cast(x, "float32"), axis=-1))
    if label_mode == "categorical":
        return ds.map(lambda x: ops.one_hot(x, num_classes))
    return ds


def paths_labels_dataset(paths, labels, label_mode, num_classes, load, shuffle,
                         shuffle_buffer_size, seed):
    """``(load(path), label)`` elements (``load(path)`` alone without labels), shuffled as
    Keras does: paths and labels zipped, then ``Dataset.shuffle(buffer, seed)``, then loaded."""
    data = _data()
    ds = data.Dataset.from_tensor_slices(paths)
    if label_mode:
        ds = data.Dataset.zip((ds, labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        return ds.map(lambda x, y: (load(x), y), num_parallel_calls=data.AUTOTUNE)
    return ds.map(load, num_parallel_calls=data.AUTOTUNE)


def finish(dataset, batch_size, class_names, file_paths=None):
    """Batch, prefetch and attach ``class_names`` (and ``file_paths``) as Keras does."""
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    dataset = dataset.prefetch(_data().AUTOTUNE)
    dataset.class_names = class_names
    if file_paths is not None:
        dataset.file_paths = file_paths
    return dataset


def check_labels_arg(labels, label_mode, class_names, what):
    """Keras's checks of ``labels``/``label_mode``/``class_names``; ``what`` names the files
    ("image", "text", "audio")."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("`labels` argument should be a list/tuple of integer labels, of "
                             f"the same size as the number of {what} files in the target "
                             "directory. If you wish to infer the labels from the subdirectory "
                             'names in the target directory, pass `labels="inferred"`. If you '
                             f"wish to get a dataset that only contains {_samples(what)} (no "
                             f"labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")


def _samples(what):
    return {"image": "images", "text": "text samples", "audio": "audio samples"}.get(what, what)


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None,
                  preferred_backend=None):
    """Two datasets holding the first ``left_size`` and the last ``right_size`` elements of
    ``dataset`` (``keras.utils.split_dataset``; with both sizes given, the middle is left out).

    Args:
        dataset: a ``tf.data.Dataset``, a NumPy array / list, or a tuple or dict of them
            (split along their first axis).
        left_size, right_size: an int (a count) or a float in (0, 1) (a fraction); one may be
            None (the complement of the other; both None: 0.5 each). Fractions round as Keras
            does: left ``round(left * n)``, right ``round(right * n)``, the other ``n - that``.
        shuffle: shuffle the samples before splitting (``random.seed(seed)`` then
            ``random.shuffle``: Python's global generator, as Keras).
        seed: the shuffling seed (a random one when None).

    Returns:
        ``(left_dataset, right_dataset)``, ``tf.data.Dataset`` objects.

    Raises:
        TypeError: for an unsupported dataset type or size type.
        ValueError: for sizes outside the dataset or that do not add up.
    """
    from ._split import split_dataset as impl
    return impl(dataset, left_size, right_size, shuffle, seed)
