"""``keras.utils.audio_dataset_from_directory``."""
from ..._core.backend import np
from . import dataset_utils as du

__all__ = ["audio_dataset_from_directory"]

ALLOWED_FORMATS = (".wav",)


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, batch_size=32, sampling_rate=None,
                                 output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None,
                                 follow_links=False, verbose=True):
    """A ``tf.data.Dataset`` of the ``.wav`` files under a folder tree, decoded by
    ``tf.audio.decode_wav`` (``keras.utils.audio_dataset_from_directory``).

    Files are listed, labelled, shuffled and split exactly as
    :func:`image_dataset_from_directory` does (same order for the same seed).

    Args:
        directory, labels, label_mode, class_names, batch_size, shuffle, seed,
        validation_split, subset, follow_links, verbose: as for
            ``image_dataset_from_directory``.
        sampling_rate: resampling needs tensorflow-io in Keras; tapeflow refuses it.
        output_sequence_length: cut or zero-pad every clip to this many samples; without it
            (and without ``ragged``) batches are zero-padded to their longest clip.
        ragged: batch clips as a ``tf.RaggedTensor``.

    Returns:
        A dataset of float32 audio ``(batch, samples, channels)`` in [-1, 1] (with labels:
        pairs), with attribute ``class_names``; ``[train, validation]`` with 'both'.

    Raises:
        ValueError: for invalid arguments (Keras's messages) or no .wav file found.
        ImportError: for ``sampling_rate`` (tensorflow-io's resampler is not available).
    """
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("The `labels` argument should be a list/tuple of integer labels, "
                             "of the same size as the number of audio files in the target "
                             "directory. If you wish to infer the labels from the subdirectory "
                             'names in the target directory, pass `labels="inferred"`. If you '
                             "wish to get a dataset that only contains audio samples (no "
                             f"labels), pass `labels=None`. Received: labels={labels}")
    du.check_labels_arg(labels, label_mode, class_names, "audio")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError("`sampling_rate` should have an integer value. Received: "
                             f"sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError("`sampling_rate` should be higher than 0. Received: "
                             f"sampling_rate={sampling_rate}")
        raise ImportError("To use the argument `sampling_rate`, you should install "
                          "tensorflow_io. You can install it via `pip install tensorflow-io`. "
                          "(tapeflow cannot use tensorflow-io: resample the files beforehand.)")
    if labels is None or label_mode is None:
        labels = label_mode = None
    du.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    buffer = batch_size * 8 if batch_size is not None else 1024
    paths, labels, class_names = du.index_directory(
        directory, labels, formats=ALLOWED_FORMATS, class_names=class_names, shuffle=shuffle,
        seed=seed, follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    num_classes = len(class_names) if class_names else 0

    def load(path):
        from ... import audio, io
        clip, _ = audio.decode_wav(io.read_file(path), desired_samples=(
            -1 if output_sequence_length is None else output_sequence_length))
        return clip

    def make(paths, labels, shuffle):
        ds = du.paths_labels_dataset(paths, labels, label_mode, num_classes, load, shuffle,
                                     buffer, seed)
        if ragged and batch_size is None:
            from ... import RaggedTensor
            if label_mode:
                return ds.map(lambda x, y: (RaggedTensor.from_tensor(x), y))
            return ds.map(RaggedTensor.from_tensor)
        return ds

    def prepare(ds):
        from ... import data
        ds = ds.prefetch(data.AUTOTUNE)
        if batch_size is not None:
            if output_sequence_length is None and not ragged:
                ds = ds.padded_batch(batch_size)
            elif ragged:   # Keras maps clips to RaggedTensor, then batches
                ds = ds.ragged_batch(batch_size)
            else:
                ds = ds.batch(batch_size)
        ds.class_names = class_names
        return ds

    def missing(which):
        return ValueError(f"No {which}audio files found in directory {directory}. Allowed "
                          f"format(s): {ALLOWED_FORMATS}")

    if subset == "both":
        train = du.get_training_or_validation_split(paths, labels, validation_split, "training")
        if not train[0]:
            raise missing("training ")
        val = du.get_training_or_validation_split(paths, labels, validation_split,
                                                  "validation")
        if not val[0]:
            raise missing("validation ")
        return prepare(make(*train, shuffle)), prepare(make(*val, False))
    paths, labels = du.get_training_or_validation_split(paths, labels, validation_split, subset)
    if not paths:
        raise missing("")
    return prepare(make(paths, labels, shuffle))
