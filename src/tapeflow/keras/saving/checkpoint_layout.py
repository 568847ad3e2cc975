"""Keras 3's layout in a ``tf.train.Checkpoint``: the named children of layers and optimizers.

Keras objects are seen as TensorFlow 2.21 + Keras 3 write them into a
``tf.train.Checkpoint``, so checkpoints move between the two:

- a layer: its weights by attribute, Keras 3's private names where it keeps them
  (``Dense``/``Conv*``: ``_kernel``, ``Embedding``: ``_embeddings``), sublayers by
  attribute (a recurrent layer's ``cell``);
- ``Sequential``: ``_functional/_operations/<i>``, ``Model(inputs, outputs)``:
  ``_operations/<i>`` (index 0 the input layer), then ``optimizer`` once compiled;
- an optimizer: ``_variables/<i>`` (``iterations``, ``learning_rate``, then each slot),
  ``_trainable_variables/<i>``, ``_iterations``, ``_learning_rate``, ``_momentums``,
  ``_velocities``.

:func:`register` hands this layout to ``checkpoint/tracking.py`` (which imports nothing of
Keras); ``keras/__init__.py`` calls it once.
"""
from ..._core.variable import as_variable
from ...checkpoint.tracking import (
    Placeholder,
    StructNode,
    attribute_children,
    holds_state,
    register_children,
)

__all__ = ["layer_children", "optimizer_children", "register"]

_RENAMES = {"Dense": {"kernel": "_kernel"}, "Conv2D": {"kernel": "_kernel"},
                  "Conv1D": {"kernel": "_kernel"}, "Conv3D": {"kernel": "_kernel"},
                  "Conv2DTranspose": {"kernel": "_kernel"},
                  "Embedding": {"embeddings": "_embeddings"}}
# Attributes that are structure, not state: Keras lays these out itself (below).
_SKIP = frozenset(("_own_weights", "_added_losses", "_layers", "_fn_layers",
                         "_fn_inputs", "_fn_outputs", "_slots", "_variables",
                         "_trainable_variables", "_iterations", "_learning_rate",
                         "_input_layer", "_slot_refs", "_index", "_seq_layers", "_seq_output",
                         "_states"))


def layer_children(layer):
    from ..models import Sequential
    out = []
    if isinstance(layer, Sequential):
        ops = [Placeholder()] + list(layer._layers)
        out.append(("_functional", StructNode([("_operations", ops)])))
    elif getattr(layer, "_fn_layers", None) is not None:
        out.append(("_operations", list(layer._fn_layers)))
    renames = {}
    for cls in type(layer).__mro__:
        renames.update(_RENAMES.get(cls.__name__, {}))
    own = {id(w) for w in layer._own_weights}
    attached = set()
    for name, value in vars(layer).items():
        if name in _SKIP or not holds_state(value):
            continue
        if as_variable(value) is not None:
            if id(value) not in own:
                continue
            attached.add(id(value))
            name = renames.get(name, name)
        out.append((name, value))
    names = {n for n, _ in out}
    for w in layer._own_weights:  # weights in no attribute (yet, inside add_weight): by name
        name = renames.get(w.name, w.name)
        if id(w) not in attached and name not in names:
            names.add(name)
            out.append((name, w))
    return out


def optimizer_children(opt):
    """Keras 3's layout: ``_variables`` (iterations, the learning rate unless a schedule,
    then the slots), ``_trainable_variables``, ``_iterations``, ``_learning_rate`` and the
    slot lists by attribute (``_momentums``, ``_velocities``...)."""
    lr = opt._learning_rate
    out = [("_variables", list(opt._variables)),
           ("_trainable_variables", list(getattr(opt, "_trainable_variables", []))),
           ("_iterations", opt._iterations)]
    if as_variable(lr) is not None:
        out.append(("_learning_rate", lr))
    out += [(n, v) for n, v in attribute_children(opt, _SKIP, empty_containers=False)]
    return out


def register():
    """Make Keras layers and optimizers trackable with Keras 3's layout."""
    from ..layers.layer import Layer
    from ..optimizers.optimizer import Optimizer
    register_children(Optimizer, optimizer_children)
    register_children(Layer, layer_children)
