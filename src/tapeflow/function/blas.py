"""A fused weight update for compiled programs: ``w -= lr * (A @ B)`` as one GEMM.

An SGD step on a dense layer computes the weight gradient with a matmul, scales it by the
learning rate and subtracts it from the variable: three passes over a weight-sized array
after the product. BLAS's ``?gemm`` does all three in one, ``C = alpha * op(A) @ op(B) +
beta * C`` with ``C`` the variable's own array, ``alpha = -lr`` and ``beta = 1``. NumPy's
``matmul`` exposes neither ``alpha`` nor ``beta``, so this module calls the ``cblas_?gemm``
of the BLAS NumPy itself is linked against (found through NumPy's extension module, so no
other library is loaded), through ``ctypes``. When that BLAS cannot be found, or a call's
arrays do not suit it, ``gemm_update`` does the three steps with NumPy instead: the same
result up to rounding. The fused form rounds once where NumPy rounds three times (the
product, the scaling, the update), so a fused step differs from eager execution by at most
about one unit in the last place of each weight.

``TAPEFLOW_FUSED_GEMM=0`` in the environment turns the fusion off (every update then
rounds exactly as eagerly). TensorFlow has no counterpart: its CPU kernels run the three
ops separately (XLA, like this module, fuses them).

Reference: the BLAS ``?gemm`` interface, http://www.netlib.org/blas/ (``sgemm.f``).
"""
import os
import sys
from weakref import ref as _weakref

from .._core.backend import np
from .._core.variable import _UNSHARED, update_in_place
from .ir import _ASSIGN_TYPES, UPDATES, Assign, Op, Read, Step

__all__ = ["gemm_update", "gemm_available", "GemmUpdate", "fuse_gemm_updates",
           "dot_matches_matmul"]

_getrefcount = sys.getrefcount
_add = np.add
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_GEMM = None   # dtype -> ctypes function, filled by _load()


def _load():
    """``{np.float32: sgemm, np.float64: dgemm}`` from NumPy's BLAS, or ``{}``."""
    if os.environ.get("TAPEFLOW_FUSED_GEMM", "1") == "0":
        return {}
    try:
        import ctypes
        core = getattr(np, "_core", None) or np.core
        lib = ctypes.CDLL(core._multiarray_umath.__file__)
    except (ImportError, OSError, AttributeError):
        return {}
    # (symbol prefix, suffix, integer type): the ILP64 builds of NumPy's wheels rename their
    # symbols with a "64_" suffix; an unsuffixed cblas (MKL, a system OpenBLAS) is LP64.
    for prefix, suffix, int_t in (("scipy_cblas_", "64_", ctypes.c_int64),
                                  ("cblas_", "64_", ctypes.c_int64),
                                  ("cblas_", "", ctypes.c_int)):
        try:
            fns = {t: getattr(lib, f"{prefix}{c}gemm{suffix}")
                   for t, c in ((np.float32, "s"), (np.float64, "d"))}
        except AttributeError:
            continue
        if not suffix and _ilp64():
            return {}
        found = {}
        for t, fn in fns.items():
            real = ctypes.c_float if t is np.float32 else ctypes.c_double
            fn.argtypes = [int_t] * 6 + [real, ctypes.c_void_p, int_t, ctypes.c_void_p, int_t,
                                         real, ctypes.c_void_p, int_t]
            fn.restype = None
            found[np.dtype(t)] = fn
        return found if _self_test(found) else {}
    return {}


def _ilp64():
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:  # noqa: BLE001 - an unknown config layout: assume the worst
        return True
    return "64" in str(blas.get("openblas configuration", "")) or "ilp64" in str(blas).lower()


def _self_test(found):
    """The fused update on small arrays agrees with NumPy, for every layout it uses."""
    rng = np.random.default_rng(0)
    for dtype, fn in found.items():
        for ta in (False, True):
            for tb in (False, True):
                a = rng.standard_normal((5, 3) if ta else (3, 5)).astype(dtype)
                b = rng.standard_normal((4, 5) if tb else (5, 4)).astype(dtype)
                w = rng.standard_normal((3, 4)).astype(dtype)
                want = w - 0.5 * ((a.T if ta else a) @ (b.T if tb else b))
                if not _gemm(fn, w, a, ta, b, tb, -0.5) or not np.allclose(w, want, 1e-5, 1e-5):
                    return False
    return True


def _loaded():
    global _GEMM
    if _GEMM is None:
        _GEMM = _load()
    return _GEMM


def gemm_available():
    """Whether NumPy's BLAS was found (the fused update then runs where arrays suit it)."""
    return bool(_loaded())


_DOT_OK = None


def dot_matches_matmul():
    """Whether ``np.dot`` computes matrix-vector products bit for bit as ``np.matmul`` does
    with this NumPy and BLAS (checked once, on C- and F-ordered matrices of both float
    dtypes with contiguous and strided vectors on either side).

    Both reach the same BLAS ``?gemv`` for a contiguous matrix, but ``np.dot`` goes there
    directly where ``matmul`` first runs the ufunc machinery (about 0.8 us of a 14 us
    512x512 float32 product); for a matrix that is not contiguous they take different
    loops, so the compiler only swaps them for matrices known contiguous."""
    global _DOT_OK
    if _DOT_OK is None:
        rng = np.random.default_rng(1)
        ok = True
        for dtype in (np.float32, np.float64):
            for m, k in ((512, 512), (37, 300), (300, 37), (2, 3)):
                a = rng.standard_normal((m, k)).astype(dtype)
                for mat in (a, np.asfortranarray(a)):
                    x = rng.standard_normal((k, 3)).astype(dtype)
                    y = rng.standard_normal((3, m)).astype(dtype)
                    for u, v in ((mat, x[:, :1].copy()), (mat, x[:, 1:2]),
                                 (y[:1].copy(), mat), (y[1:2], mat),
                                 (mat.T, y[1:2].T), (x[:, 1:2].T, mat.T)):
                        ok = ok and np.array_equal(np.dot(u, v), np.matmul(u, v))
        _DOT_OK = bool(ok)
    return _DOT_OK


_LAYOUTS = {}   # id(array) -> (weakref, data pointer, shape, BLAS operand)


def _layout(x):
    """``(pointer, shape, operand)`` of ``x``, remembered per array (an array's memory never
    moves; ``ctypes.data`` costs a microsecond, the lookup a tenth). ``operand`` is
    ``(flag as stored, flag transposed, leading dimension)`` for a row-major BLAS call (a
    C-contiguous matrix as stored, an F-contiguous one read transposed), or None when ``x``
    is no matrix BLAS can read."""
    entry = _LAYOUTS.get(id(x))
    if entry is not None and entry[0]() is x and entry[2] == x.shape:
        return entry[1:]
    if len(_LAYOUTS) > 256:
        _LAYOUTS.clear()
    f, shape = x.flags, x.shape
    operand = None
    if len(shape) == 2:
        if f.c_contiguous:
            operand = (_NO_TRANS, _TRANS, shape[1])
        elif f.f_contiguous:
            operand = (_TRANS, _NO_TRANS, shape[0])
    entry = (_weakref(x), x.ctypes.data, shape, operand)
    _LAYOUTS[id(x)] = entry
    return entry[1:]


def _gemm(fn, w, a, ta, b, tb, alpha):
    """``w += alpha * op(a) @ op(b)`` in place through ``fn`` (``w`` a C-contiguous
    matrix); False when the shapes or the operands' layouts do not suit BLAS."""
    pw, sw, _ = _layout(w)
    pa, sa, oa = _layout(a)
    pb, sb, ob = _layout(b)
    if oa is None or ob is None or len(sw) != 2:
        return False
    m, k = sa[::-1] if ta else sa
    k2, n = sb[::-1] if tb else sb
    if k != k2 or sw != (m, n) or not m or not n or not k:
        return False
    fn(_ROW_MAJOR, oa[ta], ob[tb], m, n, k, alpha, pa, oa[2], pb, ob[2], 1.0, pw, n)
    return True


def gemm_update(var, a, ta, b, tb, lr, lr_left, ufunc, pyop):
    """``var`` updated by ``pyop(value, lr * op(a) @ op(b))``, ``pyop`` being ``add`` or
    ``sub`` (``ufunc`` its NumPy ufunc); ``op(x)`` is ``x.T`` when its flag is set.

    One BLAS call writes into the variable's array when nothing else holds it (the eager
    in-place rule of ``update_in_place``), it owns its memory, and the dtypes agree;
    otherwise NumPy computes the product (``lr`` on the left when ``lr_left``, as traced),
    then ``update_in_place`` applies it.
    """
    w = var._value
    if type(w) is np.ndarray and _getrefcount(w) <= _UNSHARED:
        f = w.flags
        fn = (f.writeable and f.owndata and f.c_contiguous and type(a) is np.ndarray
              and type(b) is np.ndarray and a.dtype == w.dtype and b.dtype == w.dtype
              and (_GEMM if _GEMM is not None else _loaded()).get(w.dtype))
        if fn and _gemm(fn, w, a, ta, b, tb, float(lr) if ufunc is _add else -float(lr)):
            return
    del w
    p = np.matmul(a.mT if ta else a, b.mT if tb else b)
    lr = p.dtype.type(lr)   # as the traced Mul promoted it, and as Keras's SGD casts it
    update_in_place(var, lr * p if lr_left else p * lr, ufunc, pyop)



class GemmUpdate(Step):
    """The fused step of compiled programs: ``var.<how>(lr * op(a) @ op(b))`` as one BLAS
    call into the variable (``lr_left``: ``lr`` multiplies from the left, as traced). Made by
    :func:`fuse_gemm_updates` at the assignment it replaces."""

    __slots__ = ("var", "how", "a", "b", "lr", "ta", "tb", "lr_left")
    kind = "gemm"
    _slot_fields = ("a", "b", "lr")

    def __init__(self, var, how, a, b, lr, ta, tb, lr_left, site):
        self.var, self.how, self.a, self.b, self.lr = var, how, a, b, lr
        self.ta, self.tb, self.lr_left, self.site = ta, tb, lr_left, site

    def op_type(self):
        return _ASSIGN_TYPES[self.how]

    def evaluate(self, env, run, k):
        if run.tracer is not None:
            for tr in run.tracer.chain():
                tr.note_write(self.var)
        gemm_update(self.var, env[self.a], self.ta, env[self.b], self.tb, env[self.lr],
                    self.lr_left, *UPDATES[self.how])

    def emit(self, lines, em, k):
        em.before_write(k, lines)
        ufunc, pyop = UPDATES[self.how]
        tag = f"{id(self):x}"
        u = em.const("U", tag, ufunc)
        p = em.const("P", tag, pyop)
        lines.append(f"{em.pad}_gemm({em.var_names[id(self.var)]}, r{self.a}, {self.ta}, "
                     f"r{self.b}, {self.tb}, r{self.lr}, {self.lr_left}, {u}, {p})")


def fuse_gemm_updates(program, min_bytes):
    """``program``'s top-level steps with each SGD step on a dense layer's weight made one
    :class:`GemmUpdate` at the assignment: ``var.assign_sub(lr * matmul(a, b))`` (or
    ``assign_add``, ``lr`` on either side), and Keras's ``SGD``
    (``var.assign(ResourceApplyGradientDescent(var, matmul(a, b), lr))``, the variable read
    with no write in between). It applies when the product and the update feed nothing
    else, ``lr`` is a scalar and the weight has at least ``min_bytes``. The product and the
    update are pure, so moving them to the assignment keeps the program's meaning; their
    inputs live until then."""
    steps = program.steps
    meta = program.meta
    uses = {}
    for step in steps:
        for s in step.uses():
            uses[s] = uses.get(s, 0) + 1
    defs = {o: k for k, step in enumerate(steps) if type(step) is Op for o in step.outs}
    reads = {step.out: k for k, step in enumerate(steps) if type(step) is Read}
    keep = set(program.outputs)

    def single(s, name, n_ins):
        k = defs.get(s)
        if k is None or uses.get(s) != 1 or s in keep or s not in meta:
            return None
        step = steps[k]
        return k if step.prim.name == name and len(step.ins) == n_ins else None

    def product(prod, lr, update):
        """The MatMul step of ``prod`` if the update of ``prod`` by ``lr`` may be fused."""
        kg = single(prod, "MatMul", 2)
        lr_shape = (np.shape(program.consts[lr]) if lr in program.consts
                    else meta[lr][0] if lr in meta
                    else np.shape(steps[reads[lr]].var._value) if lr in reads else None)
        if kg is None or prod == lr or lr_shape is None or len(lr_shape):
            return None
        attrs = steps[kg].attrs or {}
        shape, dtype = meta[prod]
        if (set(attrs) - {"transpose_a", "transpose_b"} or len(shape) != 2
                or dtype not in (np.float32, np.float64) or meta[update][1] != dtype
                or None in shape or np.prod(shape) * dtype.itemsize < min_bytes):
            return None   # (a smaller update costs less than the BLAS call through ctypes)
        return kg

    fused, moved = {}, set()
    for k, step in enumerate(steps):
        if type(step) is not Assign:
            continue
        var, how, update = step.var, step.how, step.src
        found = None
        if how in UPDATES:
            km = single(update, "Mul", 2)
            if km is not None and not steps[km].attrs:
                x, y = steps[km].ins
                for prod, lr, lr_left in ((y, x, True), (x, y, False)):
                    kg = product(prod, lr, update)
                    if kg is not None:
                        found = km, kg, how, lr, lr_left
                        break
        else:
            km = single(update, "ResourceApplyGradientDescent", 3)
            if km is not None:
                current, prod, lr = steps[km].ins
                kr = reads.get(current)
                kg = product(prod, lr, update)
                if (kg is not None and kr is not None and steps[kr].var is var
                        and not any(type(st) is Assign and st.var is var
                                    for st in steps[kr + 1:k])):
                    found = km, kg, "assign_sub", lr, False
        if found is not None:
            km, kg, how, lr, lr_left = found
            attrs = steps[kg].attrs or {}
            a, b = steps[kg].ins
            fused[k] = GemmUpdate(var, how, a, b, lr, bool(attrs.get("transpose_a")),
                                  bool(attrs.get("transpose_b")), lr_left, step.site)
            moved.update((kg, km))
    if not fused:
        return steps
    return [fused.get(k, step) for k, step in enumerate(steps) if k not in moved]
