"""Compile a traced program to one straight-line Python function over NumPy values.

Locals ``r0 .. rN`` are the slots; primitives whose forward is a Python operator are emitted as
that operator (NumPy's scalar fast path), the others as calls of their forward bound as
keyword-only defaults (locals, the fastest lookup). Variable reads are ``v._value``; updates go
through ``update_in_place`` (in place when nothing else holds the array, the eager rule), so
slots are deleted after their last use. Guards compare the Python value a trace read with the
replayed one and raise ``GuardFailed`` before any variable write is visible (programs with
guards restore the variables they write).
"""
import operator

from .._core.tensor import Tensor
from .._core.variable import update_in_place
from .program import UPDATES, GuardFailed, guard_holds, run_guard

__all__ = ["compile_program"]

_OPERATORS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.matmul: "@", operator.floordiv: "//", operator.pow: "**",
}
_UNARY = {operator.neg: "-"}


def compile_program(program, name="program", single_output=False):
    """Python source and function for ``program``: ``fn(*flat_args) -> tuple of arrays``
    (the array itself when ``single_output``).

    Flat arguments are NumPy values for tensor arguments and Variables for variable ones.
    """
    ns = {"Tensor": Tensor, "GuardFailed": GuardFailed, "_guard": run_guard,
          "_holds": guard_holds, "_update": update_in_place}
    params = []
    defaults = []
    lines = []
    last_use = _last_uses(program)

    def const(prefix, i, value):
        n = f"{prefix}{i}"
        ns[n] = value
        defaults.append(f"{n}={n}")
        return n

    for s, value in program.consts.items():
        const("r", s, value)
    var_names = {}
    for i, (slot, var) in enumerate(zip(program.inputs, program.arg_vars)):
        if var is not None:
            var_names[id(var)] = f"a{i}"
            params.append(f"a{i}")
        else:
            params.append(f"r{slot}")
    for j, var in enumerate(program.variables):
        if id(var) not in var_names:
            var_names[id(var)] = const("v", j, var)
    deleted = set()
    written = []
    for var in program.writes:
        n = var_names[id(var)]
        if n not in written:
            written.append(n)
    guarded = program.n_guards > 0 and written
    outputs = set(program.outputs)

    for k, step in enumerate(program.steps):
        kind = step[0]
        if kind == "op":
            _, prim, ins, attrs, outs, _site = step
            args = [f"r{s}" for s in ins]
            fwd = prim.forward
            target = ", ".join(f"r{s}" for s in outs) + ("," if len(outs) > 1 else "")
            sym = _OPERATORS.get(fwd) if not attrs and len(args) == 2 else None
            if sym is not None:
                lines.append(f"{target} = {args[0]} {sym} {args[1]}")
            elif not attrs and len(args) == 1 and fwd in _UNARY:
                lines.append(f"{target} = {_UNARY[fwd]}{args[0]}")
            else:
                f = const("F", k, fwd)
                if attrs:
                    for key, val in attrs.items():
                        args.append(f"{key}={const('K', f'{k}_{key}', val)}")
                lines.append(f"{target} = {f}({', '.join(args)})")
        elif kind == "read":
            lines.append(f"r{step[2]} = {var_names[id(step[1])]}._value")
        elif kind == "assign":
            _, var, how, s, _site = step
            vn = var_names[id(var)]
            # Free dead slots first, so an unshared array can be updated in place.
            dead = [f"r{x}" for x in sorted(last_use) if last_use[x] < k
                    and x not in deleted and x not in outputs and x not in program.consts]
            if dead:
                lines.append("del " + ", ".join(dead))
                deleted.update(int(d[1:]) for d in dead)
            if how == "assign":
                lines.append(f"{vn}._value = r{s}")
            else:
                ufunc, pyop = UPDATES[how]
                u = const("U", k, ufunc)
                p = const("P", k, pyop)
                lines.append(f"_update({vn}, r{s}, {u}, {p})")
        elif kind == "call":
            _, fn, ins, outs, _site = step
            c = const("C", k, fn)
            call = f"{c}({', '.join(f'Tensor(r{s})' for s in ins)})"
            if outs:
                lines.append(f"_o = {call}")
                for j, s in enumerate(outs):
                    lines.append(f"r{s} = _o[{j}]._value")
            else:
                lines.append(call)
        else:
            _, s, how, expected, _site = step
            g = const("G", k, expected)
            lines.append(f"if not _holds({g}, _guard({how!r}, r{s})): "
                         f"raise GuardFailed({k})")
    outs = ", ".join("None" if s is None else f"r{s}" for s in program.outputs)
    if single_output:
        lines.append(f"return {outs}")
    else:
        lines.append(f"return ({outs}{',' if len(program.outputs) == 1 else ''})")

    body = lines
    if guarded:
        # Restore what the program wrote when a guard fails after a write.
        saves = [f"_s{j} = {n}._value" for j, n in enumerate(written)]
        restore = [f"{n}._value = _s{j}" for j, n in enumerate(written)]
        body = (saves + ["try:"] + ["    " + ln for ln in lines]
                + ["except GuardFailed:"] + ["    " + ln for ln in restore] + ["    raise"])
    sig = ", ".join(params)
    if defaults:
        sig += (", *, " if params else "*, ") + ", ".join(defaults)
    src = f"def {name}({sig}):\n" + "".join(f"    {ln}\n" for ln in body)
    code = compile(src, f"<tf.function {name}>", "exec")
    exec(code, ns)  # noqa: S102 - our own generated source
    return src, ns[name]


def _last_uses(program):
    """Slot -> index of the last step that uses it (or defines it, when nothing does)."""
    last = {}
    for k, step in enumerate(program.steps):
        kind = step[0]
        if kind == "read":
            last.setdefault(step[2], k)
        elif kind in ("op", "call"):
            for s in step[2]:
                last[s] = k
            for s in step[4] if kind == "op" else step[3]:
                last.setdefault(s, k)
        elif kind == "assign":
            last[step[3]] = k
        elif kind == "guard":
            last[step[1]] = k
    return last
