"""Run one differential case under a library, encode the result, compare two results.

``run_case(tf, case)`` takes the module object (``tensorflow`` or ``tapeflow``) and runs the
case through the public API only: the outputs (dtype, shape, values) or the exception class
name when the op raises; for float inputs the gradient with respect to each of them with a
seeded random upstream (``GradientTape``), the second derivative through nested tapes along a
seeded random direction, and forward mode (``tf.autodiff.ForwardAccumulator``) on every other
case. The same function runs under both libraries.

``encode``/``decode`` turn a result into JSON-able data (arrays as base64 of their bytes);
``bounds`` derives per-element error bounds from TensorFlow's float64 evaluation of the same
case; ``compare`` lists the checks that differ. Pure NumPy and the standard library.
"""
import base64
import zlib

import numpy as np

from . import cases as cases_mod

CHECKS = ("error", "dtype", "shape", "value", "grad", "grad2", "fwd")
_PROMOTE = {"float16": "float64", "float32": "float64", "bfloat16": "float64",
            "complex64": "complex128"}


def _is_float(name):
    return name.startswith(("float", "complex", "bfloat"))


def _is_tensor(o):
    return hasattr(o, "dtype") and hasattr(o, "shape") and hasattr(o, "numpy")


def _flatten(tf, out):
    if _is_tensor(out):
        return [out]
    if isinstance(out, (list, tuple)):
        flat = []
        for o in out:
            flat.extend(_flatten(tf, o))
        return flat
    if out is None:
        return [None]
    return [out]


def _build(tf, case, promote):
    """The call's arguments with every :class:`T` made a constant; the differentiated ones."""
    diff = []

    def make(a):
        if isinstance(a, cases_mod.T):
            dt = _PROMOTE.get(a.dtype, a.dtype) if promote else a.dtype
            value = a.value
            if a.dtype == "string":
                value = value.astype(str) if hasattr(value, "astype") else value
            t = tf.constant(value, dtype=getattr(tf, dt))
            if a.diff and _is_float(dt):
                diff.append(t)
            return t
        if isinstance(a, list):
            return [make(b) for b in a]
        if isinstance(a, tuple):
            return tuple(make(b) for b in a)
        if isinstance(a, dict):
            return {k: make(v) for k, v in a.items()}
        return a

    args = [make(a) for a in case.args]
    kwargs = {k: make(v) for k, v in case.kwargs.items()}
    return args, kwargs, diff


def _round_like(v, dtypes):
    if "float16" in dtypes:
        return v.astype(np.float16).astype(np.float64)
    if "float32" in dtypes or "complex64" in dtypes:
        return v.astype(np.float32).astype(np.float64)
    return v


def _draw(rng, shape, dtype_name, low):
    v = rng.standard_normal(shape)
    v = _round_like(v, low)
    if dtype_name.startswith("complex"):
        w = _round_like(rng.standard_normal(shape), low)
        v = v + 1j * w
    return v


def _shape(o):
    return tuple(int(d) for d in o.shape)


def _value(o):
    if o.dtype.name == "string":
        return None
    return np.asarray(o.numpy())


def _out_record(o):
    if _is_tensor(o):
        return {"dtype": o.dtype.name, "shape": list(_shape(o)), "value": _value(o)}
    return {"py": type(o).__name__}


def _dense(tf, g):
    if g is None:
        return None
    if not _is_tensor(g):
        g = tf.convert_to_tensor(g)
    return g


def _arr(g):
    if g is None:
        return None
    return np.asarray(g.numpy())


def _terms(tf, rng, xs, gs, low):
    """``sum real(sum(g * v))`` over the non-None gradients, ``v`` a seeded random
    direction; None when every gradient is None."""
    terms = []
    for x, g in zip(xs, gs):
        if g is None:
            continue
        v = tf.constant(_draw(rng, _shape(x), x.dtype.name, low), dtype=g.dtype)
        s = tf.reduce_sum(g * v)
        if g.dtype.is_complex:
            s = tf.math.real(s)
        terms.append(s)
    if not terms:
        return None
    total = terms[0]
    for s in terms[1:]:
        total = total + s
    return total


def run_case(tf, case, promote=False, spec=None):
    """TensorFlow's or tapeflow's answer to ``case`` as a dict (see the module docstring).

    ``promote``: make float16/float32 (complex64) tensors float64 (complex128) first: the
    float64 evaluation the tolerances come from.
    """
    spec = spec or cases_mod.SPECS[case.op]
    res = {}
    try:
        args, kwargs, xs = _build(tf, case, promote)
    except Exception as e:  # noqa: BLE001 - the class name is the answer
        return {"err": "build:" + type(e).__name__}
    low = [t.dtype for t in case.tensors()]
    rng = np.random.default_rng([zlib.crc32(case.key.encode()), 7])
    want_grad = spec.grad and bool(xs)
    fo, gs, total = [], None, None
    try:
        if want_grad:
            with tf.GradientTape() as t2:
                for x in xs:
                    t2.watch(x)
                with tf.GradientTape() as t1:
                    for x in xs:
                        t1.watch(x)
                    out = spec.call(tf, *args, **kwargs)
                outs = _flatten(tf, out)
                res["out"] = [_out_record(o) for o in outs]
                fo = [o for o in outs if _is_tensor(o) and _is_float(o.dtype.name)]
                if fo:
                    ups = [tf.constant(_draw(rng, _shape(o), o.dtype.name, low), dtype=o.dtype)
                           for o in fo]
                    try:
                        gs = t1.gradient(fo, xs, output_gradients=ups)
                        gs = [_dense(tf, g) for g in gs]
                        res["grad"] = [_arr(g) for g in gs]
                    except Exception as e:  # noqa: BLE001
                        res["grad"] = "!" + type(e).__name__
                        gs = None
                    if gs is not None:
                        try:
                            total = _terms(tf, rng, xs, gs, low)
                        except Exception as e:  # noqa: BLE001
                            res["grad2"] = "!runner:" + type(e).__name__
            if total is not None:
                try:
                    g2 = t2.gradient(total, xs)
                    res["grad2"] = [_arr(_dense(tf, g)) for g in g2]
                except Exception as e:  # noqa: BLE001
                    res["grad2"] = "!" + type(e).__name__
        else:
            out = spec.call(tf, *args, **kwargs)
            res["out"] = [_out_record(o) for o in _flatten(tf, out)]
    except Exception as e:  # noqa: BLE001
        return {"err": type(e).__name__}
    if want_grad and case.index % 2 == 0 and any(
            _is_tensor(o) and _is_float(o.dtype.name) for o in _flatten(tf, out)):
        try:
            tangents = [tf.constant(_draw(rng, _shape(x), x.dtype.name, low), dtype=x.dtype)
                        for x in xs]
            with tf.autodiff.ForwardAccumulator(primals=xs, tangents=tangents) as acc:
                out2 = spec.call(tf, *args, **kwargs)
            fo2 = [o for o in _flatten(tf, out2) if _is_tensor(o) and _is_float(o.dtype.name)]
            res["fwd"] = [_arr(_dense(tf, acc.jvp(o))) for o in fo2]
        except Exception as e:  # noqa: BLE001
            res["fwd"] = "!" + type(e).__name__
    return res


# ------------------------------------------------------------------------------ encoding


def enc_arr(a):
    if a is None:
        return None
    a = np.asarray(a)
    if a.dtype == object:
        return {"d": "object", "s": list(a.shape)}
    return {"d": a.dtype.name, "s": list(a.shape),
            "b": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()}


def dec_arr(d):
    if d is None:
        return None
    if d["d"] == "object":
        return np.empty(d["s"], object)
    return np.frombuffer(base64.b64decode(d["b"]), dtype=d["d"]).reshape(d["s"])


def encode(res):
    out = {}
    for k, v in res.items():
        if k == "out":
            out[k] = [dict(o, value=enc_arr(o["value"])) if "value" in o else o for o in v]
        elif k in ("grad", "grad2", "fwd") and isinstance(v, list):
            out[k] = [enc_arr(a) for a in v]
        else:
            out[k] = v
    return out


def decode(res):
    out = {}
    for k, v in res.items():
        if k == "out":
            out[k] = [dict(o, value=dec_arr(o["value"])) if "value" in o else o for o in v]
        elif k in ("grad", "grad2", "fwd") and isinstance(v, list):
            out[k] = [dec_arr(a) for a in v]
        else:
            out[k] = v
    return out


def _arrays(res):
    """(path, array) of every float array of a result."""
    items = []
    for j, o in enumerate(res.get("out", []) or []):
        if isinstance(o, dict) and o.get("value") is not None:
            items.append((("out", j), o["value"]))
    for k in ("grad", "grad2", "fwd"):
        v = res.get(k)
        if isinstance(v, list):
            for j, a in enumerate(v):
                if a is not None:
                    items.append(((k, j), a))
    return [(p, a) for p, a in items if a.dtype.kind in "fc"]


def bounds(res, res64):
    """Per-element ``|tf - tf64|`` (float32) for every float array of ``res``; absent where
    the float64 evaluation is missing or differs in structure."""
    ref = dict(_arrays(res64)) if res64 else {}
    out = {}
    for path, a in _arrays(res):
        b = ref.get(path)
        if b is None or b.shape != a.shape:
            continue
        with np.errstate(all="ignore"):
            e = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
        e = np.where(np.isfinite(e), e, 0.0).astype(np.float32)
        if e.size and e.max() > 0:
            out[f"{path[0]}.{path[1]}"] = enc_arr(e)
    return out


# ------------------------------------------------------------------------------ comparing

K_ROUNDING = 8.0
_RTOL = {"float16": 4e-3, "bfloat16": 3e-2, "float32": 2e-6, "float64": 1e-9,
         "complex64": 2e-6, "complex128": 1e-9}
_ATOL = {"float16": 1e-3, "bfloat16": 1e-2, "float32": 1e-6, "float64": 1e-11,
         "complex64": 1e-6, "complex128": 1e-11}


def _close(want, got, err, scale=1.0):
    """'' when ``got`` matches ``want`` (TF's) within rounding, else a short reason."""
    if want.shape != got.shape:
        return f"shape {list(got.shape)} != {list(want.shape)}"
    if want.dtype.kind not in "fc" or got.dtype.kind not in "fc":
        if want.dtype.kind in "fc" or got.dtype.kind in "fc":
            return f"dtype {got.dtype} != {want.dtype}"
        if np.array_equal(want, got):
            return ""
        bad = np.flatnonzero(np.asarray(want != got).reshape(-1))
        return f"{bad.size} differ, e.g. got {got.reshape(-1)[bad[0]]} want " \
               f"{want.reshape(-1)[bad[0]]}"
    w = want.astype(np.complex128)
    g = got.astype(np.complex128)
    for part in (np.real, np.imag):
        wn, gn = np.isnan(part(w)), np.isnan(part(g))
        if (wn != gn).any():
            j = int(np.flatnonzero((wn != gn).reshape(-1))[0])
            return f"nan at different places, e.g. got {g.reshape(-1)[j]} want {w.reshape(-1)[j]}"
        wi, gi = np.isinf(part(w)), np.isinf(part(g))
        if (wi != gi).any() or (part(w)[wi] != part(g)[gi]).any():
            j = int(np.flatnonzero((wi != gi).reshape(-1))[0]) if (wi != gi).any() else 0
            return f"inf at different places, e.g. got {g.reshape(-1)[j]} want {w.reshape(-1)[j]}"
    fin = np.isfinite(w) & np.isfinite(g)
    if not fin.any():
        return ""
    name = want.dtype.name
    mag = np.abs(w[fin])
    atol = _ATOL.get(name, 1e-6) * (1.0 + mag.max()) * scale
    tol = K_ROUNDING * (err[fin] if err is not None else 0.0) + atol + \
        _RTOL.get(name, 1e-6) * scale * mag
    d = np.abs(w[fin] - g[fin])
    if (d <= tol).all():
        return ""
    j = int(np.argmax(d - tol))
    return f"max excess at {j}: got {g[fin][j]:.6g} want {w[fin][j]:.6g}"


def compare(want, got, errs=None, scale=1.0):
    """``(checks, [(check, message)])`` of ``got`` (tapeflow's) against ``want`` (TF's)."""
    errs = errs or {}
    diffs = []
    n = 1
    we, ge = want.get("err"), got.get("err")
    if we or ge:
        if we != ge:
            diffs.append(("error", f"raised {ge or 'nothing'}, TF {we or 'nothing'}"))
        return n, diffs
    wo, go = want.get("out", []), got.get("out", [])
    if len(wo) != len(go):
        diffs.append(("shape", f"{len(go)} outputs, TF {len(wo)}"))
        return n + 1, diffs
    for j, (a, b) in enumerate(zip(wo, go)):
        n += 3
        if "py" in a or "py" in b:
            if a.get("py") != b.get("py"):
                diffs.append(("dtype", f"out {j}: {b.get('py') or b.get('dtype')}, TF "
                                       f"{a.get('py') or a.get('dtype')}"))
            continue
        if a["dtype"] != b["dtype"]:
            diffs.append(("dtype", f"out {j}: {b['dtype']}, TF {a['dtype']}"))
            continue
        if list(a["shape"]) != list(b["shape"]):
            diffs.append(("shape", f"out {j}: {list(b['shape'])}, TF {list(a['shape'])}"))
            continue
        if a["value"] is None or b["value"] is None:
            continue
        e = errs.get(f"out.{j}")
        m = _close(a["value"], b["value"], None if e is None else e, scale)
        if m:
            diffs.append(("value", f"out {j}: {m}"))
    for k in ("grad", "grad2", "fwd"):
        if k not in want and k not in got:
            continue
        n += 1
        wv, gv = want.get(k), got.get(k)
        if isinstance(wv, str) or isinstance(gv, str) or wv is None or gv is None:
            if wv != gv if (isinstance(wv, str) or isinstance(gv, str)) else \
                    (wv is None) != (gv is None):
                diffs.append((k, f"{_brief(gv)}, TF {_brief(wv)}"))
            continue
        if len(wv) != len(gv):
            diffs.append((k, f"{len(gv)} arrays, TF {len(wv)}"))
            continue
        n += max(len(wv) - 1, 0)
        for j, (a, b) in enumerate(zip(wv, gv)):
            if (a is None) != (b is None):
                diffs.append((k, f"{j}: {'None' if b is None else 'a value'}, TF "
                                 f"{'None' if a is None else 'a value'}"))
                continue
            if a is None:
                continue
            if a.dtype != b.dtype:
                diffs.append((k, f"{j}: dtype {b.dtype}, TF {a.dtype}"))
                continue
            e = errs.get(f"{k}.{j}")
            m = _close(a, b, e, scale)
            if m:
                diffs.append((k, f"{j}: {m}"))
    return n, diffs


def _brief(v):
    if v is None:
        return "nothing"
    if isinstance(v, str):
        return "raised " + v[1:]
    return f"{len(v)} arrays"
