"""``keras.utils.split_dataset`` for tf.data datasets and in-memory arrays."""
import random

from ..._core.backend import np
from ..._core.tensor import _TensorLike


def _type_spec(dataset):
    from ... import data
    for kind in (tuple, list, np.ndarray, data.Dataset):
        if isinstance(dataset, kind):
            return kind
    return None


def _flatten(x):
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]
    if isinstance(x, (tuple, list)):
        return [leaf for v in x for leaf in _flatten(v)]
    return [x]


def _pack(structure, leaves):
    it = iter(leaves)

    def build(x):
        if isinstance(x, dict):
            return {k: build(x[k]) for k in sorted(x)}
        if isinstance(x, (tuple, list)):
            return tuple(build(v) for v in x)
        return next(it)
    return build(structure)


def _numpy(x):
    return x.numpy() if isinstance(x, _TensorLike) else x


def _samples(dataset, kind):
    from ... import data
    if kind in (list, tuple):
        name = "list" if kind is list else "tuple"
        if not dataset:
            raise ValueError(f"Received an empty list dataset. Please provide a non-empty {name} "
                             "of arrays.")
        expected = None
        for i, element in enumerate(dataset):
            if not isinstance(element, np.ndarray):
                raise ValueError(f"Expected a {name} of `numpy.ndarray` objects,Received: "
                                 f"{type(element)} at index {i}.")
            if expected is None:
                expected = element.shape
            elif element.shape[0] != expected[0]:
                raise ValueError(f"Received a {name} of NumPy arrays with different lengths."
                                 f"Mismatch found at index {i}, Expected shape={expected} "
                                 f"Received shape={element.shape}.Please provide a {name} of "
                                 "NumPy arrays of the same length.")
        samples = list(zip(*dataset))
    elif kind is data.Dataset:
        if getattr(dataset, "_batch_size", None) is not None:
            dataset = dataset.unbatch()
        samples = [_numpy_tree(e) for e in dataset]
    else:
        samples = list(dataset)
    if not samples:
        raise ValueError("Received an empty dataset. Argument `dataset` must be a non-empty "
                         "list/tuple of `numpy.ndarray` objects or `tf.data.Dataset` objects.")
    first = samples[0]
    if isinstance(first, (np.ndarray, _TensorLike)):
        shape = np.asarray(first).shape
        for i, sample in enumerate(samples[1:]):
            if np.asarray(sample).shape != shape:
                raise ValueError(f"All `dataset` samples must have same shape, Expected shape: "
                                 f"{shape} Received shape: {np.asarray(sample).shape} at "
                                 f"index {i}.")
    return samples


def _numpy_tree(x):
    if isinstance(x, dict):
        return {k: _numpy_tree(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_numpy_tree(v) for v in x)
    return _numpy(x)


def _sizes(left, right, total):
    lt, rt = type(left), type(right)
    if (left is not None and lt not in (int, float)) and (right is not None
                                                          and rt not in (int, float)):
        raise TypeError("Invalid `left_size` and `right_size` Types. Expected: integer or float "
                        f"or None, Received: type(left_size)={lt} and type(right_size)={rt}")
    if left is not None and lt not in (int, float):
        raise TypeError("Invalid `left_size` Type. Expected: int or float or None, Received: "
                        f"type(left_size)={lt}.  ")
    if right is not None and rt not in (int, float):
        raise TypeError("Invalid `right_size` Type. Expected: int or float or None,Received: "
                        f"type(right_size)={rt}.")
    if left == 0 and right == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split "
                         "sizes must be non-zero.")
    if (lt is int and (left <= 0 or left >= total)) or (lt is float and not 0 < left < 1):
        raise ValueError("`left_size` should be either a positive integer smaller than "
                         f"{total}, or a float within the range `[0, 1]`. Received: "
                         f"left_size={left}")
    if (rt is int and (right <= 0 or right >= total)) or (rt is float and not 0 < right < 1):
        raise ValueError("`right_size` should be either a positive integer and smaller than "
                         f"{total} or a float within the range `[0, 1]`. Received: "
                         f"right_size={right}")
    if rt is lt is float and right + left > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be "
                         "less than or equal to 1.")
    left = round(left * total) if lt is float else (float(left) if lt is int else None)
    right = round(right * total) if rt is float else (float(right) if rt is int else None)
    if left is None:
        left = total - right
    elif right is None:
        right = total - left
    if left + right > total:
        raise ValueError("The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {left + right}and "
                         f"total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and "
                             f"`right_size`={right}.Resulting {side} side dataset split will "
                             "be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _restore(samples, kind, original):
    from ... import data
    if kind in (tuple, list) or isinstance(original, data.Dataset):
        columns = [np.array(c) for c in zip(*[_flatten(s) for s in samples])]
        return _pack(samples[0], columns)
    return samples


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    from ... import data
    kind = _type_spec(dataset)
    if kind is None:
        raise TypeError(f"Unsupported dataset type: {type(dataset)}")
    if right_size is None and left_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    samples = _samples(dataset, kind)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)
        random.shuffle(samples)
    left_size, right_size = _sizes(left_size, right_size, len(samples))
    left = data.Dataset.from_tensor_slices(_restore(samples[:left_size], kind, dataset))
    right = data.Dataset.from_tensor_slices(_restore(samples[-right_size:], kind, dataset))
    batch = getattr(dataset, "_batch_size", None) if kind is data.Dataset else None
    if batch is not None:
        left, right = left.batch(batch), right.batch(batch)
    return left.prefetch(data.AUTOTUNE), right.prefetch(data.AUTOTUNE)
