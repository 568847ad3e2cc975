"""The dtype policies (Keras 3's ``keras.src.dtype_policies``): ``DTypePolicy``, the global
policy and its setters. The bottom floor of Keras: ``keras.config`` and every layer read
it; it imports nothing of Keras."""
from ..._core import dtypes as _dt

__all__ = ["DTypePolicy", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy"]

_INVALID = ("Cannot convert '{}' to a mixed precision DTypePolicy. Valid policies include "
            "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
            "'float32'.")


class DTypePolicy:
    """A layer's dtype policy: the dtype its computations run in and the dtype of its
    variables (``keras.DTypePolicy``, ``tf.keras.mixed_precision.Policy``).

    Args:
        name: ``"mixed_float16"`` (compute float16, variables float32), ``"mixed_bfloat16"``
            (compute bfloat16, variables float32), or a dtype name (``"float32"``, ...)
            used for both. Default: the global policy's name.

    Raises:
        ValueError: for a name that is neither (Keras 3's text).
    """

    __slots__ = ("_name", "_compute", "_variable")

    def __init__(self, name=None):
        if name is None:
            name = global_policy().name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. "
                            f"Received: name={name} (of type {type(name)})")
        if name in ("mixed_float16", "mixed_bfloat16"):
            compute, variable = _dt.as_dtype(name[6:]), _dt.float32
        else:
            try:
                compute = variable = _dt.as_dtype(name)
            except TypeError:
                raise ValueError(_INVALID.format(name)) from None
        self._name = name
        self._compute = compute
        self._variable = variable

    @property
    def name(self) -> str:
        """The policy's name (``"mixed_float16"``)."""
        return self._name

    @property
    def compute_dtype(self) -> str:
        """The dtype name layers compute in (``"float16"`` for ``mixed_float16``)."""
        return self._compute.name

    @property
    def variable_dtype(self) -> str:
        """The dtype name of the layers' variables (``"float32"`` for ``mixed_float16``)."""
        return self._variable.name

    @property
    def _np(self):  # the compute dtype as NumPy's (what the layers' dummy inputs take)
        return self._compute._np

    @property
    def _mixed(self) -> bool:
        return self._compute is not self._variable

    def get_config(self) -> dict:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return type(other) is type(self) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


Policy = DTypePolicy

_global = [None]


def _get(value):
    """A policy from a policy, a name, a DType or a Keras DTypePolicy config dict."""
    if value is None:
        return global_policy()
    if isinstance(value, DTypePolicy):
        return value
    if isinstance(value, dict):
        value = value.get("config", {}).get("name") or value.get("name")
    elif not isinstance(value, str):
        value = _dt.as_dtype(value).name
    return DTypePolicy(value)


def global_policy() -> DTypePolicy:
    """The policy layers made without ``dtype`` take (``keras.config.dtype_policy``). Unset,
    it is made from ``keras.config.floatx()`` on its first read and kept, as in Keras 3: a
    later ``set_floatx`` no longer changes it."""
    if _global[0] is None:
        from ..backend import floatx
        _global[0] = DTypePolicy(floatx())
    return _global[0]


def set_global_policy(policy):
    """Set the global policy (``keras.config.set_dtype_policy``): a ``DTypePolicy`` or its
    name (``"mixed_float16"``, ``"mixed_bfloat16"``, ``"float32"``, ...).

    Raises:
        ValueError: for None or a name that names no policy (Keras 3's texts).
    """
    if not isinstance(policy, (str, DTypePolicy)):
        raise ValueError("Invalid `policy` argument. Expected the string name of a policy "
                         "(such as 'mixed_float16') or a `DTypePolicy` instance. Received: "
                         f"policy={policy} (of type {type(policy)})")
    _global[0] = _get(policy)


dtype_policy = global_policy
set_dtype_policy = set_global_policy
