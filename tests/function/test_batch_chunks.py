"""Batch chunks (function/batch_chunks.py): a fixed-shape compile runs a maximal run of
row-wise steps (convolutions, pooling, bias adds, activations, products by a weight, a
softmax over the last axis, a flattening reshape) chunk by chunk along the batch axis. The
results are the op-by-op replay's bit for bit (each chunk runs the same kernels on its rows);
values read after the run leave it whole; batches below the threshold are not cut."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.function import batch_chunks
from tapeflow.function.ir import Op
from tapeflow.function.passes import optimized


@pytest.fixture
def chunks_on(monkeypatch):
    """The pass on, with thresholds scaled down so that these small programs are cut into
    several chunks (the defaults want megabytes per chunk)."""
    monkeypatch.setattr(batch_chunks, "ENABLED", [True])
    monkeypatch.setattr(batch_chunks, "MIN_BYTES", 1 << 16)
    monkeypatch.setattr(batch_chunks, "MIN_CHUNK_BYTES", 1 << 15)
    monkeypatch.setattr(batch_chunks, "CHUNK_BYTES", 1 << 17)
    monkeypatch.setattr(batch_chunks, "SMALL_BYTES", 1 << 12)


@pytest.fixture
def defaults(monkeypatch):
    monkeypatch.setattr(batch_chunks, "ENABLED", [True])


def _cnn(seed=0, channels=1):
    rng = np.random.default_rng(seed)
    k1 = tf.Variable(rng.standard_normal((3, 3, channels, 8)).astype(np.float32) * 0.5)
    b1 = tf.Variable(rng.standard_normal(8).astype(np.float32) * 0.1)
    k2 = tf.Variable(rng.standard_normal((3, 3, 8, 16)).astype(np.float32) * 0.2)
    b2 = tf.Variable(rng.standard_normal(16).astype(np.float32) * 0.1)
    scale = tf.Variable(rng.uniform(0.5, 1.5, (1, 1, 1, 16)).astype(np.float32))
    w = tf.Variable(rng.standard_normal((5 * 5 * 16, 10)).astype(np.float32) * 0.1)
    bw = tf.Variable(rng.standard_normal(10).astype(np.float32) * 0.1)

    def net(x):
        y = tf.nn.conv2d(x, k1, 1, "VALID")
        y = tf.nn.relu(y + tf.reshape(b1, [1, 1, 1, 8]))
        y = tf.nn.max_pool2d(y, 2, 2, "VALID")
        z = tf.nn.bias_add(tf.nn.conv2d(y, k2, 1, "SAME"), b2)
        z = tf.nn.relu(z * scale + z)          # a broadcast multiply, a residual add
        z = tf.nn.avg_pool2d(z, 2, 2, "VALID")
        flat = tf.reshape(z, [x.shape[0], -1])
        return tf.nn.softmax(tf.matmul(flat, w) + bw)
    return net


def _chunk_steps(concrete):
    program = optimized(concrete.program)
    steps = batch_chunks.chunk_batches(program, program.steps, program._fixed_shape_slots())
    return [s for s in steps if type(s) is Op and s.prim.name == "BatchChunks"]


def _compiled(net, x, on):
    saved = batch_chunks.ENABLED[0]
    batch_chunks.ENABLED[0] = on
    try:
        f = tf.function(net)
        f(x)    # (the first call runs the trace's program; the sized compile comes after)
        return tf.nest.map_structure(lambda t: t.numpy(), f(x)), f.get_concrete_function(x)
    finally:
        batch_chunks.ENABLED[0] = saved


@pytest.mark.parametrize("batch", [16, 37])
def test_a_cnn_is_cut_and_gives_the_op_by_op_bits(chunks_on, batch):
    net = _cnn()
    x = tf.constant(np.random.default_rng(1).standard_normal(
        (batch, 22, 22, 1)).astype(np.float32))
    got, concrete = _compiled(net, x, True)
    plain, _ = _compiled(net, x, False)
    eager = net(x).numpy()
    assert _chunk_steps(concrete), "the run was not cut"
    np.testing.assert_array_equal(got, plain)
    np.testing.assert_array_equal(got, eager)
    assert got.shape == (batch, 10)
    np.testing.assert_allclose(got.sum(1), 1, rtol=1e-5)


def test_batch_one_and_small_runs_are_left_alone(defaults):
    net = _cnn()
    x1 = tf.constant(np.ones((1, 22, 22, 1), np.float32))
    _, concrete = _compiled(net, x1, True)
    assert not _chunk_steps(concrete)
    # a dense network on a batch of 64: too few bytes to be worth the chunks
    w = tf.Variable(np.full((20, 10), 0.1, np.float32))

    def dense(x):
        return tf.nn.softmax(tf.nn.relu(tf.matmul(x, w)))
    xd = tf.constant(np.ones((64, 20), np.float32))
    _, concrete = _compiled(dense, xd, True)
    assert not _chunk_steps(concrete)
    # the CNN at batch 64 is cut with the default thresholds; at batch 4 it is not
    x64 = tf.constant(np.ones((64, 22, 22, 1), np.float32))
    assert _chunk_steps(_compiled(net, x64, True)[1])
    x4 = tf.constant(np.ones((4, 22, 22, 1), np.float32))
    assert not _chunk_steps(_compiled(net, x4, True)[1])


def test_chunk_count(chunks_on):
    net = _cnn()
    x = tf.constant(np.ones((37, 22, 22, 1), np.float32))
    (step,) = _chunk_steps(_compiled(net, x, True)[1])
    chunks = step.prim.forward.chunks
    # rows 0..36 in order, in chunks of at most CHUNK_BYTES of intermediates, at least 4
    assert chunks[0][0] == 0 and chunks[-1][1] == 37 and len(chunks) >= 4
    assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))
    sizes = [b - a for a, b in chunks]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    # its inputs: the batch, then the weights it reads whole (both filters, both biases,
    # the scale); the batch is the only one sliced
    assert step.ins[0] == _compiled(net, x, True)[1].program.inputs[0]
    assert len(step.ins) >= 6


def test_values_read_after_the_run_leave_it_whole(chunks_on):
    rng = np.random.default_rng(3)
    k = tf.Variable(rng.standard_normal((3, 3, 2, 16)).astype(np.float32))
    b = tf.Variable(rng.standard_normal(16).astype(np.float32))

    def net(x):
        y = tf.nn.conv2d(x, k, 1, "SAME")
        r = tf.nn.relu(y + b)
        p = tf.nn.max_pool2d(r, 2, 2, "VALID")
        # read after the run: a sum over the batch (not row-wise) of the conv's output and
        # the pooled value; the ReLU output returned
        return tf.reduce_sum(y, 0), tf.reduce_mean(p), r
    x = tf.constant(rng.standard_normal((32, 24, 24, 2)).astype(np.float32))
    f = tf.function(net)
    f(x)    # (the compiled program runs from the second call)
    got = [t.numpy() for t in f(x)]
    assert _chunk_steps(f.get_concrete_function(x))
    batch_chunks.ENABLED[0] = False
    plain = [t.numpy() for t in tf.function(net)(x)]
    eager = [t.numpy() for t in net(x)]
    for a, p, e in zip(got, plain, eager):
        np.testing.assert_array_equal(a, p)
        np.testing.assert_array_equal(a, e)


def test_nan_and_inf_follow_the_op_by_op_kernels(chunks_on):
    net = _cnn(seed=2)
    xv = np.random.default_rng(4).standard_normal((24, 22, 22, 1)).astype(np.float32)
    xv[3, 5, 5, 0] = np.nan
    xv[7, :, :, 0] = -np.inf
    xv[11, 2, 3, 0] = np.inf
    x = tf.constant(xv)
    got, concrete = _compiled(net, x, True)
    plain, _ = _compiled(net, x, False)
    assert _chunk_steps(concrete)
    np.testing.assert_array_equal(got, plain)     # NaN in the same places
    assert np.isnan(got).any()


def test_a_changed_variable_is_read_at_each_call(chunks_on):
    net = _cnn(seed=5, channels=3)
    x = tf.constant(np.random.default_rng(6).standard_normal(
        (16, 22, 22, 3)).astype(np.float32))
    f = tf.function(net)
    f(x)    # (the compiled program runs from the second call)
    first = f(x).numpy()
    assert _chunk_steps(f.get_concrete_function(x))
    var = [v for v in f.get_concrete_function(x).program.variables
           if tuple(v.shape) == (3, 3, 3, 8)][0]
    var.assign(var * 2.0)
    second = f(x).numpy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(second, net(x).numpy())


def test_the_input_is_not_written(chunks_on):
    # a ReLU straight on the argument: in place only over arrays the chunk made
    k = tf.Variable(np.ones((1, 1, 4, 4), np.float32))

    def net(x):
        return tf.nn.max_pool2d(tf.nn.conv2d(tf.nn.relu(x) + 1.0, k, 1, "VALID"), 2, 2,
                                "VALID")
    xv = np.random.default_rng(8).standard_normal((64, 32, 32, 4)).astype(np.float32)
    x = tf.constant(xv.copy())
    f = tf.function(net)
    f(x)    # (the compiled program runs from the second call)
    got = f(x).numpy()
    assert _chunk_steps(f.get_concrete_function(x))
    np.testing.assert_array_equal(x.numpy(), xv)
    np.testing.assert_array_equal(got, net(x).numpy())


def test_a_program_not_cut_keeps_its_steps_in_order(defaults):
    # a dense training step on a batch of 64: row-wise steps and variable reads found, too
    # small to cut; the steps come back as they were (the later passes read adjacency)
    w = tf.Variable(np.ones((20, 30), np.float32))
    v = tf.Variable(np.ones((30, 10), np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w))
            loss = tf.reduce_mean(tf.nn.softmax(tf.matmul(h, v)))
        gw, gv = tape.gradient(loss, [w, v])
        w.assign_sub(0.1 * gw)
        v.assign_sub(0.1 * gv)
        return loss
    x = tf.constant(np.ones((64, 20), np.float32))
    program = optimized(tf.function(step).get_concrete_function(x).program)
    after = batch_chunks.chunk_batches(program, program.steps, program._fixed_shape_slots())
    assert len(after) == len(program.steps)
    assert all(a is b for a, b in zip(after, program.steps))


def test_a_relaxed_trace_with_a_flatten_gets_sized_compiles(defaults):
    # a Keras-style Flatten (reshape to [shape(x)[0], -1]) no longer stops a relaxed
    # program's per-shape compile (Program.shapes_for): the batch it is called with first
    # gets buffers and chunks; a reshape to a shape read from values still does stop it
    k = tf.Variable(np.random.default_rng(9).standard_normal((3, 3, 1, 16)).astype(np.float32))

    def net(x):
        y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, k, 1, "VALID")), 2, 2, "VALID")
        return tf.reduce_sum(tf.reshape(y, [tf.shape(y)[0], -1]), 1)

    f = tf.function(net, input_signature=[tf.TensorSpec([None, 28, 28, 1], tf.float32)])
    x = tf.constant(np.random.default_rng(10).standard_normal((64, 28, 28, 1))
                    .astype(np.float32))
    got = f(x).numpy()
    np.testing.assert_array_equal(got, net(x).numpy())
    program = f.get_concrete_function().program
    slot = program.inputs[0]
    shapes = program.shapes_for({slot: (64, 28, 28, 1)})
    assert shapes is not None and shapes[program.outputs[0]][0] == (64,)

    def by_values(x, n):
        return tf.reshape(x, tf.stack([n, -1]))

    g = tf.function(by_values, input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                                tf.TensorSpec([], tf.int32)])
    g(tf.ones((6, 4)), tf.constant(3))
    p2 = g.get_concrete_function().program
    assert p2.shapes_for({p2.inputs[0]: (6, 4), p2.inputs[1]: ()}) is None


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def _special_windows(n=24, h=12, w=12, c=8, seed=12):
    """A batch whose 2x2 windows hold NaN, +-inf, signed zeros and ties. In chunks of six
    images: the first and last hold a window of NaN only (the op-by-op order is kept for
    them), the middle two none (the pool runs first), with windows of -inf only, of NaN and
    -inf, values that overflow to -inf with a large negative bias, ties of signed zeros."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, h, w, c)).astype(np.float32)
    x[0, 0:2, 0:2, :] = np.nan                      # NaN only
    x[22, 8:10, 8:10, :] = np.nan
    x[6, 0:2, 4:6, :] = -np.inf                     # -inf only
    x[7, 4:6, 0:2, 2] = [[-np.inf, np.nan], [np.nan, -np.inf]]   # NaN and -inf only
    x[8, 6:8, 6:8, 3] = [[np.inf, -np.inf], [0.5, np.nan]]
    x[9, 2:4, 2:4, 1] = [[np.nan, 1.5], [np.nan, -2.0]]   # NaN beside values
    x[10, :, :, 6] = -3e38                          # x + (-3e38): -inf
    x[11, 2:4, 2:4, 6] = [[-3e38, -np.inf], [-3e38, -3e38]]
    x[12, 0:2, 0:2, :] = -0.0                       # ties of signed zeros
    x[12, 0, 1, ::2] = 0.0
    x[13, 2:4, 2:4, :] = 0.25                       # exact ties
    x[14, 4:6, 4:6, :] = -1e-30                     # all negative: relu gives +0.0 ties
    x[15, 6:8, 0:2, 5] = [[-0.0, -3.0], [-np.inf, -0.0]]
    x[16:18] = -np.abs(x[16:18])                    # images below zero (relu: all 0)
    x[20, 10:12, 0:2, 7] = np.inf
    return x


def _pool_first_cases():
    rng = np.random.default_rng(11)
    b = rng.standard_normal(8).astype(np.float32)
    b[6] = -3e38
    b_neg0 = b.copy()
    b_neg0[[1, 5]] = -0.0
    b_all_neg0 = np.full(8, -0.0, np.float32)
    b_zero = np.zeros(8, np.float32)
    b_inf = b.copy()
    b_inf[2] = np.inf
    b_ninf = b.copy()
    b_ninf[3] = -np.inf
    b_nan = b.copy()
    b_nan[4] = np.nan
    cases = {
        "add relu": (lambda x, c: tf.nn.relu(x + c), b),
        "bias_add relu": (lambda x, c: tf.nn.relu(tf.nn.bias_add(x, c)), b),
        "bias first, -0.0 in it, relu": (lambda x, c: tf.nn.relu(c + x), b_neg0),
        "add only": (lambda x, c: x + c, b),
        "add only, -0.0 in the bias": (lambda x, c: x + c, b_neg0),
        "add only, -0.0 bias": (lambda x, c: x + c, b_all_neg0),
        "add only, +0.0 bias": (lambda x, c: x + c, b_zero),
        "relu only": (lambda x, c: tf.nn.relu(x), b),
        "relu then sub": (lambda x, c: tf.nn.relu(x) - c, b),
        "relu then add -0.0": (lambda x, c: tf.nn.relu(x) + c, b_all_neg0),
        "two adds and relu": (lambda x, c: tf.nn.relu(x + c + tf.reshape(c, [1, 1, 1, 8])), b),
        "inf bias": (lambda x, c: tf.nn.relu(x + c), b_inf),
        "-inf bias": (lambda x, c: tf.nn.relu(x + c), b_ninf),
        "nan bias": (lambda x, c: tf.nn.relu(x + c), b_nan),
    }
    return cases


@pytest.mark.parametrize("case", list(_pool_first_cases()))
def test_the_pool_runs_before_the_bias_and_relu_with_the_op_by_op_bits(chunks_on, case):
    chain, bias = _pool_first_cases()[case]
    c = tf.constant(bias)

    def net(x):
        return tf.nn.max_pool2d(chain(x, c), 2, 2, "VALID")

    for xv in (_special_windows(), np.random.default_rng(13).standard_normal(
            (24, 12, 12, 8)).astype(np.float32)):
        x = tf.constant(xv)
        got, concrete = _compiled(net, x, True)
        plain, _ = _compiled(net, x, False)
        (step,) = _chunk_steps(concrete)
        assert step.prim.forward.pools_first == 1, case
        np.testing.assert_array_equal(_bits(got), _bits(plain))
        np.testing.assert_array_equal(_bits(got), _bits(net(x).numpy()))
        np.testing.assert_array_equal(xv, x.numpy())    # the input is not written


def _and_relu(x, b, then):
    r = tf.nn.relu(x + b)
    return then(r), r


def test_which_pools_run_first(chunks_on):
    b = tf.constant(np.linspace(-1, 1, 8).astype(np.float32))
    pos = tf.constant(np.linspace(0, 1, 12 * 12 * 8).reshape(1, 12, 12, 8)
                      .astype(np.float32))
    nets = {
        # overlapping windows (stride 1), padding: the op-by-op order
        "overlapping": (lambda x: tf.nn.max_pool2d(tf.nn.relu(x + b), 2, 1, "VALID"), 0),
        "SAME, padded": (lambda x: tf.nn.max_pool2d(tf.nn.relu(x + b), 3, 2, "SAME"), 0),
        # an add that varies along the window (not a per-channel bias); b - x falls as x
        # rises; a multiply (not an add: a negative scale reverses the order); the ReLU
        # after them runs after the pool on its own
        "varies in the window": (lambda x: tf.nn.max_pool2d(x + pos, 2, 2, "VALID"), 0),
        "b - x": (lambda x: tf.nn.max_pool2d(b - x, 2, 2, "VALID"), 0),
        "scaled": (lambda x: tf.nn.max_pool2d(x * b, 2, 2, "VALID"), 0),
        "relu of scaled": (lambda x: tf.nn.max_pool2d(tf.nn.relu(x * b), 2, 2, "VALID"), 1),
        # the ReLU output also returned, or read by two pools: the chain's values must be
        # whole, the pools run after them
        "relu read after": (lambda x: _and_relu(x, b, lambda r: tf.nn.max_pool2d(
            r, 2, 2, "VALID")), 0),
        "two pools of one relu": (lambda x: _and_relu(x, b, lambda r: (
            tf.nn.max_pool2d(r, 2, 2, "VALID"), tf.nn.avg_pool2d(r, 2, 2, "VALID")))[0], 0),
        "3x3 windows, stride 3": (lambda x: tf.nn.max_pool2d(tf.nn.relu(x + b), 3, 3,
                                                             "VALID"), 1),
        "2x1 windows": (lambda x: tf.nn.max_pool2d(tf.nn.relu(x + b), [2, 1], [2, 1],
                                                   "VALID"), 1),
        "odd size, last row and column dropped": (
            lambda x: tf.nn.max_pool2d(tf.nn.relu(x[:, :11, :11] * 1.0 + b), 2, 2,
                                       "VALID"), 1),
    }
    xv = _special_windows()
    x = tf.constant(xv)
    for name, (net, expected) in nets.items():
        got, concrete = _compiled(net, x, True)
        plain, _ = _compiled(net, x, False)
        steps = _chunk_steps(concrete)
        assert steps, name
        assert sum(s.prim.forward.pools_first for s in steps) == expected, name
        for a, p in zip(tf.nest.flatten(got), tf.nest.flatten(plain)):
            np.testing.assert_array_equal(_bits(a), _bits(p))


def _conv_nets():
    rng = np.random.default_rng(14)
    k1 = tf.constant(rng.standard_normal((3, 3, 1, 8)).astype(np.float32))
    k3 = tf.constant(rng.standard_normal((2, 3, 3, 8)).astype(np.float32))
    k8 = tf.constant(rng.standard_normal((3, 3, 8, 16)).astype(np.float32) * 0.3)
    b8 = tf.constant(rng.standard_normal(8).astype(np.float32))
    b16 = tf.constant(rng.standard_normal(16).astype(np.float32))
    neg0 = np.asarray(b16).copy()
    neg0[[0, 7]] = -0.0
    neg0 = tf.constant(neg0)
    b_inf = np.asarray(b16).copy()
    b_inf[3] = np.inf
    b_inf = tf.constant(b_inf)

    def cnn(x):     # one channel, then 8: both of im2col's layouts; odd sizes (11 -> 5)
        y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, k1, 1, "VALID") + b8), 2, 2, "VALID")
        z = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(y, k8, 1, "VALID"), b16))
        return tf.nn.max_pool2d(z, 2, 2, "VALID")

    return {
        # (net, input channels, pools run first, of them convolutions by windows, of them
        # with the bias added in the product)
        "cnn": (cnn, 1, 2, 2, 2),
        "conv then pool": (lambda x: tf.nn.max_pool2d(tf.nn.conv2d(x, k1, 1, "VALID"), 2, 2,
                                                      "VALID"), 1, 1, 1, 0),
        "SAME conv, strides, 3x3 windows": (lambda x: tf.nn.max_pool2d(tf.nn.relu(
            tf.nn.conv2d(x, k3, [1, 2], "SAME") + b8), 3, 3, "VALID"), 3, 1, 1, 1),
        "dilated conv, 2x1 windows, an add last": (lambda x: tf.nn.max_pool2d(
            tf.nn.conv2d(x, k1, 1, "VALID", dilations=2) + b8, [2, 1], [2, 1], "VALID"),
            1, 1, 1, 1),
        "-0.0 in the last add": (lambda x: tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(
            tf.nn.relu(tf.nn.conv2d(x, k1, 1, "SAME") + b8), k8, 1, "VALID")) + neg0, 2, 2,
            "VALID"), 1, 1, 1, 0),
        # a bias that is not finite stays a separate add (after the pool, or the op-by-op
        # order); the input's NaN and inf reach the product's bias column
        "inf in the bias": (lambda x: tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(
            x, k8[:, :, :1, :], 1, "VALID") + b_inf), 2, 2, "VALID"), 1, 1, 1, 1),
        # the convolution's output also read by a later step: only the chain runs after the
        # pool, the convolution whole
        "conv read twice": (lambda x: _conv_twice(x, k1, b8), 1, 1, 0, 0),
    }


def _conv_twice(x, k, b):
    y = tf.nn.conv2d(x, k, 1, "VALID")
    return tf.nn.max_pool2d(tf.nn.relu(y + b), 2, 2, "VALID"), tf.nn.avg_pool2d(y, 2, 2, "VALID")


def _conv_inputs(channels, n=24, size=24):
    rng = np.random.default_rng(15)
    x = rng.standard_normal((n, size, size, channels)).astype(np.float32)
    x[1] = np.nan                           # every window NaN
    x[2, 3:5, 3:5, :] = np.nan              # NaN windows beside finite ones
    x[5, 0:4, 0:4, :] = np.inf              # inf - inf: NaN, and inf
    x[6, 8:10, 2:12, :] = -np.inf
    x[9] = 0.0                              # ties: every output is the bias
    x[10] = -0.0
    x[17, 10:14, 10:14, :] = np.nan         # a NaN-only window in a later chunk
    return x


@pytest.mark.parametrize("name", list(_conv_nets()))
def test_a_convolution_pooled_by_windows_gives_the_op_by_op_bits(chunks_on, name):
    net, channels, pools, convs, folded = _conv_nets()[name]
    for xv in (_conv_inputs(channels), np.random.default_rng(16).standard_normal(
            (24, 24, 24, channels)).astype(np.float32)):
        x = tf.constant(xv)
        got, concrete = _compiled(net, x, True)
        plain, _ = _compiled(net, x, False)
        steps = _chunk_steps(concrete)
        assert sum(s.prim.forward.pools_first for s in steps) == pools
        assert sum(s.prim.forward.convs_by_windows for s in steps) == convs
        assert sum(s.prim.forward.biases_in_products for s in steps) == folded
        for a, p, e in zip(tf.nest.flatten(got), tf.nest.flatten(plain),
                           tf.nest.flatten(net(x))):
            np.testing.assert_array_equal(_bits(a), _bits(p))
            np.testing.assert_array_equal(_bits(a), _bits(e.numpy()))
        np.testing.assert_array_equal(xv, x.numpy())
