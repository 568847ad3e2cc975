"""What Keras 3 layers share for checking inputs and writing their configs."""
from ..._core.tensor import _TensorLike

__all__ = ["check_input", "serialize", "int_tuple", "static_shape"]


def static_shape(x) -> tuple:
    """The shape of a tensor or KerasTensor as a tuple (``None`` for unknown dimensions)."""
    shape = x.shape
    return tuple(shape) if isinstance(shape, tuple) else tuple(shape.as_list())


def check_input(layer, x, ndim=None, min_ndim=None, axes=None, index=0):
    """Raise Keras's ``ValueError`` when ``x`` does not fit the layer's input spec (before
    ``call``, as Keras checks it; see :func:`_check_input` for the arguments)."""
    try:
        _check_input(layer, x, ndim, min_ndim, axes, index)
    except ValueError as exc:
        # Keras checks the input spec before ``call``: not framed as an error inside it
        exc._keras_call_info_injected = True
        raise


def _check_input(layer, x, ndim=None, min_ndim=None, axes=None, index=0):
    """Raise Keras's ``ValueError`` when ``x`` does not fit the layer's input spec.

    Args:
        layer: the layer (for its name).
        x: the input tensor.
        ndim: the exact rank required, or None.
        min_ndim: the smallest rank allowed, or None.
        axes: ``{axis: size}`` the input must have.
        index: the input's position among the layer's inputs.
    """
    if not isinstance(x, _TensorLike) and not hasattr(x, "shape"):
        raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) "
                         f"as input for layer '{layer.name}'.")
    # the rank and axis checks are Keras's InputSpec's (input_spec.py)
    from .input_spec import InputSpec, _check_one
    _check_one(index, x, InputSpec(ndim=ndim, min_ndim=min_ndim, axes=axes), layer.name)
    head = (f"Input {index} with name 'None' of layer '{layer.name}' is incompatible with "
            "the layer: ")
    if isinstance(x, _TensorLike) and x.dtype.name == "string":
        raise ValueError(f"{head}expected a numeric dtype, found dtype={x.dtype.name}")


def serialize(obj):
    """Keras's ``serialize_keras_object`` for initializers, regularizers, constraints and
    activations (None for None). A plain function named as one of Keras's activations
    (``tf.nn.relu``, ``tf.math.tanh``) is written as that name, as Keras's
    ``activations.serialize`` does, so a file that says ``"relu"`` loads anywhere."""
    import types

    from .. import activations
    if isinstance(obj, types.FunctionType) and obj.__name__ in activations.__all__ \
            and obj.__name__ not in ("get", "serialize", "deserialize"):
        return obj.__name__
    from .layer import serialize as _serialize
    return _serialize(obj)


def int_tuple(value, n, name):
    """``value`` (an int or ``n`` ints) as a tuple of ``n`` ints, as Keras standardizes them.

    Raises:
        ValueError: naming ``name`` when ``value`` has the wrong length or type.
    """
    if isinstance(value, int):
        return (value,) * n
    try:
        out = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        out = ()
    if len(out) != n:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. "
                         f"Received {name}={value}")
    return out
