"""tf.nest's rules for nested structures: lists, tuples, namedtuples and dicts (by sorted key).

Everything else, ``None`` and tensors included, is a leaf. Kept here rather than taken from
dm-tree or optree because the core depends on NumPy alone.
"""
import collections.abc as _abc

__all__ = ["is_nested", "flatten", "pack_sequence_as", "map_structure", "assert_same_structure"]


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


_PLAIN = (list, tuple, dict)


def is_nested(structure) -> bool:
    """True for a list, tuple, namedtuple or mapping (``tf.nest.is_nested``)."""
    t = type(structure)
    if t in _PLAIN:
        return True
    if t in _LEAF_TYPES:
        return False
    return isinstance(structure, (list, tuple, _abc.Mapping))


def _is_flat(structure):
    """A plain list or tuple whose items are all leaves: the common case, done quickly."""
    if type(structure) is not list and type(structure) is not tuple:
        return False
    for x in structure:
        if type(x) in _PLAIN or (type(x) not in _LEAF_TYPES and is_nested(x)):
            return False
    return True


# The engine's value classes (Tensor, the Variables), registered by the modules that define
# them: a leaf for every nest function, recognised by one set lookup on the hot path.
_LEAF_TYPES = set()


def register_leaf_types(*classes):
    """Mark ``classes`` as leaves that ``is_nested`` answers at once (not a structure)."""
    _LEAF_TYPES.update(classes)


def _children(structure):
    if isinstance(structure, _abc.Mapping):
        return [structure[k] for k in _sorted_keys(structure)]
    return list(structure)


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError as err:
        raise TypeError("nest only supports dicts with sortable keys.") from err


def flatten(structure, expand_composites=False) -> list:
    """The leaves of ``structure`` in tf.nest order (``tf.nest.flatten``)."""
    if not is_nested(structure):
        return [structure]
    if _is_flat(structure):
        return list(structure)
    out = []
    stack = [structure]
    # Depth-first, left to right, without recursion limits.
    while stack:
        item = stack.pop()
        if is_nested(item):
            stack.extend(reversed(_children(item)))
        else:
            out.append(item)
    return out


def _rebuild(structure, children):
    if isinstance(structure, _abc.Mapping):
        keys = _sorted_keys(structure)
        by_key = dict(zip(keys, children))
        result = {k: by_key[k] for k in structure}
        if type(structure) is dict:
            return result
        try:
            return type(structure)(result)
        except TypeError:
            return result
    if _is_namedtuple(structure):
        return type(structure)(*children)
    if isinstance(structure, tuple):
        return tuple(children)
    if type(structure) is list:
        return children
    try:
        return type(structure)(children)
    except TypeError:
        return children


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuild ``structure`` with the leaves of ``flat_sequence`` (``tf.nest.pack_sequence_as``).

    Raises:
        ValueError: if the number of leaves does not match.
    """
    flat_sequence = list(flat_sequence)
    if _is_flat(structure):
        if len(flat_sequence) != len(structure):
            raise ValueError(
                f"Could not pack sequence. Structure had {len(structure)} atoms, but "
                f"flat_sequence had {len(flat_sequence)} items.")
        return flat_sequence if type(structure) is list else tuple(flat_sequence)
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(
                f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had "
            f"{len(flat_sequence)} items.")
    return _build(structure, iter(flat_sequence))


def _build(structure, leaves):
    # A module-level function, not a closure calling itself: such a closure is a reference
    # cycle that keeps the packed gradients alive until the cyclic collector runs.
    if not is_nested(structure):
        return next(leaves)
    return _rebuild(structure, [_build(c, leaves) for c in _children(structure)])


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raise ValueError (or TypeError) unless the two structures nest alike."""
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: "
            f"{nest1}\n\nSecond structure: {nest2}")
    if not is_nested(nest1):
        return
    if check_types and type(nest1) is not type(nest2):
        if not (isinstance(nest1, _abc.Mapping) and isinstance(nest2, _abc.Mapping)):
            raise TypeError(
                f"The two structures don't have the same sequence type. Input structure has "
                f"type {type(nest1)}, while shallow structure has type {type(nest2)}.")
    c1, c2 = _children(nest1), _children(nest2)
    if isinstance(nest1, _abc.Mapping) and _sorted_keys(nest1) != _sorted_keys(nest2):
        raise ValueError("The two dictionaries don't have the same set of keys.")
    if len(c1) != len(c2):
        raise ValueError(
            f"The two structures don't have the same number of elements.\n\nFirst structure "
            f"({len(c1)} elements): {nest1}\n\nSecond structure ({len(c2)} elements): {nest2}")
    for a, b in zip(c1, c2):
        assert_same_structure(a, b, check_types)


def map_structure(func, *structure, **kwargs):
    """Apply ``func`` leaf-wise over structures of the same shape (``tf.nest.map_structure``)."""
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])
