"""Compile a traced program to one straight-line Python function over NumPy values.

Locals ``r0 .. rN`` are the slots; primitives whose forward is a Python operator are emitted as
that operator (NumPy's scalar fast path), the others as calls of their forward bound as
keyword-only defaults (locals, the fastest lookup). Variable reads are ``v._value``; updates go
through ``update_in_place`` (in place when nothing else holds the array, the eager rule), so
slots are deleted after their last use. Branches (``tf.cond``, ``tf.switch_case``) become
``if`` blocks and loops (``tf.while_loop``) ``while`` blocks. Guards compare the Python value a
trace read with the replayed one and raise ``GuardFailed`` before any variable write is
visible (programs with guards restore the variables they write).
"""
import operator

from .._core.tensor import Tensor
from .._core.variable import update_in_place
from .program import UPDATES, GuardFailed, guard_holds, run_guard, walk

__all__ = ["compile_program"]

_OPERATORS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.matmul: "@", operator.floordiv: "//", operator.pow: "**",
}
_UNARY = {operator.neg: "-"}


def _branch_index(index, n):
    i = int(index)
    return i if 0 <= i < n else n - 1


class _Emitter:
    def __init__(self, program):
        self.program = program
        self.ns = {"Tensor": Tensor, "GuardFailed": GuardFailed, "_guard": run_guard,
                   "_holds": guard_holds, "_update": update_in_place,
                   "_branch": _branch_index}
        self.defaults = []
        self.var_names = {}

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
                if sym is not None:
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


def compile_program(program, name="program", single_output=False):
    """Python source and function for ``program``: ``fn(*flat_args) -> tuple of arrays``
    (the array itself when ``single_output``).

    Flat arguments are NumPy values for tensor arguments and Variables for variable ones.
    """
    em = _Emitter(program)
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


def _uses(step):
    kind = step[0]
    if kind in ("op", "call"):
        return step[2]
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
