"""AutoGraph's canonicalization passes, run on a function's AST before ``autograph.py``
turns its control flow into ``ag__.if_stmt`` / ``while_stmt`` / ``for_stmt`` calls.

In TensorFlow 2.21's order (``break_statements``, ``continue_statements``,
``return_statements``, then liveness for ``control_flow``):

1. :func:`lower_jumps`: ``break`` / ``continue`` become a flag and guarded remainders; a loop's
   ``else:`` clause runs after the loop under ``if not <break flag>`` (TF's
   ``break_statements``; TF 2.21 itself refuses loop ``else`` clauses). ``while`` tests get
   ``not brk and ...``; a ``for`` keeps its flag name in ``node.ag_brk`` (its extra test).
2. :func:`lift_returns`: ``if c: ...; return a`` followed by more statements moves those
   statements into the ``else`` branch (or into the body when the ``else`` returns), so both
   branches return (TF's ``ConditionalReturnRewriter``).
3. :func:`lower_returns` (only when a ``return`` sits in a loop or in one branch of an
   ``if``): ``return v`` becomes ``do_return = True; retval_ = v``, the statements after one
   that may have returned run under ``if not do_return:``, loops stop on ``do_return``
   (``while not do_return and ...``, ``node.ag_ret`` for a ``for``), and the function ends
   with ``return ag__.ret(retval_)`` (TF's ``return_statements``; ``retval_`` starts as
   ``ag__.UndefinedReturnValue()``).
4. :func:`annotate_function`: each ``if`` and loop gets ``node.ag_live``, the names live
   after it (plus, for a loop, at its head): a branch or loop passes on only the variables
   read later, so a temporary assigned in a branch or a loop body stays local to it.
"""
import ast
import copy


class _Undefined:
    """A variable a branch or loop does not define (TensorFlow's ``Undefined``)."""

    def __repr__(self):
        return "<undefined>"


UNDEFINED = _Undefined()


class UndefinedReturnValue:
    """``retval_`` before a ``return`` ran (TensorFlow's ``UndefinedReturnValue``)."""

    def __repr__(self):
        return "<undefined return value>"


__all__ = ["lift_returns", "lower_jumps", "needs_return_flags", "lower_returns",
           "annotate_function", "annotate_liveness"]

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.While)


def _walk(node, stop):
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, stop):
            yield from _walk(child, stop)


def _has(stmts, kinds, stop=_NESTED):
    return any(isinstance(n, kinds) for s in stmts for n in _walk(s, stop))


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _set(name, value):
    return ast.Assign(targets=[_name(name, True)], value=value)


def _not(name):
    return ast.UnaryOp(op=ast.Not(), operand=_name(name))


def _guarded(name, stmts):
    """``if not name: stmts``."""
    return ast.If(test=_not(name), body=stmts, orelse=[])


def _blocks(node):
    """The statement-list fields of ``node`` (not of nested functions)."""
    return [f for f in ("body", "orelse", "finalbody") if isinstance(getattr(node, f, None),
                                                                        list)]


# ---------------------------------------------------------------------------- lifting returns
def lift_returns(stmts):
    """``stmts`` with TF's conditional-return lifting applied (recursively); returns the new
    list and whether the block definitely returns."""
    out = []
    returns = False
    i = 0
    stmts = list(stmts)
    while i < len(stmts):
        s = stmts[i]
        out.append(s)
        if isinstance(s, ast.Return):
            returns = True
        elif isinstance(s, ast.If):
            s.body, body_ret = lift_returns(s.body)
            s.orelse, else_ret = lift_returns(s.orelse)
            rest = stmts[i + 1:]
            if body_ret and else_ret:
                returns = True
            elif body_ret and rest:
                s.orelse, else_ret = lift_returns(s.orelse + rest)
                returns = else_ret
                break
            elif else_ret and rest:
                s.body, body_ret = lift_returns(s.body + rest)
                returns = body_ret
                break
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            s.body, body_ret = lift_returns(s.body)
            returns = returns or body_ret
        elif not isinstance(s, _NESTED):
            for f in _blocks(s):
                setattr(s, f, lift_returns(getattr(s, f))[0])
            if isinstance(s, ast.Try):
                for h in s.handlers:
                    h.body = lift_returns(h.body)[0]
        i += 1
    return out, returns


# ---------------------------------------------------------------------------- jumps
class _Names:
    """Fresh names for the passes' variables, never one the function uses."""

    def __init__(self, taken):
        self.taken = set(taken)
        self.n = 0

    def fresh(self, base):
        while True:
            self.n += 1
            name = f"__ag_{base}_{self.n}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def plain(self, base):
        """``base`` (``do_return``, ``retval_``) unless the function uses it: then
        ``base_1``, ... as TensorFlow's namer does."""
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name


def _ends_in_jump(stmts):
    return bool(stmts) and isinstance(stmts[-1], (ast.Break, ast.Continue, ast.Return))


def _strip_jumps(stmts, brk):
    """A loop body's statements with ``continue`` and ``break`` turned into guarded
    remainders and ``brk = True`` (nested loops keep their own jumps)."""
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Continue):
            return out
        if isinstance(s, ast.Break):
            out.append(_set(brk, ast.Constant(True)))
            return out
        if isinstance(s, ast.If) and _has([s], (ast.Break, ast.Continue), _NESTED + _LOOPS):
            rest = stmts[i + 1:]
            body = _strip_jumps(list(s.body), brk)
            orelse = _strip_jumps(list(s.orelse), brk)
            if not _ends_in_jump(s.body):
                body = body + _strip_jumps(copy.deepcopy(rest), brk)
            if not _ends_in_jump(s.orelse):
                orelse = orelse + _strip_jumps(list(rest), brk)
            out.append(ast.If(test=s.test, body=body or [ast.Pass()], orelse=orelse))
            return out
        out.append(s)
    return out


def _strippable(stmts):
    """Whether every ``break``/``continue`` of a loop body sits at its top level or in ``if``
    branches (where :func:`_strip_jumps` lowers it)."""
    for s in stmts:
        if isinstance(s, ast.If):
            if not (_strippable(s.body) and _strippable(s.orelse)):
                return False
        elif not isinstance(s, (ast.Break, ast.Continue)) \
                and _has([s], (ast.Break, ast.Continue), _NESTED + _LOOPS):
            return False
    return True


def lower_jumps(stmts, names):
    """``stmts`` with every loop's ``break``/``continue``/``else`` lowered (see the module)."""
    out = []
    for s in stmts:
        if isinstance(s, _NESTED):
            out.append(s)
            continue
        for f in _blocks(s):
            if not (isinstance(s, _LOOPS) and f == "body"):
                setattr(s, f, lower_jumps(getattr(s, f), names))
        if isinstance(s, ast.Try):
            for h in s.handlers:
                h.body = lower_jumps(h.body, names)
        if not isinstance(s, _LOOPS):
            out.append(s)
            continue
        # nested loops first: a ``break`` in their ``else`` clause is this loop's
        body = lower_jumps(s.body, names)
        if not _strippable(body):
            s.body = body   # a jump inside ``try``/``with``: the loop stays Python
            out.append(s)
            continue
        orelse, s.orelse = s.orelse, []
        brk = None
        if _has(body, ast.Break, _NESTED + _LOOPS):
            brk = names.fresh("brk")
            out.append(_set(brk, ast.Constant(False)))
        s.body = _strip_jumps(body, brk) or [ast.Pass()]
        if brk is not None:
            if isinstance(s, ast.While):
                s.test = ast.BoolOp(op=ast.And(), values=[_not(brk), s.test])
            else:
                s.ag_brk = brk
        out.append(s)
        if orelse:
            out.extend([_guarded(brk, orelse)] if brk is not None else orelse)
    return out


# ---------------------------------------------------------------------------- lowering returns
def _tail_returns(stmts):
    """True when every ``return`` of ``stmts`` ends the block, or ends both branches of a
    final ``if`` (what ``ag__.if_stmt(..., returns=True)`` converts without flags)."""
    for k, s in enumerate(stmts):
        last = k == len(stmts) - 1
        if isinstance(s, ast.Return):
            if not last:
                return False
        elif isinstance(s, ast.If):
            if not _has([s], ast.Return):
                continue
            if not (last and _ends_ret(s.body) and _ends_ret(s.orelse)
                    and _tail_returns(s.body) and _tail_returns(s.orelse)):
                return False
        elif isinstance(s, _LOOPS) and _has([s], ast.Return):
            return False
    return True


def _ends_ret(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _ends_ret(last.body) and _ends_ret(last.orelse)


def needs_return_flags(stmts):
    """Whether the function body needs ``do_return``/``retval_`` (a ``return`` in a loop, in
    one branch of an ``if``, or followed by statements)."""
    in_loop = any(_has(loop.body, ast.Return) for s in stmts for loop in _walk(s, _NESTED)
                  if isinstance(loop, _LOOPS))
    return in_loop or not _tail_returns(stmts)


def lower_returns(fdef, names):
    """Lower every ``return`` of ``fdef`` into ``do_return``/``retval_`` (module docstring);
    ``fdef.body`` is rewritten in place."""
    do_return, retval = names.plain("do_return"), names.plain("retval_")

    def block(stmts):
        """The lowered block and whether it contains a return."""
        out = []
        target = out
        used = pending = False
        for s in stmts:
            if pending:   # what follows a statement that may have returned is guarded
                guard = _guarded(do_return, [])
                target.append(guard)
                target = guard.body
                pending = False
            s, has = stmt(s)
            target.extend(s)
            if has:
                used = pending = True
        return out, used

    def stmt(s):
        if isinstance(s, ast.Return):
            value = s.value if s.value is not None else ast.Constant(None)
            return [_set(do_return, ast.Constant(True)), _set(retval, value)], True
        if isinstance(s, _NESTED) or not _has([s], ast.Return):
            return [s], False
        used = False
        for f in _blocks(s):
            new, has = block(getattr(s, f))
            setattr(s, f, new or [ast.Pass()] if f == "body" else new)
            used = used or has
        if isinstance(s, ast.Try):
            for h in s.handlers:
                h.body, has = block(h.body)
                used = used or has
        if isinstance(s, ast.While):
            s.test = ast.BoolOp(op=ast.And(), values=[_not(do_return), s.test])
        elif isinstance(s, ast.For):
            s.ag_ret = do_return
        return [s], used

    body = fdef.body
    doc = []
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        doc, body = body[:1], body[1:]
    new, _ = block(body)
    undefined = ast.Call(func=ast.Attribute(value=_name("ag__"), attr="UndefinedReturnValue",
                                            ctx=ast.Load()), args=[], keywords=[])
    ret = ast.Return(value=ast.Call(func=ast.Attribute(value=_name("ag__"), attr="ret",
                                                       ctx=ast.Load()),
                                    args=[_name(retval)], keywords=[]))
    fdef.body = doc + [_set(do_return, ast.Constant(False)), _set(retval, undefined)] + new \
        + [ret]


# ---------------------------------------------------------------------------- liveness
def _uses_defs(node):
    """Names ``node`` (an expression, or a simple statement) reads and binds; names bound
    inside comprehensions and lambdas are theirs."""
    uses, defs = set(), set()

    def walk(n, inner):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                uses.add(n.id)
            elif not inner:
                defs.add(n.id)
            return
        inner = inner or isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                                        ast.GeneratorExp))
        for child in ast.iter_child_nodes(n):
            walk(child, inner)

    walk(node, False)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        uses.add(node.target.id)
    return uses, defs


def annotate_function(fdef):
    """Liveness annotations for ``fdef``'s body. Names Python can read behind the analysis'
    back count as live everywhere: ``global``/``nonlocal`` names and the free names of nested
    functions and lambdas (read when called); ``locals()``/``vars()``/``eval``/``exec``
    turn the analysis off."""
    always = set()
    for n in ast.walk(fdef):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            always.update(n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                and n is not fdef:
            always.update(m.id for m in ast.walk(n) if isinstance(m, ast.Name))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                and n.func.id in ("locals", "vars", "eval", "exec"):
            return
    annotate_liveness(fdef.body)
    if always:
        for n in ast.walk(fdef):
            if hasattr(n, "ag_live"):
                n.ag_live = n.ag_live | always


def annotate_liveness(stmts, live_after=frozenset()):
    """Annotate every ``if``/loop in ``stmts`` with ``ag_live`` (names read after it, and in
    a loop at its head); returns the names live before ``stmts``. Conservative: ``break``
    and ``continue`` (already lowered for converted loops) count as falling through."""
    live = set(live_after)
    for s in reversed(stmts):
        live = _live_before(s, live)
    return live


def _live_before(s, live):
    if isinstance(s, ast.If):
        body = annotate_liveness(s.body, live)
        orelse = annotate_liveness(s.orelse, live)
        s.ag_live = frozenset(live | body | orelse)   # read after it, or in it before written
        return body | orelse | _uses_defs(s.test)[0]
    if isinstance(s, (ast.While, ast.For, ast.AsyncFor)):
        test = s.test if isinstance(s, ast.While) else s.iter
        targets = set() if isinstance(s, ast.While) else _uses_defs(s.target)[1]
        head = set(live)
        after_else = annotate_liveness(s.orelse, live)
        head |= after_else
        for _ in range(8):
            inner = annotate_liveness(s.body, head) - targets
            if isinstance(s, ast.While):
                inner |= _uses_defs(s.test)[0]
            else:   # a for loop's extra test reads its flags
                inner |= {f for f in (getattr(s, "ag_brk", None), getattr(s, "ag_ret", None))
                          if f is not None}
            new = head | inner
            if new == head:
                break
            head = new
        s.ag_live = frozenset(head)
        return head | _uses_defs(test)[0]
    if isinstance(s, (ast.With, ast.AsyncWith)):
        inner = annotate_liveness(s.body, live)
        for item in s.items:
            u, d = _uses_defs(item)
            inner = (inner - d) | u
        return inner
    if isinstance(s, ast.Try):
        inner = annotate_liveness(s.finalbody, live)
        inner = annotate_liveness(s.orelse, inner) | inner
        for h in s.handlers:
            inner |= annotate_liveness(h.body, inner)
        return annotate_liveness(s.body, inner) | inner
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        # a nested function reads its free names whenever it is called
        uses = {n.id for n in ast.walk(s) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)}
        return (live - {s.name}) | uses
    uses, defs = _uses_defs(s)
    if isinstance(s, (ast.Global, ast.Nonlocal)):
        return live
    return (live - defs) | uses


# ---------------------------------------------------------------------------- runtime
_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"
_NO_RETURN_IN_LOOP = (
    "a return statement cannot be placed inside this TensorFlow loop; this may happen if a "
    "return statement depends on a static Python condition such as a hyperparameter")


def check_branch(out, names, label, main):
    """TensorFlow's checks of one branch of a tensor ``if`` (``label`` "main" or "else"):
    every variable defined, a ``return`` in both or neither; against the main branch's
    values ``main`` (when the else branch runs second) the same structure, no None, the same
    dtypes."""
    for v, n in zip(out, names):
        if v is UNDEFINED:
            raise ValueError(f"'{n}' must also be initialized in the {label} branch")
        if isinstance(v, UndefinedReturnValue):
            raise ValueError(f"the {label} branch must also have a return statement.")
    from .._core import nest
    if main is None:
        for n, v in zip(names, out):
            if any(x is None for x in nest.flatten(v)):
                raise ValueError(f"'{n}' is None at the end of the {label} branch.")
        return
    for n, a, b in zip(names, main, out):
        try:
            nest.assert_same_structure(a, b)
        except (ValueError, TypeError) as e:
            raise TypeError(f"'{n}' must have the same nested structure in the main and "
                            f"else branches:\n\n{e}") from None
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            if x is None:
                raise ValueError(f"'{n}' is None at the end of the main branch.")
            if y is None:
                raise ValueError(f"'{n}' is None at the end of the else branch.")
            dx, dy = _dtype(x), _dtype(y)
            if dx is not None and dy is not None and dx != dy:
                raise TypeError(f"'{n}' has dtype {dx} in the main branch, but dtype {dy} "
                                f"in the else branch")


def _dtype(x):
    from .._core.tensor import _TensorLike, convert_to_tensor
    if isinstance(x, _TensorLike):
        return x.dtype.name
    if isinstance(x, (bool, int, float, str)):
        return convert_to_tensor(x).dtype.name
    return None


def placeholders(body, init, nulls, names):
    """``init`` with each loop variable at ``nulls`` (undefined before the loop, None, or an
    undefined ``retval_``) replaced by zeros shaped like its value after one staged iteration
    of ``body`` (TensorFlow stages the body in a scratch graph; here a dry sub-trace).
    Raises TensorFlow's errors when the staged iteration does not define one."""
    first, failure = _stage(body, init)
    init = list(init)
    for i in nulls:
        fi = None if first is None else first[i]
        try:
            value = _placeholder(fi)
        except TypeError as exc:
            value, failure = None, failure or exc
        if value is None:
            if _is_undefined(init[i]):
                if fi is not None and (len(fi) if isinstance(fi, (str, list, tuple, dict))
                                       else True):   # TensorFlow's `if first_iteration_value:`
                    raise ValueError(f"the return value from a TensorFlow loop may only be a "
                                     f"{_LOOP_TYPES}; got {type(fi)}")
                raise NotImplementedError(_NO_RETURN_IN_LOOP)
            if init[i] is None:
                raise ValueError(f"'{names[i]}' is not allowed to be None before the loop")
            text = f"'{names[i]}' must be defined before the loop"
            if failure is not None:
                text += (f"\nNote: AutoGraph tried to define it automatically, but ran into a "
                         f"{type(failure).__name__}: {failure}")
            raise ValueError(text)
        init[i] = value
    return tuple(init)


def null_names(init, nulls, names):
    """What TensorFlow's run-time check names: the variables the loop must initialize."""
    return ", ".join("the function return value" if _is_undefined(init[i]) else names[i]
                     for i in nulls)


def _is_undefined(x):
    return isinstance(x, UndefinedReturnValue)


def _stage(body, init):
    """The loop values after one dry iteration of ``body``, or None if it raised one of the
    errors TensorFlow's staging catches."""
    from .._core.dispatch import current_tracer
    from .._core.tensor import Tensor, _TensorLike
    from ..ops.control_flow_ops import TensorArray, _tensor
    tracer = current_tracer()
    vals = list(init)
    idx, args = [], []
    for i, v in enumerate(init):
        if isinstance(v, _TensorLike) or (isinstance(v, (bool, int, float))):
            idx.append(i)
            args.append(Tensor(_tensor(v)._value))   # a fresh input, as the loop passes
        elif isinstance(v, TensorArray):
            vals[i] = TensorArray._from_handle(v._as_handle(), v)
    result = []

    def run(*xs):
        for i, x in zip(idx, xs):
            vals[i] = x
        result.append(tuple(body(*vals)))
        return []
    try:
        tracer.sub(run, args, dry=True)
    except (UnboundLocalError, TypeError, ValueError, KeyError) as exc:
        return None, exc
    return result[0], None


def _placeholder(fi):
    from .._core.tensor import _TensorLike
    if fi is None or _is_undefined(fi):
        return None
    if isinstance(fi, (bool, int, float)):
        return type(fi)(0)
    if isinstance(fi, _TensorLike):
        from ..ops import creation_ops
        return creation_ops.zeros(fi._value.shape, fi.dtype)
    if isinstance(fi, (list, tuple)):
        parts = [_placeholder(x) for x in fi]
        if any(p is None for p in parts):
            raise TypeError("undefined part")
        return type(fi)(parts) if not hasattr(fi, "_fields") else type(fi)(*parts)
    if isinstance(fi, dict):
        return {k: _placeholder(v) for k, v in fi.items()}
    raise TypeError(f"Found an unsupported type '{type(fi).__name__}'")


def check_dataset_loop(init, names):
    """A dataset loop does not stage its body: TF's errors for a variable undefined or None
    before it, or an undefined ``retval_``."""
    for v, n in zip(init, names):
        if _is_undefined(v):
            raise NotImplementedError(_NO_RETURN_IN_LOOP)
        if v is None:
            raise ValueError(f"'{n}' is not allowed to be None before the loop")
        if v is UNDEFINED:
            raise ValueError(f"'{n}' must be defined before the loop")
