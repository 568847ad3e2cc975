"""Every op of the table (tests/op_db.py) under ``tf.function``: a program traced on one input
and replayed on another (its elements reversed; or, traced with a ``None`` first dimension,
with more rows) gives what eager execution gives on that other input, for the outputs and
the gradients. A rule or forward that reads a
tensor's value in Python and bakes it into the program (a routing mask, a count, an index)
fails here."""
import numpy as np
import pytest

import op_db
import tapeflow as tf


def _reversed(a):
    return np.asarray(a).ravel()[::-1].reshape(np.shape(a)).copy()


def _step(info, sample, dtype):
    def fn(*sources):
        args, kwargs, _ = op_db.convert(tf, sample, dtype)
        # rebuild the call on the given source tensors (not constants made from them)
        it = iter(sources)

        def swap(a):
            if isinstance(a, list):
                return [swap(b) for b in a]
            if isinstance(a, tf.Tensor) and a.dtype.is_floating | a.dtype.is_complex:
                return next(it)
            return a
        args = tuple(swap(a) for a in args)
        kwargs = {k: swap(v) for k, v in kwargs.items()}
        with tf.GradientTape() as tape:
            for s in sources:
                tape.watch(s)
            outs = op_db.flatten(info.call(tf, *args, **kwargs))
            loss = op_db.weighted_loss(tf, outs)
        grads = tape.gradient(loss, list(sources)) if loss is not None else []
        return outs, grads
    return fn


def _values(result):
    outs, grads = result
    # an IndexedSlices gradient (gather) compares as its dense value
    return [None if t is None else np.asarray(tf.convert_to_tensor(t).numpy())
            for t in list(outs) + list(grads)]


@pytest.mark.parametrize("info", op_db.OPS, ids=lambda o: o.name)
def test_replayed_program_equals_eager_on_new_values(info):
    sample = info.make_samples()[0]
    dtype = "complex128" if any(np.iscomplexobj(a) for a in sample.args
                                if isinstance(a, np.ndarray)) else "float64"
    _, _, sources = op_db.convert(tf, sample, dtype)
    if not sources:
        pytest.skip("no float input")
    first = [tf.constant(s.numpy()) for s in sources]
    second = [tf.constant(_reversed(s.numpy())) for s in sources]
    step = _step(info, sample, dtype)
    compiled = tf.function(step, autograph=False)
    try:
        compiled(*first)
    except Exception:  # noqa: BLE001 - an op that cannot run on this sample under a trace
        pytest.skip("the first input does not trace")
    try:
        expected = _values(step(*second))
    except Exception as exc:  # noqa: BLE001 - the eager error must be the replay's too
        with pytest.raises(type(exc)):
            compiled(*second)
        return
    got = _values(compiled(*second))
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        if a is None or b is None:
            assert a is None and b is None
            continue
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-10, equal_nan=True,
                                   err_msg=info.name)


def _grown(a, k):
    a = np.asarray(a)
    return np.concatenate([a] + [a[:1]] * k, axis=0)


@pytest.mark.parametrize("info", op_db.OPS, ids=lambda o: o.name)
def test_relaxed_program_equals_eager_at_other_sizes(info):
    """Traced under an input_signature whose first dimension is None, replayed with one and
    two more rows: what eager execution gives (outputs and gradients). A count, index or
    shape made in Python from the traced size and baked into the program fails here."""
    sample = info.make_samples()[0]
    dtype = "complex128" if any(np.iscomplexobj(a) for a in sample.args
                                if isinstance(a, np.ndarray)) else "float64"
    _, _, sources = op_db.convert(tf, sample, dtype)
    if not sources or any(s.shape.rank == 0 or s.shape[0] < 2 for s in sources):
        pytest.skip("needs float inputs of at least 2 rows")
    first = [s.numpy() for s in sources]
    step = _step(info, sample, dtype)
    sig = [tf.TensorSpec([None] + s.shape.as_list()[1:], s.dtype) for s in sources]
    compiled = tf.function(step, autograph=False, input_signature=sig)
    try:
        compiled(*[tf.constant(a) for a in first])
    except Exception:  # noqa: BLE001 - an op that cannot run on this sample under a trace
        pytest.skip("the first input does not trace")
    for k in (1, 2):
        second = [tf.constant(_grown(a, k)) for a in first]
        try:
            expected = _values(step(*second))
        except Exception:  # noqa: BLE001 - the op refuses that size eagerly too
            continue
        got = _values(compiled(*second))
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            if a is None or b is None:
                assert a is None and b is None
                continue
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-10, equal_nan=True,
                                       err_msg=info.name)
