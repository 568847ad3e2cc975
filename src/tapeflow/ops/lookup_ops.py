"""Lookup tables (``tf.lookup``): ``StaticHashTable``, ``StaticVocabularyTable``, their
initializers ``KeyValueTensorInitializer`` and ``TextFileInitializer``, and the mutable
``experimental.MutableHashTable`` / ``experimental.DenseHashTable``.

A table holds a Python dict from key (bytes or int) to value. ``lookup`` is one op
(``LookupTableFindV2``) over the keys whose forward reads the table when it runs, so a traced
program (``tf.function``, ``Dataset.map``) looks up each call's keys in the table as it is
then; ``insert``/``remove`` are ops too. Out-of-vocabulary buckets use FarmHash's
``Fingerprint64`` as TF does (integer keys hashed as their decimal strings). No gradients.
"""
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive
from .._core.tensor import Tensor, _TensorLike, constant, convert_to_tensor, string_value
from ._fingerprint import fingerprint64

__all__ = ["DenseHashTable", "KeyValueTensorInitializer", "MutableHashTable",
           "StaticHashTable", "StaticVocabularyTable", "TextFileIndex", "TextFileInitializer"]


def _tensor(x, dtype=None):
    if isinstance(x, _TensorLike):
        return x
    return convert_to_tensor(x, dtype) if dtype is not None else convert_to_tensor(x)


def _key(v):
    return bytes(v) if isinstance(v, (bytes, np.bytes_)) else v.item() if hasattr(
        v, "item") else v


def _dtype_error(want, got):
    raise TypeError(f"Dtype of argument `keys` must be <dtype: '{want.name}'>, received: "
                    f"<dtype: '{got.name}'>")


class KeyValueTensorInitializer:
    """A table's contents from two tensors of keys and values
    (``tf.lookup.KeyValueTensorInitializer``).

    Args:
        keys: a 1-D tensor (or list) of keys.
        values: a 1-D tensor (or list) of values, as many as ``keys``.
        key_dtype, value_dtype: optional dtypes to convert to.

    Raises:
        ValueError: keys and values of different lengths.
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = _tensor(keys, key_dtype)
        self._values = _tensor(values, value_dtype)
        if self._keys._value.shape != self._values._value.shape:
            raise ValueError(f"Shapes {self._keys.shape} and {self._values.shape} are "
                             "incompatible")
        self.key_dtype, self.value_dtype = self._keys.dtype, self._values.dtype

    def _items(self):
        return zip(self._keys._value.reshape(-1).tolist(),
                   self._values._value.reshape(-1).tolist())


class TextFileIndex:
    """Column selectors of ``TextFileInitializer``: the whole line or its number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer:
    """A table's contents from a text file, one entry per line
    (``tf.lookup.TextFileInitializer``).

    Args:
        filename: the file's path.
        key_dtype, value_dtype: ``tf.string`` or an integer/float dtype.
        key_index, value_index: a column number (split by ``delimiter``),
            ``TextFileIndex.WHOLE_LINE`` (-2) or ``TextFileIndex.LINE_NUMBER`` (-1).
        vocab_size: read only this many lines.
        delimiter: the column separator (tab).

    Raises:
        tf.errors.InvalidArgumentError: a line with too few columns (when the table is
            built).
        tf.errors.NotFoundError: a missing file.
    """

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        self._filename = filename.numpy().decode() if hasattr(filename, "numpy") else \
            str(filename)
        self.key_dtype, self.value_dtype = _dt.as_dtype(key_dtype), _dt.as_dtype(value_dtype)
        self._key_index, self._value_index = int(key_index), int(value_index)
        self._vocab_size = vocab_size
        self._delimiter = delimiter
        self._offset = int(value_index_offset)

    def _column(self, line, number, index, dtype):
        if index == TextFileIndex.LINE_NUMBER:
            return number + self._offset
        text = line if index == TextFileIndex.WHOLE_LINE else None
        if text is None:
            cols = line.split(self._delimiter)
            if index >= len(cols):
                raise errors.InvalidArgumentError(
                    None, None, f"Invalid number of columns in {self._filename} line "
                                f"{number} ({line}) : expected {index + 1} got {len(cols)}")
            text = cols[index]
        if dtype == _dt.string:
            return text.encode("utf-8")
        return dtype._np.type(text).item() if dtype.is_integer else float(text)

    def _items(self):
        try:
            with open(self._filename, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{self._filename}; No such file or "
                                                   "directory") from None
        if lines and lines[-1] == "":
            lines.pop()
        if self._vocab_size is not None:
            lines = lines[:int(self._vocab_size)]
        return [(self._column(line, i, self._key_index, self.key_dtype),
                 self._column(line, i, self._value_index, self.value_dtype))
                for i, line in enumerate(lines)]


# -- the ops ----------------------------------------------------------------------------------
def _find(keys, default, *, table):
    flat = keys.reshape(-1)
    d = table._data
    dv = np.asarray(default).reshape(())
    out = np.empty(flat.shape, table.value_dtype._np)
    for i, k in enumerate(flat.tolist() if flat.dtype != object else flat):
        out[i] = d.get(_key(k), dv[()])
    out = out.reshape(keys.shape)
    return string_value(out) if out.dtype == object else out


_FIND = Primitive("LookupTableFindV2", _find, differentiable=False, save_inputs=False)


def _insert(keys, values, *, table):
    for k, v in zip(keys.reshape(-1).tolist() if keys.dtype != object else keys.reshape(-1),
                    values.reshape(-1).tolist() if values.dtype != object
                    else values.reshape(-1)):
        table._check_key(_key(k))
        table._data[_key(k)] = v
    return np.zeros((), np.int32)


def _remove(keys, *, table):
    for k in keys.reshape(-1).tolist() if keys.dtype != object else keys.reshape(-1):
        table._check_key(_key(k))
        table._data.pop(_key(k), None)
    return np.zeros((), np.int32)


def _size(*, table):
    return np.int64(len(table._data))


_INSERT = Primitive("LookupTableInsertV2", _insert, differentiable=False, save_inputs=False)
_REMOVE = Primitive("LookupTableRemoveV2", _remove, differentiable=False, save_inputs=False)
_SIZE = Primitive("LookupTableSizeV2", _size, differentiable=False, save_inputs=False)


def _vocab_find(keys, *, table):
    flat = keys.reshape(-1)
    d = table._data
    n, buckets = len(d), table._num_oov_buckets
    out = np.empty(flat.shape, np.int64)
    for i, k in enumerate(flat.tolist() if flat.dtype != object else flat):
        k = _key(k)
        v = d.get(k)
        if v is None:
            raw = k if isinstance(k, bytes) else str(k).encode()
            v = n + fingerprint64(raw) % buckets if buckets else -1
        out[i] = v
    return out.reshape(keys.shape)


_VOCAB_FIND = Primitive("LookupTableFindV2", _vocab_find, differentiable=False,
                        save_inputs=False)


class _Table:
    """What every table shares: dtypes, ``size``, ``lookup`` over dense, ragged and sparse
    keys, ``__getitem__``."""

    _data = None

    @property
    def key_dtype(self):
        """The keys' DType."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The values' DType."""
        return self._value_dtype

    @property
    def resource_handle(self):
        """The table itself (tapeflow has no resource handles)."""
        return self

    def size(self, name=None):
        """The number of entries, an int64 scalar tensor."""
        return apply(_SIZE, (), {"table": self})

    def _keys(self, keys):
        t = _tensor(keys, self._key_dtype if not isinstance(keys, _TensorLike) else None)
        if t.dtype != self._key_dtype:
            _dtype_error(self._key_dtype, t.dtype)
        return t

    def lookup(self, keys, name=None):
        """The values of ``keys`` (any shape; a RaggedTensor or SparseTensor maps its
        values), the default where a key is absent.

        Raises:
            TypeError: keys of another dtype than the table's (TF's message).
        """
        if hasattr(keys, "with_values") and hasattr(keys, "indices"):
            return keys.with_values(self.lookup(keys.values))
        if hasattr(keys, "with_flat_values"):
            return keys.with_flat_values(self.lookup(keys.flat_values))
        return self._lookup(self._keys(keys))

    def _lookup(self, keys):
        return apply(_FIND, (keys, self._default), {"table": self})

    def __getitem__(self, keys):
        return self.lookup(keys)

    def _check_key(self, key):
        pass

    def _fill(self, initializer):
        self._data = {}
        for k, v in initializer._items():
            self._data[_key(k)] = v


class StaticHashTable(_Table):
    """An immutable table built once from an initializer (``tf.lookup.StaticHashTable``).

    Args:
        initializer: a ``KeyValueTensorInitializer`` or ``TextFileInitializer``.
        default_value: the value of absent keys (a scalar of the value dtype).

    Example:
        >>> import tapeflow as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2])
        >>> tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["b", "z"])).numpy()
        array([ 2, -1], dtype=int32)
    """

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = initializer.key_dtype, initializer.value_dtype
        self._default = convert_to_tensor(default_value, self._value_dtype) if not isinstance(
            default_value, _TensorLike) else default_value
        self._initializer = initializer
        self._fill(initializer)

    @property
    def default_value(self):
        """The value of absent keys, a scalar tensor."""
        return self._default

    @property
    def initializer(self):
        """The initializer the table was built from."""
        return self._initializer

    def export(self, name=None):
        """``(keys, values)``: every entry, as two 1-D tensors."""
        return _export(self)


def _export(table):
    keys = list(table._data)
    vals = [table._data[k] for k in keys]
    kd, vd = table._key_dtype, table._value_dtype
    return (constant(np.asarray(keys, object) if kd == _dt.string else
                     np.asarray(keys, kd._np).reshape(-1), kd),
            constant(np.asarray(vals, object) if vd == _dt.string else
                     np.asarray(vals, vd._np).reshape(-1), vd))


class StaticVocabularyTable(_Table):
    """A vocabulary of ids with out-of-vocabulary buckets
    (``tf.lookup.StaticVocabularyTable``): a known key gets its value, an unknown one
    ``vocab_size + Fingerprint64(key) % num_oov_buckets`` (integer keys hashed as their
    decimal strings), int64 ids as TF gives.

    Args:
        initializer: an initializer with int64 values (the ids ``0 .. vocab_size-1``).
        num_oov_buckets: a positive int.
        lookup_key_dtype: the dtype of the keys ``lookup`` takes (the initializer's).

    Raises:
        ValueError: ``num_oov_buckets`` not positive.
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError(f"`num_oov_buckets` must be > 0; use StaticHashTable. "
                             f"Received: {num_oov_buckets}")
        self._key_dtype = _dt.as_dtype(lookup_key_dtype or initializer.key_dtype)
        self._value_dtype = _dt.int64
        self._num_oov_buckets = int(num_oov_buckets)
        self._initializer = initializer
        self._fill(initializer)

    def size(self, name=None):
        """The vocabulary size plus the number of OOV buckets, an int64 scalar."""
        return Tensor(np.int64(len(self._data) + self._num_oov_buckets))

    def _lookup(self, keys):
        return apply(_VOCAB_FIND, (keys,), {"table": self})


class MutableHashTable(_Table):
    """A table filled by ``insert`` (``tf.lookup.experimental.MutableHashTable``).

    Args:
        key_dtype, value_dtype: the DTypes.
        default_value: the value of absent keys.
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = _dt.as_dtype(key_dtype), _dt.as_dtype(value_dtype)
        self._default = convert_to_tensor(default_value, self._value_dtype)
        self._data = {}

    @property
    def default_value(self):
        return self._default

    def insert(self, keys, values, name=None):
        """Set ``keys`` (a tensor) to ``values`` (a tensor of the same shape)."""
        keys = self._keys(keys)
        values = _tensor(values, self._value_dtype)
        if values.dtype != self._value_dtype:
            raise TypeError(f"Dtype of argument `values` must be <dtype: "
                            f"'{self._value_dtype.name}'>, received: <dtype: "
                            f"'{values.dtype.name}'>")
        apply(_INSERT, (keys, values), {"table": self})

    def remove(self, keys, name=None):
        """Remove ``keys`` (absent keys are ignored)."""
        apply(_REMOVE, (self._keys(keys),), {"table": self})

    def export(self, name=None):
        """``(keys, values)``: every entry, as two 1-D tensors (in no set order)."""
        return _export(self)


class DenseHashTable(MutableHashTable):
    """A mutable table with reserved ``empty_key``/``deleted_key``
    (``tf.lookup.experimental.DenseHashTable``); behaves as ``MutableHashTable`` and
    rejects the two reserved keys.

    Raises:
        tf.errors.InvalidArgumentError: inserting, looking up or removing a reserved key.
    """

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value)
        self._reserved = {_key(np.asarray(empty_key).reshape(())[()]): "empty_key",
                          _key(np.asarray(deleted_key).reshape(())[()]): "deleted_key"}

    def _check_key(self, key):
        which = self._reserved.get(key)
        if which is not None:
            raise errors.InvalidArgumentError(
                None, None, f"Using the {which} as a table key is not allowed")
