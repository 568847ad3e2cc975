"""Every op of the table (tests/ops/op_db.py) under ``tf.function``: a program traced on one input
and replayed on another (its elements reversed; or, traced with a ``None`` first dimension,
with more rows) gives what eager execution gives on that other input, for the outputs and
the gradients. A rule or forward that reads a
tensor's value in Python and bakes it into the program (a routing mask, a count, an index)
fails here."""
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.ops import op_db


def _reversed(a):
    return np.asarray(a).ravel()[::-1].reshape(np.shape(a)).copy()


def _generic_loss(outs):
    """``op_db.weighted_loss`` with its weights made by ops from each output's run-time
    shape: a relaxed trace's outputs have sizes known only when the program runs, so
    weights made in Python from the traced shape would bake that shape (TensorFlow's
    ``o.shape`` is None there)."""
    loss = None
    for k, o in enumerate(outs):
        if not (o.dtype.is_floating or o.dtype.is_complex):
            continue
        i = tf.cast(tf.range(tf.size(o)), tf.float64)
        w = tf.reshape(1.0 + 0.5 * tf.cos(i * 1.3 + 0.7 * k), tf.shape(o))
        if o.dtype.is_complex:
            w = tf.cast(w, o.dtype) * tf.constant(1 + 0.3j, o.dtype)
            term = tf.reduce_sum(tf.math.real(o * w))
        else:
            term = tf.reduce_sum(o * tf.cast(w, o.dtype))
        term = tf.cast(term, tf.float64)
        loss = term if loss is None else loss + term
    return loss


def _step(info, sample, dtype, generic=False):
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
            loss = _generic_loss(outs) if generic else op_db.weighted_loss(tf, outs)
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


# ----------------------------------------------------------------- shape-generic relaxed traces
#
# A relaxed trace (input_signature with a None first dimension) must serve other sizes of
# that dimension with the same program, as TensorFlow's graph does: no muted re-run of the
# Python body (a "variant" in the trace report). The trace is made at five more rows than
# the sample (the samples' 2-4 rows are also the 2s and 3s of gradient formulas and literal
# indices, which the generic check cannot tell from a traced size) and replayed at six and
# seven more.

# Ops whose relaxed program is not shape-generic, each with why. An op whose output size
# depends on values (boolean_mask, where) is no exception: the program computes that size
# when it runs. Only what TensorFlow itself fixes at trace time belongs here.
NOT_GENERIC = {}

# Ops TensorFlow refuses to trace along a relaxed axis: the message of its ValueError.
REFUSED = {
    "unstack": "Cannot infer argument `num` from shape",   # a Python count of outputs
}

# Ops that are not generic only because of tapeflow's implementation: bugs still to fix
# (strict xfail, so a fix shows up as a pass to move out of this list).
_SORTED_SEGMENT = (
    "the row count (the ids' last value + 1) is a guard on the ids' values, so a call with"
    " other ids adds a variant (right values, not one generic program as TF's SegmentSum g"
    'raph); a count computed at run time is still to do')
BAKED = {f"math.segment_{k}": _SORTED_SEGMENT for k in ("sum", "mean", "max", "min")}


def _array_leaves(sample):
    """The array arguments of a sample (lists flattened), in ``op_db.convert``'s order."""
    leaves = []

    def walk(a):
        if isinstance(a, list):
            for b in a:
                walk(b)
        elif isinstance(a, (np.ndarray, np.generic)):
            leaves.append(np.asarray(a))
    for a in sample.args:
        walk(a)
    for k in sorted(sample.kwargs):
        walk(sample.kwargs[k])
    return leaves


def _rebuild(sample, tensors):
    it = iter(tensors)

    def one(a):
        if isinstance(a, list):
            return [one(b) for b in a]
        if isinstance(a, (np.ndarray, np.generic)):
            return next(it)
        return a
    args = tuple(one(a) for a in sample.args)
    kwargs = {k: one(sample.kwargs[k]) for k in sorted(sample.kwargs)}
    return args, kwargs


def _all_step(info, sample):
    """``fn(*tensors)``: the op on every array argument given as a tensor (so integer and
    boolean ones can be relaxed and grown too), its outputs and the gradients of
    ``_generic_loss`` with respect to the float ones."""
    def fn(*tensors):
        args, kwargs = _rebuild(sample, tensors)
        floats = [t for t in tensors if t.dtype.is_floating or t.dtype.is_complex]
        with tf.GradientTape() as tape:
            for s in floats:
                tape.watch(s)
            outs = op_db.flatten(info.call(tf, *args, **kwargs))
            loss = _generic_loss(outs)
        grads = tape.gradient(loss, floats) if loss is not None else []
        return outs, grads
    return fn


def _grown_last(a, k):
    a = np.asarray(a)
    return np.concatenate([a] + [a[-1:]] * k, axis=0)


def _growth_plans(leaves):
    """Which array arguments to relax and grow, tried in turn: every one of at least 2
    rows (indices, masks and segment ids grow with their data), the float ones only, the
    first float one only (a matmul's second factor has no batch dimension)."""
    rows = [i for i, a in enumerate(leaves) if a.ndim and a.shape[0] >= 2]
    floats = [i for i in rows if leaves[i].dtype.kind in "fc"]
    plans = [rows, floats, floats[:1]]
    out = []
    for p in plans:
        if p and p not in out:
            out.append(p)
    return out


def _relaxed_case(info):
    """``(fn, leaves, grow, dtype)`` of the first growth plan the op accepts eagerly at 5,
    6 and 7 more rows, or None."""
    sample = info.make_samples()[0]
    dtype = "complex128" if any(np.iscomplexobj(a) for a in sample.args
                                if isinstance(a, np.ndarray)) else "float64"
    leaves = [a.astype(dtype) if a.dtype.kind in "fc" else a for a in _array_leaves(sample)]
    fn = _all_step(info, sample)
    for grow in _growth_plans(leaves):
        try:
            for k in (5, 6, 7):
                fn(*[tf.constant(_grown_last(a, k) if i in grow else a)
                     for i, a in enumerate(leaves)])
        except Exception:  # noqa: BLE001 - this plan makes inputs the op refuses
            continue
        return fn, leaves, grow
    return None


@pytest.mark.parametrize("info", [
    pytest.param(o, marks=pytest.mark.xfail(strict=True, reason=BAKED[o.name]))
    if o.name in BAKED else o for o in op_db.OPS], ids=lambda o: o.name)
def test_relaxed_program_is_shape_generic(info):
    """Traced under an input_signature whose first dimension is None (the arrays of the
    op, integer and boolean ones too where they grow with the data), then called at two
    other sizes: the results are eager execution's (outputs and gradients) and the Python
    body did not run again (no variant in the trace report; the trace's program judged
    shape-generic)."""
    case = _relaxed_case(info)
    if case is None:
        pytest.skip("the op takes no input that grows along its first dimension")
    fn, leaves, grow = case
    first = [tf.constant(_grown_last(a, 5) if i in grow else a)
             for i, a in enumerate(leaves)]
    sig = [tf.TensorSpec([None] + t.shape.as_list()[1:] if i in grow else t.shape, t.dtype)
           for i, t in enumerate(first)]
    compiled = tf.function(fn, autograph=False, input_signature=sig)
    if info.name in REFUSED:
        with pytest.raises(ValueError, match=REFUSED[info.name]):
            compiled(*first)
        return
    compiled(*first)
    for k in (6, 7):
        second = [tf.constant(_grown_last(a, k) if i in grow else a)
                  for i, a in enumerate(leaves)]
        expected = _values(fn(*second))
        got = _values(compiled(*second))
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            if a is None or b is None:
                assert a is None and b is None
                continue
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-10, equal_nan=True,
                                       err_msg=info.name)
    concrete = compiled.get_concrete_function()
    report = compiled.experimental_trace_report()
    generic = concrete.shape_generic and "variant:" not in report
    if info.name in NOT_GENERIC:
        assert not generic, f"{info.name} is generic now: take it out of NOT_GENERIC"
        return
    assert generic, f"{concrete.program.why_not_generic}\n{report}"


# ------------------------------------------------- relaxed paths the op table does not reach
#
# Under TAPEFLOW_VALIDATE_FUNCTIONS=1 every replay also runs the Python body eagerly: the
# counts of Python runs are left out there (the trace reports are still checked).
VALIDATING = os.environ.get("TAPEFLOW_VALIDATE_FUNCTIONS", "") not in ("", "0", "false")


def _gather_grad_parts(params, ids):
    with tf.GradientTape() as tape:
        tape.watch(params)
        loss = tf.reduce_sum(tf.square(tf.gather(params, ids)))
    g = tape.gradient(loss, params)
    return g.values, g.indices, g.dense_shape


def _closed_form_gather_grad(params, ids):
    """d sum(gather(p, ids)^2) / dp, dense: 2 p[i] added at each id i."""
    out = np.zeros_like(params)
    np.add.at(out, ids.reshape(-1), 2 * params[ids.reshape(-1)])
    return out


@pytest.mark.parametrize("ids_rank", [1, 2])
def test_gather_indexed_slices_gradient_in_a_relaxed_program(ids_rank):
    """tf.gather's gradient with respect to its source is an IndexedSlices; traced with a
    None vocabulary size (and id count), its dense_shape is each call's params shape and
    the Python body runs once."""
    runs = []

    def f(params, ids):
        runs.append(1)
        return _gather_grad_parts(params, ids)
    sig = [tf.TensorSpec([None, 3], tf.float64),
           tf.TensorSpec([None] + [2] * (ids_rank - 1), tf.int32)]
    compiled = tf.function(f, autograph=False, input_signature=sig)
    rng = np.random.default_rng(3)
    for vocab, count in ((5, 4), (7, 6), (9, 3)):
        p = rng.normal(size=(vocab, 3))
        ids = rng.integers(0, vocab, size=(count,) + (2,) * (ids_rank - 1)).astype(np.int32)
        values, indices, dense_shape = compiled(tf.constant(p), tf.constant(ids))
        np.testing.assert_array_equal(dense_shape.numpy(), [vocab, 3])
        np.testing.assert_array_equal(indices.numpy(), ids.reshape(-1))
        dense = tf.convert_to_tensor(tf.IndexedSlices(values, indices, dense_shape)).numpy()
        np.testing.assert_allclose(dense, _closed_form_gather_grad(p, ids), rtol=1e-13)
        for a, b in zip((values, indices, dense_shape),
                        _gather_grad_parts(tf.constant(p), tf.constant(ids))):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert VALIDATING or len(runs) == 1
    assert "variant:" not in compiled.experimental_trace_report()
    assert compiled.get_concrete_function().shape_generic


@pytest.mark.parametrize("source", ["variable", "tensor"])
def test_embedding_lookup_gradient_under_reduce_retracing(source):
    """An embedding table looked up with a different number of ids at each call (and, for
    a table passed as a tensor, a different vocabulary size): once reduce_retracing has
    relaxed the shapes, later calls reuse that program (the Python body does not run
    again) and the IndexedSlices gradient is eager's, its dense_shape the table's."""
    rng = np.random.default_rng(4)
    variable = tf.Variable(rng.normal(size=(10, 4)))
    runs = []

    def step(table, ids):
        with tf.GradientTape() as tape:
            tape.watch(table)
            loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids) ** 2)
        g = tape.gradient(loss, table)
        return loss, g.values, g.indices, g.dense_shape

    def f(table, ids):
        runs.append(1)
        return step(variable if source == "variable" else table, ids)
    compiled = tf.function(f, reduce_retracing=True)
    counts = []
    for n, vocab in ((3, 10), (5, 12), (7, 11), (8, 14), (2, 13)):
        ids = tf.constant(np.arange(n, dtype=np.int32) * 3 % 10)
        table = tf.constant(rng.normal(size=(vocab, 4)))
        got = compiled(table, ids)
        counts.append(len(runs))
        if source == "variable":
            table = variable
        want = step(table, ids)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(got[3].numpy(), table.shape.as_list())
        dense = tf.convert_to_tensor(tf.IndexedSlices(*got[1:])).numpy()
        np.testing.assert_allclose(dense, _closed_form_gather_grad(table.numpy(), ids.numpy()),
                                   rtol=1e-13)
    # traced at the first shapes, relaxed at the second; every later call reuses it
    assert VALIDATING or counts == [1, 2, 2, 2, 2]
    report = compiled.experimental_trace_report()
    assert "trace 2:" in report and "trace 3:" not in report and "variant:" not in report


def test_invert_permutation_in_a_relaxed_program():
    """The op table's growth (repeated rows) is no permutation, so this checks the relaxed
    trace directly: one Python run for every length, the inverse of each call's
    permutation, and TensorFlow's error for a repeated value at a replay."""
    runs = []

    def f(p):
        runs.append(1)
        return tf.math.invert_permutation(p)
    compiled = tf.function(f, input_signature=[tf.TensorSpec([None], tf.int32)])
    rng = np.random.default_rng(5)
    for n in (4, 6, 9):
        p = rng.permutation(n).astype(np.int32)
        np.testing.assert_array_equal(compiled(tf.constant(p)).numpy(), np.argsort(p))
    assert VALIDATING or len(runs) == 1
    assert "variant:" not in compiled.experimental_trace_report()
    with pytest.raises(tf.errors.InvalidArgumentError, match="1 is duplicated in the input"):
        compiled(tf.constant([2, 0, 1, 1], tf.int32))
