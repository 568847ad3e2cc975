"""``keras.utils.pad_sequences``: lists of ids of different lengths as one padded array."""
from ..._core.backend import np

__all__ = ["pad_sequences"]


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """Pad (or cut) each sequence to ``maxlen`` (``keras.utils.pad_sequences``).

    Args:
        sequences: a list of sequences (lists or arrays; their items may be arrays of one
            shape).
        maxlen: the length of the result (default the longest sequence's).
        dtype: the NumPy dtype of the result (default int32).
        padding: 'pre' (default) or 'post': where the padding goes.
        truncating: 'pre' (default) or 'post': which end a longer sequence loses.
        value: the padding value.

    Returns:
        A NumPy array ``(len(sequences), maxlen, *item_shape)``.

    Raises:
        ValueError: for non-iterable sequences, an unknown ``padding``/``truncating``, items
            of different shapes, or a string ``value`` with a non-string dtype.

    >>> import tapeflow as tf
    >>> tf.keras.utils.pad_sequences([[1, 2], [3]], padding="post").tolist()
    [[1, 2], [3, 0]]
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, item_shape, found = [], (), False
    for seq in sequences:
        try:
            lengths.append(len(seq))
        except TypeError as exc:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             f"{seq}") from exc
        if not found and len(seq):
            item_shape, found = np.asarray(seq).shape[1:], True
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    text = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.bytes_)
    if isinstance(value, str) and dtype is not object and not text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(sequences), maxlen) + item_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating == "pre":
            kept = seq[-maxlen:]
        elif truncating == "post":
            kept = seq[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != item_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} "
                             f"is different from expected shape {item_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        elif padding == "pre":
            out[i, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out
