"""Convolutions and pooling in relaxed ``tf.function`` traces: SAME padding follows each call's
sizes.

SAME padding depends on the spatial sizes (with a stride above 1) and on the filter size. A
trace relaxed over those sizes (``reduce_retracing=True``, or ``None`` dimensions in an
``input_signature``) serves other sizes with one program, so each op must work its padding
out when it runs, not when it was traced. The programs here are compared with eager execution
at odd and even sizes (the padding changes between them), outputs and gradients, in float64;
the trace report must show no re-run of the Python body.
"""
import numpy as np
import pytest

import tapeflow as tf

SIZES = (7, 8, 9, 10, 11)


def _close(got, expected):
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert a.shape == b.shape
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


def _flat(out):
    return tf.nest.flatten(out)


def _net(x, w):
    """conv2d SAME stride 2, max_pool SAME stride 2, avg_pool SAME stride 2; a loss whose
    gradient depends on the values; its gradients for x and w."""
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, 2, "SAME")
        y = tf.nn.max_pool2d(y, 3, 2, "SAME")
        y = tf.nn.avg_pool2d(y, 2, 2, "SAME")
        loss = tf.reduce_sum(tf.sin(y) * y)
    return y, tape.gradient(loss, [x, w])


def _no_variant(compiled, traces):
    report = compiled.experimental_trace_report()
    assert compiled.experimental_get_tracing_count() == traces, report
    assert "0 extra variant(s)" in report, report


@pytest.mark.parametrize("how", ["reduce_retracing", "input_signature"])
def test_conv_pool_program_follows_spatial_sizes(how):
    rng = np.random.default_rng(3)
    w = tf.constant(rng.normal(size=(3, 3, 2, 4)))
    if how == "reduce_retracing":
        compiled = tf.function(_net, reduce_retracing=True)
    else:
        compiled = tf.function(_net, input_signature=[
            tf.TensorSpec([None, None, None, 2], tf.float64),
            tf.TensorSpec([3, 3, 2, 4], tf.float64)])
    shapes = set()
    # squares first: reduce_retracing relaxes height and width together at the second call
    for h, wd in [(n, n) for n in SIZES] + [(n, n + 1) for n in SIZES]:
        x = tf.constant(rng.normal(size=(2, h, wd, 2)))
        got, expected = _flat(compiled(x, w)), _flat(_net(x, w))
        _close(got, expected)
        shapes.add(tuple(got[0].shape))
    assert len(shapes) >= 3  # the output sizes did change: 2, 3 and 4 wide
    # reduce_retracing: the first call's exact trace, then one relaxed trace for all others
    _no_variant(compiled, 2 if how == "reduce_retracing" else 1)
    concrete = compiled.get_concrete_function(
        tf.TensorSpec([None, None, None, 2], tf.float64), tf.TensorSpec([3, 3, 2, 4],
                                                                        tf.float64))
    assert concrete.shape_generic, concrete.program.why_not_generic


def test_padding_follows_spatial_sizes_exactly():
    """The replayed SAME padding is TensorFlow's: ``ceil(n / 2)`` windows of 3 with stride 2,
    ``3 - 2 + (n % 2)`` padded cells, the odd one at the bottom/right (top/left: one cell for
    odd n, none for even). A max pool of a ramp reads each window's last row and column."""
    compiled = tf.function(lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"),
                           input_signature=[tf.TensorSpec([1, None, None, 1], tf.float64)])
    for n in SIZES:
        ramp = np.arange(n * n, dtype=np.float64).reshape(1, n, n, 1)
        got = compiled(tf.constant(ramp)).numpy()[0, :, :, 0]
        top = n % 2
        last = np.minimum(np.arange(0, n, 2) - top + 2, n - 1)
        np.testing.assert_array_equal(got, last[:, None] * n + last[None, :])
    _no_variant(compiled, 1)


def _filters(x, w, d, p):
    """Ops whose SAME padding depends on the filter size, with their gradients."""
    with tf.GradientTape() as tape:
        tape.watch([x, w, d, p])
        outs = [tf.nn.conv2d(x, w, 1, "SAME"), tf.nn.conv2d(x, w, 2, "SAME"),
                tf.nn.conv2d(x, w, 1, "SAME", dilations=2),
                tf.nn.depthwise_conv2d(x, d, [1, 2, 2, 1], "SAME"),
                tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"),
                tf.nn.conv1d(x[:, 0], w[0], 2, "SAME")]
        loss = tf.add_n([tf.reduce_sum(tf.cos(o) * o) for o in outs])
    return outs, tape.gradient(loss, [x, w, d, p])


def test_conv_program_follows_filter_sizes():
    rng = np.random.default_rng(4)
    compiled = tf.function(_filters, input_signature=[
        tf.TensorSpec([None, None, None, 2], tf.float64),
        tf.TensorSpec([None, None, 2, 3], tf.float64),
        tf.TensorSpec([None, None, 2, 2], tf.float64),
        tf.TensorSpec([1, 1, 4, 3], tf.float64)])
    p = tf.constant(rng.normal(size=(1, 1, 4, 3)))
    for n, k in ((7, 3), (8, 3), (9, 4), (8, 2), (10, 5), (11, 1), (7, 2)):
        x = tf.constant(rng.normal(size=(2, n, n + 1, 2)))
        w = tf.constant(rng.normal(size=(k, k + 1, 2, 3)))
        d = tf.constant(rng.normal(size=(k + 1, k, 2, 2)))
        _close(_flat(compiled(x, w, d, p)), _flat(_filters(x, w, d, p)))
    _no_variant(compiled, 1)


def _pools_1d(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        outs = [tf.nn.max_pool1d(x, 3, 2, "SAME"), tf.nn.avg_pool1d(x, 3, 2, "SAME"),
                tf.nn.max_pool(x, 2, 3, "SAME"), tf.nn.avg_pool(x, 4, 3, "SAME")]
        loss = tf.add_n([tf.reduce_sum(tf.sin(o) * o) for o in outs])
    return outs, tape.gradient(loss, x)


def _patches(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
        loss = tf.reduce_sum(tf.sin(y) * y)
    return y, tape.gradient(loss, x)


def _distinct(rng, *shape):
    return tf.constant(rng.permutation(int(np.prod(shape))).reshape(shape).astype(np.float64))


def test_pool1d_follows_sizes():
    rng = np.random.default_rng(5)
    compiled = tf.function(_pools_1d, reduce_retracing=True)
    for n in SIZES:
        x = _distinct(rng, 2, n, 3)
        _close(_flat(compiled(x)), _flat(_pools_1d(x)))
    _no_variant(compiled, 2)


def test_extract_patches_follows_sizes():
    rng = np.random.default_rng(6)
    compiled = tf.function(_patches, reduce_retracing=True)
    for n in SIZES:
        x = tf.constant(rng.normal(size=(2, n, n + 2, 3)))
        _close(_flat(compiled(x)), _flat(_patches(x)))
    _no_variant(compiled, 2)
