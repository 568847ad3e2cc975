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
import io
import sys
import threading
import weakref

from .. import config as _config
from .._core import dispatch
from .._core import errors as _errors
from .._core import nest as _nest
from .._core.tensor import Tensor, _TensorLike
from ..config import _eager as _EAGER
from .codegen import compile_program
from .concrete_function import _VALIDATE, ConcreteFunction, _env_flag, _identifier
from .function_type import (
    _arg_name,
    _ArgNames,
    _args_text,
    _as_spec,
    _cast,
    _CastError,
    _dummy,
    _input_signature,
    _is_composite,
    _leaf_names,
    _outputs,
    _pack,
    _relaxed_sizes,
    _spec_key,
    _trace_inputs,
)
from .ir import GuardFailed
from .ir import add_site as _add_site
from .program import Program
from .retrace_report import (
    _array_orphans,
    _detector,
    _key_diff,
    _key_text,
    _ordinal,
    _orphan_text,
    _relaxed_why,
    _site_text,
)
from .trace_type import (
    TensorSpec,
    generalize,
    is_subtype,
    make_key,
    ranks,
    spec_level,
    specificity,
)
from .tracer import _PACKAGE, NON_FIRST_TEXT, SINGLETON_TEXT, Tracer, retire

__all__ = ["Function", "ConcreteFunction"]

MAX_VARIANTS = 8
MAX_SIZED = 16       # shapes a relaxed generic program gets buffers compiled for

# Read once: a call must not pay for the environment. TAPEFLOW_RUN_FUNCTIONS_EAGERLY=1 is
# tf.config.run_functions_eagerly(True) for a whole run; TAPEFLOW_VALIDATE_FUNCTIONS=1
# (``concrete_function._VALIDATE``) checks every replay against an eager run of the body.
if _env_flag("TAPEFLOW_RUN_FUNCTIONS_EAGERLY"):
    _config._eager["functions"] = True
# TAPEFLOW_STRICT_FUNCTIONS=1: a trace that leaves guards (Python read a tensor's value) or
# constants made outside the op layer in its program raises instead of noting it.
_STRICT = [_env_flag("TAPEFLOW_STRICT_FUNCTIONS")]
# Callables told of every new trace (``tf.summary.trace_on`` registers one); called once
# per trace, never per call.
TRACE_LISTENERS = []


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



def _sized_at_second_call(entry, name):
    """``entry``'s one program runs unbuffered once more, then is compiled with buffers for
    the shapes it was traced with (valid for this exact key: a relaxed trace that is not
    shape-generic) and that compile serves the calls after."""
    program, run = entry.programs[0]

    def once(*values):
        sized = compile_program(program, name, entry.owner._single)[1]
        entry.programs[0] = (program, sized)
        if entry.fast is once:
            entry.fast = sized
        return run(*values)

    entry.programs[0] = (program, once)
    if entry.fast is run:
        entry.fast = once


class _Meta(tuple):
    """A composite's metadata (a RaggedTensor's partitions) among the compared outputs."""


def _components(x):
    """The flat outputs of ``x``, a composite (RaggedTensor, SparseTensor) as its metadata
    and its tensor components."""
    out = []
    for leaf in _nest.flatten(x):
        if hasattr(leaf, "__tf_flatten__") and not isinstance(leaf, type):
            meta, components = leaf.__tf_flatten__()
            out.append(_Meta((meta,)))
            out.extend(components)
        else:
            out.append(leaf)
    return out

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
                out.append(_cast(spec, a) if isinstance(spec, TensorSpec) or hasattr(
                    spec, "value_type") else
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
            else:   # TensorFlow calls the most specific trace the call is a subtype of
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
        key = spec_level(key)   # a RaggedTensor: its spec, not its partition
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
            elif hasattr(spec, "__tf_trace_key__"):   # a RaggedTensorSpec
                out.append(spec.__tf_trace_key__())
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
            given = [getattr(spec, "name", None) for spec in _nest.flatten(
                self._input_signature)]
            names = [g or n for g, n in zip(given, names)] + names[len(given):]
        concrete = ConcreteFunction(self, general, program, out_struct,
                                    _input_signature(args, kwargs, general, names),
                                    self._name, relaxed, sizes)
        concrete.traced_ranks = traced_ranks
        concrete._traced_key = key
        if program.orphans or program.n_guards:
            if _STRICT[0] and (program.n_guards or _array_orphans(program)):
                tracer.rollback()
                raise ValueError(f"TAPEFLOW_STRICT_FUNCTIONS: the trace of `{self._name}` is "
                                 f"not a pure program: {_orphan_text(program)}")
            self._log("note", key, _orphan_text(program))
        self._traces.append(concrete)
        # a relaxed trace serving every shape: its own shapes get the buffered compile the
        # later shapes get (``_sized``), not the unbuffered generic one
        first = (self._sized(concrete, leaves) if execute and concrete.generic is not None
                 else (program, concrete._run))
        entry = self._cache[key] = _Variants(concrete, [first])
        if execute and relaxed and concrete.generic is None and not concrete.partitioned:
            # not shape-generic (traced at size 1, say): its own key still gets the buffered
            # compile for its own shapes, at its second call (a trace pays one compile)
            _sized_at_second_call(entry, _identifier(self._name))
        for listener in TRACE_LISTENERS:
            listener(concrete)
        if execute:
            tracer.commit()
        else:
            tracer.rollback()
        self._detector.traced(self._python_function, self._retrace_detail(key))
        return _pack(out_struct, flat_out)

    def _run_traced(self, leaves, args, kwargs, general, allow, text=SINGLETON_TEXT,
                    mute=False):
        tracer = Tracer(allow_creation=allow, error_text=text)
        tracer.fn_name = self._name
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
            if isinstance(exc, _errors.OpError) and exc.static_shape:
                # TensorFlow finds shape errors while building the graph: a ValueError.
                exc = ValueError(str(exc))
            if self._autograph and type(exc) in _USER_CODE_ERRORS and \
                    not getattr(exc, "_tf_graph_scope", False):
                raise _in_user_code(exc, sys.exc_info()[2]) from None
            raise
        dispatch.pop_tracer(tracer)
        if tracer.parent is None and not dispatch.tape_stack():
            out_struct, flat_out = _fresh_outputs(tracer, out_struct, flat_out)
        retire(tracer, list(leaves) + [t for t in flat_out if t is not None], self._name)
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
        if owner.partitioned:
            # a RaggedTensor's other partition: its own output partitions too
            program.out_struct = out_struct
        elif failed is None and owner.generic is None and ranks(key) == owner.traced_ranks \
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
            ours, theirs = _components(result), _components(eager)
            for a, b in zip(ours, theirs):
                a_v = a._value if isinstance(a, _TensorLike) else a
                b_v = b._value if isinstance(b, _TensorLike) else b
                if not (a_v == b_v if type(a_v) is _Meta else _allclose(a_v, b_v)):
                    raise AssertionError(f"TAPEFLOW_VALIDATE_FUNCTIONS: `{self._name}` replay "
                                         f"returned {a_v!r}, the eager run {b_v!r}")
        finally:
            for k, v in written.items():
                v._value = after[k]
        return result

    # ------------------------------------------------------------------ concrete functions
    def _partition_call(self, concrete, key, leaves, args, kwargs):
        """A call of ``concrete`` (traced for a RaggedTensorSpec) with another partition: the
        partition's own variant of its program."""
        with self._lock:
            entry = concrete._partitions.get(key)
            if entry is None:
                entry = concrete._partitions[key] = _Variants(concrete)
            return self._replay(entry, key, leaves, args, kwargs)

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (TensorSpecs or values), tracing it if
        needed (``tf.function.get_concrete_function``)."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        if self._input_signature is not None and args and all(
                _is_spec(a) for a in args):
            values = tuple(_dummy(s) for s in args)
            general = self._signature_key(make_key(values, {})[0])
        else:
            if self._input_signature is None and (kwargs or not self._simple):
                args, kwargs = self._bind(args, kwargs)   # specs bind as the values would
            values = _nest.map_structure(lambda a: _dummy(a) if _is_spec(a) else a,
                                         list(args))
            values = tuple(values)
            kwargs = _nest.map_structure(lambda a: _dummy(a) if _is_spec(a) else a,
                                         dict(kwargs))
            general = _spec_key(args, kwargs)
        if self._input_signature is not None:
            values, kwargs = self._bind(values, kwargs)
        key, leaves = make_key(values, kwargs)
        best = None
        for c in self._traces:
            if c._key == general:
                return c
            if is_subtype(general, c._key) and (
                    best is None or specificity(c._key) > specificity(best._key)):
                best = c   # TensorFlow reuses a trace the requested signature fits
        if best is not None:
            return best
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
def _is_spec(a):
    """A TensorSpec, or a composite's spec that can make a placeholder (RaggedTensorSpec)."""
    return isinstance(a, TensorSpec) or hasattr(a, "__tf_placeholder__")


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
            + f"    {type(exc).__name__}: " + message.replace("\n", "\n    ") + "\n")
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


def _fresh_outputs(tracer, out_struct, flat_out):
    """A first call returns new tensors, as TensorFlow's function returns eager tensors
    distinct from its graph's: a tensor the body also leaked (``global x; x = a + 1;
    return x``) then becomes a graph tensor like any other. Kept as they are when a tape
    records the call (it refers to the traced tensors), inside another trace (the caller's
    program refers to them too) or when an output is a composite."""
    fresh = {}
    for t in flat_out:
        if type(t) is Tensor and t._id in tracer.slots and id(t) not in fresh:
            fresh[id(t)] = Tensor(t._value)
    if not fresh or any(_is_composite(x) for x in _nest.flatten(out_struct)):
        return out_struct, flat_out
    return (_nest.map_structure(lambda x: fresh.get(id(x), x), out_struct),
            [fresh.get(id(t), t) for t in flat_out])
