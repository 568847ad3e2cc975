"""The typed program IR of ``tf.function``: one class per step kind, one walker.

A trace records a flat list of steps over numbered *slots* (see ``tracer.py``). Each step is an
instance of one class below with named fields and ``__slots__``, as JAX's ``JaxprEqn``. Every
class keeps its rules together:

- ``interpret(env, run, k)``: run through dispatch on Tensors (outer tapes, accumulators and an
  outer tracer see every op; errors are the eager ones);
- ``evaluate(env, run, k)``: run on raw backend arrays (a loop's later iterations at trace
  time), no Tensor, no recording;
- ``probe(env, run, k)``: compute outputs on stand-in arrays with no effect (shape checks of a
  relaxed program);
- ``emit(lines, em, k)``: write the step as Python source (``codegen.py``);

and the structured kinds (:class:`Switch`, :class:`While`, :class:`Loop`) also their ``trace``
rule (how the tracer records them). :func:`execute` is the one walker: it calls one rule of each
step in order; a rule of a structured step calls it again on its sub-programs. The fused GEMM
update (``blas.GemmUpdate``) and the fused element-wise run (``fusion.Fused``) are step kinds
of compiled programs only.

``docs/function.md`` describes every class, its fields and rules.
"""
import operator

from .._core.backend import np
from .._core.dispatch import apply as _apply
from .._core.tensor import Tensor
from ..ops import control_flow_ops as _cf

__all__ = ["Step", "Sub", "Op", "Read", "Assign", "Call", "Guard", "Switch", "While", "Loop",
           "LoopSource", "execute", "walk", "GuardFailed", "Interpret", "Evaluate", "Probe",
           "register_for_loop", "register_next"]


class GuardFailed(Exception):
    """A replay met a Python value that differs from the trace's (it re-specializes)."""

    def __init__(self, index, site=None, how=None, expected=None, got=None):
        super().__init__(index)
        self.index = index
        self.site = site
        self.how = how
        self.expected = expected
        self.got = got


_CONVERT = {"bool": bool, "float": float, "int": int, "index": int, "value": lambda v: v}


def run_guard(how, value):
    return _CONVERT[how](value)


def guard_holds(expected, got):
    if isinstance(expected, (np.ndarray, np.generic)):
        return (np.shape(expected) == np.shape(got) and
                np.array_equal(expected, got, equal_nan=expected.dtype.kind in "fc"))
    if expected != expected and got != got:   # NaN == NaN, as TensorFlow's trace keys
        return True
    return expected == got and type(expected) is type(got)


def branch_index(index, n):
    """The branch a switch index takes; out of range, the last (TensorFlow's default)."""
    i = int(index)
    return i if 0 <= i < n else n - 1   # TensorFlow: an out-of-range index runs the default


_STATEFUL_WORDS = ("Random", "Generator", "Multinomial", "Shuffle", "Stateful")


def stateful(prim):
    """Primitives that must run at every replay (they draw random numbers)."""
    return any(w in prim.name for w in _STATEFUL_WORDS)


class Refused(Exception):
    """A probe rule's answer: the step does not accept the stand-in values."""


# ---------------------------------------------------------------------------- the walker
def execute(steps, env, run):
    """The one walker: run rule ``run.rule`` (``"interpret"``, ``"evaluate"``, ``"probe"``,
    ``"emit"``) of each step in order on ``env`` (slot -> value; for ``emit`` the list of
    source lines). ``run`` carries what the rule needs (the arguments, the tracer, the
    emitter); an exception leaves through ``run.failed`` first."""
    rule = run.rule
    for k, step in enumerate(steps):
        try:
            getattr(step, rule)(env, run, k)
        except Exception as exc:
            run.failed(exc, k, step)
            raise


def walk(steps):
    """Every step, those of branches and loop bodies included."""
    for step in steps:
        yield step
        for sub in step.subs():
            yield from walk(sub.steps)


class Interpret:
    """What ``interpret`` rules need: the flat arguments and the program's variable map."""

    rule = "interpret"

    def __init__(self, var_arg_index, leaves):
        self.var_arg_index = var_arg_index
        self.leaves = leaves

    def var(self, var):
        """A variable argument is read through the argument passed, not the traced one."""
        i = self.var_arg_index.get(id(var))
        return var if i is None else self.leaves[i]

    def failed(self, exc, k, step):
        if type(exc) is GuardFailed and exc.index is None:
            exc.index = k


class Evaluate:
    """What ``evaluate`` rules need: the tracer whose rollback must undo variable writes
    (or None)."""

    rule = "evaluate"

    def __init__(self, tracer=None):
        self.tracer = tracer

    def failed(self, exc, k, step):
        if type(exc) is GuardFailed and exc.index is None:
            exc.index = 0


class Probe:
    """``probe`` rules: no draw, print or write; ``step`` is the top-level step that refused."""

    rule = "probe"
    step = None

    def failed(self, exc, k, step):
        self.step = step


class ValueEnv(dict):
    """Slot values for a loop's later iterations at trace time; the enclosing program's
    slots come from the tracer."""

    def __init__(self, tracer):
        super().__init__()
        self.tracer = tracer

    def __missing__(self, s):
        v = self[s] = self.tracer.value_of(s)
        return v


# ---------------------------------------------------------------------------- steps
class Sub:
    """A sub-program of a structured step: its steps, input slots and output slots.
    ``dead`` holds what only TF's graph of the branch shows (``graph_def.py``): the
    constants AutoGraph's checks of a tensor ``if`` convert and leave unused."""

    __slots__ = ("steps", "ins", "outs", "dead")

    def __init__(self, steps, ins, outs, dead=()):
        self.steps = steps
        self.ins = ins
        self.outs = outs
        self.dead = dead

    def renamed(self, m):
        return Sub([step.renamed(m) for step in self.steps], self.ins,
                   type(self.outs)(m.get(s, s) for s in self.outs), self.dead)

    def uses(self):
        used = []
        for inner in walk(self.steps):
            used.extend(inner.uses())
        used.extend(self.outs)
        return used


class Step:
    """One step of a program. ``site`` is the user's ``(file, line, function)`` or None."""

    __slots__ = ("site",)
    kind = "step"
    _slot_fields = ()   # the fields that hold slots the step reads (a slot or a tuple)
    _sub_fields = ()    # the fields that hold its sub-programs (a Sub or a list of them)

    def renamed(self, m):
        """A copy of the step reading slot ``m.get(s, s)`` for each slot ``s`` it reads, in
        its sub-programs too (a pass that merges or forwards slots)."""
        new = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(new, name, getattr(self, name))
        for name in self._slot_fields:
            v = getattr(self, name)
            if type(v) is tuple:
                setattr(new, name, tuple([m.get(s, s) for s in v]))
            elif v is not None:
                setattr(new, name, m.get(v, v))
        for name in self._sub_fields:
            v = getattr(self, name)
            setattr(new, name, v.renamed(m) if type(v) is Sub else [b.renamed(m) for b in v])
        return new

    def reads(self):
        """The top-level slots the step reads (its inputs as a graph node): the values of its
        ``_slot_fields`` in order, a tuple field spread, an absent (None) one left out."""
        out = []
        for name in self._slot_fields:
            v = getattr(self, name)
            if type(v) is tuple or type(v) is list:
                out.extend(v)
            elif v is not None:
                out.append(v)
        return tuple(out)

    def uses(self):
        """Every slot the step reads, those its sub-programs read included."""
        return self.reads()

    def defs(self):
        """The slots the step writes."""
        return ()

    def subs(self):
        """Its sub-programs (:class:`Sub`): the values of its ``_sub_fields``."""
        out = []
        for name in self._sub_fields:
            v = getattr(self, name)
            out.extend([v] if type(v) is Sub else v)
        return tuple(out)

    def op_type(self):
        """The TF op type it shows as in ``ConcreteFunction.graph`` (None: not an op)."""
        return None

    def probe(self, env, run, k):
        pass


class Op(Step):
    """A primitive: ``outs = prim.forward(*ins, **attrs)``."""

    __slots__ = ("prim", "ins", "attrs", "outs")
    kind = "op"
    _slot_fields = ("ins",)

    def __init__(self, prim, ins, attrs, outs, site):
        self.prim, self.ins, self.attrs, self.outs, self.site = prim, ins, attrs, outs, site

    def defs(self):
        return self.outs

    def op_type(self):
        return self.prim.name

    def interpret(self, env, run, k):
        try:
            out = _apply(self.prim, [env[s] for s in self.ins], self.attrs)
        except Exception as exc:
            add_site(exc, self.site)
            raise
        outs = self.outs
        if len(outs) == 1:
            env[outs[0]] = out
        else:
            for s, o in zip(outs, out):
                env[s] = o

    def evaluate(self, env, run, k):
        args = [env[s] for s in self.ins]
        attrs = self.attrs
        out = self.prim.forward(*args, **attrs) if attrs else self.prim.forward(*args)
        outs = self.outs
        if len(outs) == 1:
            env[outs[0]] = out
        else:
            for s, o in zip(outs, out):
                env[s] = o

    def probe(self, env, run, k):
        prim, ins, attrs = self.prim, self.ins, self.attrs
        if stateful(prim):
            # a draw: only its shape matters (no number is drawn); the shape is an
            # attribute, or the last input (after a stateless draw's seed)
            dtype = getattr(attrs.get("dtype"), "_np", attrs.get("dtype"))
            if dtype is None or ("shape" not in attrs and not 1 <= len(ins) <= 2):
                raise Refused
            shape = attrs["shape"] if "shape" in attrs else tuple(
                int(d) for d in env[ins[-1]])
            if shape is None:
                raise Refused
            out = np.zeros(shape, dtype)
        else:
            args = [env[s] for s in ins]
            out = prim.forward(*args, **attrs) if attrs else prim.forward(*args)
        for s, o in zip(self.outs, (out,) if len(self.outs) == 1 else out):
            env[s] = o

    def emit(self, lines, em, k):
        em.op(self, lines)


class Read(Step):
    """A variable read: ``out = var``'s value."""

    __slots__ = ("var", "out")
    kind = "read"

    def __init__(self, var, out, site=None):
        self.var, self.out, self.site = var, out, site

    def defs(self):
        return (self.out,)

    def op_type(self):
        return "ReadVariableOp"

    def interpret(self, env, run, k):
        env[self.out] = run.var(self.var)._read()

    def evaluate(self, env, run, k):
        env[self.out] = self.var._value

    probe = evaluate

    def emit(self, lines, em, k):
        lines.append(f"{em.pad}r{self.out} = {em.var_names[id(self.var)]}._value")


UPDATES = {"assign_add": (np.add, operator.add), "assign_sub": (np.subtract, operator.sub)}
_ASSIGN_TYPES = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
                 "assign_sub": "AssignSubVariableOp"}


class Assign(Step):
    """A variable write: ``var.<how>(src)``, ``how`` one of ``assign``, ``assign_add``,
    ``assign_sub``."""

    __slots__ = ("var", "how", "src")
    kind = "assign"
    _slot_fields = ("src",)

    def __init__(self, var, how, src, site):
        self.var, self.how, self.src, self.site = var, how, src, site

    def op_type(self):
        return _ASSIGN_TYPES[self.how]

    def interpret(self, env, run, k):
        getattr(run.var(self.var), self.how)(env[self.src])

    def evaluate(self, env, run, k):
        var = self.var
        if run.tracer is not None:
            for tr in run.tracer.chain():
                tr.note_write(var)
        if self.how == "assign":
            var._value = env[self.src]
        else:
            var._value = UPDATES[self.how][1](var._value, env[self.src])

    def probe(self, env, run, k):
        have, got = np.shape(self.var._value), np.shape(env[self.src])
        if have != (got if self.how == "assign" else np.broadcast_shapes(have, got)):
            raise Refused

    def emit(self, lines, em, k):
        vn = em.var_names[id(self.var)]
        em.before_write(k, lines)
        if self.how == "assign":
            lines.append(f"{em.pad}{vn}._value = r{self.src}")
        else:
            ufunc, pyop = UPDATES[self.how]
            tag = f"{id(self):x}"
            u = em.const("U", tag, ufunc)
            p = em.const("P", tag, pyop)
            lines.append(f"{em.pad}_update({vn}, r{self.src}, {u}, {p})")


class Call(Step):
    """An opaque Python call run again at every replay (``tf.print``, ``tf.py_function``):
    ``outs = fn(*ins)`` on Tensors."""

    __slots__ = ("fn", "ins", "outs")
    kind = "call"
    _slot_fields = ("ins",)

    def __init__(self, fn, ins, outs, site):
        self.fn, self.ins, self.outs, self.site = fn, ins, outs, site

    def defs(self):
        return self.outs

    def op_type(self):
        return getattr(self.fn, "op_type", "PyFunc")

    def interpret(self, env, run, k):
        res = self.fn(*[env[s] for s in self.ins])
        for s, o in zip(self.outs, res or ()):
            env[s] = o

    def evaluate(self, env, run, k):
        res = self.fn(*[Tensor(env[s]) for s in self.ins])
        for s, o in zip(self.outs, res or ()):
            env[s] = o._value

    def probe(self, env, run, k):
        for s in self.ins:
            env[s]   # noqa: B018 - its inputs must exist; tf.print prints nothing here

    def emit(self, lines, em, k):
        c = em.const("C", f"{id(self):x}", self.fn)
        call = f"{c}({', '.join(f'Tensor(r{s})' for s in self.ins)})"
        if self.outs:
            lines.append(f"{em.pad}_o = {call}")
            for j, s in enumerate(self.outs):
                lines.append(f"{em.pad}r{s} = _o[{j}]._value")
        else:
            lines.append(f"{em.pad}{call}")


class Guard(Step):
    """A Python read of a tensor's value (``bool(t)``, ``float(t)``...): ``how`` converts the
    slot's value, which must equal ``expected`` or the replay re-specializes."""

    __slots__ = ("slot", "how", "expected")
    kind = "guard"
    _slot_fields = ("slot",)

    def __init__(self, slot, how, expected, site):
        self.slot, self.how, self.expected, self.site = slot, how, expected, site

    def _check(self, value):
        got = run_guard(self.how, value)
        if not guard_holds(self.expected, got):
            raise GuardFailed(None, self.site, self.how, self.expected, got)

    def interpret(self, env, run, k):
        self._check(env[self.slot]._value)

    def evaluate(self, env, run, k):
        self._check(env[self.slot])

    # guards are checked at each replay, not by a probe

    def emit(self, lines, em, k):
        g = em.const("G", f"{id(self):x}", self.expected)
        s = em.const("S", f"{id(self):x}", self)
        lines.append(f"{em.pad}if not _holds({g}, _guard({self.how!r}, r{self.slot})): "
                     f"raise GuardFailed({k}, {s}.site, {s}.how)")


# ---------------------------------------------------------------------------- structured
class Structured(Step):
    """A step with sub-programs; ``outs`` are the slots of its results."""

    __slots__ = ("outs",)

    def defs(self):
        return self.outs

    def uses(self):
        used = list(self.reads())
        for sub in self.subs():
            used.extend(sub.uses())
        return used


def _run_sub(sub, args, env, run):
    for s, a in zip(sub.ins, args):
        env[s] = a
    execute(sub.steps, env, run)
    return [env[s] for s in sub.outs]


class Switch(Structured):
    """``tf.cond`` (``by_bool``: ``branches[int(bool(index))]``, false first) and
    ``tf.switch_case`` (``branches[index]``, out of range the last)."""

    __slots__ = ("index", "branches", "by_bool")
    kind = "switch"
    _slot_fields = ("index",)
    _sub_fields = ("branches",)

    def __init__(self, index, branches, outs, by_bool, site=None):
        self.index, self.branches, self.outs, self.by_bool, self.site = (
            index, branches, outs, by_bool, site)

    def op_type(self):
        return "StatelessIf" if self.by_bool else "StatelessCase"

    @staticmethod
    def trace(tracer, index, fns, taken, by_bool, order, check):
        """Trace every branch (those not taken dry) in ``order``; ``check(results)`` raises
        when their structures differ. Returns ``(output Tensors, structure)`` of the branch
        taken, the step recorded."""
        results = [None] * len(fns)
        subs = [None] * len(fns)
        for i in order:
            flat, struct, sub = tracer.sub(fns[i], [], dry=(i != taken))
            results[i] = (flat, struct)
            subs[i] = sub
        check(results)
        flat, struct = results[taken]
        outs = [Tensor(t._value) for t in flat]
        tracer.structured(lambda ins, branches, o: Switch(ins[0], branches, o, by_bool),
                subs, [index], outs)
        return outs, struct

    def interpret(self, env, run, k):
        # Through the public control-flow ops, so an outer tracer records a structured step
        # again and an outer tape records the ops of the path taken.
        fns = [lambda sub=sub: _run_sub(sub, (), env, run) for sub in self.branches]
        if self.by_bool:
            result = _cf.cond(env[self.index], fns[1], fns[0])
        else:
            result = _cf.switch_case(env[self.index], fns)
        for s, o in zip(self.outs, result):
            env[s] = o

    def evaluate(self, env, run, k):
        v = env[self.index]
        sub = self.branches[int(bool(v)) if self.by_bool
                            else branch_index(v, len(self.branches))]
        execute(sub.steps, env, run)
        for s, o in zip(self.outs, sub.outs):
            env[s] = env[o]

    def emit(self, lines, em, k):
        pad = em.pad
        if self.by_bool:
            conds = [f"if not r{self.index}:", "else:"]
        else:
            lines.append(f"{pad}_i = _branch(r{self.index}, {len(self.branches)})")
            conds = [f"{'if' if i == 0 else 'elif'} _i == {i}:"
                     for i in range(len(self.branches))]
        for cond_line, sub in zip(conds, self.branches):
            lines.append(pad + cond_line)
            em.block(sub.steps, lines)
            for o, so in zip(self.outs, sub.outs):
                lines.append(f"{pad}    r{o} = r{so}")
            if not sub.steps and not self.outs:
                lines.append(f"{pad}    pass")


class While(Structured):
    """``tf.while_loop``: ``ins`` the loop's initial values, ``limit`` the slot of
    ``maximum_iterations`` (or None), ``cond`` and ``body`` sub-programs of the loop values."""

    __slots__ = ("ins", "limit", "cond", "body")
    kind = "while"
    _slot_fields = ("ins", "limit")
    _sub_fields = ("cond", "body")

    def __init__(self, ins, limit, cond, body, outs, site=None):
        self.ins, self.limit, self.cond, self.body, self.outs, self.site = (
            ins, limit, cond, body, outs, site)

    def op_type(self):
        return "StatelessWhile"

    @staticmethod
    def trace(tracer, cond_flat, body_flat, flat, limit):
        """Trace ``cond`` and ``body`` once (the body dry when the loop does not run), run the
        later iterations on raw values, record the step. Returns the final loop values as
        fresh Tensors."""
        args = [Tensor(t._value) for t in flat]
        scope = tracer.new_scope("while")
        pred, _, cond_subs = tracer.sub(cond_flat, args, scope=scope, sources=flat)
        go = bool(pred[0]._value) and (limit is None or int(limit._value) > 0)
        body_args = [Tensor(t._value) for t in flat]
        new, _, body_subs = tracer.sub(body_flat, body_args, dry=not go, scope=scope,
                                       sources=flat)
        if len(new) != len(flat):
            raise ValueError(f"body must return as many loop variables as loop_vars has "
                             f"({len(flat)}), got {len(new)}.")
        if go:
            step = While((), None, cond_subs[0], body_subs[0], ())
            env = ValueEnv(tracer)
            n = None if limit is None else int(limit._value) - 1
            with tracer.suspend():
                cur = step._iterate([t._value for t in new], n, env, Evaluate(tracer))
        else:
            cur = [t._value for t in flat]
        outs = [Tensor(v) for v in cur]

        def make(ins, subs, o):
            n = len(flat)
            return While(ins[:n], ins[n] if len(ins) > n else None, subs[0], subs[1], o)

        tracer.structured(make, [cond_subs, body_subs],
                flat + ([limit] if limit is not None else []), outs)
        return outs

    def _iterate(self, cur, limit, env, run):
        """The loop on raw values from ``cur``, at most ``limit`` iterations (None: no
        bound): the final values."""
        cond, body = self.cond, self.body
        i = 0
        while limit is None or i < limit:
            for s, v in zip(cond.ins, cur):
                env[s] = v
            execute(cond.steps, env, run)
            if not bool(env[cond.outs[0]]):
                break
            for s, v in zip(body.ins, cur):
                env[s] = v
            execute(body.steps, env, run)
            cur = [env[s] for s in body.outs]
            i += 1
        return cur

    def interpret(self, env, run, k):
        result = _cf.while_loop(
            lambda *xs: _run_sub(self.cond, xs, env, run)[0],
            lambda *xs: _run_sub(self.body, xs, env, run), [env[s] for s in self.ins],
            maximum_iterations=None if self.limit is None else env[self.limit])
        for s, o in zip(self.outs, result):
            env[s] = o

    def evaluate(self, env, run, k):
        limit = None if self.limit is None else int(env[self.limit])
        cur = self._iterate([env[s] for s in self.ins], limit, env, run)
        for s, v in zip(self.outs, cur):
            env[s] = v

    def emit(self, lines, em, k):
        pad, tag = em.pad, f"{id(self):x}"
        cond, body = self.cond, self.body
        loop = [f"_w{tag}_{j}" for j in range(len(self.ins))]
        if loop:
            init = ", ".join(f"r{s}" for s in self.ins)
            lines.append(f"{pad}{', '.join(loop)}, = {init},")
        if self.limit is not None:
            lines.append(f"{pad}_n{tag} = int(r{self.limit}); _k{tag} = 0")
            lines.append(f"{pad}while _k{tag} < _n{tag}:")
        else:
            lines.append(f"{pad}while True:")
        for s, v in zip(cond.ins, loop):
            lines.append(f"{pad}    r{s} = {v}")
        em.block(cond.steps, lines)
        lines.append(f"{pad}    if not r{cond.outs[0]}: break")
        for s, v in zip(body.ins, loop):
            lines.append(f"{pad}    r{s} = {v}")
        em.block(body.steps, lines)
        if loop:
            lines.append(f"{pad}    {', '.join(loop)}, = "
                         f"{', '.join(f'r{s}' for s in body.outs)},")
        if self.limit is not None:
            lines.append(f"{pad}    _k{tag} += 1")
        for o, v in zip(self.outs, loop):
            lines.append(f"{pad}r{o} = {v}")


class LoopSource:
    """What a :class:`Loop` iterates, as the floor that owns the iterable supplies it (tf.data
    registers its datasets and iterators with AutoGraph, ``data/dataset_autograph.py``).

    Attributes:
        values: a callable without arguments returning an iterator of elements, each the
            sequence of an element's flat arrays.
        element_spec: the structure an element's flat values pack into.
        stateful: whether iterating moves state outside the program (an iterator), so each
            replay differs.
    """

    __slots__ = ("values", "element_spec", "stateful")

    def __init__(self, values, element_spec, stateful):
        self.values, self.element_spec, self.stateful = values, element_spec, stateful


class Loop(Structured):
    """``for element in source: vals = body(element, *vals)`` over an external iterable (a
    ``tf.data.Dataset``, ``next(iterator)``): ``ins`` the initial loop values, ``body`` of
    ``n_elem`` element values then the loop values, ``brk`` the index of the loop value
    that stops it (a ``break``), or None."""

    __slots__ = ("source", "ins", "body", "n_elem", "brk")
    kind = "loop"
    _slot_fields = ("ins",)
    _sub_fields = ("body",)

    def __init__(self, source, ins, body, outs, n_elem, brk, site=None):
        self.source, self.ins, self.body, self.outs, self.n_elem, self.brk, self.site = (
            source, ins, body, outs, n_elem, brk, site)

    def op_type(self):
        return "ReduceDataset"

    @staticmethod
    def trace(tracer, source, body, init, brk):
        """The body is traced once (on the first element) and replayed per element, in the
        trace and at every call; elements are pulled without recording (the pipeline runs as
        Python, as TensorFlow runs it outside the graph). Returns the final loop values."""
        from .._core import nest
        init_t = [_as_tensor(v) for v in init]
        values = source.values()
        with tracer.suspend():
            first = next(values, None)
        spec = source.element_spec
        if first is None:
            return tuple(init)
        n_elem = len(first)
        args = [Tensor(a) for a in first] + [Tensor(t._value) for t in init_t]

        def run(*xs):
            element = nest.pack_sequence_as(spec, list(xs[:n_elem])) if nest.is_nested(spec) \
                else xs[0]
            return list(body(element, *xs[n_elem:]))

        flat, _, subs = tracer.sub(run, args)
        sub = subs[0]
        cur = [t._value for t in flat]
        stop = brk is not None and bool(cur[brk])
        env = ValueEnv(tracer)
        ev = Evaluate(tracer)
        while not stop:
            with tracer.suspend():
                element = next(values, None)
            if element is None:
                break
            for s, v in zip(sub.ins, list(element) + cur):
                env[s] = v
            with tracer.suspend():
                execute(sub.steps, env, ev)
            cur = [env[s] for s in sub.outs]
            stop = brk is not None and bool(cur[brk])
        outs = [Tensor(v) for v in cur]
        tracer.structured(lambda ins, b, o: Loop(source, ins, b[0], o, n_elem, brk),
                [subs], init_t, outs)
        return tuple(outs)

    def interpret(self, env, run, k):
        cur = [env[s] for s in self.ins]
        brk = self.brk
        for element in self.source.values():
            cur = _run_sub(self.body, [Tensor(v) for v in element] + cur, env, run)
            if brk is not None and bool(cur[brk]._value):
                break
        for s, o in zip(self.outs, cur):
            env[s] = o

    def evaluate(self, env, run, k):
        body, brk = self.body, self.brk
        cur = [env[s] for s in self.ins]
        for element in self.source.values():
            cur = _run_sub(body, list(element) + cur, env, run)
            if brk is not None and bool(cur[brk]):
                break
        for s, v in zip(self.outs, cur):
            env[s] = v

    def emit(self, lines, em, k):
        pad, tag = em.pad, f"{id(self):x}"
        body, brk, n_elem = self.body, self.brk, self.n_elem
        d = em.const("D", tag, self.source.values)
        loop = [f"_w{tag}_{j}" for j in range(len(self.ins))]
        if loop:
            init = ", ".join(f"r{s}" for s in self.ins)
            lines.append(f"{pad}{', '.join(loop)}, = {init},")
        lines.append(f"{pad}for _e{tag} in {d}():")
        lines.append(f"{pad}    {', '.join(f'r{s}' for s in body.ins[:n_elem])}, = _e{tag}")
        for s, v in zip(body.ins[n_elem:], loop):
            lines.append(f"{pad}    r{s} = {v}")
        em.block(body.steps, lines)
        if loop:
            lines.append(f"{pad}    {', '.join(loop)}, = "
                         f"{', '.join(f'r{s}' for s in body.outs)},")
        if brk is not None:
            lines.append(f"{pad}    if {loop[brk]}: break")
        for o, v in zip(self.outs, loop):
            lines.append(f"{pad}r{o} = {v}")


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "_read"):
        return x._read()
    from .._core.tensor import convert_to_tensor
    return convert_to_tensor(x)


def add_site(exc, site):
    """Append where the failing step was traced to an error's message."""
    if site is None or not exc.args or not isinstance(exc.args[0], str):
        return
    filename, lineno, name = site
    note = f"\n  (in tf.function, traced at {filename}:{lineno}, in {name})"
    if note not in exc.args[0]:
        exc.args = (exc.args[0] + note,) + exc.args[1:]
        if hasattr(exc, "message"):
            try:
                exc.message = exc.args[0]
            except AttributeError:
                pass


# ---------------------------------------------------------------------------- registries
# The floors above fill these on import (tf.data: ``data/dataset_autograph.py``), as TF's
# ``dataset_autograph`` registers ``DatasetV2`` with AutoGraph's for-loop registry: this floor
# recognises the iterables by ``isinstance`` through them, never by a module name.
_FOR_LOOPS = {}   # class -> fn(iterable) -> LoopSource
_NEXT = {}        # class -> fn(iterator, tracer) -> the element, as traced


def register_for_loop(cls, source):
    """``for x in <a cls>`` inside a trace becomes a :class:`Loop` step over
    ``source(iterable)``, a :class:`LoopSource`."""
    _FOR_LOOPS[cls] = source


def register_next(cls, fn):
    """``next(<a cls>)`` inside a trace is ``fn(iterator, tracer)``."""
    _NEXT[cls] = fn


def _registered(table, x):
    for cls in type(x).__mro__:
        fn = table.get(cls)
        if fn is not None:
            return fn
    return None


def loop_source_maker(x):
    """The registered ``source`` for iterable ``x``, or None."""
    return _registered(_FOR_LOOPS, x) if _FOR_LOOPS else None


def next_handler(x):
    """The registered ``next`` rule for iterator ``x``, or None."""
    return _registered(_NEXT, x) if _NEXT else None
