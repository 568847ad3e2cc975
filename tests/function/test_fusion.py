"""The compiler's element-wise passes (function/passes.py: expansion of operator expressions,
scalar-constant merging, negation sinking; function/fusion.py: fused element-wise runs with
scratch buffers; codegen's np.dot for matrix-vector products).

Each program is compared bit for bit with its own traced steps evaluated one by one on NumPy
arrays (no pass, no buffer), in float32 and float64, on values that include zeros of both
signs, infinities, NaN and subnormals where the arithmetic allows them."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import ir
from tapeflow.function.fusion import Fused
from tapeflow.function.passes import optimize, optimized

DTYPES = (np.float32, np.float64)


def _concrete(f, *args):
    return f.get_concrete_function(*args)


def _unfused(concrete, *arrays):
    """The traced program's own steps, evaluated one by one on arrays."""
    program = concrete.program
    env = dict(program.consts)
    for s, a in zip(program.inputs, arrays):
        env[s] = a
    ir.execute(program.steps, env, ir.Evaluate())
    return [env[s] for s in program.outputs]


def _same(a, b):
    """Bit for bit: the same values, NaNs at the same places, the same signs of zeros (a
    NaN's sign bit is not compared: NumPy's and IEEE's arithmetic leave it unspecified,
    and nothing in TensorFlow shows it)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)
    num = ~np.isnan(a)
    np.testing.assert_array_equal(np.signbit(a[num]), np.signbit(b[num]))


def _check(f, *arrays):
    concrete = _concrete(f, *[tf.constant(a) for a in arrays])
    want = _unfused(concrete, *arrays)
    got = concrete._run(*arrays)
    got = got if type(got) is tuple else (got,)
    for w, g in zip(want, got):
        _same(w, g)
    return concrete


def _special(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(dtype)
    tiny = np.finfo(dtype).smallest_subnormal
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, np.finfo(dtype).max]
    return x


def _hvp(W, v, fn):
    @tf.function
    def hvp(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                f = tf.reduce_sum(tf.square(fn(tf.matmul(W, x))))
            g = inner.gradient(f, x)
        return outer.gradient(g, x, output_gradients=v)
    return hvp


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", [tf.tanh, tf.sigmoid])
def test_hessian_vector_product_is_bit_for_bit_the_unfused_program(dtype, fn):
    rng = np.random.default_rng(1)
    W = tf.constant((rng.standard_normal((64, 64)) / 8).astype(dtype))
    v = tf.constant(rng.standard_normal((64, 1)).astype(dtype))
    hvp = _hvp(W, v, fn)
    for scale in (1.0, 5.0, 1e-3):
        x = (rng.standard_normal((64, 1)) * scale).astype(dtype)
        concrete = _check(hvp, x)
        # and the eager nested tapes agree with the compiled call
        with tf.GradientTape() as outer:
            xt = tf.constant(x)
            outer.watch(xt)
            with tf.GradientTape() as inner:
                inner.watch(xt)
                f = tf.reduce_sum(tf.square(fn(tf.matmul(W, xt))))
            g = inner.gradient(f, xt)
        _same(outer.gradient(g, xt, output_gradients=v).numpy(), hvp(tf.constant(x)).numpy())
    steps = optimized(concrete.program).steps
    names = [s.prim.name for s in steps if type(s) is ir.Op]
    # the gradient helpers are operator steps now, and 1 - y*y (y*(1-y)) is computed once
    assert "TanhGrad" not in names and "SigmoidGrad" not in names
    keys = [(s.prim, s.ins) for s in steps if type(s) is ir.Op]
    assert len(keys) == len(set(keys))
    # the program's own steps (interpreter, graph view) are as traced
    assert any(s.prim.name in ("TanhGrad", "SigmoidGrad") for s in concrete.program.steps
               if type(s) is ir.Op)


def test_w5_is_two_products_and_nine_element_wise_steps():
    rng = np.random.default_rng(0)
    W = tf.constant((rng.standard_normal((512, 512)) / 512 ** 0.5).astype(np.float32))
    v = tf.constant(rng.standard_normal((512, 1)).astype(np.float32))
    hvp = _hvp(W, v, tf.tanh)
    x = rng.standard_normal((512, 1)).astype(np.float32)
    concrete = _check(hvp, x)
    steps = optimized(concrete.program).steps
    ops = [s.prim.name for s in steps if type(s) is ir.Op]
    assert ops.count("MatMul") == 2
    assert len(ops) - 2 == 10        # tanh and nine operators (13 before the passes)
    src = concrete.source
    assert src.count("_np_dot(") == 2          # W @ x and W.T @ u: a constant, contiguous W
    assert "_np_multiply(" in src and ", _B" in src


@pytest.mark.parametrize("dtype", DTYPES)
def test_negations_sink_exactly_through_signed_zeros_infinities_and_nan(dtype):
    @tf.function
    def f(a, b):
        p = a * -2.0                 # beside a * 2.0: -(a * 2.0)
        q = a * 2.0
        r = (p * b) + q              # (-(q) * b) + q -> q - q * b
        s = b / -2.0                 # no a / 2.0 anywhere: kept
        t = (-a) * (-b)              # a * b
        u = q - (-b)                 # q + b
        w = (-a) + (-b)              # left alone (-0 against +0)
        z = (-a) / b + b * (-a)
        return r, s, t, u, w, z

    a = _special(40, dtype, 1)
    b = _special(40, dtype, 2)[::-1].copy()
    b[:2] = -a[:2]                   # +0 beside -0 and -0 beside +0
    b[8:12] = -a[8:12]               # a = -b: a + b is +0, -(a + b) would be -0
    concrete = _check(f, a, b)
    steps = optimized(concrete.program).steps
    negs = [s for s in steps if type(s) is ir.Op and s.prim.name == "Neg"]
    assert len(negs) < sum(1 for s in concrete.program.steps
                           if type(s) is ir.Op and s.prim.name == "Neg")


@pytest.mark.parametrize("dtype", DTYPES)
def test_fused_runs_never_write_a_buffer_the_caller_sees(dtype):
    v = tf.Variable(np.ones(16, dtype))

    @tf.function
    def f(x):
        a = x * 2.0
        b = a * a + 1.0               # internal: b's buffer
        c = tf.tanh(b) * a            # returned
        v.assign(a * 3.0)             # kept by the variable
        return c, a

    x1 = _special(16, dtype, 3)
    concrete = _check(f, x1)
    run = concrete._run
    c1, a1 = run(x1)
    v1 = v.numpy().copy()
    keep = c1.copy(), a1.copy()
    c2, a2 = run(_special(16, dtype, 4))
    _same(c1, keep[0])
    _same(a1, keep[1])
    with np.errstate(over="ignore"):
        _same(v1, x1 * dtype(2.0) * dtype(3.0))
    assert c1 is not c2 and a1 is not a2
    fused = [s for s in optimized(concrete.program).steps]
    src = concrete.source
    for name in ("r%d" % s for s in concrete.program.outputs):
        assert not any(ln.strip().startswith(name + " =") and "_B" in ln
                       for ln in src.splitlines())
    assert not any(type(s) is Fused for s in fused)   # (fusion runs after optimize)


def test_values_a_tape_keeps_are_not_overwritten_by_a_later_call():
    def body(x):
        y = tf.tanh(x * 2.0) * 3.0 + 1.0
        return y * y

    f = tf.function(body)
    x = tf.constant(np.linspace(-2, 2, 32, dtype=np.float32))
    f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    f(x * 5.0)                        # a compiled call in between
    g = tape.gradient(y, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y_eager = body(x)
    _same(y.numpy(), y_eager.numpy())
    _same(g.numpy(), tape.gradient(y_eager, x).numpy())


def test_the_fused_step_and_its_scratch_buffers():
    @tf.function
    def f(x, u):
        s = 1.0 - x * x
        return (u * s) * 2.0 * s + x

    x = _special(64, np.float32, 5)
    u = _special(64, np.float32, 6)
    concrete = _check(f, x, u)
    src = concrete.source
    # the internal values are written into buffers, the result is a fresh array
    assert "_B0" in src
    last = [ln for ln in src.splitlines() if ln.strip().startswith("r")][-1]
    assert "_B" not in last
    # a Python literal operand becomes a 0-d array of the dtype it is computed in
    assert not any(isinstance(v, int) for k, v in concrete._run.__kwdefaults__.items()
                   if k.startswith("C"))


def test_fusion_and_np_dot_keep_to_shapes_that_hold_at_every_call():
    # tf.where's shape depends on values: its run is not fused (meta holds only the traced
    # shape) and the product of a non-contiguous argument keeps matmul
    @tf.function
    def f(x, m):
        picked = tf.gather(x, tf.reshape(tf.where(x > 0.0), [-1]))
        return (picked * 2.0 + 1.0) * picked, tf.matmul(m, tf.reshape(x, [-1, 1]))

    m = np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32)
    for data in ([1.0, -2.0, 3.0, 4.0], [1.0, -2.0, -3.0, -4.0]):
        x = np.array(data, np.float32)
        pos = x[x > 0]
        got, prod = f(tf.constant(x), tf.constant(m))
        _same(got.numpy(), (pos * np.float32(2) + np.float32(1)) * pos)
        _same(prod.numpy(), m @ x.reshape(-1, 1))
    src = _concrete(f, tf.constant(x), tf.constant(m)).source
    assert "_np_dot" not in src


def test_expansion_leaves_the_traced_program_unchanged():
    def body(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sigmoid(x)
        return tape.gradient(y, x) * 2.0

    f = tf.function(body)
    x = tf.constant(np.linspace(-3, 3, 16, dtype=np.float32))
    program = _concrete(f, x).program
    consts, meta, steps = dict(program.consts), dict(program.meta), list(program.steps)
    opt, _ = optimize(program)
    assert program.consts == consts and program.meta == meta and program.steps == steps
    assert "SigmoidGrad" not in [s.prim.name for s in opt if type(s) is ir.Op]
    _same(f(x).numpy(), body(x).numpy())
    xs = x.numpy().astype(np.float64)
    sg = 1 / (1 + np.exp(-xs))
    np.testing.assert_allclose(f(x).numpy(), 2 * sg * (1 - sg), rtol=1e-5)
