"""``tf.keras.layers.Discretization``: values to bucket ids (``Bucketize``), with bin
boundaries given or adapted from quantile summaries."""
from ...._core.backend import np
from ...._core.dispatch import apply
from ...._core.registry import nondifferentiable
from ...._core.tensor import _TensorLike
from ..layer import Layer
from ._utils import _ENCODE, _as_tensor

__all__ = ["Discretization"]


def _bucketize_forward(x, boundaries):
    return np.searchsorted(boundaries, np.asarray(x, np.float64), side="right").astype(np.int32)


_BUCKETIZE = nondifferentiable("Bucketize", _bucketize_forward)


def _summarize(values, epsilon):
    """A weighted quantile summary of ``values`` (float32): every ``step``-th sorted value
    from the ``step``-th on, weighted ``step`` (Keras 3's Discretization sketch), as a
    (2, n) array of values and weights."""
    values = np.sort(np.asarray(values, np.float32).reshape(-1))
    step = max(values.size / (1.0 / epsilon), 1)
    picked = values[int(step - 1)::int(step)]
    return np.stack([picked, np.ones_like(picked) * step])


def _compress(summary, epsilon):
    """The summary re-cut at the ``epsilon`` quantiles of its cumulative weights."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum = summary[1].cumsum()
    frac = cum / cum[-1]
    bins = np.interp(percents, frac, summary[0])
    cum_at = np.interp(percents, frac, cum)
    weights = cum_at - np.concatenate([[0.0], cum_at[:-1]])
    return np.stack([bins, weights]).astype(np.float32)


def _merge(new, old, epsilon):
    merged = np.concatenate([new, old], axis=1)
    merged = merged[:, np.argsort(merged[0])]
    return _compress(merged, epsilon)


class Discretization(Layer):
    """Bucket ids of numeric features (``tf.keras.layers.Discretization``).

    With ``bin_boundaries`` ``[b0, b1, ...]`` the output is ``i`` such that
    ``b[i-1] <= x < b[i]`` (int32, the input's shape); with ``num_bins`` the boundaries
    come from :meth:`adapt` (Keras 3's approximate quantiles with ``epsilon``). Other
    output modes (one_hot, multi_hot, count) give float32 vectors of size num_bins.

    Raises:
        ValueError: both or neither of ``num_bins``/``bin_boundaries``; calling before
            adapt (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{('int', 'one_hot', 'multi_hot', 'count')}. Received: "
                             f"output_mode={output_mode}")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        if sparse:
            raise ValueError("tapeflow's Discretization does not support `sparse=True`.")
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse
        self._dtype_name = dtype or "float32"
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self._summary = None

    def adapt(self, data, batch_size=None, steps=None):
        """Learn ``num_bins - 1`` boundaries from ``data``: an array or tensor (one batch),
        a ``tf.data.Dataset`` or any other iterable of batches (a list is one)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        from ....data.dataset import Dataset
        if isinstance(data, Dataset):
            if steps is not None:
                data = data.take(steps)
            batches = [b.numpy() if isinstance(b, _TensorLike) else b for b in data]
        elif isinstance(data, (np.ndarray, _TensorLike)) or not hasattr(data, "__iter__"):
            batches = [data.numpy() if isinstance(data, _TensorLike) else data]
        else:  # any other iterable is one of batches, as in Keras
            batches = list(data)
        summary = np.zeros((2, 0), np.float32)
        for batch in batches:
            summary = _merge(_summarize(batch, self.epsilon), summary, self.epsilon)
        self._summary = summary
        self.bin_boundaries = _compress(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can "
                             "start using the `Discretization` layer.")
        x = _as_tensor(inputs)
        bounds = np.asarray(self.bin_boundaries, np.float32).astype(np.float64)
        ids = apply(_BUCKETIZE, (x,), {"boundaries": bounds})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": len(self.bin_boundaries) + 1,
                                       "mode": self.output_mode, "idf": None,
                                       "dtype": np.float32, "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = None if self.bin_boundaries is None else len(self.bin_boundaries) + 1
        if self.output_mode == "one_hot" and (not input_shape or input_shape[-1] != 1):
            return tuple(input_shape) + (depth,)
        return tuple(input_shape[:-1]) + (depth,)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self._dtype_name}

    @classmethod
    def from_config(cls, config):
        """A layer from :meth:`get_config` (an adapted layer's config has both
        ``num_bins`` and ``bin_boundaries``: the boundaries are set after creation)."""
        config = dict(config)
        bounds = None
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            bounds = config.pop("bin_boundaries")
        layer = cls(**config)
        if bounds is not None:
            layer.bin_boundaries = list(bounds)
        return layer
