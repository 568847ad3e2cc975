"""KerasVariable: a tapeflow Variable that names and prints itself as Keras 3's variables do."""
from .._core.variable import Variable
from . import _naming

__all__ = ["KerasVariable"]


class KerasVariable(Variable):
    """A Variable whose ``name`` is its short name (``kernel``, no ``:0``) and whose
    ``path`` adds the layer scopes (``sequential/dense/kernel``), as in Keras 3.

    Tapes, ops and optimizers treat it exactly as a ``Variable``.

    Args:
        initial_value: the value (Tensor, array, or a callable returning one).
        name: the short name.
        trainable: whether tapes watch it when it is read.
        dtype: optional DType.
    """

    __slots__ = ("_path", "regularizer", "_initial")
    # tf.variable_creator_scope's creators see an initializer callable and a dtype name,
    # as for Keras 3's weights on TensorFlow
    _creator_callable_value = True

    def __init__(self, initial_value, name="variable", trainable=True, dtype=None):
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype)
        self._name = name  # Keras names ignore tf.name_scope
        self._path = _naming.current_path(self._name)
        self.regularizer = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def path(self) -> str:
        return self._path

    # Keras 3's variables return the new value as a tensor, not TensorFlow's UnreadVariable.
    def assign(self, value):
        super().assign(value, read_value=False)
        return self.read_value()

    def assign_add(self, value):
        super().assign_add(value, read_value=False)
        return self.read_value()

    def assign_sub(self, value):
        super().assign_sub(value, read_value=False)
        return self.read_value()

    def __repr__(self):
        v = self._value  # lint: allow (printing shows the value, as Keras's repr does)
        text = str(v.item()) if v.ndim == 0 else str(v)
        return (f"<Variable path={self._path}, shape={tuple(v.shape)}, "
                f"dtype={self.dtype.name}, value={text}>")

    __str__ = __repr__
