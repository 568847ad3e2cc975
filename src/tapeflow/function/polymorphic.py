"""``tf.function``: trace once, replay a compiled program, with TensorFlow 2.21's semantics.

A call computes its trace key (``trace_type.py``). On a miss the Python body runs once with
real values under a :class:`~tapeflow.function.tracer.Tracer`, which records every primitive,
variable read and write and Python read of a value; the result is a
:class:`ConcreteFunction` holding the program and its compiled form (``codegen.py``). Later
calls with a matching key run the compiled program: no user Python, no Tensor between ops.

What TensorFlow users see is TensorFlow's: trace counts (a first call that creates variables
traces twice), Python side effects only while tracing, ``tf.print`` on every call (after the
trace's Python output), TF's errors for variables created on later calls, for
``input_signature`` mismatches and for bad return values, the frequent-retracing warning.
Beyond TensorFlow: :meth:`Function.experimental_trace_report` says why each trace happened.

Where a replay cannot be the compiled program it is still the program, not the Python body:
under an outer ``GradientTape`` or ``ForwardAccumulator`` (or inside another function's trace)
the steps run as tapeflow ops, so outer tapes record them. A Python read of a tensor value
(``if t > 0:`` without AutoGraph) becomes a *guard*: a replay that reads another value runs
the body again for a new variant of the program (logged in the report; at most 8 variants,
then the function runs eagerly).
"""
import contextlib
import functools
import inspect
import io
import os
import sys
import threading
import weakref

from .. import config as _config
from .._core import dispatch
from .._core import errors as _errors
from .._core import nest as _nest
from .._core.tensor import Tensor, TensorShape, _TensorLike, convert_to_tensor
from ..config import _eager as _EAGER
from .codegen import compile_program
from .program import GuardFailed, Program, _add_site, op_type
from .trace_type import (
    TensorSpec,
    generalize,
    is_subtype,
    is_tensor_key,
    make_key,
    ranks,
    specificity,
)
from .tracer import _OP_NAMES, _PACKAGE, NON_FIRST_TEXT, SINGLETON_TEXT, Tracer, retire

__all__ = ["Function", "ConcreteFunction"]

MAX_VARIANTS = 8
MAX_SIZED = 16       # shapes a relaxed generic program gets buffers compiled for
_SHAPE_ERRORS = ("Matrix size-incompatible", "Incompatible shapes", "Input to reshape is",
                 "ConcatOp : Dimension", "Dimensions must be equal", "In[0] mismatch In[1]")
_HISTORY = 10       # TensorFlow's FREQUENT_TRACING_WARNING_MAX_CALL_HISTORY
_THRESHOLD = 5      # FREQUENT_TRACING_WARNING_THRESHOLD
_MAX_WARNINGS = 2   # FREQUENT_TRACING_WARNING_MAX_WARNING_PER_DETECTOR


def _env_flag(name):
    return os.environ.get(name, "") not in ("", "0", "false", "False")


# Read once: a call must not pay for the environment. TAPEFLOW_RUN_FUNCTIONS_EAGERLY=1 is
# tf.config.run_functions_eagerly(True) for a whole run; TAPEFLOW_VALIDATE_FUNCTIONS=1 checks
# every replay against an eager run of the body (the soundness switch).
if _env_flag("TAPEFLOW_RUN_FUNCTIONS_EAGERLY"):
    _config._eager["functions"] = True
_VALIDATE = [_env_flag("TAPEFLOW_VALIDATE_FUNCTIONS")]
# TAPEFLOW_STRICT_FUNCTIONS=1: a trace that leaves guards (Python read a tensor's value) or
# constants made outside the op layer in its program raises instead of noting it.
_STRICT = [_env_flag("TAPEFLOW_STRICT_FUNCTIONS")]


class _Detector:
    """TensorFlow's ``_FrequentTracingDetector``: one per Python code object, shared by
    every ``tf.function`` of it (so functions re-created in a loop add up)."""

    __slots__ = ("calls", "count", "warnings", "__weakref__")

    def __init__(self):
        self.calls = []
        self.count = 0
        self.warnings = 0

    def traced(self, fn, detail):
        self.count += 1
        self.calls.append(1)
        while self.calls and self.count - self.calls[0] > _HISTORY:
            self.count -= self.calls.pop(0)
        if self.warnings >= _MAX_WARNINGS or len(self.calls) < _THRESHOLD:
            return
        self.warnings += 1
        sys.stderr.write(
            f"WARNING:tensorflow:{len(self.calls)} out of the last {self.count} calls to "
            f"{fn} triggered tf.function retracing. Tracing is expensive and the excessive "
            "number of tracings could be due to (1) creating @tf.function repeatedly in a "
            "loop, (2) passing tensors with different shapes, (3) passing Python objects "
            "instead of tensors. For (1), please define your @tf.function outside of the "
            "loop. For (2), @tf.function has reduce_retracing=True option that can avoid "
            "unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.\n")
        if detail:
            sys.stderr.write(f"WARNING:tapeflow:{detail}\n")

    def not_traced(self):
        if not self.calls:
            self.calls = [0]
        self.calls[-1] += 1
        self.count += 1


_detectors = weakref.WeakKeyDictionary()
_detectors_lock = threading.Lock()


def _detector(code):
    with _detectors_lock:
        d = _detectors.get(code)
        if d is None:
            d = _detectors[code] = _Detector()
        return d


class _Graph:
    """What ``ConcreteFunction.graph`` shows of a program: its operations (TF op types, node
    names as TensorFlow's Python API gives them by default, input node names) in order."""

    def __init__(self, program, param_names):
        self._nodes = _graph_nodes(program, param_names)

    def get_operations(self):
        return [_Operation(*n) for n in self._nodes]

    def as_graph_def(self):
        """A ``GraphDef``-like view: ``.node`` lists objects with ``name``, ``op`` and
        ``input`` (a list of node names, ``name:k`` for an op's k-th output)."""
        return _GraphDef([_Operation(*n) for n in self._nodes])


class _GraphDef:
    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node


class _Operation:
    __slots__ = ("type", "name", "input")

    def __init__(self, type_, name, inputs):
        self.type = type_
        self.name = name
        self.input = inputs

    @property
    def op(self):
        return self.type

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def _graph_nodes(program, param_names):
    """``[(type, name, inputs)]`` for a program's placeholders, constants, steps and
    output identities; a slot's producer is named ``node`` or ``node:k``."""
    nodes, producer, used = [], {}, {}

    def unique(base):
        n = used.get(base, 0)
        used[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def add(type_, base, ins, outs=()):
        name = unique(base)
        nodes.append((type_, name, [producer.get(i, "?") for i in ins]))
        for k, o in enumerate(outs):
            producer[o] = name if k == 0 else f"{name}:{k}"

    names = iter(param_names)
    for slot in program.inputs:
        if slot is not None:
            add("Placeholder", next(names, "args"), (), (slot,))
    for slot in program.consts:
        add("Const", "Const", (), (slot,))
    for step in program.steps:
        kind, type_ = step[0], op_type(step)
        if type_ is None:
            continue
        if kind == "op":
            add(type_, _OP_NAMES.get(type_, type_), step[2], step[4])
        elif kind == "read":
            add(type_, "ReadVariableOp", (), (step[2],))
        elif kind == "assign":
            add(type_, type_, (step[3],))
        elif kind in ("call", "switch", "while", "dataset"):
            add(type_, type_, step[2] if kind == "call" else step[1], step[3])
    for slot in program.outputs:
        if slot is not None:
            add("Identity", "Identity", (slot,))
    return nodes


class ConcreteFunction:
    """One trace of a ``tf.function``: a program for one input signature
    (``tf.types.experimental.ConcreteFunction``).

    Attributes:
        structured_input_signature: ``(args, kwargs)`` with TensorSpecs for tensor arguments.
        structured_outputs: the output structure, TensorSpecs for tensors.
        graph: ``get_operations()`` lists the recorded ops under TF's op type names.
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
        self._single = (len(program.outputs) == 1 and not _nest.is_nested(out_struct)
                        and not _is_composite(out_struct))
        # A relaxed trace's program may serve other shapes: no fixed-shape buffers there.
        self.source, self._run = compile_program(program, _identifier(name), self._single,
                                                 buffers=not relaxed)
        counter = iter(range(1 << 30))
        shapes = _output_shapes(program, out_struct, relaxed_sizes if relaxed else ())
        self.structured_outputs = _nest.map_structure(
            lambda t: t if t is None or _is_composite(t) else _SymbolicOutput(
                t, next(counter), relaxed_sizes, shapes.get(id(t))),
            out_struct) if out_struct is not None else None
        # A relaxed trace whose steps hold no value of a relaxed dimension serves every
        # concrete shape with the same program (no Python re-run, as TensorFlow).
        self.shape_generic = relaxed and program.shape_generic(relaxed_sizes)
        # (program, run) that serves every shape of this relaxed signature: this trace's,
        # or a later variant's when this one is not generic (traced at batch size 1, say)
        self.generic = (program, self._run) if self.shape_generic else None
        self.n_sized = 0   # shapes the generic program was compiled with buffers for
        self.traced_ranks = ()

    @property
    def graph(self):
        return _Graph(self.program, [n for n, spec, _ in self._slots() if _has_spec(spec)])

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
                return self._execute(self.program, self._run, leaves)
        args, kwargs = self._bind_call(args, kwargs)
        key, leaves = make_key(args, kwargs)
        if is_subtype(key, self._key):
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
        structured = inspect.Signature([
            P(n, P.KEYWORD_ONLY if kw else P.POSITIONAL_OR_KEYWORD,
              default=P.empty if _has_spec(s) else s) for n, s, kw in slots])
        try:
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
        if dispatch.ACTIVE[0] and (dispatch.tape_stack() or dispatch.current_tracer()):
            outs = program.interpret(leaves)
            return self._pack(outs)
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
        return self._pack([None if v is None else Tensor(v) for v in values])

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

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return f"<ConcreteFunction {self.name} at 0x{id(self):X}>"


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


class _SymbolicOutput:
    """An output of a concrete function as TensorFlow prints it (``Tensor("Identity:0", ...)``);
    dims that follow the trace's relaxed sizes show as None: found by a probe run at other
    sizes when ``shape`` is given, else the dims equal to a relaxed size."""

    def __init__(self, t, index, relaxed_sizes, shape=None):
        dims = list(t._value.shape)
        if shape is not None and len(shape) == len(dims):
            self.shape = TensorShape(list(shape))
        else:
            self.shape = TensorShape([None if d in relaxed_sizes else d for d in dims])
        self.dtype = t.dtype
        self.name = "Identity:0" if index == 0 else f"Identity_{index}:0"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


def _identifier(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out and not out[0].isdigit() else "f_" + out


class _Variants:
    """The programs that serve one exact trace key: the trace's own, then re-specialized
    variants (another guard outcome; a relaxed trace's new concrete shapes)."""

    __slots__ = ("owner", "programs", "fast", "single")

    def __init__(self, owner, programs=None):
        self.owner = owner
        self.programs = programs if programs is not None else []
        self.fast = None
        self.single = owner._single
        if len(self.programs) == 1:
            program, run = self.programs[0]
            if not program.n_guards and all(s is not None for s in program.inputs) \
                    and not _VALIDATE[0]:
                self.fast = run


class Function:
    """A Python function wrapped by ``tf.function``: traced on the first call of each input
    signature, replayed after (``tf.types.experimental.PolymorphicFunction``).

    Args:
        python_function: the function.
        input_signature: optional list of TensorSpecs fixing the one signature it accepts.
        autograph: accepted (Python control flow on tensors records guards, see the module).
        reduce_retracing: generalize shapes to ``None`` dims instead of retracing per shape.
        name: the name (default the function's ``__name__``).

    Raises (on call):
        TypeError: arguments that do not bind to ``input_signature``; a return value that is
            not tensors/None.
        ValueError: a variable created on a call other than the first (TF's texts).
    """

    def __init__(self, python_function, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, name=None):
        self._python_function = python_function
        self._input_signature = (None if input_signature is None
                                 else _nest.map_structure(_as_spec, list(input_signature)))
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self._name = name or getattr(python_function, "__name__", "function")
        self._cache = {}          # exact key -> ConcreteFunction (or variant)
        self._traces = []         # ConcreteFunctions in trace order
        self._tracing_count = 0
        self._created_variables = None   # None before the first call, then True/False
        self._report = []
        self._eager_fallback = {}
        self._descriptor_cache = weakref.WeakKeyDictionary()
        self._lock = threading.RLock()
        self._converted = None
        try:
            import inspect
            sig = inspect.signature(python_function)
            self._signature = sig
            self._param_names = _ArgNames(sig)
            self._n_positional = sum(
                p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                for p in sig.parameters.values())
            self._simple = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                               and p.default is p.empty for p in sig.parameters.values())
        except (TypeError, ValueError):
            self._signature = None
            self._param_names = []
            self._n_positional = -1
            self._simple = False
        target = python_function
        while hasattr(target, "__wrapped__"):
            target = target.__wrapped__
        target = getattr(target, "__func__", target)
        self._code = getattr(target, "__code__", self)
        self._detector = _detector(self._code)
        functools.update_wrapper(self, python_function, updated=())

    # ------------------------------------------------------------------ TF's attributes
    @property
    def python_function(self):
        """The Python function this ``tf.function`` wraps."""
        return self._python_function

    @property
    def input_signature(self):
        return None if self._input_signature is None else tuple(self._input_signature)

    @property
    def function_spec(self):
        return self._signature

    @property
    def name(self):
        return self._name

    def experimental_get_tracing_count(self) -> int:
        """How many times the function has been traced (TensorFlow's count)."""
        return self._tracing_count

    def __get__(self, instance, owner):
        # One Function per instance, as TensorFlow: each may create its own variables once.
        if instance is None:
            return self
        f = self._descriptor_cache.get(instance)
        if f is None:
            bound = self._python_function.__get__(instance, owner)
            f = Function(bound, self._input_signature, self._autograph, self._jit_compile,
                         self._reduce_retracing, self._name)
            f._code = self._code
            f._detector = self._detector
            self._descriptor_cache[instance] = f
        return f

    def __repr__(self):
        return f"<tapeflow.function.Function object at 0x{id(self):x}>"

    # ------------------------------------------------------------------ calls
    def __call__(self, *args, **kwargs):
        if _EAGER["functions"]:
            return self._python_function(*args, **kwargs)
        if not kwargs and self._simple:
            # The fast path: tensor arguments only, one compiled program without guards.
            key = []
            for a in args:
                if type(a) is not Tensor:
                    break
                v = a._value
                key.append((v.shape, v.dtype))
            else:
                entry = self._cache.get(tuple(key))
                if entry is not None and entry.fast is not None and not dispatch.ACTIVE[0]:
                    self._detector.not_traced()
                    try:
                        out = entry.fast(*[a._value for a in args])
                    except Exception:
                        # the steps through dispatch: the eager class and text, and the
                        # user's line recorded at trace time
                        entry.owner.program.interpret(list(args))
                        raise
                    if entry.single:
                        return None if out is None else Tensor(out)
                    return entry.owner._pack([None if v is None else Tensor(v) for v in out])
        if kwargs or not self._simple or self._input_signature is not None:
            args, kwargs = self._bind(args, kwargs)
        key, leaves = make_key(args, kwargs)
        entry = self._cache.get(key)
        if entry is None:
            return self._miss(key, leaves, args, kwargs)
        self._detector.not_traced()
        return self._replay(entry, key, leaves, args, kwargs)

    def _replay(self, entry, key, leaves, args, kwargs):
        if key in self._eager_fallback:
            return self._python_function(*args, **kwargs)
        owner = entry.owner
        failed = None
        for program, run in entry.programs:
            try:
                if _VALIDATE[0]:
                    return self._validated(owner, program, run, leaves, args, kwargs)
                return owner._execute(program, run, leaves)
            except GuardFailed as exc:
                if exc.site is None and exc.index < len(program.steps):
                    step = program.steps[exc.index]
                    exc.how, exc.site = step[2], step[4]
                failed = exc
        return self._respecialize(entry, key, leaves, args, kwargs, failed)

    def _traced_function(self):
        """What a trace runs: the function as AutoGraph converted it (unless
        ``autograph=False``), converted once."""
        fn = self._converted
        if fn is None:
            fn = self._python_function
            if self._autograph:
                from . import autograph
                fn = autograph.convert(fn)
            self._converted = fn
        return fn

    def _bind(self, args, kwargs):
        if self._input_signature is not None:
            return self._cast_to_signature(args, kwargs), {}
        if self._signature is None:
            return args, kwargs
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"Binding inputs to tf.function failed due to `{err}`. Received "
                            f"args: {args} and kwargs: {kwargs} for signature: "
                            f"{self._signature}.") from None
        bound.apply_defaults()
        return tuple(bound.args), dict(bound.kwargs)

    def _cast_to_signature(self, args, kwargs):
        specs = self._input_signature
        if kwargs and self._signature is not None:
            bound = self._signature.bind(*args, **kwargs)
            args = tuple(bound.args)
        if len(args) != len(specs):
            raise TypeError(f"Binding inputs to tf.function failed due to `too many positional "
                            f"arguments`. Received args: {args} and kwargs: {kwargs} for "
                            f"signature: {self._signature_text()}.")
        out = []
        for a, spec in zip(args, specs):
            try:
                out.append(_cast(spec, a) if isinstance(spec, TensorSpec) else
                           _nest.map_structure(lambda s, v: _cast(s, v), spec, a))
            except _CastError as err:
                raise TypeError(
                    f"Binding inputs to tf.function failed due to `{err}`. Received args: "
                    f"{_args_text(args)} and kwargs: {kwargs} for signature: "
                    f"{self._signature_text()}.") from None
        return tuple(out)

    def _signature_text(self):
        names = self._param_names
        return "(" + ", ".join(f"{_arg_name(names, i)}: {s!r}"
                               for i, s in enumerate(self._input_signature)) + ")"

    # ------------------------------------------------------------------ tracing
    def _miss(self, key, leaves, args, kwargs):
        with self._lock:
            concrete = None
            if self._input_signature is not None and self._traces:
                concrete = self._traces[0]
            elif self._reduce_retracing or self._input_signature is not None:
                concrete = self._relaxed_match(key)
            if concrete is not None:
                # A relaxed trace covers this call: a new concrete variant, not a TF trace.
                self._detector.not_traced()
                if concrete.generic is not None and ranks(key) == concrete.traced_ranks:
                    entry = self._cache[key] = _Variants(
                        concrete, [self._sized(concrete, leaves)])
                    return self._replay(entry, key, leaves, args, kwargs)
                entry = self._cache[key] = _Variants(concrete)
                return self._respecialize(entry, key, leaves, args, kwargs, None)
            result = self._trace(key, self._general_key(key), leaves, args, kwargs)
        return result

    def _general_key(self, key):
        """The key a new trace of ``key`` is made for: the input signature's; under
        ``reduce_retracing`` the most specific supertype of ``key`` and an earlier trace's;
        else ``key`` itself."""
        if self._input_signature is not None:
            return self._signature_key(key)
        if self._reduce_retracing:
            for c in self._traces:
                g = generalize(key, c._key)
                if g is not None:
                    return g
        return key

    def _sized(self, concrete, leaves):
        """The generic program of a relaxed trace, compiled with reused buffers for the
        shapes of this call (found by a probe run, no Python); the unbuffered compile when
        they cannot be found or after ``MAX_SIZED`` shapes."""
        program, run = concrete.generic
        if concrete.n_sized >= MAX_SIZED:
            return program, run
        shapes = {s: leaf._value.shape for s, leaf in zip(program.inputs, leaves)
                  if s is not None}
        meta = program.shapes_for(shapes)
        if meta is None:
            return program, run
        concrete.n_sized += 1
        return program, compile_program(program, _identifier(self._name), concrete._single,
                                        meta=meta)[1]

    def _relaxed_match(self, key):
        best = None
        for c in self._traces:
            if c.relaxed and is_subtype(key, c._key):
                if best is None or specificity(c._key) > specificity(best._key):
                    best = c
        return best

    def _signature_key(self, key):
        out = []
        for k, spec in zip(key, self._input_signature):
            if isinstance(spec, TensorSpec):
                out.append((None if spec.shape.rank is None else tuple(spec.shape.as_list()),
                            spec.dtype._np))
            else:
                out.append(k)
        return tuple(out)

    def _trace(self, key, general, leaves, args, kwargs, reason=None, execute=True):
        """Trace the body for ``key`` and cache the program; return the outputs. Without
        ``execute`` (``get_concrete_function``) the run's effects are undone afterwards,
        as TensorFlow builds a graph without running it: variable writes, ``tf.print``
        output, random draws and iterator pulls (a ``tf.py_function`` body has run)."""
        first = self._created_variables is None
        relaxed = general != key
        if first:
            tracer, info = self._run_traced(leaves, args, kwargs, general, allow=True)
            self._tracing_count += 1
            if tracer.new_variables:
                # TensorFlow lifts the new variables' initializers out and traces again
                # without variable creation: the first run is undone, the second is real.
                tracer.rollback()
                self._created_variables = True
                self._log("trace", key, "first call; it created variables, so it is traced "
                          "again without creating any (as TensorFlow does)")
                tracer, info = self._run_traced(leaves, args, kwargs, general, allow=False,
                                                text=SINGLETON_TEXT)
                self._tracing_count += 1
            else:
                self._created_variables = False
            self._log("trace", key, reason or "first call")
        else:
            text = SINGLETON_TEXT if self._created_variables else NON_FIRST_TEXT
            tracer, info = self._run_traced(leaves, args, kwargs, general, allow=False,
                                            text=text)
            self._tracing_count += 1
            self._log("trace", key, reason or self._why_retrace(key))
        inputs, out_struct, flat_out, out_slots, arg_vars = info
        program = Program(tracer, inputs, arg_vars, out_slots)
        sizes = _relaxed_sizes(leaves, general)
        traced_ranks = ranks(key)
        names = _leaf_names(args, kwargs, self._param_names)
        if self._input_signature is not None:    # names given in the signature win
            given = [spec.name for spec in _nest.flatten(self._input_signature)]
            names = [g or n for g, n in zip(given, names)] + names[len(given):]
        concrete = ConcreteFunction(self, general, program, out_struct,
                                    _input_signature(args, kwargs, general, names),
                                    self._name, relaxed, sizes)
        concrete.traced_ranks = traced_ranks
        if program.orphans or program.n_guards:
            if _STRICT[0] and (program.n_guards or _array_orphans(program)):
                tracer.rollback()
                raise ValueError(f"TAPEFLOW_STRICT_FUNCTIONS: the trace of `{self._name}` is "
                                 f"not a pure program: {_orphan_text(program)}")
            self._log("note", key, _orphan_text(program))
        self._traces.append(concrete)
        self._cache[key] = _Variants(concrete, [(program, concrete._run)])
        if execute:
            tracer.commit()
        else:
            tracer.rollback()
        self._detector.traced(self._python_function, self._retrace_detail(key))
        return _pack(out_struct, flat_out)

    def _run_traced(self, leaves, args, kwargs, general, allow, text=SINGLETON_TEXT,
                    mute=False):
        tracer = Tracer(allow_creation=allow, error_text=text)
        call_args, call_kwargs, inputs, arg_vars = _trace_inputs(
            tracer, leaves, args, kwargs, general, _leaf_names(args, kwargs, self._param_names))
        dispatch.push_tracer(tracer)
        try:
            fn = self._traced_function()
            if mute:
                with contextlib.redirect_stdout(io.StringIO()):
                    result = fn(*call_args, **call_kwargs)
            else:
                result = fn(*call_args, **call_kwargs)
            out_struct, flat_out, out_slots = _outputs(tracer, result, self._python_function)
        except BaseException as exc:
            dispatch.pop_tracer(tracer)
            tracer.rollback()
            if mute:
                # A variant (a relaxed trace's new shapes, a failed guard) is a call of the
                # traced graph for TensorFlow: its op errors are run-time errors, as eager,
                # with the user's line.
                _add_site(exc, _user_frame(exc.__traceback__))
                raise
            if isinstance(exc, _errors.InvalidArgumentError) and \
                    str(exc).startswith(_SHAPE_ERRORS):
                # TensorFlow finds shape errors while building the graph: a ValueError.
                exc = ValueError(str(exc))
            if self._autograph and type(exc) in _USER_CODE_ERRORS:
                raise _in_user_code(exc, sys.exc_info()[2]) from None
            raise
        dispatch.pop_tracer(tracer)
        retire(tracer, list(leaves) + [t for t in flat_out if t is not None])
        return tracer, (inputs, out_struct, flat_out, out_slots, arg_vars)

    def _log(self, kind, key, reason):
        self._report.append((kind, key, reason))

    def _why_retrace(self, key):
        if not self._traces:
            return "first call"
        return "no trace matches: " + _key_diff(self._traces[-1]._key, key, self._param_names)

    def _retrace_detail(self, key):
        if len(self._traces) < 2:
            return None
        return (f"`{self._name}` traced again ({_ordinal(self._tracing_count)} trace): "
                f"{_key_diff(self._traces[-2]._key, key, self._param_names)}; use "
                f"reduce_retracing=True or an input_signature if this argument varies.")

    def _respecialize(self, entry, key, leaves, args, kwargs, failed):
        """Run the body again for a call its trace does not cover as compiled (a relaxed
        trace's new shape, or a guard that failed): a new variant, not a TensorFlow trace."""
        why = (_relaxed_why(entry.owner.program) if failed is None
               else f"a Python value read at {_site_text(failed)} changed")
        if len(entry.programs) >= MAX_VARIANTS:
            if key not in self._eager_fallback:
                self._eager_fallback[key] = why
                self._log("eager", key, f"more than {MAX_VARIANTS} variants ({why}); this "
                          "signature now runs eagerly")
            return self._python_function(*args, **kwargs)
        owner = entry.owner
        tracer, out = self._run_traced(leaves, args, kwargs, owner._key, allow=False,
                                       text=SINGLETON_TEXT if self._created_variables
                                       else NON_FIRST_TEXT, mute=True)
        inputs, out_struct, flat_out, out_slots, arg_vars = out
        program = Program(tracer, inputs, arg_vars, out_slots)
        _, run = compile_program(program, _identifier(self._name), owner._single)
        entry.programs.append((program, run))
        if failed is None and owner.generic is None and ranks(key) == owner.traced_ranks \
                and program.shape_generic(_relaxed_sizes(leaves, owner._key)):
            # this variant's program serves the signature's other shapes from now on
            owner.generic = (program, compile_program(program, _identifier(self._name),
                                                      owner._single, buffers=False)[1])
        entry.fast = None
        self._log("variant", key, why)
        tracer.commit()
        return _pack(out_struct, flat_out)

    def _validated(self, owner, program, run, leaves, args, kwargs):
        """TAPEFLOW_VALIDATE_FUNCTIONS=1: replay, then run the Python body eagerly from the
        same state (its output muted) and fail on any difference in the outputs or in a
        variable the program writes; the replay's state is kept. Programs that draw random
        numbers are replayed without the comparison (the two runs would draw differently)."""
        import numpy as np

        if program.stateful:
            return owner._execute(program, run, leaves)
        written = {id(v): v for v in program.writes}
        before = {k: v._value for k, v in written.items()}
        result = owner._execute(program, run, leaves)
        after = {k: v._value for k, v in written.items()}
        for k, v in written.items():
            v._value = before[k]
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            eager = self._python_function(*args, **kwargs)
        try:
            for k, v in written.items():
                if not _allclose(v._value, after[k]):
                    raise AssertionError(
                        f"TAPEFLOW_VALIDATE_FUNCTIONS: `{self._name}` replay wrote {v.name} "
                        f"= {np.asarray(after[k])!r}, the eager run {np.asarray(v._value)!r}")
            ours, theirs = _nest.flatten(result), _nest.flatten(eager)
            for a, b in zip(ours, theirs):
                a_v = a._value if isinstance(a, _TensorLike) else a
                b_v = b._value if isinstance(b, _TensorLike) else b
                if not _allclose(a_v, b_v):
                    raise AssertionError(f"TAPEFLOW_VALIDATE_FUNCTIONS: `{self._name}` replay "
                                         f"returned {a_v!r}, the eager run {b_v!r}")
        finally:
            for k, v in written.items():
                v._value = after[k]
        return result

    # ------------------------------------------------------------------ concrete functions
    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (TensorSpecs or values), tracing it if
        needed (``tf.function.get_concrete_function``)."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        if self._input_signature is not None and args and all(
                isinstance(a, TensorSpec) for a in args):
            values = tuple(_dummy(s) for s in args)
            general = self._signature_key(make_key(values, {})[0])
        else:
            if self._input_signature is None and (kwargs or not self._simple):
                args, kwargs = self._bind(args, kwargs)   # specs bind as the values would
            values = _nest.map_structure(lambda a: _dummy(a) if isinstance(a, TensorSpec)
                                         else a, list(args))
            values = tuple(values)
            kwargs = _nest.map_structure(lambda a: _dummy(a) if isinstance(a, TensorSpec)
                                         else a, dict(kwargs))
            general = _spec_key(args, kwargs)
        if self._input_signature is not None:
            values, kwargs = self._bind(values, kwargs)
        key, leaves = make_key(values, kwargs)
        for c in self._traces:
            if c._key == general or (general == key and is_subtype(key, c._key)):
                return c
        self._trace(key, general, leaves, values, kwargs, reason="get_concrete_function",
                    execute=False)
        return self._traces[-1]

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every concrete function's signature (TensorFlow's text), blank-line separated. A
        function with an ``input_signature`` is traced for it first, as TensorFlow does."""
        if self._input_signature is not None and not self._traces:
            self.get_concrete_function()
        return "\n\n".join(c.pretty_printed_signature(verbose) for c in self._traces)

    def experimental_trace_report(self) -> str:
        """Every trace of this function with its signature and why it happened, every
        re-specialization (a new variant of a trace's program) and every fallback to eager
        execution, in plain words. (tapeflow only.)"""
        lines = [f"tf.function `{self._name}`: {self._tracing_count} trace(s), "
                 f"{sum(1 for kind, _, _ in self._report if kind == 'variant')} extra variant(s)"]
        n = 0
        for kind, key, reason in self._report:
            sig = _key_text(key, self._param_names)
            if kind == "trace":
                n += 1
                lines.append(f"  trace {n}: {sig} - {reason}")
            elif kind == "variant":
                lines.append(f"  variant: {sig} - {reason}")
            elif kind == "eager":
                lines.append(f"  eager: {sig} - {reason}")
            else:
                lines.append(f"  note: {reason}")
        return "\n".join(lines)


# ---------------------------------------------------------------------- helpers
class _CastError(Exception):
    pass


def _as_spec(s):
    if isinstance(s, TensorSpec):
        return s
    if hasattr(s, "shape") and hasattr(s, "dtype"):
        return TensorSpec(s.shape, s.dtype)
    raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec "
                    f"objects, got invalid args {s!r} with type {type(s)}.")


def _cast(spec, value):
    if isinstance(value, _TensorLike):
        t = value if type(value) is Tensor else value._read()
    else:
        try:
            t = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError):
            t = convert_to_tensor(value)
    got = TensorSpec(t.shape, t.dtype)
    if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):
        raise _CastError(f"Can not cast {got!r} to {spec!r}")
    return t


def _args_text(args):
    return "(" + ", ".join(repr(a) for a in args) + ("," if len(args) == 1 else "") + ")"


def _dummy(spec):
    dims = [2 if d is None else d for d in (spec.shape.as_list() if spec.shape.rank is not None
                                            else [])]
    import numpy as np
    if spec.dtype.name == "string":   # "1", as numbers are 1: a string that parses
        return convert_to_tensor(np.full(dims, b"1", dtype=object) if dims else b"1")
    return Tensor(np.ones(dims, dtype=spec.dtype._np) if dims else spec.dtype._np.type(1))


def _spec_key(args, kwargs):
    def k(a):
        if isinstance(a, TensorSpec):
            return (None if a.shape.rank is None else tuple(a.shape.as_list()), a.dtype._np)
        return make_key((a,), {})[0][0]
    key = tuple(k(a) for a in args)
    if kwargs:
        key = (key, tuple((n, k(kwargs[n])) for n in sorted(kwargs)))
    return key


def _flat_tensor_shapes(general):
    out = []

    def walk(k):
        if is_tensor_key(k):
            out.append(k[0])
        elif type(k) is tuple and len(k) == 5 and k[0] == "Variable":
            out.append(None)
        elif type(k) is tuple:
            for e in k:
                walk(e)
    walk(general)
    return out


_USER_CODE_ERRORS = {ValueError, TypeError, AttributeError, NotImplementedError, IndexError,
                     ZeroDivisionError, RuntimeError, AssertionError, KeyError, NameError,
                     UnboundLocalError}


def _user_frame(tb):
    """``(filename, lineno, name)`` of the innermost traceback frame outside tapeflow."""
    site = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(_PACKAGE):
            site = (code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return site


def _in_user_code(exc, tb):
    """``exc`` as TensorFlow's AutoGraph reports errors raised while tracing: "in user code:",
    the user's frames, then the original class and message (the last line)."""
    import linecache

    from .tracer import _PACKAGE
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(_PACKAGE) and not code.co_name.startswith("__ag"):
            line = linecache.getline(code.co_filename, tb.tb_lineno).strip()
            frames.append(f'    File "{code.co_filename}", line {tb.tb_lineno}, in '
                          f'{code.co_name}  *\n        {line}\n')
        tb = tb.tb_next
    message = str(exc.args[0]) if len(exc.args) == 1 else str(exc)
    text = ("in user code:\n\n" + "".join(f + "\n" for f in frames[1:])
            + f"    {type(exc).__name__}: {message}\n")
    try:
        new = type(exc)(text)
    except Exception:  # noqa: BLE001 - a class that takes other arguments keeps its own text
        return exc
    return new.with_traceback(exc.__traceback__)


def _allclose(a, b):
    import numpy as np
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    return bool(np.array_equal(a, b))


def _relaxed_sizes(leaves, general):
    """The concrete sizes the trace saw for dimensions its key leaves unknown."""
    sizes = set()
    for leaf, shape in zip(leaves, _flat_tensor_shapes(general)):
        if hasattr(leaf, "_read") and type(leaf) is not Tensor:
            continue
        concrete = leaf._value.shape
        if shape is None:
            sizes.update(concrete)
        else:
            sizes.update(d for d, g in zip(concrete, shape) if g is None)
    return frozenset(sizes)


class _ArgNames(list):
    """The names of a function's positional parameters (before ``*args``); ``varargs`` is
    the name of its ``*args`` parameter, or None."""

    def __init__(self, sig):
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = list(sig.parameters.values())
        super().__init__(p.name for p in params if p.kind in kinds)
        self.varargs = next((p.name for p in params
                             if p.kind is inspect.Parameter.VAR_POSITIONAL), None)


def _arg_name(names, i, default=None):
    """The name of positional argument ``i``: its parameter's, ``args_0``, ``args_1``, ...
    past them for a ``*args`` parameter named ``args`` (TensorFlow's names), else
    ``default`` (``arg{i}``)."""
    if i < len(names):
        return names[i]
    varargs = getattr(names, "varargs", None)
    if varargs is not None:
        return f"{varargs}_{i - len(names)}"
    return default if default is not None else f"arg{i}"


def _leaf_names(args, kwargs, params):
    names = []
    for i, a in enumerate(args):
        base = _arg_name(params, i, f"args_{i}")
        n = len(make_key((a,), {})[1])
        names.extend([base] if n == 1 and isinstance(a, _TensorLike) else
                     [f"{base}_{j}" if j else base for j in range(n)])
    for k in sorted(kwargs):
        n = len(make_key((kwargs[k],), {})[1])
        names.extend([k] + [f"{k}_{j}" for j in range(1, n)])
    return names


def _trace_inputs(tracer, leaves, args, kwargs, general, names):
    """The arguments the Python body sees while tracing, with a slot per tensor argument.

    Tensor arguments are the caller's own objects (so a tape that watches one still sees the
    ops on it); a tensor passed twice gets a fresh Tensor the second time, so each argument
    has its own slot."""
    inputs = []
    arg_vars = []
    seen = set()
    shapes = _flat_tensor_shapes(general)
    for i, leaf in enumerate(leaves):
        if hasattr(leaf, "_read") and type(leaf) is not Tensor:
            inputs.append(None)
            arg_vars.append(leaf)
            continue
        t = leaf
        if id(leaf) in seen:
            t = leaves[i] = Tensor(leaf._value)
        seen.add(id(leaf))
        inputs.append(tracer.input(t, names[i] if i < len(names) else None))
        arg_vars.append(None)
        if i < len(shapes):
            shape = shapes[i]
            if shape is None or shape != leaf._value.shape:
                tracer.relaxed_shapes[t._id] = TensorShape(shape)
    it = iter(leaves)

    def rebuild(x):
        if isinstance(x, _TensorLike) or type(x).__name__ == "ndarray":
            return next(it)
        if hasattr(x, "__tf_flatten__") and not isinstance(x, type):
            meta, components = x.__tf_flatten__()
            return type(x).__tf_unflatten__(meta, [
                rebuild(c) if not _nest.is_nested(c) else _nest.map_structure(rebuild, c)
                for c in components])
        return x
    call_args = tuple(_nest.map_structure(rebuild, list(args))) if args else ()
    call_kwargs = _nest.map_structure(rebuild, dict(kwargs)) if kwargs else {}
    return call_args, call_kwargs, inputs, arg_vars


def _pack(out_struct, flat_out):
    """``out_struct`` with its tensors replaced by ``flat_out`` (composites from their
    components, in order)."""
    if out_struct is None:
        return None
    nested = _nest.is_nested(out_struct)
    leaves = _nest.flatten(out_struct) if nested else [out_struct]
    it = iter(flat_out)
    rebuilt = []
    for leaf in leaves:
        if _is_composite(leaf):
            meta, components = leaf.__tf_flatten__()
            rebuilt.append(type(leaf).__tf_unflatten__(meta, [next(it) for _ in components]))
        else:
            rebuilt.append(next(it))
    return _nest.pack_sequence_as(out_struct, rebuilt) if nested else rebuilt[0]


def _input_signature(args, kwargs, general, names):
    """``(args, kwargs)`` with a TensorSpec (named after its parameter) for each tensor."""
    shapes = iter(_flat_tensor_shapes(general))
    leaf_names = iter(names)

    def spec(x):
        if isinstance(x, _TensorLike) or type(x).__name__ == "ndarray":
            shape = next(shapes, None)
            name = next(leaf_names, None)
            if hasattr(x, "_read") and type(x) is not Tensor:
                return x
            dtype = convert_to_tensor(x).dtype
            return TensorSpec(TensorShape(shape), dtype, name)
        return x
    a = tuple(_nest.map_structure(spec, list(args))) if args else ()
    k = _nest.map_structure(spec, dict(kwargs)) if kwargs else {}
    return (a, k)


def _is_composite(x):
    return hasattr(x, "__tf_flatten__") and not isinstance(x, type)


def _outputs(tracer, result, fn):
    """The output structure, its flat Tensors (as returned by this first call) and slots.
    A composite output (IndexedSlices, PerReplica) is its components in the flat lists."""
    flat = _nest.flatten(result) if result is not None else []
    out_values = []
    slots = []
    leaves = []

    def one(x):
        if x is None:
            out_values.append(None)
            slots.append(None)
            return None
        if isinstance(x, _TensorLike):
            t = x if type(x) is Tensor else x._read()
        elif isinstance(x, (int, float, bool, complex)) or type(x).__module__ == "numpy":
            t = convert_to_tensor(x)
        else:
            raise TypeError(
                f"To be compatible with tf.function, Python functions must return zero or more "
                f"Tensors or ExtensionTypes or None values; in compilation of {fn}, found "
                f"return value of type {type(x).__name__}, which is not a Tensor or "
                f"ExtensionType.")
        slots.append(tracer.slot_of(t))
        out = Tensor(t._value) if t is not x else t
        out_values.append(out)
        return out

    for x in flat:
        if _is_composite(x):
            meta, components = x.__tf_flatten__()
            leaves.append(type(x).__tf_unflatten__(meta, [one(c) for c in components]))
        else:
            leaves.append(one(x))
    if result is None:
        return None, out_values, slots
    struct = _nest.pack_sequence_as(result, leaves) if _nest.is_nested(result) else leaves[0]
    return struct, out_values, slots


def _key_text(key, names):
    parts = []
    args = key[0] if (type(key) is tuple and len(key) == 2 and type(key[0]) is tuple
                      and type(key[1]) is tuple and key[1] and type(key[1][0]) is tuple
                      and len(key[1][0]) == 2 and isinstance(key[1][0][0], str)) else key
    for i, k in enumerate(args if type(args) is tuple else (args,)):
        parts.append(f"{_arg_name(names, i)}={_one_key_text(k)}")
    return "(" + ", ".join(parts) + ")"


def _one_key_text(k):
    if is_tensor_key(k):
        shape = "<unknown>" if k[0] is None else str(TensorShape(k[0]))
        return f"Tensor{shape} {k[1]}"
    if type(k) is tuple and len(k) == 5 and k[0] == "Variable":
        return f"Variable{TensorShape(k[1])} {k[2]}"
    if type(k) is tuple and len(k) == 2 and isinstance(k[0], type):
        inner = ", ".join(_one_key_text(e) for e in k[1])
        return f"{k[0].__name__}[{inner}]"
    if type(k) is tuple and len(k) == 3 and isinstance(k[0], type) and type(k[2]) is tuple:
        # a composite (a distributed batch's PerReplica): its components
        inner = ", ".join(_one_key_text(e) for e in k[2])
        return f"{k[0].__name__}[{inner}]"
    if hasattr(k, "ref"):
        obj = k.ref()
        return f"<{type(obj).__name__} object>"
    return repr(k)


def _key_diff(old, new, names):
    o = old if type(old) is tuple else (old,)
    n = new if type(new) is tuple else (new,)
    diffs = []
    for i, (a, b) in enumerate(zip(o, n)):
        if a != b:
            name = _arg_name(names, i)
            diffs.append(f"argument `{name}` {_one_key_text(a)} -> {_one_key_text(b)}")
    if len(o) != len(n):
        diffs.append(f"{len(o)} -> {len(n)} arguments")
    return "; ".join(diffs) or "a keyword argument changed"


def _ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _relaxed_why(program):
    why = getattr(program, "why_not_generic", None)
    return "new shapes under a relaxed trace" + (f" ({why})" if why else "")


def _site_text(failed):
    if failed.site is None:
        return "an unknown line"
    filename, lineno, name = failed.site
    return f"{os.path.basename(filename)}:{lineno} (`{failed.how}()` of a tensor)"


def _array_orphans(program):
    """The orphan constants that are arrays: a Python number made a tensor (a literal, a
    ``Dropout`` rate) is a constant of TensorFlow's graph too, and so is a literal shape
    (``conv2d_transpose``'s ``output_shape``, passed as a zero-stride stand-in)."""
    out = []
    for o in program.orphans:
        v = program.consts[o[0]]
        if getattr(v, "ndim", 0) and any(v.strides):
            out.append(o)
    return out


def _orphan_text(program):
    parts = []
    if program.n_guards:
        parts.append(f"{program.n_guards} guard(s): Python read tensor values "
                     "(bool/float/int); a replay with other values re-specializes")
    if program.orphans:
        sites = ", ".join(f"{os.path.basename(s[0])}:{s[1]}" for _, s in program.orphans[:5]
                          if s)
        parts.append(f"{len(program.orphans)} constant(s) made during the trace outside the "
                     f"op layer, baked into the program (Python numbers made tensors; "
                     f"anything else computed from a tensor's value would be frozen: {sites})")
    return "; ".join(parts)
