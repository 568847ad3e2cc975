"""``tf.keras.layers.HashedCrossing``: crosses of categorical features hashed into bins
(``tf.sparse.cross_hashed``)."""
from ...._core.backend import np
from ...._core.dispatch import apply
from ...._core.registry import nondifferentiable
from ..layer import Layer
from ._utils import _ENCODE, _as_tensor, _key_bytes

__all__ = ["HashedCrossing"]

_CROSS_KEY = 0xDECAFCAFFE  # tf.sparse.cross_hashed's default hash_key


def _cross_forward(*cols, num_bins):
    from ....ops._fingerprint import fingerprint64, fingerprint_cat64
    shape = np.shape(cols[0])
    flats = [np.asarray(c).reshape(-1) for c in cols]
    out = np.empty(len(flats[0]), np.int64)
    buckets = num_bins if num_bins > 0 else 2 ** 63 - 1
    for r in range(len(out)):
        h = _CROSS_KEY
        for f in flats:
            v = f[r]
            fv = fingerprint64(_key_bytes(v)) if isinstance(v, (bytes, str)) \
                else int(v) & (2 ** 64 - 1)
            h = fingerprint_cat64(h, fv)
        out[r] = h % buckets
    return out.reshape(shape)


_CROSS = nondifferentiable("SparseCrossHashed", _cross_forward)


class HashedCrossing(Layer):
    """The hashed cross of two or more categorical features (``tf.keras.layers.
    HashedCrossing``): per row, ``tf.sparse.cross_hashed``'s FarmHash fingerprint chain of
    the features' values (strings fingerprinted, integers taken as they are) modulo
    ``num_bins``. Inputs: a list of tensors of shape (), (batch,) or (batch, 1), strings
    or integers. Output: int64 bins of the first input's shape, or float32 one_hot.

    Raises:
        ValueError: not a list of at least two inputs, a bad input shape or
            ``output_mode`` (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if output_mode not in ("int", "one_hot"):
            raise ValueError(f"Unknown value for `output_mode` argument of HashedCrossing. "
                             f"Allowed values are: ('int', 'one_hot'). Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise ValueError("tapeflow's HashedCrossing does not support `sparse=True`.")
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse

    def __call__(self, inputs, *args, **kwargs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("`HashedCrossing` should be called on a list or tuple of "
                             f"inputs. Received: inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                             f"Received: inputs={inputs}")
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        xs = [_as_tensor(x) for x in inputs]
        shape = tuple(xs[0].shape)
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError("All `HashedCrossing` inputs should have shape `()`, "
                             "`(batch_size)` or `(batch_size, 1)`. "
                             f"Received: inputs={inputs}")
        ids = apply(_CROSS, tuple(xs), {"num_bins": self.num_bins})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": self.num_bins, "mode": "one_hot",
                                       "idf": None, "dtype": self.dtype_policy._np,
                                       "skip_pad": False})

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype_policy.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
