"""``tf.keras.layers.Hashing``: values to hash bins with TensorFlow's own hashes
(FarmHash Fingerprint64, SipHash-2-4, written in Python in ``ops/_fingerprint.py``)."""
from ...._core import dtypes as _dt
from ...._core.backend import np
from ...._core.dispatch import apply
from ...._core.registry import nondifferentiable
from ..layer import Layer
from ._utils import _ENCODE, _as_tensor, _key_bytes

__all__ = ["Hashing"]


def _hash_key(v):
    """The bytes TF hashes for one element: strings as they are, numbers as their decimal
    text (floats first truncated to int64, as Keras casts them)."""
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, (float, np.floating)):
        v = int(np.int64(v))
    return str(int(v)).encode()


def _hash_forward(x, num_bins, mask_value, salt):
    from ....ops._fingerprint import fingerprint64, siphash24
    flat = np.asarray(x).reshape(-1)
    bins = num_bins
    masked = mask_value is not None and num_bins > 1
    if masked:
        bins -= 1
        mask_key = _key_bytes(mask_value) if isinstance(mask_value, (str, bytes)) \
            else mask_value
    out = np.empty(len(flat), np.int64)
    for i, v in enumerate(flat):
        key = _hash_key(v)
        is_mask = masked and (key == mask_key if isinstance(v, bytes) else v == mask_key)
        if salt is None:
            h = fingerprint64(key) % bins
        else:
            h = siphash24(salt[0] & (2 ** 64 - 1), salt[1] & (2 ** 64 - 1), key) % bins
        out[i] = 0 if is_mask else h + masked
    return out.reshape(np.shape(x))


_HASH = nondifferentiable("Hashing", _hash_forward)


class Hashing(Layer):
    """Values hashed into ``num_bins`` bins (``tf.keras.layers.Hashing``).

    Strings are hashed as they are, integers as their decimal text (floats are truncated
    to int64 first), with FarmHash ``Fingerprint64`` (``tf.strings.to_hash_bucket_fast``)
    or, given a ``salt``, SipHash-2-4 keyed by it (``to_hash_bucket_strong``): the same
    bins as TensorFlow's. With ``mask_value`` bin 0 is kept for it and the others shift
    by one. Output: int64 bins (the input's shape) or float32 one_hot / multi_hot / count.

    Raises:
        ValueError: ``num_bins`` None or not positive, a bad ``salt`` or ``output_mode``
            (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{('int', 'one_hot', 'multi_hot', 'count')}. Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise ValueError("tapeflow's Hashing does not support `sparse=True`.")
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.output_mode = output_mode
        self.sparse = sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of "
                                 f"size 2 integers, or a single integer. Received: salt={salt}.")

    def call(self, inputs):
        x = _as_tensor(inputs)
        if self.mask_value is not None and (
                isinstance(self.mask_value, (str, bytes)) != (x.dtype == _dt.string)):
            name = "float" if x.dtype == _dt.float32 else x.dtype.name
            raise TypeError(f"Cannot convert {self.mask_value!r} to EagerTensor of dtype "
                            f"{name}")
        if self.output_mode == "one_hot" and x.ndim and x.shape[-1] == 1:
            from ....ops import array_ops as _a
            x = _a.squeeze(x, -1)
        ids = apply(_HASH, (x,), {"num_bins": self.num_bins, "mask_value": self.mask_value,
                                  "salt": None if self.salt is None else tuple(self.salt)})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": self.num_bins, "mode": self.output_mode,
                                       "idf": None, "dtype": self.dtype_policy._np,
                                       "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        if not input_shape:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def get_config(self):
        return dict(super().get_config(), num_bins=self.num_bins, salt=self.salt,
                    mask_value=self.mask_value, output_mode=self.output_mode,
                    sparse=self.sparse)
