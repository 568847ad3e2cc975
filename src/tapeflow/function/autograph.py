"""AutoGraph for tapeflow: convert a function's Python control flow over tensors into
``tf.cond`` / ``tf.while_loop`` steps, as TensorFlow's AutoGraph does.

The source of the decorated function (and, when called, of the user functions it calls; never
of tapeflow, NumPy or the standard library) is parsed and rewritten:

- First the canonical form (``autograph_returns.py``, TensorFlow's converter order):
  ``break``/``continue`` become flags and guarded remainders, a loop's ``else:`` runs after it
  under ``if not <break flag>``, returns are lifted (``if c: return a`` + more code: the code
  becomes the ``else``) and, when a ``return`` sits in a loop or one branch, lowered to
  ``do_return``/``retval_`` as TensorFlow's ``return_statements`` does; liveness then says
  which variables a branch or loop passes on.
- ``if c: A else: B`` becomes two branch functions and ``ag__.if_stmt(c, ...)``; when ``c`` is
  a tensor that is ``tf.cond`` (both branches traced once), otherwise the Python ``if``.
  Variables the branches assign and that are read later are passed in and returned; an
  ``if`` whose branches both end the function becomes a conditional return.
- ``while c: B`` becomes ``ag__.while_stmt`` (``tf.while_loop`` when ``c`` is a tensor);
  ``for x in it: B`` becomes ``ag__.for_stmt``: a loop over a tensor's rows or ``tf.range``
  runs as ``tf.while_loop``, over a ``tf.data.Dataset`` (any iterable a higher floor
  registers, ``ir.register_for_loop``) as a loop step that replays the body per element;
  over a Python iterable it stays a Python loop (unrolled while tracing).
- A ``return`` inside a tensor loop follows TensorFlow 2.21: the loop stops after the
  iteration that returned; ``retval_`` starts as zeros shaped by one staged (dry) iteration
  and the loop must run at least once (a run-time ``Assert``); a return under a tensor
  condition there raises TF's ``NotImplementedError``.
- ``and``/``or``/``not`` and
  ``x if c else y`` dispatch to tensor ops when given tensors; ``range``, ``len``, ``float``,
  ``int`` and ``abs`` take tensors; ``print`` is left alone (as in TensorFlow).

Imported on first use (``ast``/``inspect`` stay off ``import tapeflow``).
``tf.autograph.to_code(f)`` returns the converted source.
"""
import ast
import builtins
import functools
import inspect
import os
import sys
import textwrap
import types
import weakref

from .._core.backend import np as _np
from . import autograph_returns as _passes
from . import ir as _ir
from .autograph_returns import UNDEFINED, UndefinedReturnValue  # noqa: F401 - ag__.<name>

__all__ = ["convert", "to_code", "do_not_convert", "UNDEFINED", "UndefinedReturnValue"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STDLIB = os.path.dirname(os.__file__)
_cache = weakref.WeakKeyDictionary()
_failed = weakref.WeakSet()


def do_not_convert(func=None):
    """Mark ``func`` to be called as written, never converted
    (``tf.autograph.experimental.do_not_convert``)."""
    if func is None:
        return do_not_convert
    func.__ag_do_not_convert__ = True
    return func


# ---------------------------------------------------------------------------- conversion
def _convertible(fn):
    if not isinstance(fn, types.FunctionType) or getattr(fn, "__ag_do_not_convert__", False):
        return False
    code = fn.__code__
    filename = code.co_filename
    if filename.startswith(("<", _PACKAGE, _STDLIB)) or "site-packages" in filename \
            or "dist-packages" in filename:
        return False
    return fn.__name__ != "<lambda>"


def convert(fn):
    """The converted version of the plain Python function ``fn`` (cached), or ``fn`` itself
    when it cannot or must not be converted."""
    if isinstance(fn, types.MethodType):
        conv = convert(fn.__func__)
        return fn if conv is fn.__func__ else types.MethodType(conv, fn.__self__)
    if not _convertible(fn) or fn in _failed:
        return fn
    conv = _cache.get(fn)
    if conv is None:
        try:
            conv, source = _convert(fn)
        except (OSError, TypeError, SyntaxError, _Unsupported):
            _failed.add(fn)
            return fn
        conv.__ag_source__ = source
        _cache[fn] = conv
    return conv


def to_code(fn, recursive=True, experimental_optional_features=None):
    """The source of ``fn`` after conversion (``tf.autograph.to_code``).

    Raises:
        TypeError: if ``fn`` is not a Python function with source.
    """
    fn = getattr(fn, "python_function", fn)
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"to_code expected a Python function, got {type(fn).__name__}")
    _, source = _convert(fn)
    return source


class _Unsupported(Exception):
    pass


def _convert(fn):
    source = textwrap.dedent(inspect.getsource(fn))
    tree = ast.parse(source)
    # Tracebacks and trace reports point at the user's file and lines.
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
    fdef = tree.body[0]
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise _Unsupported("not a def")
    fdef.decorator_list = []
    _Converter().convert_function(fdef)
    ast.fix_missing_locations(tree)
    converted_source = ast.unparse(tree)
    freevars = fn.__code__.co_freevars
    # Rebuild the function inside a factory that recreates its closure's names.
    factory_name = "__ag_factory"
    # ``ag__`` is the factory's parameter (a closure cell of the converted function), so the
    # function runs in the module's own globals: later rebinding and ``global`` writes work.
    outer = ast.parse(f"def {factory_name}({', '.join(('ag__',) + freevars)}):\n    pass"
                      ).body[0]
    # The converted def gets a private name: under its own it would shadow a global of that
    # name that its body calls (a method `g` calling the module's function `g`).
    fdef.name = "__ag_converted"
    outer.body = [fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))]
    module = ast.Module(body=[outer], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, fn.__code__.co_filename, "exec")
    namespace = {}
    exec(code, fn.__globals__, namespace)  # noqa: S102 - the user's own code, rewritten
    cells = [c.cell_contents if _cell_ok(c) else UNDEFINED for c in (fn.__closure__ or ())]
    conv = namespace[factory_name](sys.modules[__name__], *cells)
    conv.__name__, conv.__qualname__ = fn.__name__, fn.__qualname__
    conv.__defaults__ = fn.__defaults__
    conv.__kwdefaults__ = fn.__kwdefaults__
    conv.__wrapped_original__ = fn
    return conv, converted_source


def _cell_ok(cell):
    try:
        cell.cell_contents  # noqa: B018 - probing an empty cell
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------- AST rewriting
def _assigned(stmts):
    """Names bound by ``stmts`` (not inside nested functions, lambdas or classes)."""
    names = []

    class V(ast.NodeVisitor):
        def visit_Name(self, node):
            if isinstance(node.ctx, ast.Store) and node.id not in names:
                names.append(node.id)

        def visit_FunctionDef(self, node):
            if node.name not in names:
                names.append(node.name)

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_ClassDef(self, node):
            if node.name not in names:
                names.append(node.name)

        def visit_Lambda(self, node):
            pass

        def visit_ListComp(self, node):
            pass

        visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    v = V()
    for s in stmts:
        v.visit(s)
    return [n for n in names if not n.startswith("__ag")] + [n for n in names
                                                             if n.startswith("__ag_brk")]


def _assigned_attributes(stmts):
    """The compound symbols (``a.b``, ``a.b.c``: attributes of a name) that ``stmts`` assign
    (not inside nested functions, lambdas or classes), each once, in order."""
    out, seen = [], set()
    for s in stmts:
        for node in _walk_no_nested(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                        ast.Lambda)):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                base = node.value
                while isinstance(base, ast.Attribute):
                    base = base.value
                key = ast.unparse(node)
                if isinstance(base, ast.Name) and key not in seen:
                    seen.add(key)
                    out.append(node)
    return out


def _attribute(node, store=False):
    """A fresh copy of the compound symbol ``node`` (``a.b``), loading or storing."""
    copy = ast.parse(ast.unparse(node), mode="eval").body
    copy.ctx = ast.Store() if store else ast.Load()
    return copy


def _attribute_owner(node):
    """The object whose attribute ``node`` is (``a`` of ``a.b``), loaded."""
    return ast.parse(ast.unparse(node.value), mode="eval").body


def _contains(stmts, kinds, stop=(ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                  ast.Lambda)):
    for s in stmts:
        for node in _walk_no_nested(s, stop):
            if isinstance(node, kinds):
                return True
    return False


def _walk_no_nested(node, stop):
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, stop):
            continue
        yield from _walk_no_nested(child, stop)


def _loop_stop():
    return (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For,
            ast.While)


def _ends_in_return(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _ends_in_return(last.body) and _ends_in_return(last.orelse)
    return False


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _ag(attr):
    return ast.Attribute(value=_name("ag__"), attr=attr, ctx=ast.Load())


def _call(func, args, keywords=()):
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=body)


def _def(name, params, body):
    return ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                                      vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                      defaults=[]),
        body=body or [ast.Pass()], decorator_list=[], returns=None, type_params=[])


def _tuple(names):
    return ast.Tuple(elts=[_name(n) for n in names], ctx=ast.Load())


def _load_values(names):
    # ag__.ld(lambda: x) gives x, or UNDEFINED where x is not bound yet.
    return ast.Tuple(elts=[_call(_ag("ld"), [_lambda(_name(n))]) for n in names],
                     ctx=ast.Load())


def _store(names, value):
    if not names:
        return ast.Expr(value=value)
    return ast.Assign(targets=[ast.Tuple(elts=[_name(n, True) for n in names],
                                         ctx=ast.Store())], value=value)


_BUILTINS = {"range": "range_", "len": "len_", "float": "float_", "int": "int_",
             "abs": "abs_"}


class _Converter(ast.NodeTransformer):
    def __init__(self):
        self.n = 0
        self.local_names = set()

    def fresh(self, base):
        self.n += 1
        return f"__ag_{base}_{self.n}"

    def convert_function(self, fdef):
        args = fdef.args
        params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        # canonical form first (autograph_returns.py): returns lifted, jumps and loop
        # ``else`` clauses lowered, returns lowered to do_return/retval_ where needed
        names = _passes._Names(params + [n.id for n in ast.walk(fdef)
                                         if isinstance(n, ast.Name)])
        fdef.body = _passes.lower_jumps(fdef.body, names)
        fdef.body, _ = _passes.lift_returns(fdef.body)
        if _passes.needs_return_flags(fdef.body):
            _passes.lower_returns(fdef, names)
        _passes.annotate_function(fdef)
        self.local_names = set(params)
        self.local_names.update(_assigned(fdef.body))
        fdef.body = self.block(fdef.body)
        return fdef

    # blocks -----------------------------------------------------------------------------
    def block(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            if r is None:
                continue
            out.extend(r if isinstance(r, list) else [r])
        return out

    # statements -------------------------------------------------------------------------
    def visit_FunctionDef(self, node):
        return node   # nested functions are converted when called (ag__.call)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_If(self, node):
        node.test = self.visit(node.test)
        both_return = _ends_in_return(node.body) and _ends_in_return(node.orelse)
        if _contains(node.body + node.orelse, ast.Return) and not both_return:
            node.body = self.block(node.body)
            node.orelse = self.block(node.orelse)
            return node   # a partial return: left as Python (a guard if the test is a tensor)
        if _contains(node.body + node.orelse, (ast.Break, ast.Continue), _loop_stop()):
            node.body = self.block(node.body)
            node.orelse = self.block(node.orelse)
            return node
        t_name, f_name = self.fresh("if_true"), self.fresh("if_false")
        if both_return:
            # the names a branch assigns are its parameters (a branch may rebind an
            # argument before returning: ``i += 1; return i``)
            names = _assigned(node.body + node.orelse)
            t = _def(t_name, names, self.block(node.body))
            f = _def(f_name, names, self.block(node.orelse))
            return [t, f, ast.Return(value=_call(_ag("if_stmt"), [node.test, _name(t_name),
                                                                   _name(f_name),
                                                                   _load_values(names),
                                                                   ast.Constant(True)]))]
        names = _live(_assigned(node.body + node.orelse), node)
        attrs = _assigned_attributes(node.body + node.orelse)
        if attrs:
            return self._if_with_attributes(node, names, attrs, t_name, f_name)
        ret = [ast.Return(value=_tuple(names))]
        t = _def(t_name, names, self.block(node.body) + ret)
        f = _def(f_name, names, self.block(node.orelse) + ret)
        call = _call(_ag("if_stmt"), [node.test, _name(t_name), _name(f_name),
                                      _load_values(names), ast.Constant(False),
                                      ast.Tuple(elts=[ast.Constant(n) for n in names],
                                                ctx=ast.Load())])
        return [t, f, _store(names, call)]

    def _if_with_attributes(self, node, names, attrs, t_name, f_name):
        """An ``if`` whose branches assign compound symbols (``a.b = ...``): each is a
        variable of the conditional, as a name is (TensorFlow's ``get_state``/``set_state``):
        its value before the ``if`` is saved, restored at the start of each branch (both
        are traced), returned by each branch and assigned after."""
        init = self.fresh("attrs")
        keys = [ast.unparse(a) for a in attrs]

        saved = ast.Assign(targets=[_name(init, True)], value=ast.Tuple(
            elts=[_call(_ag("ld"), [_lambda(_attribute(a))]) for a in attrs],
            ctx=ast.Load()))
        restore = ast.Expr(value=_call(_ag("set_attributes"), [
            ast.Tuple(elts=[ast.Tuple(elts=[_attribute_owner(a), ast.Constant(a.attr)],
                                      ctx=ast.Load()) for a in attrs], ctx=ast.Load()),
            _name(init)]))
        ret = [ast.Return(value=ast.Tuple(
            elts=[_name(n) for n in names] + [_attribute(a) for a in attrs],
            ctx=ast.Load()))]
        t = _def(t_name, names, [restore] + self.block(node.body) + ret)
        f = _def(f_name, names, [restore] + self.block(node.orelse) + ret)
        call = _call(_ag("if_stmt"), [node.test, _name(t_name), _name(f_name),
                                      _load_values(names), ast.Constant(False),
                                      ast.Tuple(elts=[ast.Constant(n) for n in names + keys],
                                                ctx=ast.Load())])
        out = ast.Assign(targets=[ast.Tuple(
            elts=[_name(n, True) for n in names] + [_attribute(a, True) for a in attrs],
            ctx=ast.Store())], value=call)
        return [saved, t, f, out]

    def visit_While(self, node):
        if node.orelse or _contains(node.body, (ast.Return, ast.Break, ast.Continue),
                                    _loop_stop()):
            node.body = self.block(node.body)   # not lowered (e.g. a jump inside `with`)
            return node
        names = _live(_assigned(node.body), node)
        c_name, b_name = self.fresh("while_cond"), self.fresh("while_body")
        test = self.visit(node.test)
        c = _def(c_name, names, [ast.Return(value=test)])
        b = _def(b_name, names, self.block(node.body) + [ast.Return(value=_tuple(names))])
        call = _call(_ag("while_stmt"), [_name(c_name), _name(b_name), _load_values(names),
                                         ast.Tuple(elts=[ast.Constant(n) for n in names],
                                                   ctx=ast.Load())])
        return [c, b, _store(names, call)]

    def visit_For(self, node):
        if node.orelse or _contains(node.body, (ast.Return, ast.Break, ast.Continue),
                                    _loop_stop()):
            node.iter = self.visit(node.iter)
            node.body = self.block(node.body)
            return node
        brk, ret = getattr(node, "ag_brk", None), getattr(node, "ag_ret", None)
        target_names = _assigned([ast.Assign(targets=[node.target], value=ast.Constant(0))])
        names = [n for n in _live(_assigned(node.body), node) if n not in target_names]
        # the loop's target is a loop variable too when read after the loop
        iterate = [n for n in target_names if n not in names and n in _live([n], node)
                   and getattr(node, "ag_live", None) is not None]
        names += iterate
        for flag in (brk, ret):
            if flag is not None and flag not in names:
                names.append(flag)
        b_name = self.fresh("for_body")
        item = self.fresh("item")
        unpack = ast.Assign(targets=[node.target], value=_name(item))
        b = _def(b_name, [item] + names, [unpack] + self.block(node.body)
                 + [ast.Return(value=_tuple(names))])
        iterable = self._range_spec(node.iter)
        call = _call(_ag("for_stmt"), [iterable, _name(b_name), _load_values(names),
                                       ast.Constant(brk), ast.Tuple(
                                           elts=[ast.Constant(n) for n in names],
                                           ctx=ast.Load())],
                     ([ast.keyword(arg="ret", value=ast.Constant(ret))] if ret else [])
                     + ([ast.keyword(arg="iterate", value=ast.Constant(iterate[0]))]
                        if isinstance(node.target, ast.Name) and iterate else []))
        return [b, _store(names, call)]

    def _range_spec(self, it):
        # ``range(...)`` / ``tf.range(...)`` as a lazy spec: a tensor bound becomes a loop
        # counter, never a materialized (and value-guarded) range tensor.
        if isinstance(it, ast.Call) and not it.keywords and (
                (isinstance(it.func, ast.Name) and it.func.id == "range"
                 and "range" not in self.local_names)
                or (isinstance(it.func, ast.Attribute) and it.func.attr == "range")):
            func = self.visit(it.func) if isinstance(it.func, ast.Attribute) else \
                _ag("py_range")
            return _call(_ag("RangeSpec"), [func] + [self.visit(a) for a in it.args])
        return self.visit(it)

    # expressions ------------------------------------------------------------------------
    def visit_BoolOp(self, node):
        values = [self.visit(v) for v in node.values]
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        expr = values[-1]
        for v in reversed(values[:-1]):
            expr = _call(_ag(fn), [_lambda(v), _lambda(expr)])
        return expr

    def visit_UnaryOp(self, node):
        node.operand = self.visit(node.operand)
        if isinstance(node.op, ast.Not):
            return _call(_ag("not_"), [node.operand])
        return node

    def visit_IfExp(self, node):
        return _call(_ag("if_exp"), [self.visit(node.test), _lambda(self.visit(node.body)),
                                     _lambda(self.visit(node.orelse))])

    def visit_Call(self, node):
        node = self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "ag__":
            return node   # ag__.ret / ag__.UndefinedReturnValue from the lowering passes
        if isinstance(f, ast.Name) and f.id in _BUILTINS and f.id not in self.local_names:
            node.func = _ag(_BUILTINS[f.id])
            return node
        if isinstance(f, ast.Name) and f.id in ("print", "super", "isinstance", "locals",
                                                "globals", "vars", "type"):
            return node
        return _call(_ag("call"), [f] + node.args, node.keywords)

    def visit_Lambda(self, node):
        return node

    def visit_ListComp(self, node):
        return node

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp


def _live(names, node):
    """``names`` that are read after ``node`` (or in it before being written): the values a
    branch or loop passes on (all of them where liveness is unknown)."""
    live = getattr(node, "ag_live", None)
    return list(names) if live is None else [n for n in names if n in live]


# ---------------------------------------------------------------------------- runtime
@functools.lru_cache(maxsize=None)
def _tf():
    """The ops AutoGraph's runtime converts Python control flow to, under their ``tf.`` names
    (imported from ``ops`` and ``_core``, the floors below ``function``, on first use)."""
    from .._core import dtypes
    from .._core.tensor import convert_to_tensor
    from ..ops import array_ops, creation_ops, math_ops
    return types.SimpleNamespace(
        logical_and=math_ops.logical_and, logical_or=math_ops.logical_or,
        logical_not=math_ops.logical_not, abs=math_ops.abs, range=creation_ops.range,
        shape=array_ops.shape, cast=array_ops.cast, where=array_ops.where,
        convert_to_tensor=convert_to_tensor, float32=dtypes.float32, int32=dtypes.int32,
        bool=dtypes.bool)


def _is_tensor(x):
    from .._core.tensor import _TensorLike
    return isinstance(x, _TensorLike)


def ld(thunk):
    try:
        return thunk()
    except NameError:
        return UNDEFINED


def call(f, *args, **kwargs):
    """Call ``f``, converted first when it is a user function (``converted_call``)."""
    if f is next and args and _tracing():
        rule = _ir.next_handler(args[0])
        if rule is not None:
            from .._core.dispatch import current_tracer
            return rule(args[0], current_tracer())
    return convert(f)(*args, **kwargs) if isinstance(f, (types.FunctionType,
                                                          types.MethodType)) else f(*args,
                                                                                    **kwargs)


def set_attributes(owners, values):
    """Restore compound symbols before a branch runs: ``setattr(obj, name, value)`` for each
    ``(obj, name)`` of ``owners``, skipping a value that was not bound."""
    for (obj, name), value in zip(owners, values):
        if value is not UNDEFINED:
            setattr(obj, name, value)


def ret(value):
    """The function's result: ``retval_``, or None when no ``return`` ran."""
    return None if isinstance(value, UndefinedReturnValue) else value


def if_stmt(test, true_fn, false_fn, init, returns, names=()):
    if not _is_tensor(test):
        fn = true_fn if test else false_fn
        return fn(*init)
    from ..ops import control_flow_ops as cf
    seen = {}
    dead = []

    def branch(fn, label):
        # TensorFlow's checks of a tensor ``if``'s variables, in its order (main first)
        def run():
            out = (fn(*init),) if returns else tuple(fn(*init))
            _passes.check_branch(out, ("retval_",) if returns else names, label,
                                 seen.get("main"))
            main = seen.get("main")
            if main is not None:
                dead.extend(_checked_constants(main, out, returns))
            seen[label] = out
            # both branches return: TF's AutoGraph threads its do_return flag through the
            # cond (a first, boolean result, always True here)
            return (True,) + out if returns else out
        return run
    out = cf.cond(test, branch(true_fn, "main"), branch(false_fn, "else"))
    if dead and _tracing():
        _note_dead(dead)
    return out[1] if returns else out


def _checked_constants(main, other, returns):
    """The Python values TF's check of the else branch (``_verify_tf_cond_vars``) converts
    to constants, in its order: per variable (``do_return`` first when the branches
    return), per leaf, the main branch's value then the else branch's."""
    from .._core import nest
    pairs = [(True, True)] if returns else []
    pairs += list(zip(main, other))
    out = []
    for a, b in pairs:
        try:
            leaves = list(zip(nest.flatten(a), nest.flatten(b)))
        except (TypeError, ValueError):
            continue
        for x, y in leaves:
            out.extend(v for v in (x, y)
                       if isinstance(v, (bool, int, float, str, _np.ndarray)))
    return out


def _note_dead(values):
    """Hand the else branch of the ``tf.cond`` just recorded the constants of
    :func:`_checked_constants` (only its TF graph shows them)."""
    from .._core.dispatch import current_tracer
    from .ir import _as_tensor
    tracer = current_tracer()
    if tracer is None or not hasattr(tracer, "chain"):
        return
    arrays = tuple(_np.asarray(_as_tensor(v)._value) for v in values)
    for tr in tracer.chain():
        step = tr.steps[-1] if tr.steps else None
        if type(step) is _ir.Switch and step.by_bool:
            step.branches[0].dead = arrays


def while_stmt(cond, body, init, names):
    c = cond(*init)
    if not _is_tensor(c):
        vals = tuple(init)
        while c:
            vals = tuple(body(*vals))
            c = cond(*vals)
            if _is_tensor(c):
                if _tracing():   # TensorFlow refuses a loop whose condition turns tensor
                    raise NotImplementedError(_WHILE_TURNED_TENSOR)
                return _tensor_while(cond, body, vals, names)
        return vals
    return _tensor_while(cond, body, tuple(init), names)


def _tensor_while(cond, body, init, names):
    nulls = [i for i, v in enumerate(init)
             if v is None or v is UNDEFINED or isinstance(v, UndefinedReturnValue)]
    if nulls:
        # a variable first defined in the loop (a ``return`` inside it: retval_) gets zeros
        # shaped by a staged iteration, and the loop must run at least once (TF's rule)
        what = _passes.null_names(init, nulls, names)
        if not _tracing():
            return _python_while_defining(cond, body, init, what)
        init = _passes.placeholders(body, init, nulls, names)
        iterated, *vals = _tensor_while(lambda _, *xs: cond(*xs),
                                        lambda _, *xs: (True,) + tuple(body(*xs)),
                                        (False,) + tuple(init), ("<iterated>",) + tuple(names))
        from ..ops import control_flow_ops as cf
        cf.assert_iterated(iterated, what)
        return tuple(vals)
    from ..ops import control_flow_ops as cf
    from ..ops.control_flow_ops import TensorArray
    keep = [i for i, v in enumerate(init) if _loop_value(v, TensorArray)]
    other = {i: v for i, v in enumerate(init) if i not in keep}

    def full(xs):
        vals = list(init)
        for i, x in zip(keep, xs):
            vals[i] = x
        for i, v in other.items():
            vals[i] = v
        return vals

    def step(*xs):
        new = body(*full(xs))
        _check_loop_vars(init, new, keep, names)
        return [new[i] for i in keep]

    out = cf.while_loop(lambda *xs: cond(*full(xs)), step, [init[i] for i in keep])
    vals = list(init)
    for i, x in zip(keep, out):
        vals[i] = x
    return tuple(vals)


_WHILE_TURNED_TENSOR = (
    "The condition of while loop started as non-Tensor, then changed to Tensor. This may "
    "happen either because variables changed type, or when a break or return statement inside "
    "the loop depends on a Tensor condition. In both cases, changing to a TF loop should remove "
    "the error.\nSee https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
    "autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types for more info.")


def _check_loop_vars(init, new, keep, names):
    """TensorFlow's checks of a tensor loop's variables after one iteration: the same dtype
    (TypeError) and a shape at least as specific as before the loop (ValueError)."""
    for i in keep:
        a, b = init[i], new[i]
        if not (_is_tensor(a) and _is_tensor(b)) or i >= len(names) or \
                names[i].startswith("<"):
            continue
        if a.dtype != b.dtype:
            raise TypeError(f"'{names[i]}' has dtype {a.dtype.name} before the loop, but dtype "
                            f"{b.dtype.name} after one iteration")
        sa, sb = a.shape, b.shape
        if sa.rank is None:
            continue
        if sb.rank != sa.rank or any(x is not None and x != y
                                     for x, y in zip(sa.as_list(), sb.as_list())):
            raise ValueError(f"'{names[i]}' has shape {sa} before the loop, but shape {sb} after "
                             f"one iteration. Use tf.autograph.experimental.set_loop_options to "
                             f"set shape invariants.")


def _python_while_defining(cond, body, vals, what):
    from ..ops import control_flow_ops as cf
    iterated = False
    while bool(cond(*vals)):
        vals = tuple(body(*vals))
        iterated = True
    cf.assert_iterated(iterated, what)
    return vals


def _loop_value(v, ta):
    """Whether ``v`` is carried through a tensor loop (tensors, Python numbers, arrays, and
    tuples/lists/dicts of them), else it stays the value it had before the loop."""
    if _is_tensor(v) or isinstance(v, (int, float, bool, ta)):
        return True
    if isinstance(v, (tuple, list)) and v:
        return all(_loop_value(x, ta) for x in v)
    if isinstance(v, dict) and v:
        return all(_loop_value(x, ta) for x in v.values())
    return False


class RangeSpec:
    """``range(...)`` / ``tf.range(...)`` in a ``for``, evaluated only if iterated in Python."""

    def __init__(self, func, *args):
        self.func = func
        self.args = args

    def tensor_bounds(self):
        return any(_is_tensor(a) for a in self.args)

    def materialize(self):
        return self.func(*self.args)


py_range = builtins.range


def for_stmt(iterable, body, init, brk, names, ret=None, iterate=None):
    """``for`` over ``iterable``; ``brk`` / ``ret`` name the flags that stop the loop (a
    ``break``, a ``return``), or are None; ``iterate`` names the loop's target when it is
    read after the loop (a tensor range starts it at the range's start, as TF does)."""
    tf = _tf()
    stops = [names.index(f) for f in (brk, ret) if f is not None]
    if isinstance(iterable, RangeSpec):
        if iterable.tensor_bounds() or iterable.func is not py_range:
            if iterable.tensor_bounds() and _tracing():
                return _range_loop(iterable.args, body, init, stops, names,
                                   iterate=names.index(iterate) if iterate else None)
        iterable = iterable.materialize()
    source = _ir.loop_source_maker(iterable) if _tracing() else None
    if source is not None:
        return _iterable_loop(source(iterable), body, init, stops, names)
    if _is_tensor(iterable) and _tracing() and iterable.shape.rank:
        n = tf.shape(iterable)[0]
        return _range_loop((n,), lambda i, *vals: body(iterable[i], *vals), init, stops,
                           names, index_only=True)
    vals = tuple(init)
    for item in iterable:
        vals = tuple(body(item, *vals))
        for k in stops:
            flag = vals[k]
            if _is_tensor(flag):
                if names[k] == ret:
                    raise NotImplementedError(_PY_LOOP_TENSOR_STOP)
                flag = bool(flag)   # a guard: a tensor break in a Python loop
            if flag:
                return vals
    return vals


_PY_LOOP_TENSOR_STOP = (
    "break and return statements which depend on a TF condition are not supported in Python "
    "for loops. Did you intend to make it a TF loop?\nSee https://github.com/tensorflow/"
    "tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
    "#consistency-of-control-flow-types for more info.")


def _tracing():
    from .._core.dispatch import current_tracer
    return current_tracer() is not None


def _range_loop(args, body, init, stops, names, index_only=False, iterate=None):
    tf = _tf()
    if len(args) == 1:
        start, limit, delta = 0, args[0], 1
    elif len(args) == 2:
        (start, limit), delta = args, 1
    else:
        start, limit, delta = args
    limit = tf.convert_to_tensor(limit)
    dtype = limit.dtype
    start = tf.cast(start, dtype)
    delta = tf.cast(delta, dtype)

    def cond(i, *vals):
        go = tf.where(delta > 0, i < limit, i > limit)
        for k in stops:
            go = tf.logical_and(go, tf.logical_not(tf.cast(vals[k], tf.bool)))
        return go

    def step(i, *vals):
        return (i + delta,) + tuple(body(i, *vals))

    if iterate is not None and init[iterate] is UNDEFINED:
        init = tuple(start if k == iterate else v for k, v in enumerate(init))

    out = _tensor_while(cond, step, (start,) + tuple(init), ("<counter>",) + tuple(names))
    return tuple(out[1:])


def _iterable_loop(source, body, init, stops, names):
    """``for`` over a registered iterable (a ``tf.data.Dataset``): an ``ir.Loop`` step."""
    from .._core.dispatch import current_tracer
    _passes.check_dataset_loop(init, names)
    for v, n in zip(init, names):
        if v is UNDEFINED:
            raise ValueError(f"'{n}' must be defined before the loop")
    tracer = current_tracer()
    if len(stops) < 2:
        return tracer.iterable_loop(source, body, tuple(init), stops[0] if stops else None)
    tf = _tf()

    def step(element, *vals):   # a break and a return: one flag stops the loop
        new = tuple(body(element, *vals[:-1]))
        return new + (tf.logical_or(new[stops[0]], new[stops[1]]),)
    out = tracer.iterable_loop(source, step, tuple(init) + (False,), len(names))
    return tuple(out[:-1])


def and_(a, b):
    x = a()
    if _is_tensor(x):
        return _tf().logical_and(x, b())
    return x and b()


def or_(a, b):
    x = a()
    if _is_tensor(x):
        return _tf().logical_or(x, b())
    return x or b()


def not_(x):
    if _is_tensor(x):
        return _tf().logical_not(x)
    return not x


def if_exp(test, a, b):
    if _is_tensor(test):
        from ..ops import control_flow_ops as cf
        return cf.cond(test, a, b)
    return a() if test else b()


def range_(*args):
    if any(_is_tensor(a) for a in args):
        return _tf().range(*args)
    return builtins.range(*args)


def len_(x):
    if _is_tensor(x) and _tracing():
        return _tf().shape(x)[0]
    return builtins.len(x)


def float_(x=0.0):
    if _is_tensor(x):
        return _tf().cast(x, _tf().float32)
    return builtins.float(x)


def int_(x=0, *base):
    if _is_tensor(x):
        return _tf().cast(x, _tf().int32)
    return builtins.int(x, *base)


def abs_(x):
    if _is_tensor(x):
        return _tf().abs(x)
    return builtins.abs(x)


def converted(fn):
    """``fn`` converted, with a wrapper keeping its name (what ``tf.function`` calls)."""
    conv = convert(fn)
    if conv is fn:
        return fn
    return functools.wraps(fn)(conv)
