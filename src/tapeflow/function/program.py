"""A traced program: the steps of one trace, its inputs, outputs and constants, and two ways to
run it: compiled (``codegen.py``, NumPy values only) and through dispatch (Tensors, so outer
tapes and forward accumulators record every op; also the path that reports errors).
"""
import os
import weakref

from .._core.backend import np
from .._core.tensor import Tensor, _next_id
from .._core.variable import update_in_place
from .ir import (
    UPDATES,
    GuardFailed,
    Interpret,
    Loop,
    Op,
    Probe,
    Read,
    Refused,
    Structured,
    execute,
    walk,
)
from .ir import run_guard as run_guard
from .ir import stateful as _stateful

__all__ = ["Program", "GuardFailed", "run_guard"]

# Every Program made, in order (weak references): with each one's span of Tensor ids (its
# tracer's first, and one taken when the Program is made) graph_def.py works out where TF's
# process-wide uid counter stood when the trace began (its branch functions' names).
TRACES = []

class Program:
    """The recorded steps of one trace.

    Attributes:
        steps: the steps (``ir.py``).
        inputs: per flat argument, its slot (tensors) or ``None`` (variables, read by steps).
        arg_vars: per flat argument, the Variable it was at trace time (or None).
        outputs: the output slots, in the order of the flattened output structure.
        consts: slot -> NumPy value.
        n_slots: number of slots.
    """

    # A partition variant's own output structure (its RaggedTensors' partitions); None:
    # the owning ConcreteFunction's.
    out_struct = None

    def __init__(self, tracer, inputs, arg_vars, outputs):
        self.steps = list(tracer.steps)
        self.inputs = inputs
        self.arg_vars = arg_vars
        self.outputs = outputs
        self.consts = dict(tracer.consts)
        self.n_slots = tracer.n
        self.grad_consts = set(tracer.grad_consts)
        # constants the trace made outside ops, the engine's shape-made seeds left out
        self.orphans = [(s, site) for s, site in tracer.orphans if s not in self.grad_consts]
        self.meta = dict(tracer.meta)
        # traced with relaxed shapes (None dims): a shape is known only when the program runs
        self.relaxed = bool(tracer.relaxed_shapes)
        # per tensor input slot: (traced shape, dtype, its TensorShape with None dims or None)
        relaxed = {tracer.slots[t]: shape for t, shape in tracer.relaxed_shapes.items()
                   if t in tracer.slots}
        self.input_specs = {}
        for s in inputs:
            if s is not None:
                v = tracer.value_of(s)
                self.input_specs[s] = (np.shape(v), np.result_type(v), relaxed.get(s))
        # the steps and constants as traced, before folding: TF's graph of the function
        # (ConcreteFunction.graph) shows every op the body ran
        self.traced = (self.steps, dict(self.consts))
        self.n_folded = self._fold_constants()
        # Random draws, loops that pull from a dataset iterator (each run moves it), and
        # Python calls (tf.py_function: their side effects must not run twice): the
        # soundness switch replays these without its eager re-run.
        self.stateful = getattr(tracer, "unlike_eager", False) or any(
            type(s) is Op and _stateful(s.prim) or type(s) is Loop and s.source.stateful
            or s.kind == "call" for s in walk(self.steps))
        self.n_guards = sum(1 for s in walk(self.steps) if s.kind == "guard")
        self.variables = list(tracer.variables.values())
        self.compiled = None
        self.source = None
        # a variable argument is read through the argument at replay, not the traced object
        self.var_arg_index = {id(v): i for i, v in enumerate(arg_vars) if v is not None}
        self.writes = [s.var for s in walk(self.steps) if s.kind == "assign"]
        self.id_span = (getattr(tracer, "start_id", 0), _next_id())
        TRACES.append(weakref.ref(self))
        if len(TRACES) > 64 and len(TRACES) & (len(TRACES) - 1) == 0:
            TRACES[:] = [r for r in TRACES if r() is not None]

    def _fold_constants(self, fixed=None):
        """Evaluate now the top-level steps of pure primitives whose inputs are all
        constants (a mean's ``1/n`` spread over its input, say): they become constants.

        An input a primitive reads only for its shape (``tf.shape(x)``, the ``x`` of a
        reduction's gradient) counts as a constant when the program's shapes are fixed and
        that input's shape is one of them; a program traced with relaxed shapes computes
        such values at each call instead, but for a compile of it for one call's shapes
        (``codegen.compile_program``), which passes the slots whose shapes it holds as
        ``fixed``."""
        kept, n = [], 0
        outputs = set(self.outputs)
        consts = self.consts
        if fixed is None:
            fixed = None if self.relaxed else self._fixed_shape_slots()
        for step in self.steps:
            if type(step) is Op and step.ins and not _stateful(step.prim) \
                    and not (set(step.outs) & outputs):
                prim, ins, attrs, outs = step.prim, step.ins, step.attrs, step.outs
                args = self._fold_args(prim, ins, fixed)
                if args is not None:
                    try:
                        out = prim.forward(*args, **attrs) if attrs else prim.forward(*args)
                    except Exception:  # noqa: BLE001 - left to fail at run time, as recorded
                        kept.append(step)
                        continue
                    values = (out,) if len(outs) == 1 else out
                    for s, v in zip(outs, values):
                        consts[s] = v
                    n += 1
                    continue
            kept.append(step)
        self.steps = kept
        return n

    def _fold_args(self, prim, ins, fixed):
        """The forward's arguments when the step can be evaluated now, else None."""
        consts = self.consts
        args = []
        for i, s in enumerate(ins):
            if s in consts:
                args.append(consts[s])
            elif fixed is not None and i in prim.shape_inputs and s in fixed \
                    and s in self.meta:
                shape, dtype = self.meta[s]
                # read for its shape only: a zero-strided stand-in of that shape
                args.append(np.broadcast_to(np.zeros((), dtype), shape))
            else:
                return None
        return args

    def _fixed_shape_slots(self):
        """The top-level slots whose shape is the same at every call of a program traced
        with fixed input shapes: arguments, constants, variable reads, and the outputs of
        ops whose output shape follows from their inputs' shapes alone (the compiler's
        element-wise fusion and matrix-vector products trust ``meta`` for these only)."""
        fixed = {s for s in self.inputs if s is not None}
        fixed.update(self.consts)
        for step in self.steps:
            if type(step) is Read:
                fixed.add(step.out)
            elif type(step) is Op:
                if all(s in fixed for s in step.ins) and not (
                        _value_shaped(step.prim, step.ins)
                        and not _const_shaped(step.prim, step.ins, self.consts)):
                    fixed.update(step.outs)
        return fixed

    def shape_generic(self, sizes):
        """True when the same steps compute any other size of the dimensions a relaxed trace
        leaves unknown (``sizes``: the concrete sizes it saw there), so one program serves
        every shape, as TensorFlow's graph does.

        Two checks, both needed: (1) no step attribute and no constant holds one of
        ``sizes`` (a reshape to the traced batch size, a count made in Python from
        ``t.shape``); (2) a probe run of the steps on stand-in inputs whose unknown
        dimensions are one larger succeeds (it catches baked products of sizes, a
        ``reshape(g, (60, 4))``): values are not compared, only that every step accepts
        the other shapes; nothing is drawn, printed or written. A program with a branch
        or loop step is judged by (1) alone."""
        self.why_not_generic = None
        reason = self._not_generic(sizes)
        self.why_not_generic = reason or None
        return not reason

    def _not_generic(self, sizes):
        """Why the program is not shape-generic (for the trace report), or ""."""
        if not sizes:
            return ""
        if any(d < 2 for d in sizes):
            # 0 and 1 are everywhere (axes, keepdims shapes, flags): no way to tell a
            # traced size of 1 from those, so such a trace is not taken as generic.
            return f"traced at size {min(sizes)}, which cannot be told from the program's 0s/1s"
        structured = False
        for step in walk(self.steps):
            if type(step) is Op and step.attrs and _holds_size(
                    [v for k, v in step.attrs.items() if k not in _NOT_SIZES], sizes):
                return f"{step.prim.name}{_at(step.site)} holds a traced size in {step.attrs}"
            if step.kind == "call" and step.outs:
                return f"a Python call{_at(step.site)} returns tensors of unknown shape"
            structured = structured or isinstance(step, Structured)
        for s, v in self.consts.items():
            a = np.asarray(v)
            # Integers (shapes, counts) anywhere; floats only where a gradient computation
            # made them (a mean's 1/n), not the user's own literals (``x * 2.0``).
            kinds = "iuf" if s in self.grad_consts else "iu"
            if any(d in sizes for d in a.shape) or (
                    a.dtype.kind in kinds and a.size <= 16 and any(x in sizes for x in a.ravel())):
                site = next((st for t, st in self.orphans if t == s), None)
                return f"a constant{_at(site)} holds a traced size (shape {a.shape})"
        if structured:
            return ""
        return self._probe({d: d + 1 for d in sizes})

    def _grown(self, grow):
        """``{input slot: shape}`` with each relaxed size ``d`` made ``grow[d]``."""
        return {s: grown_shape(shape, relaxed, grow)
                for s, (shape, _, relaxed) in self.input_specs.items()}

    def relaxed_output_shapes(self, sizes):
        """Per output slot, its traced shape with ``None`` for each dimension that follows
        the relaxed sizes ``sizes`` (found by a probe run at each size plus one: a
        ``reshape(x, [-1])`` of a ``[None, 4]`` input is ``[None]``, a sum over the batch
        ``[4]``), as TensorFlow's shape inference leaves them unknown. The stand-ins'
        values differ from the traced ones, so a size that depends on values (``tf.unique``,
        ``tf.range(n)``) differs too and shows as None, as in TensorFlow. None when the
        probe cannot run (a branch or loop step, stand-ins an op refuses)."""
        if not sizes and not any(type(st) is Op and _value_shaped(st.prim, st.ins)
                                 for st in self.steps):
            return None
        env, refused = self._probe_run(self._grown({d: d + 1 for d in sizes}))
        if refused is not None:
            return None
        traced = self.meta
        out = {}
        for s in self.outputs:
            if s is None or s not in traced or type(env.get(s)) is not np.ndarray:
                continue
            a, b = traced[s][0], env[s].shape
            if len(a) == len(b):
                out[s] = tuple(None if x != y else x for x, y in zip(a, b))
        return out

    def _probe(self, grow):
        """Run the top-level steps on stand-ins with each relaxed size ``d`` made
        ``grow[d]``: "" if every step accepts them, else which one refused."""
        shapes = self._grown(grow)
        _, step = self._probe_run(shapes)
        if step is not None:
            # integer stand-ins of 0 are refused as divisors (floordiv): try 1s
            _, step = self._probe_run(shapes, int_fill=1)
        if step is not None:
            # equal float stand-ins make singular matrices (a QR's R, refused by a
            # triangular solve): try unequal ones, the same at every probe
            _, step = self._probe_run(shapes, int_fill=1, varied=True)
        if step is not None:
            # and integers that are no permutation (tf.math.invert_permutation): 0, 1, 2, ...
            _, step = self._probe_run(shapes, int_fill=None, varied=True)
        if step is None:
            return ""
        name = step.prim.name if type(step) is Op else step.kind
        return f"{name}{_at(step.site)} refuses other sizes (a size baked into the program)"

    def _probe_run(self, input_shapes, int_fill=0, varied=False):
        """Run the top-level steps on stand-in inputs of ``input_shapes`` (``{input slot:
        shape}``; floats 0.5, or when ``varied`` fixed-seed values in [0.5, 1.5); integers
        ``int_fill``, or 0, 1, 2, ... in order when it is None; no draw, print or write):
        ``(env of slot values, None)``, or ``(env, the step that refused them)``."""
        import warnings
        env = dict(self.consts)
        rng = np.random.default_rng(0) if varied else None
        for s, (_, dtype, _) in self.input_specs.items():
            shape = input_shapes[s]
            if varied and dtype.kind in "fc":
                env[s] = rng.uniform(0.5, 1.5, shape).astype(dtype)
            elif int_fill is None and dtype.kind in "iu":
                env[s] = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
            else:
                env[s] = np.full(shape, 0.5 if dtype.kind in "fc" else int_fill, dtype)
        run = Probe()
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                execute(self.steps, env, run)
        except Exception:  # noqa: BLE001 - a step that refuses other shapes (or Refused)
            return env, run.step
        return env, None

    def shapes_for(self, input_shapes):
        """``{slot: (shape, dtype)}`` of the arrays the top-level steps make when the inputs
        have ``input_shapes`` (``{input slot: shape}``), from a probe run, or None when a
        step's shape depends on values or a step refuses the stand-ins (a branch or loop
        step, which the probe does not run); a reshape to a shape computed from constants
        and tensor shapes alone (a Keras ``Flatten``) follows the input shapes. A relaxed
        program compiles its per-shape buffers from it."""
        derived = _shape_derived(self.steps, self.consts)
        if any(isinstance(s, Structured) or
               (type(s) is Op and _value_shaped(s.prim, s.ins)
                and not (s.prim.name in ("Reshape", "BroadcastTo") and s.ins[1] in derived))
               for s in self.steps):
            return None
        env, refused = self._probe_run(input_shapes)
        if refused is not None:
            return None
        return {s: (v.shape, v.dtype) for s, v in env.items()
                if s not in self.consts and type(v) is np.ndarray}

    def op_types(self):
        """The TF op types of the recorded steps, in order (``ConcreteFunction.graph``)."""
        return [t for t in map(op_type, self.steps) if t is not None]

    # ------------------------------------------------------------------ through dispatch
    def interpret(self, leaves):
        """Run the steps as tapeflow ops on Tensors: outer tapes, accumulators and an outer
        tracer see every op; errors are the eager ones. ``leaves`` are the flat arguments
        (Tensors and Variables). Returns the output Tensors."""
        env = {}
        for s, v in self.consts.items():
            env[s] = Tensor(v)
        for slot, leaf in zip(self.inputs, leaves):
            if slot is not None:
                env[slot] = leaf
        run = Interpret(self.var_arg_index, leaves)
        for var in self.variables:
            # TensorFlow marks every captured variable accessed on each call.
            run.var(var)._read()
        saved = [(v, v._value) for v in {id(v): v for v in self.writes}.values()] \
            if self.n_guards else ()
        try:
            execute(self.steps, env, run)
        except GuardFailed:
            for v, value in saved:
                v._value = value
            raise
        return [None if s is None else env[s] for s in self.outputs]


def grown_shape(shape, relaxed, grow):
    """``shape`` (a traced input's) with each size ``d`` of a dimension that ``relaxed`` (its
    TensorShape with None dims, or None: none relaxed) leaves unknown made ``grow[d]``."""
    if relaxed is None:
        return tuple(shape)
    dims = relaxed.dims if relaxed.rank is not None else [None] * len(shape)
    return tuple(grow.get(d, d) if r is None else d for d, r in zip(shape, dims))


class _ShadowEnv(dict):
    """The stand-in values of a :class:`Shadow`: constants, arguments (those of a relaxed
    shape grown, see :func:`grow_value`) and a loop body's inputs (its loop's initial values)
    fill in on first use; a slot no step gave a value raises KeyError."""

    def __init__(self, shadow):
        super().__init__()
        self.shadow = shadow

    def __missing__(self, s):
        sh = self.shadow
        tr = sh.tracer
        if s in tr.consts:
            v = tr.consts[s]
        elif s in tr.shadow_src:
            v = self[tr.shadow_src[s]]
        elif s in tr.input_slots:
            got = sh.inputs.get(s)
            if got is None:
                got = sh.input_value(s)
                if got is None:
                    raise KeyError(s)
            value, relaxed = got
            v = value if relaxed is None else grow_value(
                value, grown_shape(np.shape(value), relaxed, sh.grow))
        else:
            raise KeyError(s)
        self[s] = v
        return v


def grow_value(value, shape):
    """``value`` made ``shape`` (each dimension as large or larger) by repeating it along the
    grown dimensions: an index stays a valid index, a divisor stays non-zero (zeros where a
    dimension was empty)."""
    value = np.asarray(value)
    for axis, (old, new) in enumerate(zip(value.shape, shape)):
        if new != old:
            if old == 0:
                value = np.zeros(value.shape[:axis] + (new,) + value.shape[axis + 1:],
                                 value.dtype)
            else:
                value = np.take(value, np.arange(new) % old, axis=axis)
    return value


class Shadow:
    """The static shapes of a trace with relaxed shapes (TF's shape inference, where a size
    that follows an unknown dimension is None): the :meth:`Program._probe` run, lazy and
    incremental, over the steps the tracer has recorded so far, on stand-ins whose relaxed
    sizes are one larger. A dimension whose stand-in size differs from the traced one is
    None. A step that refuses the stand-ins leaves its outputs (and what follows from them)
    at their traced shapes. The sizes of a ``tf.where(c)``, ``tf.unique`` or ``tf.range(n)``
    of a tensor follow values: their stand-ins are made larger still, so they are None.

    Made by :meth:`Tracer.static_shape` on the first question; nothing runs before, so a
    trace nobody asks costs nothing. ``tracer`` supplies ``steps``, ``stack`` (the step
    lists of the enclosing programs while a branch or loop body is traced), ``consts``,
    ``input_slots``, ``shadow_src`` (a loop body input -> the slot of its initial value),
    ``known`` and ``relaxed_shapes``."""

    def __init__(self, tracer):
        self.tracer = tracer
        self.env = _ShadowEnv(self)
        self.pos = {}      # id(step list) -> number of its steps probed
        self.lists = []    # the step lists probed (alive, so their ids stay theirs)
        self.cache = {}    # slot -> TensorShape
        self.marks = {}    # slot -> axes unknown though their stand-in size is the traced one
        self.derived = set()   # slots computed from constants and shapes alone
        self.inputs = {}
        sizes = set()
        for s in tracer.input_slots:
            got = self.input_value(s)
            if got is not None:
                self.inputs[s] = got   # held: a retired trace's arguments may be gone
                value, relaxed = got
                if relaxed is not None:
                    shape = np.shape(value)
                    dims = relaxed.dims if relaxed.rank is not None else [None] * len(shape)
                    sizes.update(d for d, r in zip(shape, dims) if r is None)
        self.grow = {d: d + 1 for d in sizes}

    def input_value(self, s):
        ref = self.tracer.known.get(s)
        t = ref() if ref is not None and not isinstance(ref, np.ndarray) else None
        if t is None:
            return None
        return t._value, self.tracer.relaxed_shapes.get(t._id)

    def shape(self, s, traced):
        """The static TensorShape of slot ``s`` whose traced shape is ``traced``."""
        self.advance()
        got = self.cache.get(s)
        if got is not None:
            return got
        try:
            v = self.env[s]
        except KeyError:
            v = None
        from .._core.tensor import TensorShape
        sh = np.shape(v) if v is not None else None
        if sh is None or len(sh) != len(traced):
            got = TensorShape(traced)
        else:
            marks = self.marks.get(s, ())
            got = TensorShape([None if a != b or j in marks else a
                               for j, (a, b) in enumerate(zip(traced, sh))])
        self.cache[s] = got
        return got

    def advance(self):
        """Probe the steps recorded since the last call."""
        tr = self.tracer
        for steps in tr.stack:
            self._run(steps)
        self._run(tr.steps)

    def _run(self, steps):
        key = id(steps)
        k = self.pos.get(key)
        if k is None:
            self.lists.append(steps)
            k = 0
        n = len(steps)
        if k == n:
            return
        import warnings
        env = self.env
        consts = self.tracer.consts
        run = Probe()
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            while k < n:
                step = steps[k]
                try:
                    if isinstance(step, Structured):
                        self._structured(step)
                    elif type(step) is Op and step.prim.name == "EnsureShape":
                        self._ensure_shape(step)
                    else:
                        step.probe(env, run, k)
                        if type(step) is Op:
                            if self.marks:
                                self._follow_marks(step)
                            name = step.prim.name
                            if name in _FROM_SHAPES or step.ins and all(
                                    i in self.derived or i in consts for i in step.ins) \
                                    and name not in _SIZE_FROM_VALUES \
                                    and not _stateful(step.prim):
                                self.derived.update(step.outs)
                            if name in _SIZE_FROM_VALUES:
                                self._unknown_size(step)
                            elif name == "StridedSlice":
                                self._strided_unknown(step)
                            elif name == "Reshape" and len(step.ins) == 2:
                                self._reshape_unknown(step)
                except Exception:  # noqa: BLE001, S112 - its outputs keep their traced shapes
                    pass
                k += 1
        self.pos[key] = n

    def _ensure_shape(self, step):
        """``tf.ensure_shape``: its output's stand-in takes the sizes the op pins (cut or
        grown from its input's), so they are known; the others follow the input."""
        v = np.asarray(self.env[step.ins[0]])
        dims = step.attrs["shape"]
        if len(dims) != v.ndim:
            raise Refused
        want = tuple(n if d is None else d for d, n in zip(dims, v.shape))
        self.env[step.outs[0]] = grow_value(v[tuple(slice(0, n) for n in want)], want)

    def _traced(self, s):
        """The traced shape of slot ``s`` (None: unknown, its tensor gone)."""
        tr = self.tracer
        m = tr.meta.get(s)
        if m is not None:
            return tuple(m[0])
        ref = tr.known.get(s)
        t = ref() if ref is not None and not isinstance(ref, np.ndarray) else None
        return None if t is None else np.shape(t._value)

    def _reshape_unknown(self, step):
        """A reshape to a shape tensor with an unknown entry leaves its ``-1`` dimension
        unknown too (TF's shape inference does not divide by a partly known product)."""
        if step.ins[1] in self.tracer.consts:
            return
        got = np.asarray(self.env[step.ins[1]]).ravel()
        s = step.outs[0]
        v = np.asarray(self.env[s])
        traced = self._traced(s)
        if traced is None or v.ndim != len(traced) or got.shape != (v.ndim,):
            return
        minus = got == -1
        if not minus.any() or all(a == b for a, b, m in zip(v.shape, traced, minus) if not m):
            return
        self._mark(s, int(np.flatnonzero(minus)[0]))

    def _mark(self, s, axis):
        """Axis ``axis`` of slot ``s`` is unknown (its stand-in, which later steps compute
        on, keeps its size: only a shape read shows it, and the same-shaped results of
        steps reading it)."""
        self.marks[s] = self.marks.get(s, frozenset()) | {axis}

    def _follow_marks(self, step):
        marks, env = self.marks, self.env
        for i in step.ins:
            axes = marks.get(i)
            if axes is not None and i in env:
                shape = np.shape(env[i])
                for o in step.outs:
                    if o in env and np.shape(env[o]) == shape:
                        marks[o] = marks.get(o, frozenset()) | axes

    def _unknown_size(self, step):
        """A size that follows values (the first, or a bincount's last): the stand-in's made
        unlike the traced one (None), unless the inputs are constants or shapes."""
        consts = self.tracer.consts
        if all(s in consts or s in self.derived for s in step.ins):
            return   # tf.range(tf.shape(x)[0]): follows the shapes, as the stand-ins do
        name = step.prim.name
        if name == "Where" and len(step.ins) != 1:
            return
        if name == "DenseBincount":
            # tf.math.bincount's (Keras's CategoryEncoding has a primitive of that name too,
            # of a fixed ``depth``)
            attrs = step.attrs or {}
            lo, hi = attrs.get("minlength"), attrs.get("maxlength")
            if "minlength" not in attrs or lo is not None and lo == hi:
                return
        self._force(step.outs[0], -1 if name == "DenseBincount" else 0)

    def _force(self, s, axis):
        """Slot ``s``'s stand-in grown along ``axis`` to a size unlike the traced one."""
        v = np.asarray(self.env[s])
        traced = self._traced(s)   # None: its tensor is gone (a multi-output op's)
        if v.ndim == 0 or traced is not None and len(traced) != v.ndim:
            return
        axis %= v.ndim
        n = v.shape[axis] + 1
        if traced is not None and n == traced[axis]:
            n += 1
        self.env[s] = grow_value(v, v.shape[:axis] + (n,) + v.shape[axis + 1:])

    def _strided_unknown(self, step):
        """``x[a:b]`` along an unknown dimension is unknown unless it takes all of it (TF's
        shape inference cannot clip ``a:b`` to a size it does not know)."""
        key = step.attrs.get("key")
        x = step.ins[0]
        traced = self._traced(x)
        if type(key) is not tuple or traced is None:
            return
        shown = np.shape(self.env[x])
        consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
        i = o = 0
        for k in key:
            if k is None:
                o += 1
            elif k is Ellipsis:
                n = len(traced) - consumed
                i, o = i + n, o + n
            elif type(k) is slice:
                if i < len(traced) and shown[i] != traced[i] and k != slice(None):
                    self._mark(step.outs[0], o)
                i, o = i + 1, o + 1
            elif isinstance(k, (int, np.integer)):
                i += 1
            else:
                return   # a tensor or mask index: as the probe found

    def _structured(self, step):
        env = self.env
        kind = step.kind
        if kind == "switch":
            for sub in step.branches:
                self._run(sub.steps)
            for j, o in enumerate(step.outs):
                values = [env[sub.outs[j]] for sub in step.branches]
                traced = self._traced(o)
                pick = values[0]
                for v in values:
                    if traced is not None and np.shape(v) != traced:
                        pick = v
                env[o] = pick
        elif kind == "while":
            for a, b, s in zip(step.cond.ins, step.body.ins, step.ins):
                try:
                    env[a] = env[b] = env[s]
                except KeyError:
                    pass
            self._run(step.cond.steps)
            self._run(step.body.steps)
            for o, i, b in zip(step.outs, step.body.ins, step.body.outs):
                try:
                    if np.shape(env[b]) == np.shape(env[i]):
                        env[o] = env[i]
                except KeyError:
                    pass


# ops whose output's first size follows values (the one-input tf.where; tracer._SIZED_BY_VALUES)
_FROM_SHAPES = frozenset(("Shape", "Size", "Rank", "ShapeN"))
_SIZE_FROM_VALUES = frozenset(
    ("Where", "Unique", "Range", "DynamicPartition", "DenseBincount"))


def op_type(step):
    """The TF op type a step shows as in ``ConcreteFunction.graph`` (None: not an op)."""
    return step.op_type()


def _at(site):
    return "" if not site else f" at {os.path.basename(site[0])}:{site[1]}"


# output shape from input values (bincount's length: the largest value)
_VALUE_SHAPED = frozenset(("Where", "Range", "DenseBincount", "ConfusionMatrix", "Unique"))


def _shape_derived(steps, consts):
    """The top-level slots computed from constants and the shapes of tensors alone (a
    Keras ``Flatten``'s ``pack(shape(x)[0], -1)``): the same for every call of one input
    shape, so a reshape to one of them follows the input shapes, not their values."""
    derived = set(consts)
    for st in steps:
        if type(st) is not Op or _stateful(st.prim):
            continue
        if st.prim.name in ("Shape", "Size", "Rank") or (
                st.ins and all(s in derived for s in st.ins)
                and not _value_shaped(st.prim, st.ins)):
            derived.update(st.outs)
    return derived


def _value_shaped(prim, ins):
    """Primitives whose output shape depends on input *values*: ``tf.where(c)``, and a
    reshape or broadcast to a shape given as a tensor."""
    return prim.name in _VALUE_SHAPED or (
        prim.name in ("Reshape", "BroadcastTo") and len(ins) == 2)


def _const_shaped(prim, ins, consts):
    """A reshape or broadcast to a shape given as a constant tensor (its output's shape
    follows from its input's)."""
    return prim.name in ("Reshape", "BroadcastTo") and len(ins) == 2 and ins[1] in consts


# Attributes that are never sizes of a tensor (a 2x2 pooling window is not a batch of 2).
# ``pads`` are the user's explicit padding, or SAME padding that the convolution and pooling
# ops work out again from the sizes of each call (``nn_conv_ops._SamePads``).
_NOT_SIZES = frozenset((
    "axis", "perm", "keepdims", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b",
    "ksize", "strides", "dilations", "pads", "exclusive", "reverse", "batch_dims", "dtype",
    "src", "seed", "sparse", "num_lower", "num_upper"))


def _holds_size(values, sizes):
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            continue
        if isinstance(v, (int, np.integer)):
            if int(v) in sizes:
                return True
        elif isinstance(v, (tuple, list)):
            if _holds_size(v, sizes):
                return True
        elif isinstance(v, slice):   # a slice's bounds (x[:4] of a batch of 4)
            if _holds_size((v.start, v.stop, v.step), sizes):
                return True
        elif isinstance(v, np.ndarray) and v.dtype.kind in "iu" and v.size <= 16:
            if any(int(x) in sizes for x in v.ravel()):
                return True
    return False


def update(var, array, how):
    ufunc, pyop = UPDATES[how]
    update_in_place(var, array, ufunc, pyop)
