"""The typed program IR (function/ir.py) and the passes over it (function/passes.py)."""
import numpy as np

import tapeflow as tf
from tapeflow.function import ir
from tapeflow.function.passes import eliminate_common, eliminate_dead, optimize


def _program(f, *args):
    return f.get_concrete_function(*args).program


def _source(f, *args):
    return f.get_concrete_function(*args).source


def test_every_step_is_a_typed_step_with_slots():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(x)
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        return tf.while_loop(lambda i: i < 10.0, lambda i: (i + y,), (y,))[0] + v * 0.0

    program = _program(f, tf.constant(1.0))
    steps = list(ir.walk(program.steps))
    assert all(isinstance(s, ir.Step) and not hasattr(s, "__dict__") for s in steps)
    kinds = {type(s) for s in steps}
    assert {ir.Op, ir.Read, ir.Assign, ir.Switch, ir.While} <= kinds
    loop = next(s for s in steps if type(s) is ir.While)
    assert loop.op_type() == "StatelessWhile" and len(loop.cond.outs) == 1
    assert set(loop.reads()) <= set(loop.uses())
    assert float(f(tf.constant(1.0))) == 10.0


def test_a_dataset_loop_is_a_loop_step_over_a_registered_source():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(4.0, dtype=np.float32))

    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        for x in ds:
            s += x
        return s

    assert float(total(ds)) == 6.0
    program = total.get_concrete_function(ds).program
    loop = next(s for s in program.steps if type(s) is ir.Loop)
    assert isinstance(loop.source, ir.LoopSource) and not loop.source.stateful
    assert ir.loop_source_maker(ds) is not None and ir.loop_source_maker([1, 2]) is None


def test_dead_code_elimination_drops_unread_pure_ops_only():
    W = tf.constant(np.eye(4, dtype=np.float32))

    @tf.function
    def hvp(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                f = tf.reduce_sum(tf.tanh(tf.matmul(W, x)) ** 2)
            g = inner.gradient(f, x)
        return outer.gradient(g, x)

    x = tf.constant(np.linspace(-1, 1, 4, dtype=np.float32).reshape(4, 1))
    program = _program(hvp, x)
    steps, outputs = optimize(program)
    names = [s.prim.name for s in steps if type(s) is ir.Op]
    assert "Sum" not in names            # the inner loss: nothing reads it
    assert len(steps) < len(program.steps)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = tf.reduce_sum(tf.tanh(tf.matmul(W, x)) ** 2)
        g = inner.gradient(f, x)
    np.testing.assert_allclose(hvp(x).numpy(), outer.gradient(g, x).numpy(), rtol=1e-6)


def test_dead_code_elimination_keeps_effects():
    v = tf.Variable(0.0)
    it = iter(tf.data.Dataset.range(100))

    @tf.function
    def f(x):
        v.assign_add(x)                       # a write
        tf.print("side")                      # a Python call
        tf.random.uniform([2])                # a draw nothing reads
        next(it)                              # an iterator pull nothing reads
        x * 3.0                               # dead and pure
        return x + 1.0

    program = _program(f, tf.constant(1.0))
    steps, _ = optimize(program)
    kinds = [type(s) for s in steps]
    assert ir.Assign in kinds and ir.Call in kinds and ir.Loop in kinds
    assert any(type(s) is ir.Op and "Random" in s.prim.name for s in steps)
    assert not any(type(s) is ir.Op and s.prim.name == "Mul" for s in steps)
    f(tf.constant(2.0))
    f(tf.constant(2.0))
    assert int(next(it)) == 2                 # each call pulled one element
    assert float(v.numpy()) == 4.0


def test_dead_code_elimination_keeps_guards_and_branches():
    @tf.function(autograph=False)
    def f(x):
        if float(x) > 0:                      # a guard (Python reads a tensor value)
            pass
        tf.cond(x > 0, lambda: x * 2.0, lambda: x)   # a branch nothing reads
        return x

    program = _program(f, tf.constant(1.0))
    steps = eliminate_dead(program.steps, program.outputs)
    assert any(type(s) is ir.Guard for s in steps)
    assert any(type(s) is ir.Switch for s in steps)


def test_common_subexpressions_are_computed_once():
    @tf.function
    def f(x):
        a = tf.exp(x) * 2.0
        b = tf.exp(x) * 2.0
        return a + b

    program = _program(f, tf.constant([1.0, 2.0]))
    steps, _ = optimize(program)
    assert [s.prim.name for s in steps if type(s) is ir.Op].count("Exp") == 1
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(),
                               4 * np.exp([1.0, 2.0]).astype(np.float32), rtol=1e-6)


def test_common_subexpressions_never_merge_random_draws_or_reads_across_an_assign():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        a = tf.random.uniform([3], seed=None)
        b = tf.random.uniform([3], seed=None)
        r1 = v * 2.0
        v.assign_add(1.0)
        r2 = v * 2.0
        return a, b, r1, r2

    program = _program(f)
    m = {}
    steps = eliminate_common(program.steps, [], m)
    assert sum(1 for s in steps if type(s) is ir.Op and "Random" in s.prim.name) == 2
    assert sum(1 for s in steps if type(s) is ir.Op and s.prim.name == "Mul") == 2
    a, b, r1, r2 = f()
    assert not np.array_equal(a.numpy(), b.numpy())
    assert float(r2) == float(r1) + 2.0


def test_a_product_by_ones_reads_its_factor():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.tanh(x)
        return tape.gradient(y, x) * 3.0      # the seed is OnesLike: g * 1

    x = tf.constant(np.linspace(-1, 1, 8, dtype=np.float32))
    program = _program(f, x)
    ones = {s for s, v in program.consts.items() if np.ndim(v) and np.all(v == 1)}
    assert ones                               # the seed, folded to a constant
    steps, _ = optimize(program)
    assert not any(ones & set(s.reads()) for s in steps)
    np.testing.assert_allclose(f(x).numpy(), 3 * (1 - np.tanh(x.numpy()) ** 2), rtol=1e-6)
