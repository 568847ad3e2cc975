"""A SavedModel's object graph brought back as Python objects with TF's shape.

User objects become ``_UserObject``s whose children are attributes (callable when they have a
``__call__`` function); list/dict/tuple wrappers become lists/dicts/tuples; the signature map
a read-only Mapping of ``ConcreteFunction``s; variables tapeflow Variables; ``function`` nodes
``RestoredFunction``s that pick the saved trace an input matches (TF's rules and messages);
``bare_concrete_function`` nodes ``RestoredConcreteFunction``s. Each trace imports its
FunctionDef once, lazily, as a tapeflow ``tf.function`` (``imports.py``).
"""
import collections
import collections.abc
import inspect
import re

import numpy as np

from .._core import errors
from .._core import nest as _nest
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor
from .._core.tensor_spec import TensorSpec
from .._core.variable import Variable
from ..function import function as _tf_function
from . import composites, kernels

__all__ = ["structure", "RestoredFunction", "RestoredConcreteFunction", "SignatureMap",
           "UserObject", "callable_user_object"]

_RESOURCE_SPEC = "TensorSpec(shape=(), dtype=tf.resource, name=None)"


class _ResourceSpec:
    """A captured variable's spec as TF prints it (tapeflow has no resource dtype)."""

    def __repr__(self):
        return _RESOURCE_SPEC


def _shape(proto):
    if proto.unknown_rank:
        return None
    return [None if d.size < 0 else d.size for d in proto.dim]


def structure(sv):
    """A StructuredValue as a Python nest (TensorSpec leaves for tensors)."""
    kind = sv.which_oneof("kind")
    if kind is None or kind == "none_value":
        return None
    if kind in ("float64_value", "int64_value", "string_value", "bool_value"):
        return getattr(sv, kind)
    if kind in ("tensor_spec_value", "bounded_tensor_spec_value"):
        spec = getattr(sv, kind)
        if spec.dtype in (20, 21):
            return _ResourceSpec()
        return TensorSpec(_shape(spec.shape), kernels.dtype_of(spec.dtype), spec.name or None)
    if kind == "tensor_shape_value":
        return _shape(sv.tensor_shape_value)
    if kind == "tensor_dtype_value":
        return kernels.dtype_of(sv.tensor_dtype_value)
    if kind == "list_value":
        return [structure(v) for v in sv.list_value.values]
    if kind == "tuple_value":
        return tuple(structure(v) for v in sv.tuple_value.values)
    if kind == "dict_value":
        return {k: structure(v) for k, v in sv.dict_value.fields.items()}
    if kind == "named_tuple_value":
        nt = sv.named_tuple_value
        cls = collections.namedtuple(nt.name, [p.key for p in nt.values])
        return cls(*(structure(p.value) for p in nt.values))
    if kind in ("tensor_value", "numpy_value"):
        from .imports import tensor_value
        return tensor_value(getattr(sv, kind))
    if kind == "type_spec_value":   # a RaggedTensorSpec or SparseTensorSpec
        return composites.spec_of_proto(sv.type_spec_value, structure)
    raise NotImplementedError(f"a saved function signature holds a {kind}")


def _leaves(nest_value):
    return _nest.flatten(nest_value)


def _is_tensor(x):
    return isinstance(x, (_TensorLike, np.ndarray, np.generic))


class _NoMatch(Exception):
    pass


def _bind(value, spec, convert, out):
    """Match ``value`` against a spec nest; append the tensors for TensorSpec leaves to
    ``out`` in TF's flattening order (a composite's components for its spec). Raises
    _NoMatch."""
    if composites.is_composite_spec(spec):
        parts = composites.components(value, spec)
        if parts is None:
            raise _NoMatch()
        out.extend(parts)
    elif isinstance(spec, TensorSpec):
        if _is_tensor(value):
            t = value if isinstance(value, _TensorLike) else convert_to_tensor(value)
        elif convert and not isinstance(value, (dict, str, bytes)) and value is not None:
            try:
                t = convert_to_tensor(value, dtype=spec.dtype)
            except (TypeError, ValueError):
                raise _NoMatch() from None
        else:
            raise _NoMatch()
        if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):
            raise _NoMatch()
        out.append(t)
    elif isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            raise _NoMatch()
        for k in sorted(spec):
            _bind(value[k], spec[k], convert, out)
    elif isinstance(spec, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise _NoMatch()
        for v, s in zip(value, spec):
            _bind(v, s, convert, out)
    else:
        if _is_tensor(value) or type(value) is not type(spec) and not (
                isinstance(value, (int, float)) and isinstance(spec, (int, float))):
            raise _NoMatch()
        if value != spec:
            raise _NoMatch()


class RestoredConcreteFunction:
    """One saved trace: its FunctionDef run as a tapeflow ``tf.function``.

    Called with the flat tensors of its inputs (``_call_flat``), with positional/keyword
    arguments matching ``structured_input_signature`` (``__call__``), as TF's
    ``ConcreteFunction``. ``structured_outputs`` is the output nest with TensorSpecs.
    """

    def __init__(self, name, library, captures, input_sig, output_sig, keywords=None,
                 positional=None):
        self.name = name
        self._library = library
        self._captures = captures
        self.structured_input_signature = input_sig
        self.structured_outputs = output_sig
        self._keywords = keywords
        self._positional = positional
        self._fn = None
        # The call fast path (``_call_signature``): the signature's input names in flat
        # order with their NumPy dtypes, the input shapes a call has already been accepted
        # with, and how to pack the flat outputs (None: by ``structured_outputs``).
        self._fast_inputs = None
        self._seen_shapes = set()
        self._out_keys = None

    @property
    def captured_inputs(self):
        return list(self._captures)

    @property
    def variables(self):
        return tuple(c for c in self._captures if isinstance(c, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def _flat_specs(self):
        out = []
        for s in _leaves(self.structured_input_signature):
            if composites.is_composite_spec(s):
                out.extend(composites.component_specs(s))
            elif isinstance(s, TensorSpec):
                out.append(s)
        return out

    def _function(self):
        if self._fn is None:
            specs = [TensorSpec(s.shape, s.dtype) for s in self._flat_specs()]
            run = _Run(self._library, self.name, list(self._captures), len(specs))
            self._fn = _tf_function(run, input_signature=specs, autograph=False)
        return self._fn

    def _call_flat(self, tensors):
        out = self._function()(*tensors)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        keys = self._out_keys
        if keys is not None and len(keys) == len(out):
            return dict(zip(keys, out))
        return pack_outputs(self.structured_outputs, out)

    def __call__(self, *args, **kwargs):
        if self._keywords is not None:
            return self._call_signature(args, kwargs)
        flat = []
        args_spec, kwargs_spec = self.structured_input_signature
        try:
            _bind(tuple(args), tuple(args_spec), True, flat)
            _bind(dict(kwargs), dict(kwargs_spec), True, flat)
        except _NoMatch:
            raise TypeError(
                f"Binding inputs to tf.function failed: {self!r} cannot be called with "
                f"args {args!r} and kwargs {kwargs!r}") from None
        return self._call_flat(flat)

    def _call_signature(self, args, kwargs):
        """A signature's call: keyword arguments named as its inputs (positional ones only
        as many as TF allows), each converted to its dtype or rejected as TF does.

        The fast path: keyword tensors of the signature's dtypes, in shapes a call was
        already accepted with (so nothing else can fail), go straight to the program."""
        fast = self._fast_inputs
        if fast is not None and not args and len(kwargs) == len(fast):
            flat = []
            for k, dtype in fast:
                t = kwargs.get(k)
                if type(t) is not Tensor or t._value.dtype != dtype:
                    break
                flat.append(t)
            else:
                if tuple(t._value.shape for t in flat) in self._seen_shapes:
                    return self._call_flat(flat)
        out = self._call_signature_checked(args, kwargs)
        self._remember(kwargs)
        return out

    def _remember(self, kwargs):
        """After an accepted call: set up the fast path and note its input shapes."""
        _, kwspec = self.structured_input_signature
        if self._fast_inputs is None:
            self._fast_inputs = tuple((k, np.dtype(kwspec[k].dtype.as_numpy_dtype))
                                      for k in sorted(kwspec))
            outs = self.structured_outputs
            # (a dict of tensors whose keys are in flat, sorted, order: packed by zip)
            if type(outs) is dict and all(isinstance(v, TensorSpec) for v in outs.values()) \
                    and all(type(k) is str for k in outs) and list(outs) == sorted(outs):
                self._out_keys = tuple(outs)
        if len(self._seen_shapes) < 64:
            try:
                shapes = tuple(kwargs[k]._value.shape for k, _ in self._fast_inputs)
            except (KeyError, AttributeError):
                return
            self._seen_shapes.add(shapes)

    def _call_signature_checked(self, args, kwargs):
        _, kwspec = self.structured_input_signature
        names = list(self._keywords)
        if len(args) > (self._positional or 0):
            raise TypeError(
                f"{self._sig_text()} takes {self._positional or 0} positional arguments but "
                f"{len(args)} were given")
        bound = dict(zip(names, args))
        bound.update(kwargs)
        missing = [n for n in names if n not in bound]
        if missing:
            raise TypeError(self._binding_error(
                f"missing a required argument: '{missing[0]}'", args, kwargs, missing))
        for k in kwargs:
            if k not in kwspec:
                raise TypeError(self._binding_error(
                    f"got an unexpected keyword argument '{k}'", args, kwargs, [k]))
        flat = []
        for i, k in enumerate(sorted(kwspec)):
            spec = kwspec[k]
            v = bound[k]
            t = v if isinstance(v, _TensorLike) else convert_to_tensor(v, dtype=spec.dtype)
            if t.dtype != spec.dtype:
                raise errors.InvalidArgumentError(
                    None, None,
                    f"cannot compute {self.name} as input #{i}(zero-based) was expected to be "
                    f"a {_tf_type_name(spec.dtype)} tensor but is a "
                    f"{_tf_type_name(t.dtype)} tensor [Op:{self.name}]")
            if not spec.shape.is_compatible_with(t.shape):
                raise errors.InvalidArgumentError(
                    None, None,
                    f"cannot compute {self.name}: input #{i}(zero-based) {k!r} has shape "
                    f"{t.shape} but the signature expects {spec.shape} [Op:{self.name}]")
            flat.append(t)
        return self._call_flat(flat)

    def _sig_text(self):
        args, kwargs = self.structured_input_signature
        parts = [f"{n}: {s!r}" for n, s in zip(self._arg_names(), args)]
        if kwargs:
            parts.append("*")
            parts += [f"{k}: {kwargs[k]!r}" for k in sorted(kwargs)]
        return f"({', '.join(parts)}) -> {_output_type(self.structured_outputs)}"

    def _arg_names(self):
        args, _ = self.structured_input_signature
        return [getattr(s, "name", None) or f"args_{i}" for i, s in enumerate(args)]

    def _binding_error(self, why, args, kwargs, names):
        flat_names = ", ".join(sorted(self.structured_input_signature[1]))
        short = re.sub(r"^__inference_|_\d+$", "", self.name)
        return (f"Binding inputs to tf.function failed due to `{why}`. Received args: {args} "
                f"and kwargs: {kwargs} for signature: {self._sig_text()}.\nFallback to flat "
                f"signature also failed due to: {short}({flat_names}) missing required "
                f"arguments: {', '.join(names)}.")

    def pretty_printed_signature(self, verbose=True):
        args, kwargs = self.structured_input_signature
        lines = ["Input Parameters:"]
        for n, s in zip(self._arg_names(), args):
            lines.append(f"  {n} (POSITIONAL_OR_KEYWORD): {s!r}")
        for k in sorted(kwargs):
            lines.append(f"  {k} (KEYWORD_ONLY): {kwargs[k]!r}")
        lines += ["Output Type:", f"  {_output_type(self.structured_outputs)}", "Captures:"]
        if self._captures:
            lines += [f"  {id(c)}: {_RESOURCE_SPEC}" for c in self._captures]
        else:
            lines.append("  None")
        return "\n".join(lines)

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return f"<ConcreteFunction {self._sig_text()} at 0x{id(self):X}>"


class _Run:
    """The Python body tapeflow's ``tf.function`` traces for one saved function: the
    FunctionDef walked on the inputs and the captured variables. An object, not a closure,
    so each saved function has its own retracing detector (they are keyed by code)."""

    def __init__(self, library, name, captures, n_inputs):
        self.library, self.__name__, self.captures = library, name, captures
        # Plain positional parameters (named as ``*xs`` would name them: xs_0, xs_1, ...)
        # let tapeflow's tf.function take its fast path for tensor arguments.
        self.__signature__ = inspect.Signature([
            inspect.Parameter(f"xs_{i}", inspect.Parameter.POSITIONAL_OR_KEYWORD)
            for i in range(n_inputs)])

    def __call__(self, *xs):
        return self.library.call(self.__name__, list(xs) + self.captures)


def pack_outputs(structured_outputs, flat):
    """``structured_outputs`` (a nest of specs and Python values) with each spec replaced
    by the next flat tensor (a composite spec by a value made of its components)."""
    it = iter(flat)
    leaves = []
    for s in _leaves(structured_outputs):
        if composites.is_composite_spec(s):
            leaves.append(composites.pack(s, [next(it) for _ in range(
                composites.n_components(s))]))
        elif isinstance(s, TensorSpec):
            leaves.append(next(it))
        else:
            leaves.append(s)
    if not _nest.is_nested(structured_outputs):
        return leaves[0] if leaves else None
    return _nest.pack_sequence_as(structured_outputs, leaves)


def _tf_type_name(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _output_type(out):
    if isinstance(out, dict):
        inner = ", ".join(f"[{k!r}, {_output_type(out[k])}]" for k in sorted(out))
        return f"Dict[{inner}]"
    if isinstance(out, tuple):
        return f"Tuple[{', '.join(_output_type(v) for v in out)}]"
    if isinstance(out, list):
        return f"List[{', '.join(_output_type(v) for v in out)}]"
    return repr(out)


class RestoredFunction:
    """A saved ``tf.function``: tries its traces in order, first with the arguments as they
    are, then converting Python values to tensors (TF's ``RestoredFunction``).

    Raises:
        ValueError: no trace matches ("Could not find matching concrete function to call
            loaded from the SavedModel", the options listed, then a ``Hint:``).
    """

    def __init__(self, concrete_functions, fullargspec, is_method, input_signature):
        self.concrete_functions = concrete_functions
        self._argspec = fullargspec
        self._is_method = is_method
        self.input_signature = input_signature

    def _arg_names(self):
        spec = self._argspec
        names = list(getattr(spec, "args", None) or [])
        if self._is_method and names and names[0] == "self":
            names = names[1:]
        return names

    def _canonical(self, args, kwargs):
        names = self._arg_names()
        args = list(args)
        rest = dict(kwargs)
        for n in names[len(args):]:
            if n in rest:
                args.append(rest.pop(n))
            else:
                break
        defaults = list(getattr(self._argspec, "defaults", None) or [])
        if len(args) < len(names) and defaults:
            first_default = len(names) - len(defaults)
            for i in range(len(args), len(names)):
                if i >= first_default and names[i] not in rest:
                    args.append(defaults[i - first_default])
        return tuple(args), rest

    def __call__(self, *args, **kwargs):
        cargs, ckwargs = self._canonical(args, kwargs)
        for convert in (False, True):
            for cf in self.concrete_functions:
                a_spec, k_spec = cf.structured_input_signature
                flat = []
                try:
                    _bind(cargs, tuple(a_spec), convert, flat)
                    _bind(ckwargs, dict(k_spec), convert, flat)
                except _NoMatch:
                    continue
                return cf._call_flat(flat)
        raise self._no_match(args, kwargs, cargs)

    def _no_match(self, args, kwargs, cargs):
        if self.input_signature is not None and len(self.concrete_functions) == 1:
            cf = self.concrete_functions[0]
            a_spec = cf.structured_input_signature[0]
            for v, s in zip(cargs, a_spec):
                why = _composite_mismatch(v, s)
                if why is not None:
                    sig = ", ".join(f"{n}: {sp!r}" for n, sp in zip(
                        self._arg_names(), a_spec))
                    return TypeError(
                        f"Binding inputs to tf.function failed due to `{why}`. Received "
                        f"args: {tuple(args)!r} and kwargs: {kwargs} for signature: ({sig}).")
                if isinstance(s, TensorSpec) and _is_tensor(v):
                    t = convert_to_tensor(v)
                    got = TensorSpec(t.shape, t.dtype, s.name)
                    if not s.is_compatible_with(got):
                        sig = ", ".join(f"{n}: {sp!r}" for n, sp in zip(
                            self._arg_names(), a_spec))
                        return TypeError(
                            f"Binding inputs to tf.function failed due to `Can not cast "
                            f"{got!r} to {s!r}`. Received args: {args} and kwargs: "
                            f"{kwargs} for signature: ({sig}).")
        lines = ["Could not find matching concrete function to call loaded from the "
                 "SavedModel. Got:"]
        # TF traces the call to bind it: the tensors it got print as graph tensors named
        # after their parameters
        names = self._arg_names()
        shown = tuple(_symbolic(a, names[i] if i < len(names) else f"args_{i}")
                      for i, a in enumerate(args))
        lines += _describe(shown, {k: _symbolic(v, k) for k, v in kwargs.items()}, "  ")
        n = len(self.concrete_functions)
        lines.append(f"\n Expected these arguments to match one of the following {n} "
                     "option(s):")
        for i, cf in enumerate(self.concrete_functions, 1):
            a_spec, k_spec = cf.structured_input_signature
            lines.append(f"\nOption {i}:")
            lines += _describe(a_spec, k_spec, "  ")
        lines.append(f"\nHint: {_hint(cargs, self.concrete_functions)}")
        return ValueError("\n".join(lines))


def _composite_mismatch(value, spec):
    """Why ``value`` does not bind to the composite ``spec`` (TF's binding error), or None
    when ``spec`` is not a composite's or ``value`` fits it."""
    if not composites.is_composite_spec(spec) or \
            composites.components(value, spec) is not None:
        return None
    value_spec = getattr(value, "_type_spec", None)
    if type(value_spec) is type(spec) and getattr(value, "ragged_rank", None) == \
            getattr(spec, "ragged_rank", None):
        flat = value.flat_values if hasattr(value, "flat_values") else value.values
        want = composites.component_specs(spec)[0 if hasattr(value, "flat_values") else 1]
        return (f"Can not cast {TensorSpec(flat.shape, flat.dtype)!r} to "
                f"{TensorSpec(want.shape, want.dtype)!r}")
    parts = ", ".join(repr(TensorSpec(c.shape, c.dtype))
                      for c in composites.component_specs(spec))
    return ("The two structures don't have the same nested structure.\n\nFirst structure: "
            f"type=list str=[{parts}]\n\nSecond structure: type=list str=[{value!r}]")


class _Symbolic:
    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _symbolic(value, name):
    """A tensor argument as TF's error shows it: ``<tf.Tensor 'x:0' shape=(1, 3) ...>``."""
    if not _is_tensor(value):
        return value
    t = convert_to_tensor(value)
    return _Symbolic(f"<tf.Tensor '{name}:0' shape={tuple(t.shape.as_list())} "
                     f"dtype={t.dtype.name}>")


def _differs(v, s):
    try:
        return bool(v != s)
    except (ValueError, TypeError):     # a tensor (or a nest holding one) against a value
        return True


def _describe(args, kwargs, indent):
    lines = [f"{indent}Positional arguments ({len(args)} total):"]
    lines += [f"{indent}  * {a!r}" for a in args]
    lines.append(f"{indent}Keyword arguments: {kwargs!r}")
    return lines


def _hint(cargs, cfs):
    """Which saved trace is nearest and what differs."""
    best = None
    for i, cf in enumerate(cfs, 1):
        a_spec = cf.structured_input_signature[0]
        if len(a_spec) != len(cargs):
            why = f"it takes {len(a_spec)} positional arguments, the call gave {len(cargs)}"
            score = 2
        else:
            why, score = "the arguments' values differ", 1
            for j, (v, s) in enumerate(zip(cargs, a_spec)):
                if isinstance(s, TensorSpec):
                    try:
                        t = convert_to_tensor(v)
                    except (TypeError, ValueError):
                        why = f"argument {j} is not convertible to a tensor"
                        break
                    if t.dtype != s.dtype:
                        why = f"argument {j} has dtype {t.dtype.name}, the trace {s.dtype.name}"
                        break
                    if not s.shape.is_compatible_with(t.shape):
                        why = f"argument {j} has shape {t.shape}, the trace {s.shape}"
                        break
                elif _is_tensor(v) and not isinstance(s, TensorSpec):
                    why = (f"argument {j} is a tensor but option {i} was traced with the "
                           f"Python value {s!r} (saved functions keep Python arguments as "
                           f"constants: pass that value)")
                    break
                elif _differs(v, s):
                    why = (f"argument {j} is {v!r} but option {i} was traced with the Python "
                           f"value {s!r} (saved functions keep Python arguments as constants)")
                    break
        if best is None or score < best[0]:
            best = (score, f"option {i} is the nearest: {why}.")
    return best[1] if best else "the function was saved without traces."


class SignatureMap(collections.abc.Mapping):
    """``loaded.signatures``: a read-only mapping from signature key to ConcreteFunction."""

    def __init__(self, functions):
        self._functions = dict(functions)

    def __getitem__(self, key):
        return self._functions[key]

    def __iter__(self):
        return iter(self._functions)

    def __len__(self):
        return len(self._functions)

    def __setitem__(self, key, value):
        raise TypeError("'_SignatureMap' object does not support item assignment")

    def __repr__(self):
        return f"_SignatureMap({self._functions!r})"


class UserObject:
    """A revived trackable object: its saved children as attributes (TF's ``_UserObject``)."""

    def __repr__(self):
        return f"<tapeflow.saved_model._UserObject object at 0x{id(self):x}>"


def callable_user_object(call):
    """A UserObject whose calls go to ``call`` (the saved ``__call__`` function)."""
    cls = type("_UserObject", (UserObject,), {
        "__call__": lambda self, *a, **k: call(*a, **k)})
    return cls()

