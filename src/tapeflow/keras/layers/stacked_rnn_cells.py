"""StackedRNNCells (``tf.keras.layers.StackedRNNCells``): several RNN cells as one cell."""
from .. import _naming
from .layer import Layer

__all__ = ["StackedRNNCells"]


class StackedRNNCells(Layer):
    """Cells run one after another at each step, each cell's output the next one's input
    (``tf.keras.layers.StackedRNNCells``); wrap it in ``RNN`` for a stacked RNN in one layer.

    Args:
        cells: a list of cells (each with ``call`` and ``state_size``).

    ``state_size`` is the cells' state sizes concatenated into one flat list (Keras nests
    one list per cell): ``call(inputs, states)`` takes the states flat, in cell order, or
    nested one entry per cell, and returns ``(output, new_states)`` in the same form.

    Raises:
        ValueError: for a cell without ``call`` or ``state_size``.
    """

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError("All cells must have a `call` method. Received cell without "
                                 f"a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. Received "
                                 f"cell without a `state_size`: {cell}")
        self.cells = list(cells)

    @staticmethod
    def _sizes(cell):
        size = cell.state_size
        return list(size) if isinstance(size, (list, tuple)) else [size]

    @property
    def state_size(self):
        return [n for cell in self.cells for n in self._sizes(cell)]

    @property
    def output_size(self):
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        return self._sizes(last)[0]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with _naming.name_scope(cell.name, cell):
                    cell.build(tuple(input_shape))
                cell.built = True
            out = getattr(cell, "output_size", None)
            if out is None:
                out = self._sizes(cell)[0]
            input_shape = (input_shape[0], out)
        self.built = True

    def build_from_config(self, config):
        """Make the cells' weights for ``config["input_shape"]`` (called with states, a cell
        is built directly rather than by a call)."""
        if config and config.get("input_shape"):
            with _naming.name_scope(self.name, self):
                self.build(tuple(config["input_shape"]))
            self._build_shape = config["input_shape"]

    def call(self, inputs, states, training=False):
        states = list(states)
        nested = len(states) == len(self.cells) and all(
            isinstance(s, (list, tuple)) for s in states)
        new_states, at = [], 0
        for i, cell in enumerate(self.cells):
            n = len(self._sizes(cell))
            own = list(states[i]) if nested else states[at:at + n]
            at += n
            inputs, own = cell(inputs, own)
            new_states.append(list(own))
        if nested:
            return inputs, new_states
        return inputs, [s for group in new_states for s in group]

    def get_config(self):
        from ..saving.serialization import serialize_keras_object
        return dict(super().get_config(),
                    cells=[serialize_keras_object(c) for c in self.cells])

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        cells = [deserialize_keras_object(c, custom_objects=custom_objects)
                 for c in config.pop("cells")]
        return cls(cells, **config)
