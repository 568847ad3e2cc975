"""``keras.utils.text_dataset_from_directory``."""
from ..._core.backend import np
from . import dataset_utils as du

__all__ = ["text_dataset_from_directory"]


def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None, shuffle=True,
                                seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):
    """A ``tf.data.Dataset`` of the ``.txt`` files under a folder tree, as string tensors
    (``keras.utils.text_dataset_from_directory``).

    Files are listed, labelled, shuffled and split exactly as
    :func:`image_dataset_from_directory` does (same order for the same seed).

    Args:
        directory, labels, label_mode, class_names, batch_size, shuffle, seed,
        validation_split, subset, follow_links, verbose: as for
            ``image_dataset_from_directory``.
        max_length: keep at most this many bytes of each file (``tf.strings.substr``).
        format: 'tf' (Keras's 'grain' is not available).

    Returns:
        A dataset of string tensors ``(batch,)`` (with labels: pairs), with attribute
        ``class_names``; a list ``[train, validation]`` with ``subset='both'``.

    Raises:
        ValueError: for invalid arguments (Keras's messages) or no .txt file found.
    """
    du.check_labels_arg(labels, label_mode, class_names, "text")
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise NotImplementedError('tapeflow has no grain datasets: use format="tf".')
    if labels is None or label_mode is None:
        labels = label_mode = None
    du.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = du.index_directory(
        directory, labels, formats=(".txt",), class_names=class_names, shuffle=shuffle,
        seed=seed, follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    buffer = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0

    def load(path):
        from ... import io, strings
        text = io.read_file(path)
        return text if max_length is None else strings.substr(text, 0, max_length)

    def make(paths, labels, shuffle):
        return du.paths_labels_dataset(paths, labels, label_mode, num_classes, load, shuffle,
                                       buffer, seed)

    if subset == "both":
        train = du.get_training_or_validation_split(paths, labels, validation_split, "training")
        val = du.get_training_or_validation_split(paths, labels, validation_split,
                                                  "validation")
        if not train[0]:
            raise ValueError(f"No training text files found in directory {directory}. Allowed "
                             "format: .txt")
        if not val[0]:
            raise ValueError(f"No validation text files found in directory {directory}. "
                             "Allowed format: .txt")
        return [du.finish(make(*train, shuffle), batch_size, class_names),
                du.finish(make(*val, False), batch_size, class_names)]
    paths, labels = du.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise ValueError(f"No text files found in directory {directory}. Allowed format: .txt")
    return du.finish(make(paths, labels, shuffle), batch_size, class_names)
