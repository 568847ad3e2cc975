"""``tf.compat.v1``: ``wrap_function`` (TF 2.21's ``tf.compat.v1.wrap_function``) and the
TF 1 signatures of ``space_to_batch``/``batch_to_space`` (with ``*_nd``)."""
from .._core import nest as _nest
from .._core.tensor import Tensor as _Tensor
from .._core.tensor import convert_to_tensor as _convert
from .._core.tensor_spec import TensorSpec as _TensorSpec
from .._core.variable import variable_creator_scope as _creator_scope
from ..function.ir import Interpret as _Interpret
from ..function.ir import execute as _execute
from ..ops.manip_ops import batch_to_space_nd, space_to_batch_nd
from ..ops.manip_ops import batch_to_space_v1 as batch_to_space
from ..ops.manip_ops import space_to_batch_v1 as space_to_batch

__all__ = ["batch_to_space", "batch_to_space_nd", "space_to_batch", "space_to_batch_nd",
           "wrap_function"]


class WrappedFunction:
    """What ``tf.compat.v1.wrap_function`` returns (TF's ``WrappedFunction``, a
    ConcreteFunction): callable on tensors of the signature, with ``graph``, ``inputs``,
    ``outputs``, ``structured_outputs``, ``structured_input_signature``, the variables its
    function created (``variables``, ``trainable_variables``) and ``prune``.
    """

    def __init__(self, concrete, variables, signature, fetch=None):
        self._concrete = concrete
        self._variables = variables
        self._signature = signature
        self._fetch = fetch     # prune: (step list, fed slots, fetched slots, structure)

    def __call__(self, *args):
        """Run the function on ``args`` (tensors, or values converted to the signature's
        dtypes); returns the function's result structure (a pruned function: its fetches)."""
        if self._fetch is None:
            return self._concrete(*args)
        steps, feeds, fetches, struct = self._fetch
        program = self._concrete.program
        if len(args) != len(feeds):
            raise TypeError(f"pruned function takes {len(feeds)} positional arguments, got "
                            f"{len(args)}")
        env = {s: _Tensor(v) for s, v in program.consts.items()}
        for s, a in zip(feeds, args):
            env[s] = _convert(a)
        leaves = [None] * len(program.inputs)
        run = _Interpret(program.var_arg_index, leaves)
        _execute(steps, env, run)
        flat = [env[s] for s in fetches]
        return _nest.pack_sequence_as(struct, flat)

    @property
    def graph(self):
        """The function's graph (``get_operations()``, ``as_graph_def()``, ...)."""
        return self._concrete.graph

    @property
    def inputs(self):
        """The graph's input tensors: the arguments' placeholders, then the captured
        variables' resource placeholders."""
        return self.graph.inputs

    @property
    def outputs(self):
        return self.graph.outputs

    @property
    def structured_outputs(self):
        return self._concrete.structured_outputs

    @property
    def structured_input_signature(self):
        """``((TensorSpec, ...), {})``: the signature's specs, unnamed ones ``tensor_<i>``."""
        return (tuple(_TensorSpec(s.shape, s.dtype, name=s.name or f"tensor_{i}")
                      for i, s in enumerate(self._signature)), {})

    @property
    def variables(self):
        return tuple(self._variables)

    @property
    def trainable_variables(self):
        return tuple(v for v in self._variables if v.trainable)

    def prune(self, feeds, fetches, name=None, input_signature=None):
        """A function of ``feeds`` (graph tensors of this function's graph: its
        placeholders or intermediate tensors) computing ``fetches`` (a graph tensor or a
        structure of them), running only the steps they need (TF's
        ``WrappedFunction.prune``).

        Raises:
            ValueError: a feed or fetch that is not a tensor of this graph.
        """
        slots = self._slots_by_name()
        feeds = list(feeds) if isinstance(feeds, (list, tuple)) else [feeds]
        flat = _nest.flatten(fetches)

        def slot(t, what):
            s = slots.get(getattr(t, "name", None))
            if s is None:
                raise ValueError(f"Can only prune function whose {what} are tensors of "
                                 f"its graph; got {t!r}.")
            return s
        fed = [slot(t, "feeds") for t in feeds]
        wanted = [slot(t, "fetches") for t in flat]
        steps = _slice(self._concrete.program.steps, set(fed), wanted)
        return WrappedFunction(self._concrete, self._variables, self._signature,
                               (steps, fed, wanted, fetches if _nest.is_nested(fetches)
                                else flat[0]))

    def _slots_by_name(self):
        fn, _lib, idents = self.graph._build()
        out = {}
        for s, (node, k) in fn.ref.items():
            if node is not None and isinstance(s, int):
                out.setdefault(f"{node}:{k}", s)
        for ident, s in zip(idents, [s for s in self._concrete.program.outputs
                                     if s is not None]):
            out[f"{ident}:0"] = s
        return out


def _slice(steps, fed, wanted):
    """The top-level steps that compute ``wanted`` slots from ``fed`` ones and the rest."""
    needed = set(wanted) - fed
    keep = []
    for step in reversed(steps):
        defs = set(step.defs())
        if defs & needed and not defs <= fed:
            keep.append(step)
            needed |= set(step.uses()) - fed
    return keep[::-1]


def wrap_function(fn, signature, name=None):
    """Trace ``fn`` once for ``signature`` into a graph function (``tf.compat.v1.
    wrap_function``): the variables ``fn`` creates are made once and kept (the
    function's ``variables``), later calls read their current values.

    Args:
        fn: a Python function of tensors (it may create ``tf.Variable``s).
        signature: a list of ``tf.TensorSpec`` (one per positional argument).
        name: ignored (TF's graph name).

    Returns:
        A :class:`WrappedFunction`.
    """
    from ..function import function as _function
    held = []
    state = {"i": 0}

    def creator(next_creator, **kwargs):
        i = state["i"]
        state["i"] += 1
        if i < len(held):
            return held[i]       # the trace after the first: the variables made once
        v = next_creator(**kwargs)
        held.append(v)
        return v

    def wrapped_function(*args):
        state["i"] = 0
        with _creator_scope(creator):
            return fn(*args)
    signature = list(signature or [])
    # TF's graph names an unnamed argument's placeholder "Placeholder" (then _1, ...)
    named = [_TensorSpec(s.shape, s.dtype, name=s.name or "Placeholder") for s in signature]
    f = _function(wrapped_function, input_signature=named, autograph=False)
    return WrappedFunction(f.get_concrete_function(), held, signature)
