"""The tracer: runs a ``tf.function``'s Python body once with real values and records what it
did as a flat program.

Every primitive reaches ``dispatch.record`` while a tracer is pushed (the tracer counts as an
active tape), variable reads, writes and creations reach it from ``Variable``, and a Python
read of a tensor's value (``bool(t)``, ``float(t)``) reaches it from ``Tensor``. Tensors are
known by their never-reused integer ids, so the tracer holds no tensor; it maps ids to the
numbered *slots* of the program:

- a tensor produced by a recorded step has that step's slot;
- a variable read has a slot per (variable, value array): a value read before an ``assign``
  keeps its own slot, as it keeps its old value eagerly;
- any other tensor is a constant of the program: captured by value when it existed before
  the trace (TensorFlow's semantics), an *orphan* when the trace made it outside the op
  layer (listed by the trace report; replaying it would freeze its value).

Steps are the typed IR of ``ir.py`` (``Op``, ``Read``, ``Assign``, ``Call``, ``Guard``, and the
structured ``Switch``, ``While`` and ``Loop`` that ``ops/control_flow_ops.py`` and AutoGraph ask
for through :meth:`Tracer.switch`, :meth:`Tracer.while_loop` and :meth:`Tracer.iterable_loop`).
"""
import contextlib
import os
import sys
import threading
import weakref

from .._core.backend import np as _np
from .._core.errors import InaccessibleTensorError
from .._core.recording import suspend, tape_stack
from .._core.tensor import (
    SymbolicTensor,
    Tensor,
    TensorShape,
    _FailedValue,
    _next_id,
    make_symbolic,
)
from .ir import Assign, Call, Guard, Loop, Op, Read, Sub, Switch, While, _as_tensor

_ndarray = _np.ndarray

__all__ = ["Tracer", "TracingError", "user_site", "SINGLETON_TEXT", "NON_FIRST_TEXT"]

SINGLETON_TEXT = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
NON_FIRST_TEXT = "Creating variables on a non-first call to a function decorated with tf.function."

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class TracingError(Exception):
    """An internal signal: the trace cannot become a program (it is run eagerly instead)."""


_GRADIENT_FILES = tuple(os.path.join(_PACKAGE, "_core", f) for f in (
    "backprop.py", "jacobians.py", "forwardprop.py", "custom_gradient.py"))


def in_gradient(skip=2):
    """True when the caller runs inside a gradient computation (between the user's frame and
    here there is a reverse or forward sweep of the engine)."""
    f = sys._getframe(skip)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        if f.f_code.co_filename.startswith(_GRADIENT_FILES):
            return True
        f = f.f_back
    return False


def user_site(skip=2):
    """``(filename, lineno, line)`` of the innermost frame outside tapeflow, or None."""
    f = sys._getframe(skip)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        f = f.f_back
    if f is None:
        return None
    return (f.f_code.co_filename, f.f_lineno, f.f_code.co_name)


class Tracer:
    """Records one run of a Python function as program steps (see the module docstring).

    Args:
        allow_creation: ``True`` on a first call (variables may be created: TensorFlow lifts
            them), else ``False`` (creating one raises TF's ``ValueError``) or ``None``
            (a re-specialization: creating one also raises).
        non_first_text: the text of that ``ValueError``.
    """

    def __init__(self, allow_creation=False, error_text=SINGLETON_TEXT):
        self.parent = None
        self.allow_creation = allow_creation
        self.error_text = error_text
        self.start_id = _next_id()
        self.steps = []
        self.n = 0
        self.slots = {}            # tensor id -> slot
        self.var_reads = {}        # (variable id, id(value array)) -> slot
        self.var_ids = set()
        self.variables = {}        # variable id -> Variable (captured or argument)
        self.consts = {}           # slot -> value
        self.orphans = []          # (slot, site) for constants the trace itself made
        self.grad_consts = set()   # slots of constants made by a gradient computation
        self.keep = []             # keeps arrays alive so their ids stay unique
        self.new_variables = []    # variables created while tracing
        self.snapshots = {}        # variable id -> (variable, value before the first write)
        self.effects = []          # tf.print output of this run, flushed on commit
        self.pulls = []            # undo callbacks of iterator pulls (next(it)) of this run
        self.n_guards = 0
        self.suspended = 0         # > 0 inside an opaque call: its ops are not steps
        self.lifted = 0            # > 0 inside tf.init_scope: as if outside the function
        self.known = {}            # slot -> weakref to its Tensor, or its array (reads)
        self.dry = []              # stack of {variable id: (variable, value)} of dry runs
        self.relaxed_shapes = {}   # argument id -> TensorShape with None dims (relaxed)
        self.input_slots = set()   # argument and sub-program input slots
        self.shadow_src = {}       # loop body input slot -> slot of its initial value
        self.stack = []            # enclosing programs' step lists while a sub is traced
        self.shadow = None         # the static shapes of a relaxed trace (program.Shadow)
        self.value_sized = False   # an op whose output size follows values was recorded
        self.names = {}            # slot -> TensorFlow's symbolic name ("x", "mul_1")
        self.meta = {}             # slot -> (shape, dtype) seen while tracing: inputs,
        #                            variable reads, op outputs (buffers, folding)
        self._name_counts = {}
        self.scope = ""            # TensorFlow's name scope of ops traced in a loop ("while/")
        self.closed = []           # (first, end) slot ranges of finished sub-programs
        self.unlike_eager = False  # the body did what an eager run cannot (import_graph_def)
        random_ops = sys.modules.get("tapeflow.ops.random_ops")
        self.random_state = None if random_ops is None else random_ops._snapshot()

    # ------------------------------------------------------------------ slots
    def new_slot(self):
        s = self.n
        self.n += 1
        return s

    def input(self, t, name=None):
        """A fresh input slot for argument tensor ``t``."""
        s = self.new_slot()
        self.slots[t._id] = s
        self.known[s] = weakref.ref(t)
        self.input_slots.add(s)
        if type(t._value) is _ndarray:
            self.meta[s] = (t._value.shape, t._value.dtype)
        if name is not None:
            self.names[s] = name
        return s

    def value_of(self, s):
        """The value slot ``s`` holds in this trace (a loop's body reads the enclosing
        program's slots while the trace runs its later iterations)."""
        if s in self.consts:
            return self.consts[s]
        k = self.known.get(s)
        if isinstance(k, weakref.ref):
            t = k()
            if t is not None:
                return t._value
        elif k is not None:
            return k
        raise RuntimeError(f"tf.function: the value of slot {s} is no longer available")

    def symbolic_text(self, t, is_repr):
        """How TensorFlow prints ``t`` while tracing (``Tensor("x:0", shape=(2,), ...)``),
        or None for a tensor this trace does not know."""
        s = self.slots.get(t._id)
        if s is None or s in self.consts:
            return None
        name = self.names.get(s)
        if name is None:
            return None
        shape = self.static_shape(t)
        if is_repr:
            return f"<tf.Tensor '{name}:0' shape={shape} dtype={t.dtype.name}>"
        if shape.rank is None:
            return f'Tensor("{name}:0", dtype={t.dtype.name})'
        return f'Tensor("{name}:0", shape={shape}, dtype={t.dtype.name})'

    def symbolic_name(self, t):
        """TensorFlow's op name of ``t`` in this trace (``"concat"``, an argument's ``"x"``),
        or None (a constant, a tensor this trace does not know)."""
        s = self.slots.get(t._id)
        if s is None or s in self.consts:
            return None
        return self.names.get(s)

    def static_shape(self, t):
        """``t.shape`` inside this trace: TensorFlow's static shape, with None where a size
        follows a relaxed dimension or values (:class:`~.program.Shadow`), in a trace with
        relaxed shapes or a value-sized op (else the traced shape, at no cost). Whoever
        asks gets it: tapeflow's own code reads the sizes it computes with from the value
        (``_core.tensor.traced_shape``)."""
        relaxed = self.relaxed_shapes.get(t._id)
        if relaxed is not None:
            return relaxed
        traced = t._value.shape
        if not (self.relaxed_shapes or self.value_sized):
            return TensorShape(traced)
        s = self.slots.get(t._id)
        if s is None or s in self.consts:
            return TensorShape(traced)
        if self.shadow is None:
            from .program import Shadow
            self.shadow = Shadow(self)
        return self.shadow.shape(s, traced)

    def _op_name(self, prim):
        return self._op_name_text(_OP_NAMES.get(prim.name, prim.name))

    def _op_name_text(self, base):
        key = self.scope + base
        n = self._name_counts.get(key, 0)
        self._name_counts[key] = n + 1
        return key if n == 0 else f"{key}_{n}"

    def new_scope(self, base):
        """A fresh name scope (``while``, ``while_1``, ...) under the current one."""
        key = self.scope + base + "/"
        n = self._name_counts.get(key, 0)
        self._name_counts[key] = n + 1
        return key if n == 0 else f"{self.scope}{base}_{n}/"

    def const(self, value, orphan_site=None):
        s = self.new_slot()
        self.consts[s] = value
        if orphan_site is not None:
            self.orphans.append((s, orphan_site))
        return s

    def slot_of(self, t):
        """The slot holding tensor (or variable) ``t`` at this point of the trace."""
        tid = t._id
        if type(t) is not Tensor:
            if type(t) is SymbolicTensor and tid not in self.slots:
                raise t._out_of_scope()
            if hasattr(t, "_read"):
                s = self.slots.get(tid)
                if s is not None:
                    # a tensor an op of this trace made, in a Tensor subclass (a variable's
                    # slice ``v[i]``): that op's result, not a read baking today's value in
                    return s
                return self._read_slot(t)
        elif tid in self.var_ids:
            s = self.var_reads.get((tid, id(t._value)))
            if s is not None:
                return s
            return self.const(t._value)   # a read made before the trace: a value
        s = self.slots.get(tid)
        if s is not None:
            if self.closed and self._closed_slot(s):
                raise self._inaccessible(t, s)
            return s
        if type(t._value) is _FailedValue:
            raise t._value.exc   # an op whose kernel failed at trace: its value is needed
        orphan = user_site(2) if tid > self.start_id else None
        s = self.const(t._value, orphan)
        if orphan is not None and in_gradient(2):
            self.grad_consts.add(s)
        self.slots[tid] = s
        return s

    def _closed_slot(self, s):
        if s in self.consts:
            return False   # a constant first captured inside a sub-program is everyone's
        for lo, hi in self.closed:
            if lo <= s < hi:
                return True
        return False

    def _inaccessible(self, t, s):
        """TensorFlow's InaccessibleTensorError: ``t`` (slot ``s``) was made inside a branch
        or loop body whose sub-program is finished (a Python list it appended to)."""
        text = self.symbolic_text(t, True) or repr(t)
        site = None
        for step in self._all_steps():
            if s in step.defs():
                site = step.site
                break
        where = "" if site is None else f'    File "{site[0]}", line {site[1]}, in {site[2]}\n'
        exc = InaccessibleTensorError(
            f"{text} is out of scope and cannot be used here. Use return values, explicit "
            f"Python locals or TensorFlow collections to access it.\nPlease see https://www."
            f"tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values "
            f"for more information.\n\n{text} was defined here:\n{where}\nThe tensor {text} "
            f"cannot be accessed from here, because it was defined in a loop body or a "
            f"branch, which is out of scope.")
        exc._tf_graph_scope = True
        return exc

    def _all_steps(self):
        from .ir import walk
        return walk(self.steps)

    def _read_slot(self, var):
        # an UnreadVariable (what assign returns) reads its variable: one slot, one object,
        # so a variable argument replays through the argument passed
        var = getattr(var, "_parent", var)
        value = var._value
        key = (var._id, id(value))
        s = self.var_reads.get(key)
        if s is None:
            vid = var._id
            self.var_ids.add(vid)
            self.variables[vid] = var
            self.keep.append(value)
            s = self.var_reads[key] = self.new_slot()
            self.known[s] = value
            if type(value) is _ndarray:
                self.meta[s] = (value.shape, value.dtype)
            self.steps.append(Read(var, s))
        return s

    # ------------------------------------------------------------------ hooks
    def op(self, prim, inputs, out, attrs):
        if type((out if prim.n_outputs == 1 else out[0])._value) is _FailedValue:
            return   # its kernel failed: left out (dispatch.op_failed)
        if self.parent is not None:
            self.parent.op(prim, inputs, out, attrs)
        if self.suspended:
            return
        ins = tuple([self.slot_of(t) for t in inputs])
        if prim.name in _SIZED_BY_VALUES:
            self.value_sized = True   # tf.unique, tf.where(c), tf.range(n): sizes unknown
        if prim.shape_inputs:
            # a fixed-shape program may fold the op: it needs these inputs' shapes only
            for i, s in enumerate(ins):
                if i in prim.shape_inputs and s not in self.meta:
                    v = inputs[i]._value
                    self.meta[s] = (_np.shape(v), _np.result_type(v))
        if prim.n_outputs == 1:
            outs = (self.new_slot(),)
            self.slots[out._id] = outs[0]
            self.known[outs[0]] = weakref.ref(out)
            self.names[outs[0]] = self._op_name(prim)
            v = out._value
            if type(v) is _ndarray:
                self.meta[outs[0]] = (v.shape, v.dtype)
        else:
            outs = tuple([self.new_slot() for _ in out])
            for o, s in zip(out, outs):
                self.slots[o._id] = s
                self.known[s] = weakref.ref(o)
        self.steps.append(Op(prim, ins, attrs, outs, user_site(2)))

    def read(self, var):
        if self.parent is not None:
            self.parent.read(var)
        if not self.suspended:
            self._read_slot(var)

    def assign(self, var, kind, value, array):
        if self.parent is not None:
            self.parent.assign(var, kind, value, array)
        if self.lifted:
            return   # tf.init_scope: initialization outside the function, never undone
        vid = var._id
        if vid not in self.snapshots:
            self.snapshots[vid] = (var, var._value)
        for undo in self.dry:
            if vid not in undo:
                undo[vid] = (var, var._value)
        if self.suspended:
            return
        self.var_ids.add(vid)
        self.variables[vid] = var
        if hasattr(value, "_value") and hasattr(value, "_id"):
            s = self.slot_of(value)
        else:
            s = self.const(array)
        self.steps.append(Assign(var, kind, s, user_site(2)))

    def note_write(self, var):
        """A write made outside ``Variable.assign*`` while tracing (a loop's later iterations
        run as raw values): kept for rollback like any other."""
        vid = var._id
        if vid not in self.snapshots:
            self.snapshots[vid] = (var, var._value)
        for undo in self.dry:
            if vid not in undo:
                undo[vid] = (var, var._value)

    def created(self, var):
        if self.parent is not None:
            self.parent.created(var)
        if not self.allow_creation:
            raise ValueError(self.error_text)
        self.new_variables.append(var)

    def leave(self, t, how, convert):
        """A Python read of ``t``'s value: TF's error for ``.numpy()``/``np.asarray``, else the
        value, which the program then guards (a replay with another value re-specializes)."""
        if self.lifted:   # tf.init_scope (an input pipeline's map function): eager code
            return convert(t._value) if convert is not None else t._value
        if how == "numpy":
            raise AttributeError(
                "'SymbolicTensor' object has no attribute 'numpy' (tf.function: `.numpy()` "
                "is not available while tracing; use the tensor itself, or tf.print)")
        if how == "array":
            raise NotImplementedError(
                f"Cannot convert a symbolic tf.Tensor ({_tensor_name(t)}) to a numpy array. "
                f"This error may indicate that you're trying to pass a Tensor to a NumPy call, "
                f"which is not supported.")
        value = convert(t._value) if convert is not None else t._value
        expected = value.copy() if how == "value" and hasattr(value, "copy") else value
        tr = self
        while tr is not None:
            if not tr.suspended:
                tr.n_guards += 1
                tr.steps.append(Guard(tr.slot_of(t), how, expected, user_site(2)))
            tr = tr.parent
        return value

    def call(self, fn, inputs, outputs):
        """Record an opaque step: ``fn(*inputs)`` (Tensors) is called again at every replay;
        its Tensor ``outputs`` get slots. Used for ``tf.print`` and ``py_function``."""
        tr = self
        while tr is not None:
            if not tr.suspended:
                ins = tuple([tr.slot_of(t) for t in inputs])
                outs = tuple([tr.new_slot() for _ in outputs])
                for o, s in zip(outputs, outs):
                    tr.slots[o._id] = s
                    tr.known[s] = weakref.ref(o)
                tr.steps.append(Call(fn, ins, outs, user_site(2)))
            tr = tr.parent

    # ------------------------------------------------------------------ sub-programs
    def chain(self):
        out = []
        tr = self
        while tr is not None:
            out.append(tr)
            tr = tr.parent
        return out

    def sub(self, fn, args, dry=False, scope=None, sources=None):
        """Run ``fn(*args)`` (``args`` fresh Tensors) recording its steps as a sub-program on
        every tracer of the chain (a branch, a loop body). A dry run (an untaken branch, a
        body that runs zero times) leaves no variable write and no ``tf.print`` output
        behind. ``sources`` (a loop's initial values, one per arg) give the args their
        static shapes. Returns ``(flat output Tensors, structure, subs)`` where ``subs[i]``
        is the :class:`~.ir.Sub` for the i-th tracer of the chain."""
        from .._core import nest
        chain = self.chain()
        saved = [tr.steps for tr in chain]
        root = chain[-1]
        n_effects = len(root.effects)
        undo = {}
        scopes = [tr.scope for tr in chain]
        counts = [tr._name_counts for tr in chain]
        for tr in chain:
            tr.stack.append(tr.steps)
            tr.steps = []
            tr._name_counts = {}   # a branch or body is a graph of its own: names restart
            if scope is not None:
                tr.scope = scope if tr is self else tr.scope
            if dry:
                tr.dry.append(undo)
        firsts = [tr.n for tr in chain]
        ins = [[tr.input(a, tr._op_name_text("Placeholder")) for a in args] for tr in chain]
        if sources is not None:
            for tr, slots in zip(chain, ins):
                for s, src in zip(slots, sources):
                    got = tr.slots.get(src._id)
                    if got is not None:
                        tr.shadow_src[s] = got
        try:
            result = fn(*args)
            flat = [_as_tensor(x) for x in nest.flatten(result)]
            outs = [[tr.slot_of(t) for t in flat] for tr in chain]
            subs = [Sub(tr.steps, ins[i], outs[i]) for i, tr in enumerate(chain)]
        finally:
            for tr, steps, sc, cn, lo in zip(chain, saved, scopes, counts, firsts):
                tr.closed.append((lo, tr.n))
                tr.stack.pop()
                tr.steps = steps
                tr.scope = sc
                tr._name_counts = cn
                if dry:
                    tr.dry.pop()
            if dry:
                for var, value in undo.values():
                    var._value = value
                del root.effects[n_effects:]
        return flat, result, subs

    def structured(self, make, subs_per_part, inputs, outputs):
        """Append the structured step ``make(in_slots, subs, out_slots)`` on every tracer of
        the chain (each with its own slots; ``subs_per_part[j][i]`` is part ``j``'s
        sub-program for the i-th tracer). ``outputs`` are fresh Tensors holding this run's
        results."""
        site = user_site(2)
        for i, tr in enumerate(self.chain()):
            ins = tuple([tr.slot_of(t) for t in inputs])
            outs = tuple([tr.new_slot() for _ in outputs])
            for o, s in zip(outputs, outs):
                tr.slots[o._id] = s
                tr.known[s] = weakref.ref(o)
            step = make(ins, [subs[i] for subs in subs_per_part], outs)
            step.site = site
            tr.steps.append(step)

    # The tracer protocol the control-flow ops use (they import nothing from function/):
    def switch(self, index, fns, taken, by_bool, order, check):
        """``tf.cond`` / ``tf.switch_case`` in a trace (see :meth:`.ir.Switch.trace`)."""
        return Switch.trace(self, index, fns, taken, by_bool, order, check)

    def while_loop(self, cond, body, flat, limit):
        """``tf.while_loop`` in a trace over flat loop values (see :meth:`.ir.While.trace`)."""
        return While.trace(self, cond, body, flat, limit)

    def iterable_loop(self, source, body, init, brk):
        """``for`` over an external iterable (an :class:`.ir.LoopSource`) in a trace: see
        :meth:`.ir.Loop.trace`."""
        return Loop.trace(self, source, body, init, brk)

    def suspend(self, lift=False):
        """:func:`suspend`: ops inside are not recorded as steps."""
        return suspend(lift)

    def python_calls_dry(self):
        """:func:`python_calls_dry`: whether ``tf.py_function`` bodies are only recorded."""
        return python_calls_dry()

    # ------------------------------------------------------------------ transaction
    def rollback(self):
        """Undo this run's variable writes, random draws and ``next(iterator)`` pulls (a
        first run that created variables, an error)."""
        for var, value in self.snapshots.values():
            var._value = value
        self.effects.clear()
        while self.pulls:
            self.pulls.pop()()   # the pulled elements go back, the last one first
        if self.random_state is not None:
            sys.modules["tapeflow.ops.random_ops"]._restore(self.random_state)

    def commit(self):
        for fn in self.effects:
            fn()
        self.effects.clear()


# Ops whose output sizes follow values (program._SIZE_FROM_VALUES): a trace that records one
# has static shapes with None even when its arguments' shapes are all known.
_SIZED_BY_VALUES = frozenset(("Where", "Unique", "Range", "DynamicPartition", "DenseBincount"))

# The node names TensorFlow's Python API gives these op types by default (others: the type):
# printed symbolic tensors and ConcreteFunction.graph's nodes.
_OP_NAMES = {"AddV2": "add", "Sub": "sub", "Mul": "mul", "RealDiv": "truediv", "Pow": "pow",
             "FloorDiv": "floordiv", "FloorMod": "mod", "ConcatV2": "concat",
             "StridedSlice": "strided_slice"}


def retire(tracer, keep, fn_name):
    """After an outermost trace: the tensors its steps made, except ``keep`` (the outputs
    handed to the caller, the arguments), become :class:`SymbolicTensor` as the graph tensors
    a TensorFlow function leaks: no ``.numpy()``, TensorFlow's printed form, and (unless a
    tape of this thread may still read them in a backward pass) no value, so an op that uses
    one raises TensorFlow's out-of-scope TypeError."""
    if tracer.parent is not None:
        return
    keep = {id(t) for t in keep}
    detach = not tape_stack()
    sites = None
    for s, ref in tracer.known.items():
        t = ref() if type(ref) is weakref.ref else None
        if type(t) is Tensor and id(t) not in keep and type(t._value) is not _FailedValue:
            if sites is None:
                sites = {o: step.site for step in tracer.steps if type(step) is Op
                         for o in step.outs}
            shape = tracer.relaxed_shapes.get(t._id)
            if shape is None:
                shape = _lazy_shape(tracer, s, t._value.shape) if tracer.relaxed_shapes \
                    or tracer.value_sized else TensorShape(t._value.shape)
            make_symbolic(t, tracer.names.get(s, "Identity"), shape, sites.get(s), fn_name,
                          detach)


def _lazy_shape(tracer, s, traced):
    """A leaked tensor's static shape, worked out when first asked (a relaxed trace, one
    with a value-sized op)."""
    if s in tracer.consts:
        return TensorShape(traced)
    if tracer.shadow is None:
        from .program import Shadow
        tracer.shadow = Shadow(tracer)
    shadow = tracer.shadow
    return lambda: shadow.shape(s, traced)


def _tensor_name(t):
    return f"{type(t).__name__.lower()}:0"


_DRY = threading.local()   # .on: this thread's trace only builds a per-element program


@contextlib.contextmanager
def dry_python_calls():
    """A context in which a trace only builds a program that later runs per element
    (``Dataset.map``): ``tf.py_function`` bodies are recorded, not called, as TensorFlow
    runs them per element and not while it traces."""
    _DRY.on = True
    try:
        yield
    finally:
        _DRY.on = False


def python_calls_dry():
    """Whether this thread is inside :func:`dry_python_calls`."""
    return getattr(_DRY, "on", False)
