"""InputSpec: the rank, dtype and shape a layer accepts, checked at each call (Keras 3).

A layer sets ``self.input_spec`` (in ``__init__``, refined in ``build``); ``Layer.__call__``
checks the first argument against it before building or calling, with Keras's messages.
Shapes are read from tensors' static shapes, never from their values.
"""
from ..._core import dtypes as _dt

__all__ = ["InputSpec", "assert_input_compatibility"]


class InputSpec:
    """The rank, dtype and shape of every input to a layer (``tf.keras.layers.InputSpec``).

    ``None`` in a shape matches any dimension.

    Args:
        dtype: the expected dtype (a name or DType).
        shape: the expected shape, batch axis included (may hold ``None``).
        ndim: the expected rank.
        max_ndim: the largest accepted rank.
        min_ndim: the smallest accepted rank.
        axes: a dict mapping axes to their expected size (``{-1: 4}``).
        allow_last_axis_squeeze: accept rank ``N + 1`` with a last axis of 1, and rank
            ``N - 1`` when the spec's last axis is 1.
        name: the input's key when inputs come as a dict.
        optional: whether the input may be ``None``.

    Raises:
        TypeError: if ``axes`` has keys that are not integers.
        ValueError: if an axis in ``axes`` exceeds the rank.

    Example:
        >>> import tapeflow as tf
        >>> spec = tf.keras.layers.InputSpec(ndim=2, axes={-1: 3})
        >>> spec
        InputSpec(ndim=2, axes={-1: 3})
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = None if dtype is None else _dt.as_dtype(dtype).name
        if shape is not None:
            self.shape = tuple(None if d is None else int(d) for d in shape)
            self.ndim = len(self.shape)
        else:
            self.ndim = ndim
            self.shape = None
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.optional = optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError("Argument `axes` must be a dict with integer keys. "
                            f"Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: "
                                 f"{max_dim}")

    def __repr__(self):
        spec = [f"dtype={self.dtype}" if self.dtype else "",
                f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "",
                f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "",
                f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"

    def get_config(self) -> dict:
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
                "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in _flatten(item)]
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]
    return [x]


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Check ``inputs`` against ``input_spec`` (one spec or a list, one per input).

    Raises:
        ValueError: with Keras's message for the first mismatch (count, rank, dtype, axis
            size or shape).
    """
    if not input_spec:
        return
    specs = _flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in specs]
        if all(names):
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(f'Missing data for input "{missing[0]}". You passed a data '
                                 f"dictionary with keys {list(inputs.keys())}. Expected the "
                                 f"following keys: {names}")
            inputs = [inputs[n] for n in names]
    inputs = _flatten(inputs)
    if len(inputs) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it '
                         f"received {len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                             f"{type(x)}) as input for layer '{layer_name}'.")
        _check_one(index, x, spec, layer_name)


def _check_one(index, x, spec, layer_name):
    shape = tuple(x.shape)
    ndim = len(shape)
    head = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible " \
           f"with the layer: "
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={ndim}. Full shape "
                         f"received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full "
                         f"shape received: {shape}")
    if spec.dtype is not None:
        dtype = _dt.as_dtype(x.dtype).name
        if dtype != spec.dtype:
            raise ValueError(f"{head}expected dtype={spec.dtype}, found dtype={dtype}")
    for axis, value in spec.axes.items():
        if value is not None and shape[axis] not in (value, None):
            raise ValueError(f"{head}expected axis {axis} of input shape to have value "
                             f"{value}, but received input with shape {shape}")
    if spec.shape is not None:
        spec_shape = spec.shape
        if spec.allow_last_axis_squeeze:
            if shape and shape[-1] == 1:
                shape = shape[:-1]
            if spec_shape and spec_shape[-1] == 1:
                spec_shape = spec_shape[:-1]
        for spec_dim, dim in zip(spec_shape, shape):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(f"{head}expected shape={spec.shape}, found shape={shape}")
