"""Compile a traced program to one straight-line Python function over NumPy values.

Locals ``r0 .. rN`` are the slots; primitives whose forward is a Python operator are emitted as
that operator (NumPy's scalar fast path), the others as calls of their forward bound as
keyword-only defaults (locals, the fastest lookup). Variable reads are ``v._value``; updates go
through ``update_in_place`` (in place when nothing else holds the array, the eager rule), so
slots are deleted after their last use; an SGD update of a dense weight
(``w.assign_sub(lr * matmul(a, b))``) becomes one BLAS call into it (``blas.py``).
Branches (``tf.cond``, ``tf.switch_case``) become ``if`` blocks and loops
(``tf.while_loop``) ``while`` blocks. Guards compare the Python value a trace read with the
replayed one and raise ``GuardFailed`` before any variable write is visible (programs with
guards restore the variables they write).
"""
import copy
import operator
import threading

from .._core.backend import np
from .._core.tensor import Tensor
from .._core.variable import update_in_place
from ..ops import _kernels
from .blas import gemm_update
from .program import UPDATES, GuardFailed, branch_index, guard_holds, run_guard, walk

__all__ = ["compile_program"]

_OPERATORS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.matmul: "@", operator.floordiv: "//", operator.pow: "**",
}
_UNARY = {operator.neg: "-"}
# Forwards with a NumPy ufunc that can write into a given buffer (``out=``).
_OUT_UFUNCS = {operator.add: "add", operator.sub: "subtract", operator.mul: "multiply",
               operator.truediv: "divide"}
# Primitives whose output is always a new array (never a view of an input): a buffer that
# feeds any other primitive stays busy while that primitive's output lives.
_FRESH = frozenset((
    "MatMul", "AddV2", "Sub", "Mul", "RealDiv", "Relu", "ReluGrad", "Sum", "Mean", "Max",
    "Min", "Square", "Tanh", "Sigmoid", "Exp", "Log", "Neg", "TanhGrad", "SigmoidGrad",
    "Maximum", "Minimum", "SparseSoftmaxCrossEntropyWithLogits", "Softmax", "LogSoftmax",
    "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad",
    "AvgPool", "AvgPoolGrad", "Cast", "Sqrt", "Rsqrt", "Pow", "Abs", "Sign", "Greater",
    "Less", "Equal", "NotEqual", "GreaterEqual", "LessEqual", "SelectV2"))
_MIN_BUFFER_BYTES = 16384


class _Emitter:
    def __init__(self, program, buffers=None):
        self.program = program
        # __name__ puts NumPy's warnings from compiled code under tapeflow's filter
        self.ns = {"__name__": "tapeflow.function.compiled",
                   "Tensor": Tensor, "GuardFailed": GuardFailed, "_guard": run_guard,
                   "_holds": guard_holds, "_update": update_in_place, "_gemm": gemm_update,
                   "_branch": branch_index, "np": np, "_add_rows": _kernels.add_rows}
        self.defaults = []
        self.var_names = {}
        self.buffers = buffers or {}   # top-level slot -> buffer index

    def _row_add(self, ins):
        """For ``x + b`` with ``b`` a short vector along ``x``'s last axis (a bias add, as
        traced), the index of ``x`` in ``ins``; else None. ``_add_rows`` checks again at
        run time, so a relaxed program stays right for any shape."""
        if len(ins) != 2:
            return None
        meta = self.program.meta
        a, b = meta.get(ins[0]), meta.get(ins[1])
        if a is None or b is None:
            return None
        for i, (x, v) in enumerate(((a, b), (b, a))):
            if (len(v[0]) == 1 and x[0] and x[0][-1] == v[0][0] < 256 and x[1] == v[1]
                    and x[1].kind == "f" and int(np.prod(x[0])) >= 4096):
                return i
        return None

    def _small(self, slot):
        """Whether ``slot`` holds a traced array of at most ``_MIN_BUFFER_BYTES``."""
        m = self.program.meta.get(slot)
        return (m is not None and None not in m[0]
                and int(np.prod(m[0])) * m[1].itemsize <= _MIN_BUFFER_BYTES)

    def np(self, name):
        """A NumPy function as a local of the compiled function (a keyword default: no
        global and attribute lookup per call; outputs are then passed positionally)."""
        local = f"_np_{name}"
        if local not in self.ns:
            self.ns[local] = getattr(np, name)
            self.defaults.append(f"{local}={local}")
        return local

    def const(self, prefix, i, value):
        n = f"{prefix}{i}"
        self.ns[n] = value
        self.defaults.append(f"{n}={n}")
        return n

    def steps(self, steps, indent, top, lines, on_assign=None):
        pad = "    " * indent
        for k, step in enumerate(steps):
            kind = step[0]
            tag = f"{id(step):x}"
            if kind == "op":
                _, prim, ins, attrs, outs, _site = step
                args = [f"r{s}" for s in ins]
                fwd = prim.forward
                target = ", ".join(f"r{s}" for s in outs) + ("," if len(outs) > 1 else "")
                sym = _OPERATORS.get(fwd) if not attrs and len(args) == 2 else None
                buf = self.buffers.get(outs[0]) if top and len(outs) == 1 else None
                if prim.name == "MatMul" and len(args) == 2:
                    a = args[0] + (".mT" if attrs.get("transpose_a") else "")
                    b = args[1] + (".mT" if attrs.get("transpose_b") else "")
                    if attrs.get("transpose_b") and self._small(ins[1]):
                        # BLAS's NT kernels are slow for a thin inner dimension (a dense
                        # layer's input gradient with few units): a transposed copy of a
                        # small operand costs less than a microsecond
                        b = f"{self.np('ascontiguousarray')}({b})"
                    if buf is not None:
                        lines.append(f"{pad}{target} = {self.np('matmul')}({a}, {b}, _B{buf})")
                    else:
                        lines.append(f"{pad}{target} = {a} @ {b}")
                elif fwd is operator.add and not attrs and (row := self._row_add(ins)) is not None:
                    x, b = args if row == 0 else args[::-1]
                    out = f", out=_B{buf}" if buf is not None else ""
                    lines.append(f"{pad}{target} = _add_rows({x}, {b}{out})")
                elif buf is not None and not attrs and fwd in _OUT_UFUNCS:
                    lines.append(f"{pad}{target} = {self.np(_OUT_UFUNCS[fwd])}({args[0]}, "
                                 f"{args[1]}, _B{buf})")
                elif buf is not None and prim.name == "Relu":
                    # a zeros array, not the scalar 0: NumPy's vectorised loop (5x faster)
                    z = self.const("Z", tag, _kernels.zeros_of(*self.program.meta[outs[0]]))
                    # (NumPy 2.4 deprecates a positional output for maximum/minimum)
                    lines.append(f"{pad}{target} = {self.np('maximum')}({args[0]}, {z}, "
                                 f"out=_B{buf})")
                elif buf is not None and prim.name == "ReluGrad":
                    lines.append(f"{pad}{target} = {self.np('multiply')}({args[0]}, {args[1]} > 0, "
                                 f"_B{buf})")
                elif sym is not None:
                    lines.append(f"{pad}{target} = {args[0]} {sym} {args[1]}")
                elif not attrs and len(args) == 1 and fwd in _UNARY:
                    lines.append(f"{pad}{target} = {_UNARY[fwd]}{args[0]}")
                else:
                    f = self.const("F", tag, fwd)
                    for key, val in (attrs or {}).items():
                        args.append(f"{key}={self.const('K', f'{tag}_{key}', val)}")
                    lines.append(f"{pad}{target} = {f}({', '.join(args)})")
            elif kind == "read":
                lines.append(f"{pad}r{step[2]} = {self.var_names[id(step[1])]}._value")
            elif kind == "assign":
                _, var, how, s, _site = step
                vn = self.var_names[id(var)]
                if top and on_assign is not None:
                    on_assign(k, lines)
                if how == "assign":
                    lines.append(f"{pad}{vn}._value = r{s}")
                else:
                    ufunc, pyop = UPDATES[how]
                    u = self.const("U", tag, ufunc)
                    p = self.const("P", tag, pyop)
                    lines.append(f"{pad}_update({vn}, r{s}, {u}, {p})")
            elif kind == "gemm":
                _, var, how, (a, b, lr), (ta, tb, lr_left), _site = step
                if top and on_assign is not None:
                    on_assign(k, lines)
                ufunc, pyop = UPDATES[how]
                u = self.const("U", tag, ufunc)
                p = self.const("P", tag, pyop)
                lines.append(f"{pad}_gemm({self.var_names[id(var)]}, r{a}, {ta}, r{b}, {tb}, "
                             f"r{lr}, {lr_left}, {u}, {p})")
            elif kind == "call":
                _, fn, ins, outs, _site = step
                c = self.const("C", tag, fn)
                call = f"{c}({', '.join(f'Tensor(r{s})' for s in ins)})"
                if outs:
                    lines.append(f"{pad}_o = {call}")
                    for j, s in enumerate(outs):
                        lines.append(f"{pad}r{s} = _o[{j}]._value")
                else:
                    lines.append(f"{pad}{call}")
            elif kind == "guard":
                _, s, how, expected, _site = step
                g = self.const("G", tag, expected)
                lines.append(f"{pad}if not _holds({g}, _guard({how!r}, r{s})): "
                             f"raise GuardFailed({k})")
            elif kind == "switch":
                _, ins, subs, outs, extra, _site = step
                if extra == "bool":
                    conds = [f"if not r{ins[0]}:", "else:"]
                else:
                    lines.append(f"{pad}_i = _branch(r{ins[0]}, {len(subs)})")
                    conds = [f"{'if' if i == 0 else 'elif'} _i == {i}:" for i in range(len(subs))]
                for cond_line, (sub_steps, _, sub_outs) in zip(conds, subs):
                    lines.append(pad + cond_line)
                    self.steps(sub_steps, indent + 1, False, lines)
                    for o, so in zip(outs, sub_outs):
                        lines.append(f"{pad}    r{o} = r{so}")
                    if not sub_steps and not outs:
                        lines.append(f"{pad}    pass")
            elif kind == "dataset":
                _, ins, subs, outs, extra, _site = step
                dataset, k, brk = extra
                (b_steps, b_in, b_out), = subs
                d = self.const("D", tag, dataset)
                loop = [f"_w{tag}_{j}" for j in range(len(ins))]
                if loop:
                    init = ", ".join(f"r{s}" for s in ins)
                    lines.append(f"{pad}{', '.join(loop)}, = {init},")
                lines.append(f"{pad}for _e{tag} in {d}._iter_values():")
                lines.append(f"{pad}    {', '.join(f'r{s}' for s in b_in[:k])}, = _e{tag}")
                for s, v in zip(b_in[k:], loop):
                    lines.append(f"{pad}    r{s} = {v}")
                self.steps(b_steps, indent + 1, False, lines)
                if loop:
                    lines.append(f"{pad}    {', '.join(loop)}, = "
                                 f"{', '.join(f'r{s}' for s in b_out)},")
                if brk is not None:
                    lines.append(f"{pad}    if {loop[brk]}: break")
                for o, v in zip(outs, loop):
                    lines.append(f"{pad}r{o} = {v}")
            else:  # while
                _, ins, subs, outs, extra, _site = step
                (c_steps, c_in, c_out), (b_steps, b_in, b_out) = subs
                n = len(c_in)
                loop = [f"_w{tag}_{j}" for j in range(n)]
                if loop:
                    init = ", ".join(f"r{s}" for s in ins[:n])
                    lines.append(f"{pad}{', '.join(loop)}, = {init},")
                limited = len(ins) > n
                if limited:
                    lines.append(f"{pad}_n{tag} = int(r{ins[n]}); _k{tag} = 0")
                    lines.append(f"{pad}while _k{tag} < _n{tag}:")
                else:
                    lines.append(f"{pad}while True:")
                for s, v in zip(c_in, loop):
                    lines.append(f"{pad}    r{s} = {v}")
                self.steps(c_steps, indent + 1, False, lines)
                lines.append(f"{pad}    if not r{c_out[0]}: break")
                for s, v in zip(b_in, loop):
                    lines.append(f"{pad}    r{s} = {v}")
                self.steps(b_steps, indent + 1, False, lines)
                if loop:
                    lines.append(f"{pad}    {', '.join(loop)}, = "
                                 f"{', '.join(f'r{s}' for s in b_out)},")
                if limited:
                    lines.append(f"{pad}    _k{tag} += 1")
                for o, v in zip(outs, loop):
                    lines.append(f"{pad}r{o} = {v}")


def compile_program(program, name="program", single_output=False, buffers=True, meta=None):
    """Python source and function for ``program``: ``fn(*flat_args) -> tuple of arrays``
    (the array itself when ``single_output``).

    Flat arguments are NumPy values for tensor arguments and Variables for variable ones.
    With ``buffers`` (programs for fixed shapes only), large temporaries of matmuls and
    element-wise arithmetic are written into per-thread buffers reused from call to call
    (a fresh 128 KiB array costs page faults; see ``_plan_buffers``). ``meta`` gives the
    slots' shapes to plan them for (a relaxed program compiled for one call's shapes; by
    default the traced ones).
    """
    program = copy.copy(program)
    if meta is not None:
        program.meta = meta
    program.steps = _fuse_gemm_updates(program)
    plan, specs = _plan_buffers(program) if buffers else ({}, [])
    em = _Emitter(program, plan)
    params = []
    for s, value in program.consts.items():
        em.const("r", s, value)
    for i, (slot, var) in enumerate(zip(program.inputs, program.arg_vars)):
        if var is not None:
            em.var_names[id(var)] = f"a{i}"
            params.append(f"a{i}")
        else:
            params.append(f"r{slot}")
    for j, var in enumerate(program.variables):
        if id(var) not in em.var_names:
            em.var_names[id(var)] = em.const("v", j, var)

    last_use = _last_uses(program)
    outputs = set(program.outputs)
    deleted = set()

    def free_dead(k, lines):
        # Free dead slots first, so an unshared array can be updated in place.
        dead = [f"r{x}" for x in sorted(last_use) if last_use[x] < k
                and x not in deleted and x not in outputs and x not in program.consts]
        if dead:
            lines.append("del " + ", ".join(dead))
            deleted.update(int(d[1:]) for d in dead)

    lines = []
    if specs:
        em.ns["_buffers"] = _thread_buffers(specs)
        lines.append(", ".join(f"_B{i}" for i in range(len(specs))) + ", = _buffers()")
    em.steps(program.steps, 0, True, lines, free_dead)
    outs = ", ".join("None" if s is None else f"r{s}" for s in program.outputs)
    if single_output:
        lines.append(f"return {outs}")
    else:
        lines.append(f"return ({outs}{',' if len(program.outputs) == 1 else ''})")

    written = []
    for var in program.writes:
        n = em.var_names[id(var)]
        if n not in written:
            written.append(n)
    body = lines
    if program.n_guards and written:
        # Restore what the program wrote when a guard fails after a write.
        saves = [f"_s{j} = {n}._value" for j, n in enumerate(written)]
        restore = [f"{n}._value = _s{j}" for j, n in enumerate(written)]
        body = (saves + ["try:"] + ["    " + ln for ln in lines]
                + ["except GuardFailed:"] + ["    " + ln for ln in restore] + ["    raise"])
    sig = ", ".join(params)
    if em.defaults:
        sig += (", *, " if params else "*, ") + ", ".join(em.defaults)
    src = f"def {name}({sig}):\n" + "".join(f"    {ln}\n" for ln in body)
    code = compile(src, f"<tf.function {name}>", "exec")
    exec(code, em.ns)  # noqa: S102 - our own generated source
    return src, em.ns[name]


def _thread_buffers(specs):
    """``get()`` -> this thread's buffers for ``specs`` (made on a thread's first call):
    replicas of a strategy may run one program in several threads at once."""
    local = threading.local()

    def get():
        try:
            return local.buffers
        except AttributeError:
            local.buffers = tuple(np.empty(shape, dtype) for shape, dtype in specs)
            return local.buffers
    return get


def _plan_buffers(program):
    """``(slot -> buffer index, [(shape, dtype)])``: which top-level temporaries may live in
    reused buffers. A temporary qualifies when a primitive writes it with ``out=`` (matmul,
    add/sub/mul/div, relu), it is at least 16 KiB of floats, and neither it nor anything
    that may alias it (the outputs of non-``_FRESH`` primitives it feeds) leaves the
    program: an output, a value assigned to a variable, an argument of a Python call, a use
    inside a branch or loop. A buffer is free again after the last use of every alias."""
    steps = program.steps
    meta = program.meta
    escapes = set(s for s in program.outputs if s is not None)
    alias_of = {}            # slot -> root slots whose buffer it may alias
    last = {}
    for k, step in enumerate(steps):
        kind = step[0]
        used = _uses(step)
        for s in used:
            last[s] = k
        if kind == "assign" and step[2] == "assign":
            escapes.add(step[3])   # the variable keeps the array (assign_add/sub consume it)
        elif kind == "call" or kind in ("switch", "while", "dataset"):
            escapes.update(used)
        elif kind == "op" and step[1].name not in _FRESH:
            roots = set()
            for s in step[2]:
                roots |= alias_of.get(s, {s})
            for o in step[4]:
                alias_of[o] = roots
    # a root escapes when any alias of it does; it is busy until the last alias use
    root_last = {}
    bad = set()
    for s, k in last.items():
        for r in alias_of.get(s, {s}):
            root_last[r] = max(root_last.get(r, -1), k)
    for s in escapes:
        bad |= alias_of.get(s, {s})
    plan, specs, free = {}, [], {}
    releases = {}
    for k, step in enumerate(steps):
        for b, spec in releases.pop(k, ()):
            free.setdefault(spec, []).append(b)
        if step[0] != "op" or len(step[4]) != 1:
            continue
        prim, attrs, out = step[1], step[3], step[4][0]
        writable = (prim.name in ("MatMul", "Relu", "ReluGrad")
                    or (not attrs and prim.forward in _OUT_UFUNCS))
        if not writable or out in bad or out not in meta or out not in root_last:
            continue
        shape, dtype = meta[out]
        if dtype.kind != "f" or np.prod(shape) * dtype.itemsize < _MIN_BUFFER_BYTES:
            continue
        spec = (tuple(shape), dtype)
        pool = free.get(spec)
        b = None
        if prim.name != "MatMul":
            # element-wise: write over an input that dies here (same cache lines)
            for s in step[2]:
                if (s in plan and root_last.get(s) == k and s not in alias_of
                        and specs[plan[s]] == spec and (plan[s], spec) in releases.get(k + 1,
                                                                                   ())):
                    b = plan[s]
                    releases[k + 1].remove((b, spec))
                    break
        if b is not None:
            pass
        elif pool:
            b = pool.pop()
        else:
            b = len(specs)
            specs.append(spec)
        plan[out] = b
        # free once every alias has had its last use (from the next step on)
        releases.setdefault(root_last[out] + 1, []).append((b, spec))
    return plan, specs


def _use_counts(steps):
    uses = {}
    for step in steps:
        for s in _uses(step):
            uses[s] = uses.get(s, 0) + 1
    return uses


def _fuse_gemm_updates(program):
    """``program``'s top-level steps with each SGD step on a dense layer's weight made one
    ``("gemm", var, how, (a, b, lr), (transpose_a, transpose_b, lr_left), site)`` step at
    the assignment, run by ``blas.gemm_update`` as a single BLAS call into the variable:
    ``var.assign_sub(lr * matmul(a, b))`` (or ``assign_add``, ``lr`` on either side), and
    Keras's ``SGD`` (``var.assign(ResourceApplyGradientDescent(var, matmul(a, b), lr))``,
    the variable read with no write in between). It applies when the product and the
    update feed nothing else, ``lr`` is a scalar and the weight has at least 16 KiB. The
    product and the update are pure, so moving them to the assignment keeps the program's
    meaning; their inputs live until then."""
    steps = program.steps
    meta = program.meta
    uses = _use_counts(steps)
    defs = {o: k for k, step in enumerate(steps) if step[0] == "op" for o in step[4]}
    reads = {step[2]: k for k, step in enumerate(steps) if step[0] == "read"}
    keep = set(program.outputs)

    def single(s, name, n_ins):
        k = defs.get(s)
        if k is None or uses.get(s) != 1 or s in keep or s not in meta:
            return None
        step = steps[k]
        return k if step[1].name == name and len(step[2]) == n_ins else None

    def product(prod, lr, update):
        """The MatMul step of ``prod`` if the update of ``prod`` by ``lr`` may be fused."""
        kg = single(prod, "MatMul", 2)
        lr_shape = (np.shape(program.consts[lr]) if lr in program.consts
                    else meta[lr][0] if lr in meta
                    else np.shape(steps[reads[lr]][1]._value) if lr in reads else None)
        if kg is None or prod == lr or lr_shape is None or len(lr_shape):
            return None
        attrs = steps[kg][3] or {}
        shape, dtype = meta[prod]
        if (set(attrs) - {"transpose_a", "transpose_b"} or len(shape) != 2
                or dtype not in (np.float32, np.float64) or meta[update][1] != dtype
                or None in shape or np.prod(shape) * dtype.itemsize < _MIN_BUFFER_BYTES):
            return None   # (a smaller update costs less than the BLAS call through ctypes)
        return kg

    fused, moved = {}, set()
    for k, step in enumerate(steps):
        if step[0] != "assign":
            continue
        _, var, how, update, site = step
        found = None
        if how in UPDATES:
            km = single(update, "Mul", 2)
            if km is not None and not steps[km][3]:
                x, y = steps[km][2]
                for prod, lr, lr_left in ((y, x, True), (x, y, False)):
                    kg = product(prod, lr, update)
                    if kg is not None:
                        found = km, kg, how, lr, lr_left
                        break
        else:
            km = single(update, "ResourceApplyGradientDescent", 3)
            if km is not None:
                current, prod, lr = steps[km][2]
                kr = reads.get(current)
                kg = product(prod, lr, update)
                if (kg is not None and kr is not None and steps[kr][1] is var
                        and not any(st[0] == "assign" and st[1] is var
                                    for st in steps[kr + 1:k])):
                    found = km, kg, "assign_sub", lr, False
        if found is not None:
            km, kg, how, lr, lr_left = found
            attrs = steps[kg][3] or {}
            fused[k] = ("gemm", var, how, (*steps[kg][2], lr),
                        (bool(attrs.get("transpose_a")), bool(attrs.get("transpose_b")),
                         lr_left), site)
            moved.update((kg, km))
    if not fused:
        return steps
    return [fused.get(k, step) for k, step in enumerate(steps) if k not in moved]


def _uses(step):
    kind = step[0]
    if kind in ("op", "call"):
        return step[2]
    if kind == "gemm":
        return step[3]
    if kind == "assign":
        return (step[3],)
    if kind == "guard":
        return (step[1],)
    if kind in ("switch", "while", "dataset"):
        used = list(step[1])
        for sub in step[2]:
            for inner in walk(sub[0]):
                used.extend(_uses(inner))
            used.extend(sub[2])
        return used
    return ()


def _defs(step):
    kind = step[0]
    if kind == "read":
        return (step[2],)
    if kind == "op":
        return step[4]
    if kind == "call":
        return step[3]
    if kind in ("switch", "while", "dataset"):
        return step[3]
    return ()


def _last_uses(program):
    """Top-level slot -> index of the last top-level step that uses it (or defines it, when
    nothing does); uses inside branches and loops count at their step."""
    last = {}
    for k, step in enumerate(program.steps):
        for s in _defs(step):
            last.setdefault(s, k)
        for s in _uses(step):
            last[s] = k
    return last
