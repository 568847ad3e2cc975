"""Keras 3's checks of layer constructor arguments (kernel sizes, strides, padding)."""
from ..._core.backend import np

__all__ = ["standardize_tuple", "standardize_padding"]


def standardize_tuple(value, n, name, allow_zero=False) -> tuple:
    """``value`` (an int or ``n`` ints) as a tuple of ``n`` positive ints, as Keras checks it.

    Args:
        value: an int, or an iterable of ``n`` ints.
        n: the length of the tuple.
        name: the argument's name, for the message (``"strides"``).
        allow_zero: accept 0 (then only negative values are refused).

    Returns:
        A tuple of ``n`` ints.

    Raises:
        ValueError: Keras's message naming the argument, for a wrong length, a non-integer
            or a value out of range.

    Example:
        >>> from tapeflow.keras.utils.argument_validation import standardize_tuple
        >>> standardize_tuple(3, 2, "kernel_size")
        (3, 3)
    """
    message = f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value}"
    if isinstance(value, (int, np.integer)):
        values = (int(value),) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(message) from None
        if len(values) != n:
            raise ValueError(message)
        for v in values:
            try:
                int(v)
            except (ValueError, TypeError):
                raise ValueError(f"{message}including element {v} of type {type(v)}") from None
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(f"{message}, including values {bad} that do not satisfy "
                         f"`value {'>= 0' if allow_zero else '> 0'}`")
    return values


def standardize_padding(value, allow_causal=False) -> str:
    """``value`` lower-cased, checked to be 'valid' or 'same' (or 'causal' if allowed).

    Raises:
        ValueError: Keras's message for any other string.
    """
    if isinstance(value, (list, tuple)):
        return value
    padding = value.lower()
    allowed = ("{'valid', 'same', 'causal'}" if allow_causal else "{'valid', 'same'}")
    if padding not in (("valid", "same", "causal") if allow_causal else ("valid", "same")):
        raise ValueError(f"The `padding` argument must be a list/tuple or one of {allowed}. "
                         f"Received: {padding}")
    return padding
