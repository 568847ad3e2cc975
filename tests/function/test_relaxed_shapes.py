"""tf.function traced with relaxed shapes (input_signature with None dims, reduce_retracing)
serves every batch size with one program: no Python re-run (tapeflow's own checks; the TF
behaviours are the *_any_batch cases of function/cases.py). Also the shape-reading
primitives this needs (SumGrad, MeanGrad, ReshapeLike, ExpandDims, Squeeze, Shape...) and
their derivatives against float64 central differences."""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow._core.dispatch import apply
from tapeflow.ops import array_ops as _a
from tapeflow.ops import reduction_ops as _r

# Under TAPEFLOW_VALIDATE_FUNCTIONS=1 every replay also runs the Python body eagerly: the
# checks of how often the body ran are left out there (as conftest.py leaves out
# test_function.py); the values are still compared with the eager run.
VALIDATING = os.environ.get("TAPEFLOW_VALIDATE_FUNCTIONS", "") not in ("", "0", "false")
semantics = pytest.mark.skipif(VALIDATING, reason="tracing semantics differ from eager")

SIG = [tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None], tf.int32)]


def _batch(n, seed=0):
    rng = np.random.default_rng(seed + n)
    return (rng.normal(size=(n, 3)).astype(np.float32),
            rng.integers(0, 2, n).astype(np.int32))


def _train_step(**options):
    w = tf.Variable(np.array([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2]], np.float32))
    b = tf.Variable(np.array([0.1, -0.1], np.float32))
    runs = []

    def step(x, y):
        runs.append(1)
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=logits))
            loss += 0.01 * tf.reduce_mean(tf.reduce_sum(tf.square(logits), axis=1))
            loss += tf.reduce_mean(tf.reduce_max(logits, axis=1)) * 0.1
        gw, gb = tape.gradient(loss, [w, b])
        return loss, gw, gb

    return tf.function(step, **options), step, runs


def _generic(fn):
    c = fn._traces[-1]
    return c.shape_generic, c.program.n_guards, fn.experimental_trace_report()


@semantics
@pytest.mark.parametrize("options", [{"input_signature": SIG}, {"reduce_retracing": True}],
                         ids=["input_signature", "reduce_retracing"])
def test_train_step_serves_every_batch_size_without_python(options):
    f, eager, runs = _train_step(**options)
    for n in (4, 7, 1, 4, 9, 2):
        x, y = _batch(n)
        ours = f(x, y)
        before = len(runs)
        ref = eager(tf.constant(x), tf.constant(y))
        del runs[before:]
        for a, r in zip(ours, ref):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-6, atol=1e-7)
    generic, n_guards, report = _generic(f)
    assert generic and n_guards == 0
    assert "variant" not in report.split("\n", 1)[1], report
    assert "0 extra variant(s)" in report
    assert len(runs) == (1 if "input_signature" in options else 2)


def test_keras_conv_pool_dropout_batchnorm_step_is_shape_generic():
    tf.keras.utils.set_random_seed(1)
    L = tf.keras.layers
    model = tf.keras.Sequential([
        L.Input((6, 6, 1)), L.Conv2D(3, 3, padding="same", activation="relu"),
        L.MaxPooling2D(), L.Conv2D(2, 2, activation="relu"), L.AveragePooling2D(1),
        L.Flatten(), L.Dense(5, activation="relu"), L.BatchNormalization(), L.Dropout(0.3),
        L.Dense(3)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.SGD(0.1)
    acc = tf.keras.metrics.SparseCategoricalAccuracy()

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 1]), tf.TensorSpec([None],
                                                                                tf.int32)])
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        acc.update_state(y, model(x, training=False))
        return loss, grads[0]

    rng = np.random.default_rng(3)
    for n in (7, 4, 9):   # (no size of the model equals the traced 7)
        loss, g0 = step(rng.normal(size=(n, 6, 6, 1)).astype(np.float32),
                        rng.integers(0, 3, n).astype(np.int32))
        assert np.isfinite(loss.numpy()) and g0.shape == (3, 3, 1, 3)
    generic, n_guards, report = _generic(step)
    assert generic and n_guards == 0, report
    assert "0 extra variant(s)" in report
    assert acc.count.numpy() == 20.0   # 7 + 4 + 9 examples counted, each call's own size


def test_keras_model_step_matches_eager_for_new_batch_sizes():
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(2)
    model = tf.keras.Sequential([L.Input((4, 4, 2)), L.Conv2D(2, 3, padding="same"),
                                 L.MaxPooling2D(), L.AveragePooling2D(1), L.Flatten(),
                                 L.Dense(3)])
    loss_fn = tf.keras.losses.CategoricalCrossentropy(from_logits=True)

    def grads(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(tf.one_hot(y, 3), model(x))
        return [loss] + tape.gradient(loss, model.trainable_variables)

    f = tf.function(grads, input_signature=[tf.TensorSpec([None, 4, 4, 2]),
                                            tf.TensorSpec([None], tf.int32)])
    rng = np.random.default_rng(0)
    for n in (5, 7, 2):
        x = rng.normal(size=(n, 4, 4, 2)).astype(np.float32)
        y = rng.integers(0, 3, n).astype(np.int32)
        for a, r in zip(f(x, y), grads(tf.constant(x), tf.constant(y))):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
    assert _generic(f)[:2] == (True, 0)


@semantics
def test_literal_batch_size_is_not_generic_and_respecializes():
    runs = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        runs.append(1)
        return tf.reduce_sum(tf.reshape(x, [4, -1]), axis=1)

    np.testing.assert_allclose(f(np.ones((4, 3), np.float32)).numpy(), [3.0] * 4)
    np.testing.assert_allclose(f(np.ones((8, 3), np.float32)).numpy(), [6.0] * 4)
    assert not f._traces[0].shape_generic
    report = f.experimental_trace_report()
    assert len(runs) == 2 and "variant:" in report
    assert "(Reshape at test_relaxed_shapes.py:" in report   # says which step bakes it


def test_trace_at_batch_size_one_is_not_taken_as_generic():
    # 1 is everywhere in a program (axes, keepdims shapes): a trace at size 1 cannot be
    # checked, so a new size runs the body again (as a new variant) and stays right; that
    # variant's program, generic, then serves every other size.
    f, eager, runs = _train_step(input_signature=SIG)
    for n in (1, 5, 3, 8, 1):
        x, y = _batch(n)
        ours = f(x, y)
        before = len(runs)
        for a, r in zip(ours, eager(tf.constant(x), tf.constant(y))):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-6, atol=1e-7)
        del runs[before:]
    assert not f._traces[0].shape_generic and f._traces[0].generic is not None
    report = f.experimental_trace_report()
    assert "1 extra variant(s)" in report and "traced at size 1" in report
    if not VALIDATING:
        assert len(runs) == 2   # the trace at 1 and the variant at 5


def test_fixed_shape_program_folds_the_mean_gradient_relaxed_does_not():
    w = tf.Variable(np.ones((3, 2), np.float32))

    def g(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.matmul(x, w))
        return tape.gradient(loss, w)

    fixed = tf.function(g)
    relaxed = tf.function(g, input_signature=[tf.TensorSpec([None, 3])])
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    for f in (fixed, relaxed):
        np.testing.assert_allclose(f(x).numpy(), g(tf.constant(x)).numpy(), rtol=1e-6)
    fixed_ops = fixed._traces[0].program.op_types()
    relaxed_ops = relaxed._traces[0].program.op_types()
    assert "MeanGrad" not in fixed_ops and fixed._traces[0].program.n_folded >= 1
    assert "MeanGrad" in relaxed_ops
    x7 = np.arange(21, dtype=np.float32).reshape(7, 3)
    np.testing.assert_allclose(relaxed(x7).numpy(), g(tf.constant(x7)).numpy(), rtol=1e-6)


def test_value_dependent_shapes_are_not_folded():
    # tf.where(c) has a shape that depends on values: a fixed-shape program must still
    # compute the mean's count (and tf.shape) at each call.
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            picked = tf.gather(x, tf.reshape(tf.where(x > 0.0), [-1]))
            loss = tf.reduce_mean(picked * picked)
        return loss, tape.gradient(loss, x), tf.shape(picked)

    for data in ([1.0, -2.0, 3.0, 4.0], [-1.0, -2.0, 3.0, -4.0], [1.0, 2.0, 3.0, 4.0]):
        x = np.array(data, np.float32)
        pos = x[x > 0]
        loss, grad, shape = f(tf.constant(x))
        np.testing.assert_allclose(loss.numpy(), np.mean(pos * pos), rtol=1e-6)
        np.testing.assert_allclose(tf.convert_to_tensor(grad).numpy(),
                                   np.where(x > 0, 2 * x / len(pos), 0), rtol=1e-6)
        assert shape.numpy().tolist() == [len(pos)]


def test_shape_size_zeros_and_random_follow_each_call():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def f(x):
        n = tf.shape(x)[0]
        u = tf.random.uniform(tf.shape(x))
        z = tf.zeros([n, 3]) + tf.ones(tf.shape(x)[:1])[:, None]
        return n, tf.size(x), tf.shape(u), tf.reduce_sum(z), tf.shape(tf.zeros_like(x))

    for n in (5, 6, 2):
        got = [t.numpy() for t in f(np.ones((n, 2), np.float32))]
        assert got[0] == n and got[1] == 2 * n and got[2].tolist() == [n, 2]
        assert got[3] == 3 * n and got[4].tolist() == [n, 2]
    assert _generic(f)[:2] == (True, 0)


@semantics
def test_shape_keeps_static_dims_as_traced():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        seen.append((x.shape.as_list(), tf.shape(x).shape.as_list()))
        return tf.shape(x)

    assert f(np.ones((5, 3), np.float32)).numpy().tolist() == [5, 3]
    assert f(np.ones((2, 3), np.float32)).numpy().tolist() == [2, 3]
    assert seen == [([None, 3], [2])]


# ------------------------------------------------------------------ the new primitives
X = np.random.default_rng(7).normal(size=(3, 4, 2))


@pytest.mark.parametrize("prim,axis,keepdims", [
    (_r._SUM_GRAD, (1,), False), (_r._SUM_GRAD, (0, 2), True), (_r._SUM_GRAD, (0,), False),
    (_r._MEAN_GRAD, (1,), False), (_r._MEAN_GRAD, (0, 1, 2), False),
    (_r._MEAN_GRAD, (2,), True)])
def test_spread_primitives_derivatives(prim, axis, keepdims):
    x = tf.constant(X)
    g0 = np.add.reduce(X, axis=axis, keepdims=keepdims) * 0.3 + 0.1
    attrs = {"axis": axis, "keepdims": keepdims}

    def f(g):
        return tf.sin(apply(prim, (g, x), attrs)) * tf.constant(X)

    tf.test.check_gradients(f, [g0], order=2)
    # the forward value: TensorFlow's broadcast of expand_dims(g) (divided by the count)
    n = np.prod([X.shape[a] for a in axis]) if prim is _r._MEAN_GRAD else 1
    expect = np.broadcast_to(g0 if keepdims else np.expand_dims(g0, axis), X.shape) / n
    np.testing.assert_array_equal(apply(prim, (tf.constant(g0), x), attrs).numpy(), expect)
    theoretical, numerical = tf.test.compute_gradient(f, [g0])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-4, atol=1e-6)
    with tf.GradientTape() as tape:
        g = tf.constant(g0)
        tape.watch(g)
        y = f(g)
    jac = tape.jacobian(y, g).numpy().reshape(y.shape.num_elements(), -1)
    np.testing.assert_allclose(jac, numerical[0], rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_mean", "reduce_max", "reduce_prod"])
def test_reduction_gradients_to_second_order(name):
    fn = getattr(tf, name) if name != "reduce_prod" else tf.math.reduce_prod
    x = np.random.default_rng(1).normal(size=(3, 4)) + 2.0
    for axis, keepdims in ((1, False), (0, True), (None, False)):
        tf.test.check_gradients(
            lambda t, a=axis, k=keepdims: fn(tf.sin(t) * t, axis=a, keepdims=k), [x], order=2)


def test_reshape_expand_squeeze_derivatives():
    x = np.random.default_rng(2).normal(size=(2, 3))
    tf.test.check_gradients(lambda t: tf.sin(tf.reshape(t * t, [3, 2])) * 2.0, [x], order=2)
    tf.test.check_gradients(lambda t: tf.sin(tf.expand_dims(t * t, 1)), [x], order=2)
    tf.test.check_gradients(lambda t: tf.sin(tf.squeeze(tf.reshape(t * t, [2, 1, 3, 1]))),
                            [x], order=2)
    g0 = x[:, :, None] * 0.5

    def like(g):
        return tf.sin(_a.reshape_like(g, tf.constant(x))) * tf.constant(x)

    tf.test.check_gradients(like, [g0], order=2)
    with tf.GradientTape() as tape:
        g = tf.constant(g0)
        tape.watch(g)
        y = like(g)
    theoretical, numerical = tf.test.compute_gradient(like, [g0])
    np.testing.assert_allclose(tape.jacobian(y, g).numpy().reshape(6, 6), numerical[0],
                               rtol=1e-4, atol=1e-6)


def test_traced_dynamic_reshape_and_broadcast_derivatives():
    # inside a trace a shape from tf.shape is an input of Reshape / BroadcastTo
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    def grads(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                col = tf.reshape(x * x, [tf.shape(x)[0], 3, 1])
                wide = tf.broadcast_to(col, tf.concat([tf.shape(col)[:2], [2]], 0))
                y = tf.reduce_sum(tf.sin(wide))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, x)

    for n in (4, 6):   # (traced at 4: no literal of the body equals it)
        x = np.random.default_rng(n).normal(size=(n, 3))
        g, h = grads(x)
        np.testing.assert_allclose(g.numpy(), 2 * np.cos(x * x) * 2 * x, rtol=1e-12)
        # d/dx sum((4 x cos(x^2))^2) = 2 (4 x cos x^2) (4 cos x^2 - 8 x^2 sin x^2)
        gi = 4 * x * np.cos(x * x)
        np.testing.assert_allclose(h.numpy(), 2 * gi * (4 * np.cos(x * x) -
                                                        8 * x * x * np.sin(x * x)),
                                   rtol=1e-10)
    assert _generic(grads)[:2] == (True, 0)


def test_forward_mode_through_traced_shape_ops():
    x = tf.constant(np.random.default_rng(3).normal(size=(4, 3)))
    v = tf.constant(np.random.default_rng(4).normal(size=(4, 3)))
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_mean(tf.expand_dims(tf.reduce_sum(x * x, axis=1), 1) * 3.0, axis=0)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [np.mean(np.sum(2 * x.numpy() * v.numpy(),
                                                                   axis=1)) * 3.0],
                               rtol=1e-12)


def test_conv_and_pool_gradients_second_order():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 5, 5, 1))
    w = rng.normal(size=(3, 3, 1, 2))

    def f(t, k):
        y = tf.nn.conv2d(t, k, 1, "SAME")
        return tf.nn.avg_pool2d(tf.nn.max_pool2d(tf.sin(y), 2, 1, "VALID"), 2, 2, "SAME")

    tf.test.check_gradients(f, [x, w], order=2, modes=("rev",))


def test_probe_catches_a_baked_product_of_sizes():
    # A size read from the traced value (as tapeflow's own ops read them; y.shape is
    # (None, 3) as in TensorFlow, test_static_shapes.py): y's traced rows * 3 is 12 at
    # batch 4, no value of the relaxed size, yet baked. The probe run at batch 5 refuses
    # it, so the body runs again for each new size (still right).
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        y = x * 2.0
        return tf.reshape(y, [y._value.shape[0] * 3])

    for n in (4, 5, 2):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        np.testing.assert_allclose(f(x).numpy(), 2 * x.reshape(-1))
    assert not f._traces[0].shape_generic
    assert "refuses other sizes" in f.experimental_trace_report()


@semantics
def test_probe_has_no_effects():
    counter = tf.Variable(0.0)
    tf.random.set_seed(5)

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(x):
        counter.assign_add(tf.reduce_sum(x))
        tf.print("sum", tf.reduce_sum(x))
        return tf.random.uniform(tf.shape(x)) + x

    out = f(np.ones(3, np.float32)).numpy()
    assert counter.numpy() == 3.0 and f._traces[0].shape_generic
    tf.random.set_seed(5)
    again = tf.function(lambda x: tf.random.uniform(tf.shape(x)) + x)(
        tf.ones(3)).numpy()
    np.testing.assert_array_equal(out, again)   # the probe drew nothing


def test_vector_target_pad_logsumexp_and_prod_gradients_follow_each_call():
    w = tf.Variable(np.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], np.float32))

    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.matmul(x, w)
            per = tf.math.reduce_logsumexp(h, axis=1) + tf.reduce_sum(
                tf.pad(h, [[0, 0], [1, 2]]) ** 2, axis=1)
        return tape.gradient(per, [w, x])   # a vector target: seeded with ones

    f = tf.function(g, input_signature=[tf.TensorSpec([None, 3])])
    for n in (4, 6, 3):
        x = np.random.default_rng(n).normal(size=(n, 3)).astype(np.float32)
        for a, r in zip(f(x), g(tf.constant(x))):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
    assert _generic(f)[:2] == (True, 0)

    def p(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.reduce_prod(x, axis=1)
        return tape.gradient(y, x)

    fp = tf.function(p, input_signature=[tf.TensorSpec([None, 3])])
    for data in ([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]], [[0.0, 2.0, 3.0], [1.0, 0.0, 2.0]],
                 [[1.0, 2.0, 3.0]], [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [2.0, 3.0, 0.0]]):
        x = np.array(data, np.float32)
        np.testing.assert_allclose(fp(x).numpy(), p(tf.constant(x)).numpy(), rtol=1e-6)


def test_get_concrete_function_trace_with_2x2_pooling_is_generic():
    # get_concrete_function traces None dims at size 2; a 2x2 window or axis 2 is no size
    w = tf.Variable(np.full((3, 3, 1, 2), 0.1, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 1])])
    def f(x):
        with tf.GradientTape() as tape:
            y = tf.nn.max_pool2d(tf.nn.conv2d(x, w, 1, "SAME"), 2, 2, "VALID")
            loss = tf.reduce_mean(tf.reduce_sum(y, axis=[1, 2]))
        return loss, tape.gradient(loss, w)

    assert f.get_concrete_function().shape_generic
    for n in (3, 5):
        x = np.random.default_rng(n).normal(size=(n, 6, 6, 1)).astype(np.float32)
        for a, r in zip(f(x), f.python_function(tf.constant(x))):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
    assert "0 extra variant(s)" in f.experimental_trace_report()


def test_in_top_k_is_computed_at_each_call():
    # it was computed outside the op layer: a traced program held the traced answer
    m = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None], tf.int32)])
    def f(p, y):
        return tf.math.in_top_k(y, p, 2), m(y, p)

    p = np.array([[0.1, 0.5, 0.4], [0.9, 0.05, 0.05], [0.2, 0.3, 0.5]], np.float32)
    hits, _ = f(p, np.array([0, 0, 1], np.int32))
    assert hits.numpy().tolist() == [False, True, True]
    p2 = np.array([[0.1, 0.5, 0.4], [0.9, 0.08, 0.02]], np.float32)
    hits, acc = f(p2, np.array([1, 2], np.int32))
    assert hits.numpy().tolist() == [True, False]
    np.testing.assert_allclose(acc.numpy(), 2 / 5)   # top-1 hits: 1 of 3, then 1 of 2
    assert _generic(f)[:2] == (True, 0)


def test_concat_of_two_batches_is_generic():
    # two views of a batch concatenated on the batch axis (as contrastive losses do): the
    # gradient's slice offsets come from the inputs' shapes at each call (ConcatSlice)
    w = tf.Variable(np.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], np.float32))

    def g(a, b):
        with tf.GradientTape() as tape:
            z = tf.matmul(tf.concat([a, b * 2.0], axis=0), w)
            loss = tf.reduce_sum(tf.concat([z, tf.square(z)], axis=1))
        return tape.gradient(loss, w)

    f = tf.function(g, input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None, 3])])
    for n, m in ((4, 5), (6, 3), (3, 7)):
        a = np.random.default_rng(n).normal(size=(n, 3)).astype(np.float32)
        b = np.random.default_rng(m).normal(size=(m, 3)).astype(np.float32)
        np.testing.assert_allclose(f(a, b).numpy(), g(tf.constant(a), tf.constant(b)).numpy(),
                                   rtol=1e-5)
    assert _generic(f)[:2] == (True, 0)


def test_concat_gradients_to_second_order():
    x = np.random.default_rng(8).normal(size=(2, 3))
    y = np.random.default_rng(9).normal(size=(4, 3))
    tf.test.check_gradients(lambda a, b: tf.sin(tf.concat([a * a, b, a], axis=0)), [x, y],
                            order=2)
    tf.test.check_gradients(lambda a, b: tf.sin(tf.concat([a, b[:2] * a], axis=1)), [x, y],
                            order=2)
    with tf.GradientTape() as tape:
        a = tf.constant(x)
        tape.watch(a)
        out = tf.concat([tf.sin(a), tf.constant(y)], axis=0)
    theoretical, numerical = tf.test.compute_gradient(
        lambda t: tf.concat([tf.sin(t), tf.constant(y)], axis=0), [x])
    np.testing.assert_allclose(tape.jacobian(out, a).numpy().reshape(18, 6), numerical[0],
                               rtol=1e-4, atol=1e-6)


def test_dense_gather_gradient_reads_params_shape_at_run_time():
    x = np.random.default_rng(1).normal(size=(5, 3))
    idx = tf.constant([4, 0, 0, 2])
    tf.test.check_gradients(lambda p: tf.sin(tf.gather(p * p, idx)), [x], order=2)
    tf.test.check_gradients(lambda p: tf.sin(tf.gather(p * p, [2, 1], axis=1)), [x], order=2)
    w = tf.Variable(np.ones((3, 4), np.float32))

    def g(a, y):
        with tf.GradientTape() as tape:
            logits = tf.matmul(a, w)
            loss = tf.reduce_sum(tf.gather(logits, y)) + tf.reduce_sum(
                tf.gather(logits, [1, 3], axis=1))
        return tape.gradient(loss, w)

    f = tf.function(g, input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None],
                                                                               tf.int32)])
    for n in (4, 6):
        a = np.random.default_rng(n).normal(size=(n, 3)).astype(np.float32)
        y = (np.arange(n) % 3).astype(np.int32)
        np.testing.assert_allclose(f(a, y).numpy(), g(tf.constant(a), tf.constant(y)).numpy(),
                                   rtol=1e-5)
    assert _generic(f)[:2] == (True, 0)


def test_gather_with_batch_dims_picks_each_rows_label_at_any_batch_size():
    # the log-probability of each row's action (policy-gradient losses)
    w = tf.Variable(np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32))

    def g(x, a):
        with tf.GradientTape() as tape:
            logp = tf.nn.log_softmax(tf.matmul(x, w))
            picked = tf.gather(logp, a, axis=1, batch_dims=1)
            loss = -tf.reduce_mean(picked)
        return picked, tape.gradient(loss, w)

    f = tf.function(g, input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None],
                                                                               tf.int32)])
    for n in (5, 7, 2):
        x = np.random.default_rng(n).normal(size=(n, 3)).astype(np.float32)
        a = (np.arange(n) * 3 % 4).astype(np.int32)
        for ours, ref in zip(f(x, a), g(tf.constant(x), tf.constant(a))):
            np.testing.assert_allclose(ours.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
    assert _generic(f)[:2] == (True, 0)
    p = np.random.default_rng(3).normal(size=(3, 2, 5))
    i = np.array([[4, 0], [1, 1], [3, 2]], np.int32)
    fg = tf.function(lambda t: tf.gather(t, i, axis=2, batch_dims=1))
    np.testing.assert_array_equal(fg(tf.constant(p)).numpy(),
                                  np.stack([p[k][:, i[k]] for k in range(3)]))


@pytest.mark.parametrize("make,shape", [
    (lambda L: [L.Reshape((6, 2)), L.Flatten()], (12,)),
    (lambda L: [L.TimeDistributed(L.Dense(3)), L.Flatten()], (5, 2)),
    (lambda L: [L.Conv1D(3, 2), L.SpatialDropout1D(0.3), L.Flatten()], (8, 2)),
    (lambda L: [L.Dense(4), L.Dense(2), L.Flatten()], (5, 3)),   # Dense on rank 3
    (lambda L: [L.LSTM(3)], (4, 2)),
], ids=["reshape", "time_distributed", "spatial_dropout", "dense_rank3", "lstm"])
def test_keras_layers_on_a_relaxed_argument(make, shape):
    # first layers see the argument itself, whose batch size reads None in a relaxed trace
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(4)
    model = tf.keras.Sequential([L.Input(shape)] + make(L) + [L.Dense(2)])

    def g(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=False)))
        return [loss] + tape.gradient(loss, model.trainable_variables)

    f = tf.function(g, input_signature=[tf.TensorSpec((None,) + shape)])
    for n in (7, 9, 3):
        x = np.random.default_rng(n).normal(size=(n,) + shape).astype(np.float32)
        for a, r in zip(f(x), g(tf.constant(x))):
            np.testing.assert_allclose(a.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
    assert _generic(f)[:2] == (True, 0)
    train = tf.function(lambda x: model(x, training=True),
                        input_signature=[tf.TensorSpec((None,) + shape)])
    for n in (7, 5):
        assert train(np.ones((n,) + shape, np.float32)).shape == (n, 2)
    assert _generic(train)[:2] == (True, 0)


def test_forward_mode_through_traced_dynamic_reshape_and_broadcast():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64),
                                  tf.TensorSpec([None, 3], tf.float64)])
    def f(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reshape(x * x, [tf.shape(x)[0], 3, 1])
            z = tf.broadcast_to(y, tf.concat([tf.shape(y)[:2], [2]], 0))
            w = tf.reduce_sum(tf.sin(z), axis=2)
        return acc.jvp(w)

    for n in (4, 6):   # (traced at 4: no literal of the body equals it)
        x = np.random.default_rng(n).normal(size=(n, 3))
        v = np.random.default_rng(n + 1).normal(size=(n, 3))
        np.testing.assert_allclose(f(x, v).numpy(), 2 * np.cos(x * x) * 2 * x * v,
                                   rtol=1e-12)
    assert _generic(f)[:2] == (True, 0)


def test_unstack_along_a_relaxed_dim():
    # TensorFlow cannot count the pieces of an unknown dimension: a ValueError while
    # tracing; with ``num`` given the count is num and another size fails when it runs
    f = tf.function(tf.unstack, input_signature=[tf.TensorSpec([None, 4], tf.float64)])
    with pytest.raises(ValueError, match=r"Cannot infer argument `num` from shape \(None, 4\)"):
        f(np.ones((3, 4)))
    g = tf.function(lambda x: tf.unstack(x, num=3),
                    input_signature=[tf.TensorSpec([None, 4], tf.float64)])
    x = np.arange(12.0).reshape(3, 4)
    for a, r in zip(g(x), x):
        np.testing.assert_array_equal(a.numpy(), r)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input shape axis 0 must equal 3"):
        g(np.ones((5, 4)))


@pytest.mark.parametrize("fn", [
    lambda x: [row * 2.0 for row in x],
    lambda x: tf.repeat(x, 2, axis=0),
    lambda x: tf.split(x, 1, axis=0),
    lambda x: x[:3] * 1.0,
    lambda x: tf.image.central_crop(tf.reshape(x, [-1, 2, 2, 1]) * 1.0, 0.5),
], ids=["iterate", "repeat", "split", "slice_literal", "central_crop"])
def test_python_counts_of_a_relaxed_dim_stay_right(fn):
    # how many pieces, which indices: made in Python from a relaxed size. Each is a guard
    # (or a size the check sees), so a new size runs the body again: never a stale count.
    f = tf.function(fn, input_signature=[tf.TensorSpec([None, 4], tf.float64)])
    for n in (3, 5, 3, 6):
        x = np.arange(n * 4, dtype=np.float64).reshape(n, 4)
        ours, ref = tf.nest.flatten(f(x)), tf.nest.flatten(fn(tf.constant(x)))
        assert len(ours) == len(ref)
        for a, r in zip(ours, ref):
            np.testing.assert_array_equal(a.numpy(), r.numpy())


def test_gather_nd_indices_are_read_at_each_call():
    # the flat index was computed from the index tensor's traced value and baked
    @tf.function
    def f(x, i):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.gather_nd(x, i)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x)

    x = np.random.default_rng(0).normal(size=(3, 4, 2))
    for idx in ([[0, 1], [2, 3]], [[1, 1], [1, 1]], [[2, 0], [0, 3]]):
        y, g = f(tf.constant(x), tf.constant(idx))
        rows = np.array([x[a, b] for a, b in idx])
        np.testing.assert_array_equal(y.numpy(), rows)
        expect = np.zeros_like(x)
        for (a, b), r in zip(idx, rows):
            expect[a, b] += 2 * r
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), expect)


def test_a_relaxed_program_gets_buffers_for_each_new_shape_without_python():
    rng = np.random.default_rng(5)
    shapes = ((16, 128), (128,), (128, 10), (10,))
    ours = [tf.Variable(rng.standard_normal(s).astype(np.float32) * 0.1) for s in shapes]
    eager = [tf.Variable(v.numpy()) for v in ours]
    runs = []

    def step(params, x, y):
        runs.append(1)
        W0, b0, W1, b1 = params
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, W0) + b0)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=tf.matmul(h, W1) + b1))
        for v, g in zip(params, tape.gradient(loss, params)):
            v.assign_sub(0.1 * g)
        return loss

    f = tf.function(lambda x, y: step(ours, x, y),
                    input_signature=[tf.TensorSpec([None, 16], tf.float32),
                                     tf.TensorSpec([None], tf.int32)])
    for n in (32, 64, 5, 64, 200, 5):
        x = tf.constant(rng.random((n, 16)).astype(np.float32))
        y = tf.constant(rng.integers(0, 10, n).astype(np.int32))
        assert f(x, y).numpy() == step(eager, x, y).numpy()   # bit for bit
        for a, b in zip(ours, eager):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    concrete = f._traces[0]
    # 32 (the traced shape, buffered too), 64, 5, 200
    assert f.experimental_get_tracing_count() == 1 and concrete.n_sized == 4
    if not VALIDATING:   # (the soundness run also runs the body beside each replay)
        assert len(runs) == 1 + 6      # the trace, then only the eager reference runs
    sized = f._cache[next(k for k in f._cache if k[0][0] == (200, 16))].programs[0][1]
    assert "_buffers" in sized.__code__.co_names   # per-shape buffers, no Python re-run
