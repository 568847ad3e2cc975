"""A ``tf.function``'s concrete functions: one trace's program for one input signature, and
the graph stand-ins (``graph.get_operations()``) TensorFlow users read from it.

TF's counterpart is ``tensorflow/python/eager/polymorphic_function/concrete_function.py``.
"""
import os

from .._core import dispatch
from .._core import errors as _errors
from .._core import nest as _nest
from .._core import numerics_mode as _numerics
from .._core.tensor import Tensor, TensorShape, _TensorLike, convert_to_tensor
from .codegen import compile_program
from .function_type import _arg_name, _args_text, _is_composite, _pack
from .program import GuardFailed
from .trace_type import TensorSpec, has_spec_composite, is_subtype, is_tensor_key, make_key

__all__ = ["ConcreteFunction", "direct_caller"]


def _env_flag(name):
    return os.environ.get(name, "") not in ("", "0", "false", "False")


# Read once: a call must not pay for the environment. TAPEFLOW_VALIDATE_FUNCTIONS=1 checks
# every replay against an eager run of the body (the soundness switch).
_VALIDATE = [_env_flag("TAPEFLOW_VALIDATE_FUNCTIONS")]


class ConcreteFunction:
    """One trace of a ``tf.function``: a program for one input signature
    (``tf.types.experimental.ConcreteFunction``).

    Attributes:
        structured_input_signature: ``(args, kwargs)`` with TensorSpecs for tensor arguments.
        structured_outputs: the output structure, TensorSpecs for tensors.
        graph: the program as TF's graph (``graph_def.GraphView``).
    """

    def __init__(self, function, key, program, out_struct, in_signature, name, relaxed,
                 relaxed_sizes=()):
        self._function = function
        self._key = key
        self.program = program
        self._out_struct = out_struct
        self.structured_input_signature = in_signature
        self.name = name
        self.relaxed = relaxed
        self._relaxed_sizes = tuple(relaxed_sizes) if relaxed else ()
        self._single = (len(program.outputs) == 1 and not _nest.is_nested(out_struct)
                        and not _is_composite(out_struct))
        # A relaxed trace's program may serve other shapes: no fixed-shape buffers there.
        self.source, self._run = compile_program(program, _identifier(name), self._single,
                                                 buffers=not relaxed)
        counter = iter(range(1 << 30))
        shapes = _output_shapes(program, out_struct, relaxed_sizes if relaxed else ())
        if relaxed and any(r is not None and r.rank is None
                           for _, _, r in program.input_specs.values()):
            shapes.update(_unknown_rank_outputs(program, out_struct))
        self.structured_outputs = _nest.map_structure(
            lambda t: t if t is None or _is_composite(t) else _SymbolicOutput(
                t, next(counter), relaxed_sizes, shapes.get(id(t))),
            out_struct) if out_struct is not None else None
        # A relaxed trace whose steps hold no value of a relaxed dimension serves every
        # concrete shape with the same program (no Python re-run, as TensorFlow).
        # Traced for a RaggedTensorSpec: each partition is its own variant of the program
        # (``Function._partition_call``); the trace's own partition is ``_traced_key``'s.
        self.partitioned = has_spec_composite(key)
        self._partitions = {}
        self._traced_key = None
        self.shape_generic = (relaxed and not self.partitioned and
                              program.shape_generic(relaxed_sizes))
        # (program, run) that serves every shape of this relaxed signature: this trace's,
        # or a later variant's when this one is not generic (traced at batch size 1, say)
        self.generic = (program, self._run) if self.shape_generic else None
        self.n_sized = 0   # shapes the generic program was compiled with buffers for
        self.traced_ranks = ()

    @property
    def graph(self):
        """The program as TF's graph (``as_graph_def()``, ``get_operations()``, ``inputs``,
        ``outputs``, ``captures``): ``graph_def.GraphView``."""
        g = self.__dict__.get("_graph")
        if g is None:
            from .graph_def import GraphView
            g = self.__dict__["_graph"] = GraphView(self)
        return g

    @property
    def outputs(self):
        """The flat list of the graph's output tensors (``Identity:0``, ...), as
        ``structured_outputs`` holds them (``ConcreteFunction.outputs``)."""
        return [t for t in _nest.flatten(self.structured_outputs)
                if isinstance(t, _SymbolicOutput)]

    def __call__(self, *args, **kwargs):
        """Run the program on arguments that fit the trace.

        As TensorFlow's concrete functions: arguments bind by position or name to the
        structured signature (a Python-value parameter may be left out: it is fixed), else to
        the flat signature of its tensor parameters; values convert to the tensor
        parameter's dtype; a tensor of another shape runs (the program steps through
        dispatch).

        Raises:
            TypeError: arguments that bind to neither signature, or a Python value other
                than the traced one (TensorFlow's "Binding inputs ..." text).
            tf.errors.InvalidArgumentError: a tensor of another dtype.
        """
        if not kwargs:
            key, leaves = make_key(args, kwargs)
            if is_subtype(key, self._key):
                if self.partitioned and key != self._traced_key:
                    return self._function._partition_call(self, key, leaves, args, kwargs)
                return self._execute(self.program, self._run, leaves)
        args, kwargs = self._bind_call(args, kwargs)
        key, leaves = make_key(args, kwargs)
        if is_subtype(key, self._key):
            if self.partitioned and key != self._traced_key:
                return self._function._partition_call(self, key, leaves, args, kwargs)
            return self._execute(self.program, self._run, leaves)
        ours, traced = _tensor_keys(key), _tensor_keys(self._key)
        for i, (k, t) in enumerate(zip(ours, traced)):
            if k[1] != t[1]:
                self._function._inference_id = getattr(self._function, "_inference_id", 0) \
                    or next(_INFERENCE_IDS)
                op = f"__inference_{_identifier(self.name)}_{self._function._inference_id}"
                raise _errors.InvalidArgumentError(
                    None, None, f"cannot compute {op} as input #{i}(zero-based) was expected "
                    f"to be a {_c_name(t[1])} tensor but is a {_c_name(k[1])} tensor "
                    f"[Op:{op}]")
        # Other shapes (TensorFlow runs the graph on them): step through dispatch.
        return self._pack(self.program.interpret(leaves))

    def _user_named(self):
        """id of each input spec -> the name the user's ``input_signature`` gave it."""
        user = self._function._input_signature
        if user is None:
            return {}
        return {id(mine): given.name for mine, given in zip(
            _nest.flatten(self.structured_input_signature), _nest.flatten(user))
            if isinstance(mine, TensorSpec) and given.name}

    def _slots(self):
        """The structured signature as ``[(name, spec or literal, keyword_only)]``."""
        spec_args, spec_kwargs = self.structured_input_signature
        names = self._function._param_names
        out = [(_arg_name(names, i), s, False) for i, s in enumerate(spec_args)]
        return out + [(k, v, True) for k, v in spec_kwargs.items()]

    def _bind_call(self, args, kwargs):
        import inspect
        slots = self._slots()
        P = inspect.Parameter
        try:
            # a literal before a tensor parameter (``f(model, x)`` traced with a Python
            # object) makes no Python signature: only the flat one (the tensors) binds
            structured = inspect.Signature([
                P(n, P.KEYWORD_ONLY if kw else P.POSITIONAL_OR_KEYWORD,
                  default=P.empty if _has_spec(s) else s) for n, s, kw in slots])
        except ValueError as err:
            structured = None
            flat_err = TypeError(str(err))
        try:
            if structured is None:
                raise flat_err
            bound = structured.bind(*args, **kwargs)
            bound.apply_defaults()
            for n, s, _ in slots:
                if not _has_spec(s) and make_key((bound.arguments[n],), {})[0] != \
                        make_key((s,), {})[0]:
                    raise TypeError(f"Can not cast {bound.arguments[n]!r} to "
                                    f"{_type_text(s, True)}")
            values = bound.arguments
        except TypeError as err:
            values = self._bind_flat(args, kwargs, slots, err)
        for n, s, _ in slots:
            if isinstance(s, TensorSpec) and not isinstance(values[n], _TensorLike):
                try:
                    values[n] = convert_to_tensor(values[n], dtype=s.dtype)
                except (TypeError, ValueError):
                    values[n] = convert_to_tensor(values[n])
        return (tuple(values[n] for n, _, kw in slots if not kw),
                {n: values[n] for n, _, kw in slots if kw})

    def _bind_flat(self, args, kwargs, slots, structured_err):
        flat = [n for n, s, _ in slots if _has_spec(s)]
        head = f"{self._function._name}({', '.join(flat)})"
        extra = [k for k in kwargs if k not in flat]
        missing = [n for n in flat[len(args):] if n not in kwargs]
        if len(args) > len(flat):
            why = f"{head} takes {len(flat)} positional arguments, got {len(args)}."
        elif missing:
            why = f"{head} missing required arguments: {', '.join(missing)}."
        elif extra:
            why = f"{head} got unexpected keyword arguments: {', '.join(extra)}."
        else:
            values = dict(zip(flat, args))
            values.update(kwargs)
            for n, s, _ in slots:
                values.setdefault(n, s)
            return values
        params = ", ".join(f"{n}: {_type_text(s, True, self._user_named())}"
                           for n, s, _ in slots)
        raise TypeError(
            f"Binding inputs to tf.function failed due to `{structured_err}`. Received args: "
            f"{_args_text(args)} and kwargs: {kwargs} for signature: ({params}) -> "
            f"{_type_text(self.structured_outputs)}.\nFallback to flat signature also failed "
            f"due to: {why}") from None

    def _execute(self, program, run, leaves):
        if dispatch.ACTIVE[0]:
            if dispatch.tape_stack() or dispatch.current_tracer():
                outs = program.interpret(leaves)
                return _pack(_struct_of(program, self), outs)
            if _numerics.enabled():   # tf.debugging.enable_check_numerics: op by op
                with _numerics.in_function(getattr(self._function, "_name", None)):
                    return _pack(_struct_of(program, self),
                                 program.interpret(leaves))
        args = [leaf if program.inputs[i] is None else leaf._value
                for i, leaf in enumerate(leaves)]
        try:
            values = run(*args)
        except GuardFailed:
            raise
        except Exception:
            # The same steps through dispatch raise the eager class and text, with the
            # user's line recorded at trace time.
            program.interpret(leaves)
            raise
        if self._single:
            return None if values is None else Tensor(values)
        own = program.out_struct    # compared with None: a RaggedTensor has no truth value
        return _pack(self._out_struct if own is None else own,
                     [None if v is None else Tensor(v) for v in values])

    def _pack(self, outs):
        return _pack(self._out_struct, outs)

    def pretty_printed_signature(self, verbose=True):
        args, kwargs = self.structured_input_signature
        names = self._function._param_names
        lines = ["Input Parameters:"]
        named = self._user_named()
        for i, a in enumerate(args):
            kind = "POSITIONAL_OR_KEYWORD" if i < len(names) else "POSITIONAL_ONLY"
            lines.append(f"  {_arg_name(names, i)} ({kind}): {_type_text(a, True, named)}")
        for k, a in kwargs.items():
            lines.append(f"  {k} (KEYWORD_ONLY): {_type_text(a, True, named)}")
        lines.append("Output Type:")
        lines.append(f"  {_type_text(self.structured_outputs)}")
        lines.append("Captures:")
        caps = [v for v in self.program.variables if id(v) not in self.program.var_arg_index]
        if caps:
            for v in caps:
                lines.append(f"  {id(v)}: TensorSpec(shape={v.shape}, dtype=tf.resource, "
                             f"name=None)")
        else:
            lines.append("  None")
        return "\n".join(lines)

    @property
    def inference_fn(self):
        """The function's one graph function (TensorFlow's ``AtomicFunction``): called with
        the flat tensor arguments by position."""
        return _AtomicFunction(self)

    @property
    def function_type(self):
        """The signature as TensorFlow's ``FunctionType``: prints as
        ``(a: TensorSpec(...)) -> TensorSpec(...)``; ``parameters`` and
        ``output`` hold the parts."""
        args, kwargs = self.structured_input_signature
        names = self._function._param_names
        named = self._user_named()
        params = [(_arg_name(names, i), _type_text(a, True, named)) for i, a in enumerate(args)]
        params += [(k, _type_text(a, True, named)) for k, a in kwargs.items()]
        return FunctionType(params, _type_text(self.structured_outputs))

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return f"<ConcreteFunction {self.name} at 0x{id(self):X}>"


class _AtomicFunction:
    """``ConcreteFunction.inference_fn``: the trace called with its flat tensor inputs."""

    def __init__(self, concrete):
        self._concrete = concrete
        self.name = f"__inference_{concrete.name}"

    def __call__(self, *args):
        return self._concrete(*args)

    def __repr__(self):
        return f"<AtomicFunction> {self.name}"


class FunctionType:
    """A concrete function's signature (``ConcreteFunction.function_type``), as
    TensorFlow's ``FunctionType`` prints it: ``(name: type, ...) -> output type``."""

    def __init__(self, parameters, output):
        self.parameters = dict(parameters)
        self.output = output

    def __str__(self):
        inner = ", ".join(f"{k}: {v}" for k, v in self.parameters.items())
        return f"({inner}) -> {self.output}"

    __repr__ = __str__


def _type_text(x, inputs=False, named=None):
    """A signature element as TensorFlow's function types print it. Input specs print with
    the name the user gave (``named``: id of spec -> name), else ``name=None``
    (TensorFlow's ``structured_input_signature`` names every parameter, its printed
    function type only those named by hand)."""
    named = named or {}
    if isinstance(x, TensorSpec):
        return repr(TensorSpec(x.shape, x.dtype, named.get(id(x))) if inputs else x)
    if isinstance(x, _SymbolicOutput):
        return repr(TensorSpec(x.shape, x.dtype))
    if x is None:
        return "Literal[None]"
    if hasattr(x, "value_type"):   # a composite's spec (RaggedTensorSpec)
        return repr(x)
    if hasattr(x, "__tf_relax_meta__"):   # a composite output (a RaggedTensor)
        return repr(x._type_spec)
    if isinstance(x, (list, tuple)):
        name = "Tuple" if isinstance(x, tuple) else "List"
        return f"{name}[{', '.join(_type_text(e, inputs, named) for e in x)}]"
    if isinstance(x, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_type_text(v, inputs, named)}]"
                                   for k, v in x.items()) + "]"
    return f"Literal[{x!r}]"


def _has_spec(x):
    return any(isinstance(e, TensorSpec) for e in _nest.flatten(x))


def _tensor_keys(key):
    if is_tensor_key(key):
        return [key]
    if type(key) is tuple:
        return [k for e in key for k in _tensor_keys(e)]
    return []


def _c_name(np_dtype):
    from .._core.dtypes import as_dtype
    from .._core.tensor import _C_NAMES
    name = as_dtype(np_dtype).name
    return _C_NAMES.get(name, name)


_INFERENCE_IDS = iter(range(1, 1 << 62))


def direct_caller(fn, concrete):
    """A callable running ``concrete`` (a trace of ``fn``) on tensors through its compiled
    program (``ConcreteFunction._execute``), without ``fn``'s call binding (5 us a call
    less; ``Dataset.map`` calls it per element), when one program serves every call (no
    guard, no variable argument); else ``fn`` itself. A failed guard, or the soundness
    switch, takes ``fn``'s own call; an op error raises with its eager class and text."""
    program, run = concrete.generic or (concrete.program, concrete._run)
    if (program.n_guards or any(s is None for s in program.inputs) or _VALIDATE[0]
            or (concrete.relaxed and concrete.generic is None)):
        return fn

    def call(*tensors):
        try:
            return concrete._execute(program, run, list(tensors))
        except GuardFailed:
            return fn(*tensors)
    return call


def _output_shapes(program, out_struct, relaxed_sizes):
    """``{id(output tensor): shape with None dims}`` of a relaxed trace's outputs, from
    ``Program.relaxed_output_shapes``; {} when the probe cannot tell. The flat outputs are
    ``program.outputs`` in order, a composite output taking one slot per component."""
    shapes = program.relaxed_output_shapes(relaxed_sizes) if out_struct is not None else None
    if not shapes:
        return {}
    out, k = {}, 0
    for t in _nest.flatten(out_struct):
        if _is_composite(t):
            k += len(t.__tf_flatten__()[1])
            continue
        if t is not None and k < len(program.outputs) and program.outputs[k] in shapes:
            out[id(t)] = shapes[program.outputs[k]]
        k += 1
    return out if k == len(program.outputs) else {}


def _unknown_rank_outputs(program, out_struct):
    """``{id(output tensor): None}`` for the outputs computed from an argument traced with
    a shape of unknown rank (``TensorSpec(None)``): TF's graph knows no rank for them."""
    from .graph_def import _Info
    try:
        unknown = _Info(program).unknown_rank
    except Exception:  # noqa: BLE001 - no static shape known: the traced one shows
        return {}
    out, k = {}, 0
    for t in _nest.flatten(out_struct):
        if _is_composite(t):
            k += len(t.__tf_flatten__()[1])
            continue
        if t is not None and k < len(program.outputs) and program.outputs[k] in unknown:
            out[id(t)] = _UNKNOWN_RANK
        k += 1
    return out


_UNKNOWN_RANK = object()


class _SymbolicOutput:
    """An output of a concrete function as TensorFlow prints it (``Tensor("Identity:0", ...)``);
    dims that follow the trace's relaxed sizes show as None: found by a probe run at other
    sizes when ``shape`` is given, else the dims equal to a relaxed size."""

    def __init__(self, t, index, relaxed_sizes, shape=None):
        dims = list(t._value.shape)
        if shape is _UNKNOWN_RANK:
            self.shape = TensorShape(None)
        elif shape is not None and len(shape) == len(dims):
            self.shape = TensorShape(list(shape))
        else:
            self.shape = TensorShape([None if d in relaxed_sizes else d for d in dims])
        self.dtype = t.dtype
        self.name = "Identity:0" if index == 0 else f"Identity_{index}:0"

    def __str__(self):
        if self.shape.rank is None:
            return f'Tensor("{self.name}", dtype={self.dtype.name})'
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


def _identifier(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out and not out[0].isdigit() else "f_" + out


def _struct_of(program, concrete):
    """The output structure a program's outputs pack into: a partition variant's own, else
    its trace's (``is None``, not truth: a RaggedTensor has no truth value)."""
    own = program.out_struct
    return concrete._out_struct if own is None else own
