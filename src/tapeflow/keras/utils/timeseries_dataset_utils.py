"""``keras.utils.timeseries_dataset_from_array``."""
from ..._core.backend import np

__all__ = ["timeseries_dataset_from_array"]


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None, format="tf"):
    """Sliding windows over a time series as a ``tf.data.Dataset``
    (``keras.utils.timeseries_dataset_from_array``).

    Window ``i`` holds ``data[p, p + r, ..., p + (sequence_length - 1) * r]`` for the start
    ``p = start_index + i * sequence_stride`` and ``r = sampling_rate``; its target is
    ``targets[i * sequence_stride]`` (indexed from ``start_index`` too).

    Args:
        data: an array or tensor, time along axis 0.
        targets: one target per time step (or None: windows only).
        sequence_length, sequence_stride, sampling_rate: the window's length (in samples),
            the step between window starts, the step between samples in a window.
        batch_size: windows per batch (None: single windows).
        shuffle, seed: shuffle the window starts with ``np.random.RandomState(seed)``, then
            the windows by ``Dataset.shuffle(8 * batch_size, seed)``, as Keras.
        start_index, end_index: use ``data[start_index:end_index]`` only.
        format: 'tf' (Keras's 'grain' is not available).

    Returns:
        A dataset of ``(batch, sequence_length, ...)`` windows of ``data``'s dtype (with
        targets: pairs ``(windows, targets)``).

    Raises:
        ValueError: for indices, rates or strides out of range (Keras's messages).
    """
    import tapeflow as ops
    tf_data = ops.data
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= len(data):
            raise ValueError("`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length "
                             f"{len(data)}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= len(data):
            raise ValueError("`end_index` must be lower than the length of the data. Received: "
                             f"end_index={end_index}, for data of length {len(data)}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    if sampling_rate <= 0:
        raise ValueError(f"`sampling_rate` must be higher than 0. Received: "
                         f"sampling_rate={sampling_rate}")
    if sampling_rate >= len(data):
        raise ValueError("`sampling_rate` must be lower than the length of the data. Received: "
                         f"sampling_rate={sampling_rate}, for data of length {len(data)}")
    if sequence_stride <= 0:
        raise ValueError(f"`sequence_stride` must be higher than 0. Received: "
                         f"sequence_stride={sequence_stride}")
    if sequence_stride >= len(data):
        raise ValueError("`sequence_stride` must be lower than the length of the data. "
                         f"Received: sequence_stride={sequence_stride}, for data of length "
                         f"{len(data)}")
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise NotImplementedError('tapeflow has no grain datasets: use format="tf".')
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    index_dtype = "int32" if num_seqs < 2147483647 else "int64"
    starts = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(starts)
    steps = ops.convert_to_tensor(data[start_index:end_index])
    offsets = np.arange(0, sequence_length * sampling_rate, sampling_rate, dtype=index_dtype)
    windows = tf_data.Dataset.from_tensor_slices(starts).map(
        lambda p: ops.gather(steps, p + offsets))
    dataset = windows
    if targets is not None:
        goals = ops.convert_to_tensor(targets[start_index:end_index])
        dataset = tf_data.Dataset.zip(
            (windows, tf_data.Dataset.from_tensor_slices(starts).map(
                lambda p: ops.gather(goals, p))))
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        dataset = dataset.batch(batch_size)
    elif shuffle:
        dataset = dataset.shuffle(buffer_size=1024, seed=seed)
    return dataset.prefetch(tf_data.AUTOTUNE)
