"""Record TensorFlow's answers for the op differences of issue 19 into
tests/fixtures/ops/regressions.json.

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_op_regressions.py

Each case is a few lines of a TF program that set ``out`` (a tensor, a number, None, or a
list/tuple of them); the helpers of ``PRELUDE`` take gradients through one tape (``grad``) or
two nested tapes (``grad2``). The fixture keeps each case's source and TensorFlow's answer:
every value's dtype, shape and numbers, or the exception class and its first message line.
``tests/ops/test_tf_regressions.py`` runs the same source with ``tf`` bound to tapeflow.

A case whose name is in ``BETTER`` is one where TensorFlow is itself wrong (docs/ops.md gives
the evidence): the fixture keeps the answer written there instead of TensorFlow's, and the
recorder checks that TensorFlow still gives the wrong one it names.
"""
import json
import math
import os
import re
import textwrap

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "ops", "regressions.json")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")

PRELUDE = textwrap.dedent('''
    def grad(f, *xs):
        """The gradients of f(*xs) with respect to each x (one tape)."""
        xs = [tf.convert_to_tensor(x) for x in xs]
        with tf.GradientTape() as t:
            for x in xs:
                t.watch(x)
            y = f(*xs)
        gs = t.gradient(y, xs)
        return [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g
                for g in gs]

    def grad2(f, *xs):
        """The gradients of sum(grad(f)) with respect to each x (two nested tapes)."""
        xs = [tf.convert_to_tensor(x) for x in xs]
        with tf.GradientTape() as outer:
            for x in xs:
                outer.watch(x)
            with tf.GradientTape() as inner:
                for x in xs:
                    inner.watch(x)
                y = f(*xs)
            gs = inner.gradient(y, xs)
            s = tf.add_n([tf.reduce_sum(g) for g in gs if g is not None]) if any(
                g is not None for g in gs) else None
        if s is None:
            return [None for _ in xs]
        return outer.gradient(s, xs)

    def c128(*v):
        return tf.constant(list(v), tf.complex128)

    def f64(*v):
        return tf.constant(list(v), tf.float64)

    def f32(*v):
        return tf.constant(list(v), tf.float32)
''')

# (name, source). Grouped as issue 19 lists the kinds.
CASES = []


def case(name, src):
    CASES.append((name, textwrap.dedent(src).strip("\n")))


# ---------------------------------------------------------------- wrong gradients

_Z, _W = "c128(0.5+0.3j, -0.2+0.4j)", "c128(0.7-0.2j, 1.5+0.5j)"
for _op in ("asin", "acos", "atan", "asinh", "atanh", "sinh", "cosh", "tan"):
    case(f"grad_complex_{_op}", f"out = grad(tf.math.{_op}, {_Z})")
case("grad_complex_acosh", "out = grad(tf.math.acosh, c128(1.5+0.3j, -0.2+0.4j))")
for _op in ("xlogy", "xdivy", "xlog1py"):
    case(f"grad_complex_{_op}", f"out = grad(tf.math.{_op}, {_Z}, {_W})")
case("grad_complex_tensordot", """
    a = tf.constant([[1+2j, 3-1j], [0.5j, 2]], tf.complex128)
    b = tf.constant([[1-1j, 2], [1j, 1+1j]], tf.complex128)
    out = grad(lambda a, b: tf.tensordot(a, b, 1), a, b)""")
case("grad_complex_tensordot_axes0", """
    a = c128(1+2j, 3-1j)
    b = c128(1-1j, 0.5j, 2)
    out = grad(lambda a, b: tf.tensordot(a, b, 0), a, b)""")
case("grad_complex_einsum", """
    a = tf.constant([[1+2j, 3-1j], [0.5j, 2]], tf.complex128)
    b = tf.constant([[1-1j, 2], [1j, 1+1j]], tf.complex128)
    out = grad(lambda a, b: tf.einsum("ij,jk->ik", a, b), a, b)""")
case("grad_complex_einsum_trace", """
    a = tf.constant([[1+2j, 3-1j], [0.5j, 2]], tf.complex128)
    out = grad(lambda a: tf.einsum("ii->", a), a)""")
case("grad_complex_reduce_prod", """
    a = tf.constant([[1+2j, 3-1j], [0.5j, 2]], tf.complex128)
    out = grad(lambda a: tf.reduce_prod(a, 1), a)""")
case("grad_complex_reduce_prod_zero", """
    a = tf.constant([[0j, 3-1j], [0.5j, 2]], tf.complex128)
    out = grad(lambda a: tf.reduce_prod(a, 1), a)""")
case("complex_squared_difference", f"""
    out = [tf.math.squared_difference({_Z}, {_W}),
           grad(tf.math.squared_difference, {_Z}, {_W})]""")
case("complex_reduce_euclidean_norm", f"""
    x = tf.stack([{_Z}, {_W}])
    out = [tf.math.reduce_euclidean_norm(x, 1),
           grad(lambda x: tf.math.reduce_euclidean_norm(x, 1), x)]""")
case("complex_l2_normalize", f"""
    x = {_Z}
    out = [tf.math.l2_normalize(x), grad(tf.math.l2_normalize, x)]""")
_X2 = "f64(-1.5, -0.5, 0.0, 0.5, 3.0, 7.0)"
for _nm, _f in (("relu", "tf.nn.relu"), ("relu6", "tf.nn.relu6"),
                ("leaky_relu", "tf.nn.leaky_relu"),
                ("crelu", "tf.nn.crelu"),
                ("hard_sigmoid", "tf.keras.activations.hard_sigmoid"),
                ("keras_relu", "tf.keras.activations.relu"),
                ("keras_relu_threshold",
                 "lambda x: tf.keras.activations.relu(x, threshold=0.2, max_value=5.0)"),
                ("keras_relu_negslope",
                 "lambda x: tf.keras.activations.relu(x, negative_slope=0.1)"),
                ("keras_relu6", "tf.keras.activations.relu6"),
                ("keras_leaky_relu", "tf.keras.activations.leaky_relu"),
                ("elu", "tf.nn.elu"), ("selu", "tf.nn.selu")):
    case(f"grad2_{_nm}", f"out = [grad({_f}, {_X2}), grad2({_f}, {_X2})]")
case("grad2_max_pool", """
    x = tf.reshape(f64(1, 5, 2, 3, 9, 4, 0, 8, 7), (1, 3, 3, 1))
    f = lambda x: tf.nn.max_pool2d(x, 2, 1, "VALID")
    out = [grad(f, x), grad2(f, x)]""")
case("elu_second_derivative_at_zero", "out = grad2(tf.nn.elu, f64(0.0, -1.0, 1.0))")
case("grad_gather_scalar_index", """
    p = f64(1, 2, 3)
    out = grad(lambda p: tf.gather(p, 1), p)""")
case("grad_gather_scalar_index_matrix", """
    p = tf.reshape(f64(1, 2, 3, 4, 5, 6), (3, 2))
    out = grad(lambda p: tf.gather(p, 2) * f64(1, 2), p)""")
case("grad_embedding_lookup_scalar", """
    p = tf.reshape(f64(1, 2, 3, 4, 5, 6), (3, 2))
    out = grad(lambda p: tf.nn.embedding_lookup(p, 1), p)""")
case("sigmoid_cross_entropy_soft_labels", """
    lg, lb = f64(0.0, 1.5, -2.0), f64(0.3, 0.7, 0.1)
    f = lambda lg, lb: tf.nn.sigmoid_cross_entropy_with_logits(labels=lb, logits=lg)
    out = [f(lg, lb), grad(f, lg, lb)]""")
case("grad_digamma", "out = grad(tf.math.digamma, f64(-1.5, -0.5, 0.5, 2.0))")
case("polygamma_negative_and_poles", """
    out = [tf.math.polygamma(f64(1, 2, 1, 1, 4, 3), f64(-1.0, -2.0, 0.0, -100.5, -20.25, -1.5)),
           grad(tf.math.digamma, f64(-2.5, -7.25))]""")
case("grad_tensor_scatter_nd_max", """
    t, u = f64(1, 5, 3, 3), f64(4, 2, 3)
    f = lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [1], [2]], u) * f64(1, 2, 3, 4)
    out = grad(f, t, u)""")
case("grad_tensor_scatter_nd_min", """
    t, u = f64(1, 5, 3, 3), f64(4, 2, 3)
    f = lambda t, u: tf.tensor_scatter_nd_min(t, [[0], [1], [2]], u) * f64(1, 2, 3, 4)
    out = grad(f, t, u)""")
case("grad_clip_by_value_at_bounds", """
    x = f64(-1.0, 0.0, 0.5, 1.0, 2.0)
    out = grad(lambda x, lo, hi: tf.clip_by_value(x, lo, hi), x, f64(0.0), f64(1.0))""")
case("clip_by_value_min_above_max", """
    x = f64(0, 1, 0.5, 2)
    f = lambda x, lo, hi: tf.clip_by_value(x, lo, hi)
    out = [f(x, f64(1.0), f64(0.0)), grad(f, x, f64(1.0), f64(0.0))]""")
case("grad_reduce_std_constant", """
    out = grad(tf.math.reduce_std, f64(2.0, 2.0, 2.0))""")
case("grad_reduce_variance_constant", """
    out = grad(tf.math.reduce_variance, f64(2.0, 2.0, 2.0))""")
case("keras_binary_crossentropy_mixed_dtypes", """
    yt = tf.constant([[0.0, 1.0, 1.0]], tf.float64)
    yp = tf.constant([[0.2, 0.7, 0.999]], tf.float32)
    f = lambda yp: tf.keras.losses.binary_crossentropy(yt, yp)
    out = [f(yp), grad(f, yp)]""")

# ---------------------------------------------------------------- numerics

case("cumulative_logsumexp_small", """
    out = [tf.math.cumulative_logsumexp(f64(-1000, -1000.5, 3)),
           tf.math.cumulative_logsumexp(f32(-1000, -1000.5, 3), reverse=True),
           tf.math.cumulative_logsumexp(f64(-1000, -1000.5, 3), exclusive=True)]""")
case("cumulative_logsumexp_inf", """
    out = [tf.math.cumulative_logsumexp(f64(-float("inf"), 1.0, float("inf"), 2.0)),
           grad(tf.math.cumulative_logsumexp, f64(-1000, -1000.5, 3))]""")
case("argmax_nan", """
    x = f32(1.0, float("nan"), 3.0)
    out = [tf.argmax(x), tf.argmin(x), tf.argmax(f32(float("nan"), 1.0)),
           tf.argmin(f32(2.0, float("nan"), 1.0))]""")
case("max_pool_nan", """
    x = tf.reshape(f32(1, float("nan"), 2, 0), (1, 2, 2, 1))
    y = tf.reshape(f32(float("nan"), 1, 2, 0), (1, 2, 2, 1))
    out = [tf.nn.max_pool2d(x, 2, 1, "VALID"), tf.nn.max_pool2d(y, 2, 1, "VALID")]""")
case("segment_max_min_nan", """
    x = f32(1, float("nan"), 2, float("nan"), 0)
    ids = [0, 0, 1, 1, 1]
    out = [tf.math.segment_max(x, ids), tf.math.segment_min(x, ids),
           tf.math.unsorted_segment_max(x, ids, 2), tf.math.unsorted_segment_min(x, ids, 2)]""")
case("reduce_max_nan", """
    x = f32(1, float("nan"), 2)
    out = [tf.reduce_max(x), tf.reduce_min(x), tf.math.maximum(x, 1.5)]""")
case("segment_min_inf", """
    out = [tf.math.segment_min(f32(float("inf"), 1), [0, 1]),
           tf.math.segment_max(f32(-float("inf"), 1), [0, 1]),
           tf.math.unsorted_segment_min(f32(float("inf"), 1), [0, 1], 3),
           tf.math.unsorted_segment_max(f64(-float("inf"), 1), [0, 1], 3)]""")
case("relu6_nan", """
    out = [tf.nn.relu6(f32(float("nan"), -1, 7)), tf.nn.relu(f32(float("nan")))]""")
case("complex_inf_nan_arithmetic", """
    a = tf.constant([complex(float("inf"), 0), complex(1, 1), complex(float("nan"), 0)],
                    tf.complex128)
    b = tf.constant([complex(2, 1), complex(float("inf"), 0), complex(1, 0)], tf.complex128)
    out = [a * b, a + b, a - b]""")
case("complex_inf_nan_ops", """
    import itertools
    inf, nan = float("inf"), float("nan")
    vals = [complex(inf, 0), complex(0, inf), complex(inf, inf), complex(nan, 0),
            complex(0, nan), complex(1, 1), complex(-inf, 1), complex(2, -inf), 0j]
    # 80 of the 81 pairs: an odd last element runs Eigen's scalar tail, which divides as C
    # does (1 / 0j is inf + nanj there, nan + nanj in a packet; docs/ops.md)
    pairs = list(itertools.product(vals, vals))[:80]
    a = tf.constant([x for x, y in pairs], tf.complex128)
    b = tf.constant([y for x, y in pairs], tf.complex128)
    out = [a * b, a / b, a + b, tf.exp(a), tf.math.log(a), tf.sqrt(a), tf.abs(a),
           tf.square(a), tf.math.reciprocal(a), tf.tanh(a), tf.sigmoid(a),
           tf.sin(a), tf.math.rsqrt(a)]""")
case("complex_division_grad", """
    out = grad(lambda a, b: a / b, c128(1+2j, 3-1j), c128(0.5-1j, 2+2j))""")
case("max_pool_grad_route_with_nan", """
    n = float("nan")
    x = tf.constant(np.array([1, n, n, 3, 2, 0, -1, n, n, n, 5, n, n, n, 5, 1],
                             np.float32).reshape(1, 4, 4, 1))
    out = [tf.nn.max_pool2d(x, 2, 2, "VALID"),
           grad(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), x),
           grad(lambda x: tf.nn.max_pool2d(x, 3, 1, "SAME"), x)]""")
case("max_pool_minus_inf_nan_windows", """
    x = np.full((1, 3, 3, 1), -np.inf, np.float32)
    x[0, 1, 1, 0] = np.nan
    out = [tf.nn.max_pool2d(x, 2, 2, "SAME"), tf.nn.max_pool2d(x[:, :2, :2], 2, 2, "VALID"),
           grad(lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME") * 1.0, tf.constant(x))]""")
case("floordiv_inf", """
    out = [tf.math.floordiv(f32(float("inf"), -5, 5, -float("inf")), f32(2, float("inf"),
                                                                       -float("inf"), 3)),
           tf.math.floormod(f32(float("inf"), -5, 5), f32(2, float("inf"), -float("inf")))]""")
case("top_k_extreme_ints", """
    x = tf.constant([-2**31, 2**31 - 1, 0, -2**31, 5], tf.int32)
    v, i = tf.math.top_k(x, 5)
    y = tf.constant([-2**63, 2**63 - 1, 0], tf.int64)
    v2, i2 = tf.math.top_k(y, 3)
    out = [v, i, v2, i2]""")
case("reduce_mean_int64_overflow", """
    x = tf.constant([2**62, 2**62, 2**62], tf.int64)
    out = [tf.reduce_mean(x), tf.reduce_mean(tf.constant([100, 100, 100], tf.int8))]""")
case("polyval_one_coefficient", """
    x = f32(1, 2, 3)
    out = [tf.math.polyval([f32(2.0)], x), tf.math.polyval([3.0], x),
           tf.math.polyval([tf.constant(2.0)], tf.constant(4.0))]""")
case("binary_focal_crossentropy_large_logits", """
    yt = tf.constant([[0.0, 1.0, 1.0, 0.0]])
    lg = tf.constant([[100.0, -100.0, 50.0, -50.0]])
    out = tf.keras.losses.binary_focal_crossentropy(yt, lg, from_logits=True)""")
case("svd_inf_does_not_hang", """
    x = tf.constant([[float("inf"), 1.0], [2.0, 3.0]])
    s = tf.linalg.svd(x, compute_uv=False)
    out = [tf.shape(s), s]""")
case("svd_nan_gives_nan_factors", """
    x = tf.constant([[[float("nan"), 1.0, 2.0], [2.0, 3.0, 1.0]],
                     [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]], tf.float64)
    s, u, v = tf.linalg.svd(x)
    out = [s, tf.abs(u), tf.abs(v)]""")

# ---------------------------------------------------------------- silent acceptance

_B, _B2 = "tf.constant([True, False])", "tf.constant([False, False])"
for _op in ("maximum", "minimum", "add", "subtract", "multiply", "abs", "negative",
            "square", "sign", "floordiv", "floormod", "pow", "squared_difference",
            "truediv", "reduce_prod", "cumsum", "cumprod", "argmax", "argmin"):
    _unary = _op in ("abs", "negative", "square", "sign", "reduce_prod", "cumsum",
                     "cumprod", "argmax", "argmin")
    case(f"bool_{_op}_refused", f"out = tf.math.{_op}({_B}" + (")" if _unary else f", {_B2})"))
case("bool_python_operators_refused", """
    out = []
    for f in (lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b,
              lambda a, b: tf.reshape(a, (1, 2)) @ tf.reshape(b, (2, 1)), lambda a, b: -a):
        try:
            f(tf.constant([True, False]), tf.constant([True, True]))
            out.append("ok")
        except Exception as e:
            out.append(type(e).__name__)""")
case("bool_linalg_refused", "out = tf.linalg.trace(tf.constant([[True, False], [False, True]]))")
case("bool_reduce_sum_refused", "out = tf.reduce_sum(tf.constant([True, False]))")
case("bool_reduce_mean_refused", "out = tf.reduce_mean(tf.constant([True, False]))")
case("complex_maximum_refused", f"out = tf.math.maximum({_Z}, {_W})")
case("complex_less_refused", f"out = tf.math.less({_Z}, {_W})")
case("complex_reduce_max_refused", f"out = tf.reduce_max({_Z})")
case("complex_argmax_refused", f"out = tf.math.argmax({_Z})")
case("complex_sort_refused", f"out = tf.sort({_Z})")
case("complex_floordiv_refused", f"out = tf.math.floordiv({_Z}, {_W})")
for _op in ("exp", "log", "sqrt", "sin", "tanh", "sigmoid", "erf", "lgamma", "digamma",
            "rsqrt", "log1p", "expm1", "softplus", "asin", "atan", "ceil", "floor", "round",
            "is_nan", "is_finite", "reciprocal"):
    case(f"int_{_op}_refused", f"out = tf.math.{_op}(tf.constant([1, 2]))")
case("int_nn_refused", """
    out = []
    for f in (tf.nn.softmax, tf.nn.log_softmax, tf.nn.elu, tf.nn.selu, tf.nn.softsign,
              tf.math.log_sigmoid):
        try:
            f(tf.constant([1, 2]))
            out.append("ok")
        except Exception as e:
            out.append(type(e).__name__)""")
case("cumsum_axis_out_of_range", "out = tf.math.cumsum(f32(1, 2, 3), axis=1)")
case("cumsum_axis_negative_out_of_range", "out = tf.math.cumsum(f32(1, 2, 3), axis=-2)")
case("cumprod_axis_out_of_range", "out = tf.math.cumprod(f32(1, 2, 3), axis=3)")
case("argmax_scalar_axis0", "out = tf.math.argmax(tf.constant(3.0), axis=0)")
case("argmin_scalar_axis0", "out = tf.math.argmin(tf.constant(3.0), axis=0)")
case("unsorted_segment_sum_id_out_of_range",
     "out = tf.math.unsorted_segment_sum(f32(1, 2), [0, 3], 2)")
case("unsorted_segment_sum_negative_id",
     "out = tf.math.unsorted_segment_sum(f32(1, 2, 4), [0, -1, 1], 2)")
case("unsorted_segment_max_id_out_of_range",
     "out = tf.math.unsorted_segment_max(f32(1, 2), [0, 2], 2)")
case("segment_sum_negative_id", "out = tf.math.segment_sum(f32(1, 2), [-1, 0])")
case("segment_sum_unsorted_ids", "out = tf.math.segment_sum(f32(1, 2, 3), [0, 1, 0])")
case("segment_sum_ids_length", "out = tf.math.segment_sum(f32(1, 2, 3), [0, 1])")
case("einsum_incompatible_dims",
     "out = tf.einsum('ij,jk->ik', tf.ones((2, 3)), tf.ones((4, 2)))")
case("einsum_incompatible_dims_same_operand", "out = tf.einsum('ii->i', tf.ones((2, 3)))")
case("where_scalar", "out = tf.where(tf.constant(True))")
case("where_scalar_false", "out = tf.where(False)")
case("add_n_unequal_shapes", "out = tf.add_n([f32(1, 2), f32(1, 2, 3)])")
case("add_n_broadcastable_shapes", "out = tf.add_n([f32(1, 2), f32(3)])")
case("pad_scalar", "out = tf.pad(tf.constant(1.0), [])")
case("len_scalar_variable", "out = len(tf.Variable(1.0))")
case("len_scalar_tensor", "out = len(tf.constant(1.0))")

# Many ops on a bool, a complex and an int operand: TensorFlow's dtype tables (its answer or
# its error class), one case per op and dtype.
_OPERANDS = {"bool": "tf.constant([True, False])", "complex": "tf.constant([1+2j, 3-1j])",
             "int": "tf.constant([1, 2])"}
_SWEEP = {
    "divide_no_nan": "tf.math.divide_no_nan(a, a)",
    "multiply_no_nan": "tf.math.multiply_no_nan(a, a)",
    "scalar_mul": "tf.math.scalar_mul(2, a)",
    "reduce_variance": "tf.math.reduce_variance(a)",
    "reduce_std": "tf.math.reduce_std(a)",
    "reduce_euclidean_norm": "tf.math.reduce_euclidean_norm(a)",
    "reduce_logsumexp": "tf.math.reduce_logsumexp(a)",
    "segment_sum": "tf.math.segment_sum(a, [0, 1])",
    "segment_mean": "tf.math.segment_mean(a, [0, 1])",
    "unsorted_segment_sum": "tf.math.unsorted_segment_sum(a, [0, 1], 2)",
    "unsorted_segment_max": "tf.math.unsorted_segment_max(a, [0, 1], 2)",
    "unsorted_segment_mean": "tf.math.unsorted_segment_mean(a, [0, 1], 2)",
    "unsorted_segment_sqrt_n": "tf.math.unsorted_segment_sqrt_n(a, [0, 1], 2)",
    "tensordot": "tf.tensordot(a, a, 1)",
    "einsum": "tf.einsum('i,i->', a, a)",
    "round": "tf.math.round(a)", "polygamma": "tf.math.polygamma(tf.ones_like(a), a * a + 1)",
    "rint": "tf.math.rint(a)",
    "softplus": "tf.math.softplus(a)",
    "l2_loss": "tf.nn.l2_loss(a)",
    "relu": "tf.nn.relu(a)",
    "relu6": "tf.nn.relu6(a)",
    "cumsum": "tf.math.cumsum(a, reverse=True, exclusive=True)",
    "reduce_min": "tf.reduce_min(a)",
    "argmax": "tf.argmax(a)",
    "top_k": "tf.math.top_k(a, 1)[0]",
    "sort": "tf.sort(a)",
    "argsort": "tf.argsort(a)",
    "clip_by_value": "tf.clip_by_value(a, a, a)",
    "greater_equal": "a >= a",
    "floordiv": "a // a",
    "mod": "a % a",
    "pow": "a ** a",
    "truediv": "a / a",
    "neg": "-a",
    "abs": "abs(a)",
    "sub": "a - a",
    "add": "a + a",
    "mul": "a * a",
    "matmul": "tf.matmul(tf.reshape(a, (1, 2)), tf.reshape(a, (2, 1)))",
    "trace": "tf.linalg.trace(tf.reshape(tf.concat([a, a], 0), (2, 2)))",
    "sign": "tf.math.sign(a)",
    "sigmoid": "tf.math.sigmoid(a)",
    "log_sigmoid": "tf.math.log_sigmoid(a)",
    "softsign": "tf.nn.softsign(a)",
    "selu": "tf.nn.selu(a)",
    "elu": "tf.nn.elu(a)",
    "gelu": "tf.nn.gelu(a)",
    "silu": "tf.nn.silu(a)",
    "leaky_relu": "tf.nn.leaky_relu(a)",
    "softmax": "tf.nn.softmax(a)",
    "l2_normalize": "tf.math.l2_normalize(a)",
    "reciprocal": "tf.math.reciprocal(a)",
    "atan2": "tf.math.atan2(a, a)",
    "xlogy": "tf.math.xlogy(a, a)",
    "cumulative_logsumexp": "tf.math.cumulative_logsumexp(a)",
    "add_n": "tf.math.add_n([a, a])",
    "invert": "~a",
    "xor": "a ^ a",
    "count_nonzero": "tf.math.count_nonzero(a)",
    "polyval": "tf.math.polyval([a, a], a)",
    "conj": "tf.math.conj(a)",
    "real": "tf.math.real(a)",
    "imag": "tf.math.imag(a)",
    "in_top_k": "tf.math.in_top_k([0], tf.reshape(a, (1, 2)), 1)",
    "norm": "tf.norm(a)",
    "truncatediv": "tf.truncatediv(a, a)",
    "truncatemod": "tf.truncatemod(a, a)",
    "cross": "tf.linalg.cross(tf.concat([a, a[:1]], 0), tf.concat([a, a[:1]], 0))",
    "matvec": "tf.linalg.matvec(tf.reshape(tf.concat([a, a], 0), (2, 2)), a)",
    "det": "tf.linalg.det(tf.reshape(tf.concat([a, a], 0), (2, 2)))",
}
for _dtype, _operand in _OPERANDS.items():
    for _op, _expr in _SWEEP.items():
        case(f"dtype_{_dtype}_{_op}", f"a = {_operand}\nout = {_expr}")

# Half-precision kernels: which ops TensorFlow runs in float16/bfloat16 (the result's dtype
# and value), which it declares without a CPU kernel (NotFoundError) or refuses.
_HALF = {
    "lgamma": "tf.math.lgamma(a)", "digamma": "tf.math.digamma(a)", "erf": "tf.math.erf(a)",
    "erfc": "tf.math.erfc(a)", "softplus": "tf.math.softplus(a)", "selu": "tf.nn.selu(a)",
    "elu": "tf.nn.elu(a)", "gelu": "tf.nn.gelu(a)", "relu6": "tf.nn.relu6(a)",
    "leaky_relu": "tf.nn.leaky_relu(a)", "silu": "tf.nn.silu(a)", "sigmoid": "tf.sigmoid(a)",
    "tanh": "tf.tanh(a)", "atanh": "tf.math.atanh(a * 0.25)", "asinh": "tf.math.asinh(a)",
    "acosh": "tf.math.acosh(a + 3)", "tan": "tf.math.tan(a)", "cumsum": "tf.math.cumsum(a)",
    "cumprod": "tf.math.cumprod(a)", "cumulative_logsumexp": "tf.math.cumulative_logsumexp(a)",
    "reduce_prod": "tf.reduce_prod(a)", "reduce_logsumexp": "tf.reduce_logsumexp(a)",
    "reduce_std": "tf.math.reduce_std(a)", "reduce_variance": "tf.math.reduce_variance(a)",
    "reduce_euclidean_norm": "tf.math.reduce_euclidean_norm(a)", "norm": "tf.norm(a)",
    "l2_normalize": "tf.math.l2_normalize(a)", "softmax": "tf.nn.softmax(a)",
    "top_k": "tf.math.top_k(a, 2)[0]", "sort": "tf.sort(a)", "argmax": "tf.argmax(a)",
    "segment_max": "tf.math.segment_max(a, [0, 0, 1, 1])",
    "xlogy": "tf.math.xlogy(a, a * a)", "floordiv": "a // (a + 3)",
    "atan2": "tf.math.atan2(a, a + 3)", "pow": "tf.pow(a * a, a)",
    "rsqrt": "tf.math.rsqrt(a * a)", "reciprocal": "tf.math.reciprocal(a)",
    "matvec": "tf.linalg.matvec(tf.reshape(a, (2, 2)), a[:2])",
    "conv2d": "tf.nn.conv2d(tf.reshape(a, (1, 2, 2, 1)), tf.reshape(a, (2, 2, 1, 1)), 1, 'VALID')",
    "round": "tf.math.round(a)", "polygamma": "tf.math.polygamma(tf.ones_like(a), a * a + 1)",
    "matmul": "tf.matmul(tf.reshape(a, (2, 2)), tf.reshape(a, (2, 2)))",
    "einsum": "tf.einsum('i,i->', a, a)", "conj": "tf.math.conj(a)", "real": "tf.math.real(a)",
    "max_pool": "tf.nn.max_pool2d(tf.reshape(a, (1, 2, 2, 1)), 2, 1, 'VALID')",
    "sigmoid_cross_entropy":
        "tf.nn.sigmoid_cross_entropy_with_logits(labels=a * 0 + 0.5, logits=a)",
    "l2_loss": "tf.nn.l2_loss(a)", "squared_difference": "tf.math.squared_difference(a, a * 2)",
    "det": "tf.linalg.det(tf.reshape(a, (2, 2)))", "inv": "tf.linalg.inv(tf.reshape(a, (2, 2)))",
    "cholesky": "tf.linalg.cholesky(tf.eye(2, dtype=a.dtype) * 2)",
    "svd": "tf.linalg.svd(tf.reshape(a, (2, 2)), compute_uv=False)",
    "solve": "tf.linalg.solve(tf.reshape(a, (2, 2)), tf.reshape(a[:2], (2, 1)))",
    "qr": "tf.linalg.qr(tf.reshape(a, (2, 2)))[1]",
    "eigh": "tf.linalg.eigh(tf.eye(2, dtype=a.dtype))[0]",
    "logdet": "tf.linalg.logdet(tf.eye(2, dtype=a.dtype) * 2)",
    "slogdet": "tf.linalg.slogdet(tf.eye(2, dtype=a.dtype) * 2)[1]",
    "triangular_solve":
        "tf.linalg.triangular_solve(tf.eye(2, dtype=a.dtype), tf.eye(2, dtype=a.dtype))",
    "matrix_rank": "tf.linalg.matrix_rank(tf.eye(2, dtype=a.dtype))",
    "eigvalsh": "tf.linalg.eigvalsh(tf.eye(2, dtype=a.dtype))",
}
for _dtype in ("float16", "bfloat16"):
    for _op, _expr in _HALF.items():
        case(f"half_{_dtype}_{_op}",
             f"a = tf.cast(tf.constant([0.5, 1.5, -2.0, 0.25]), tf.{_dtype})\nout = {_expr}")

# ---------------------------------------------------------------- error classes, crashes

case("softmax_scalar", "out = tf.nn.softmax(tf.constant(1.0))")
case("log_softmax_scalar", "out = tf.nn.log_softmax(tf.constant(1.0))")
case("leaky_relu_int", "out = tf.nn.leaky_relu(tf.constant([1, -2]))")
case("invert_float", "out = ~f32(1.0)")
case("bitwise_operators_on_ints", """
    a, b = tf.constant([12, -3, 7]), tf.constant([10, 5, -1])
    out = [a & b, a | b, a ^ b, ~a, tf.constant([True, False]) ^ tf.constant([True, True])]""")
case("bitwise_and_float", "out = f32(1.0) & f32(2.0)")
case("concat_mismatched_ranks", "out = tf.concat([f32(1, 2), tf.ones((2, 2))], 0)")
case("concat_mismatched_dims", "out = tf.concat([tf.ones((2, 3)), tf.ones((2, 2))], 0)")
case("float16_kernels", """
    x = tf.constant([0.5, 1.5, -2.0], tf.float16)
    out = [tf.math.lgamma(x), tf.math.erf(x), tf.math.digamma(x), tf.math.erfc(x),
           tf.nn.softplus(x), tf.math.cumsum(x), tf.reduce_prod(x), tf.math.atanh(x * 0.5)]""")

# ---------------------------------------------------------------- empty tensors

case("reduce_max_empty_axis", "out = tf.reduce_max(tf.zeros([2, 0]), 1)")
case("reduce_min_empty_axis", "out = tf.reduce_min(tf.zeros([2, 0]), 1)")
case("reduce_max_empty_int", "out = tf.reduce_max(tf.zeros([2, 0], tf.int32), 1)")
case("reduce_min_empty_all", "out = tf.reduce_min(tf.zeros([0], tf.float64))")
case("reduce_logsumexp_empty_axis", "out = tf.reduce_logsumexp(tf.zeros([2, 0]), 1)")
case("reduce_max_empty_grad", """
    out = grad(lambda x: tf.reduce_max(x, 1), tf.zeros([2, 0], tf.float64))""")
case("softmax_empty", """
    out = [tf.nn.softmax(tf.zeros([2, 0])), tf.nn.log_softmax(tf.zeros([0, 3]))]""")
case("segment_ops_empty", """
    e = tf.zeros([0], tf.float32)
    ids = tf.zeros([0], tf.int32)
    out = [tf.math.segment_sum(e, ids), tf.math.segment_max(e, ids),
           tf.math.segment_mean(e, ids), tf.math.unsorted_segment_max(e, ids, 2),
           tf.math.unsorted_segment_min(e, ids, 2), tf.math.segment_min(e, ids)]""")
case("cumsum_exclusive_empty", """
    out = [tf.math.cumsum(tf.zeros([0]), exclusive=True),
           tf.math.cumsum(tf.zeros([2, 0]), axis=1, exclusive=True, reverse=True),
           tf.math.cumprod(tf.zeros([0, 2]), exclusive=True)]""")
case("gather_grad_empty", """
    p = tf.zeros([3, 2], tf.float64)
    out = [grad(lambda p: tf.gather(p, tf.zeros([0], tf.int32)), p),
           grad(lambda p: tf.gather(p, [1, 1]), tf.zeros([0, 2], tf.float64)
                ) if False else None]""")

# ---------------------------------------------------------------- smaller misses

case("constant_empty_int32", """
    out = [tf.constant([], tf.int32), tf.constant([], tf.int64), tf.constant([[]], tf.bool)]""")
case("convert_to_tensor_dtype_hint", """
    out = [tf.convert_to_tensor(1, dtype_hint=tf.float32),
           tf.convert_to_tensor([1, 2], dtype_hint=tf.float64),
           tf.convert_to_tensor(1.5, dtype_hint=tf.int32),
           tf.convert_to_tensor(tf.constant(1), dtype_hint=tf.float32),
           tf.convert_to_tensor([], dtype_hint=tf.int64)]""")
case("max_pool_nan_window_and_int_padding", """
    n = float("nan")
    out = [tf.nn.max_pool2d(tf.reshape(f32(n, n, n, n), (1, 2, 2, 1)), 2, 1, "VALID"),
           tf.nn.max_pool2d(tf.reshape(tf.range(-9, 0), (1, 3, 3, 1)), 2, 2, "SAME")]""")
case("einsum_no_broadcast_of_one", """
    out = tf.einsum("ij,jk->ik", tf.ones((2, 1)), tf.ones((3, 2)))""")
case("segment_max_nan_order", """
    n = float("nan")
    out = [tf.math.segment_max([n, n, 1.0], [0, 0, 1]),
           tf.math.segment_max([1.0, 3.0, n, 2.0, n], [0, 0, 0, 1, 1]),
           tf.math.unsorted_segment_max([1.0, 5.0, n, 2.0, 3.0], [0, 1, 0, 1, 0], 2)]""")
case("argmax_all_nan", """
    n = float("nan")
    out = [tf.argmax(f32(n, n)), tf.argmin(f32(n, n))]""")
case("grad_relu6_leaky_elu_nan_and_bounds", """
    x = f64(-1.0, 0.0, 3.0, 6.0, 7.0, float("nan"))
    out = [tf.nn.relu6(x), grad(tf.nn.relu6, x), grad(lambda x: tf.nn.leaky_relu(x, 0.3), x),
           grad(tf.nn.elu, x)]""")
case("max_pool_int32", """
    x = tf.reshape(tf.range(9), (1, 3, 3, 1))
    out = tf.nn.max_pool2d(x, 2, 1, "VALID")""")
case("segment_mean_int", """
    out = [tf.math.segment_mean(tf.constant([1, 2, 4]), [0, 0, 1]),
           tf.math.unsorted_segment_mean(tf.constant([1, 2, 4]), [0, 0, 1], 3)]""")

# ---------------------------------------------------------------- session 8

case("linalg_diag_offset_and_size", """
    d = f64(1, 2, 3)
    out = [tf.linalg.diag(d, k=1), tf.linalg.diag(d, k=-2),
           tf.linalg.diag(d, k=1, num_rows=3), tf.linalg.diag(d, num_cols=5, padding_value=9),
           tf.linalg.diag(tf.reshape(tf.range(4.0), (2, 2)), k=(1, 1)),
           grad(lambda d: tf.linalg.diag(d, k=-1) * tf.reshape(tf.range(16.0, dtype=tf.float64),
                                                             (4, 4)), d)]""")
case("linalg_diag_inconsistent_size", "out = tf.linalg.diag(f64(1, 2), num_rows=4, num_cols=5)")
case("eigh_complex_eigenvalues_dtype", """
    a = tf.complex(tf.constant([[2.0, 0.0], [0.0, 3.0]]), tf.constant([[0.0, 1.0], [-1.0, 0.0]]))
    e, v = tf.linalg.eigh(a)
    out = [e, tf.linalg.eigvalsh(a), tf.abs(v),
           grad(lambda a: tf.math.real(tf.linalg.eigvalsh(a)) * tf.constant([1.0, 2.0]), a)]""")
case("keras_logcosh_float64_log2", """
    yt, yp = f64(1.7338, -1.2186), f64(-0.8744, -0.1502)
    out = [tf.keras.losses.logcosh(yt, yp), tf.keras.losses.logcosh(f32(0.3, 2.0), f32(1, 1))]""")
case("grad_sign_complex", """
    z = c128(1+2j, -0.5+1j, 0j)
    v = c128(0.7-0.4j, 1.0, 2j)
    with tf.GradientTape() as t:
        t.watch(z)
        y = tf.math.sign(z)
    out = [y, t.gradient(y, z, output_gradients=v), grad2(tf.math.sign, z)]""")
case("compute_average_loss_weights_rank_and_float32", """
    loss = tf.reshape(f64(1, 2, 3, 4, 5, 6.1234567891), (2, 3))
    w = f64(0.5, 2.0)
    f = lambda loss, w: tf.nn.compute_average_loss(loss, sample_weight=w, global_batch_size=4)
    out = [f(loss, w), grad(f, loss, w),
           tf.nn.compute_average_loss(loss, sample_weight=tf.reshape(w, (2, 1, 1)))]""")
case("grad_complex_reduce_euclidean_norm_complex_upstream", """
    z = c128(0.5+0.3j, -0.2+0.4j)
    with tf.GradientTape() as t:
        t.watch(z)
        n = tf.math.reduce_euclidean_norm(z)
    out = [t.gradient(n, z, output_gradients=tf.constant(0.7-0.4j, tf.complex128))]""")
case("grad_qr_wide_and_full", """
    a = tf.reshape(f64(2, -1, 0.5, 3, 1, 4, -2, 0.25), (2, 4))
    f = lambda a: tf.linalg.qr(a)[0] * f64(1, 2) + tf.reduce_sum(tf.linalg.qr(a)[1] * a)
    w = lambda a: tf.linalg.qr(a, full_matrices=True)[1]
    out = [grad(f, a), grad(w, a), grad2(w, a),
           grad(lambda a: tf.linalg.qr(a)[1], tf.transpose(a))]""")
case("grad_qr_tall_full_matrices", """
    a = tf.reshape(f64(2, -1, 0.5, 3, 1, 4), (3, 2))
    out = grad(lambda a: tf.linalg.qr(a, full_matrices=True)[1], a)""")
case("constant_string_from_numpy_with_dtype", """
    import numpy as np
    a = tf.constant(np.asarray("2"), dtype=tf.string)
    b = tf.constant(np.asarray(["2", "3"]), dtype=tf.string)
    out = [tf.math.equal(a, b), tf.math.not_equal(a, tf.constant("2")),
           tf.strings.length(b), a.dtype == tf.string, tf.rank(b)]""")
case("segment_ops_size0_rows", """
    d = tf.zeros([3, 0])
    out = [tf.math.segment_sum(d, [0, 1, 2]), tf.math.segment_mean(tf.zeros([4, 0], tf.int32),
                                                                   [0, 0, 0, 1]),
           tf.math.unsorted_segment_sum(tf.zeros([5, 0, 1]), [1, 0, 0, 2, 2], 3),
           tf.math.segment_max(tf.zeros([2, 0]), [0, 1]),
           tf.math.unsorted_segment_min(tf.zeros([2, 0]), [1, 1], 3)]""")
case("gather_empty_result_reads_no_index", """
    p = tf.zeros([1, 1, 0], tf.float64)
    out = [tf.gather(p, 1), tf.gather(tf.zeros([2, 0]), [5]),
           tf.gather(tf.zeros([0, 0], tf.int64), 0, axis=1),
           grad(lambda p: tf.gather(p, 1), p), grad(lambda p: tf.gather(p, 0),
                                                    tf.zeros([3, 0], tf.float64))]""")
case("gather_empty_axis_refused", "out = tf.gather(tf.zeros([0, 3]), [0])")
case("keras_tanh_exponential_of_ints", """
    out = [tf.keras.activations.tanh(tf.constant([1, 0, -2])),
           tf.keras.activations.exponential(tf.constant([1, 0], tf.int64)),
           tf.keras.activations.exponential(tf.constant([True, False])),
           tf.keras.activations.exponential(tf.zeros([1, 0], tf.int32))]""")
case("matrix_rank_nonfinite_empty", """
    inf, nan = float("inf"), float("nan")
    out = [tf.linalg.matrix_rank(tf.reshape(f64(1, inf, 0, 1), (2, 2))),
           tf.linalg.matrix_rank(tf.reshape(f32(1, nan, 0, 1), (2, 2))),
           tf.linalg.matrix_rank(tf.zeros([1, 3, 0])), tf.linalg.matrix_rank(tf.zeros([0, 4])),
           tf.linalg.matrix_rank(tf.reshape(f64(1, 2, 2, 4.000001, 0, 1), (3, 2)))]""")
case("matrix_rank_int_refused", "out = tf.linalg.matrix_rank(tf.constant([[2], [-2]]))")
case("pow_int_negative_exponent_empty", """
    out = [tf.zeros([0, 0], tf.int32) ** -9, tf.math.pow(tf.zeros([2, 0], tf.int64), -1)]""")

# Cases where TensorFlow is wrong: NumPy source setting ``out`` to the answer kept. The
# complex gradients of Xlogy, Xdivy and Xlog1py are TensorFlow's g * f'(z), not the
# g * conj(f'(z)) its convention (and its other holomorphic ops: Log, Asin, ...) gives: the
# gradient of the real loss Re(sum f(z, w)) by central differences in float64 is the latter.
# Sweep differences (seeds 1, 2) outside known.py.
case("selu_grad_nonfinite", """
    out = grad(tf.nn.selu, f64(1.0, -3.0, float("nan"), -float("inf"), 0.0, -1e30))""")
case("multiply_no_nan_dtype_mismatch",
     "out = tf.math.multiply_no_nan(f64(1.5, 2.0), tf.constant([2, 3]))")
case("multiply_no_nan_python_x_float64_y",
     "out = tf.math.multiply_no_nan(1.5, f64(2.0, 0.0))")


case("clip_by_global_norm_infinite_norm", """
    out = tf.clip_by_global_norm([tf.constant(1e30), f32(0.5, -0.25)], 1.0)""")
case("sign_uint8_refused", "out = tf.sign(tf.constant([1, 0], tf.uint8))")
case("sign_uint8_empty_refused", "out = tf.sign(tf.zeros([1, 0], tf.uint8))")


case("reciprocal_no_nan_int_refused", "out = tf.math.reciprocal_no_nan(tf.constant([1, 0]))")


# ---------------------------------------------------------------- sweepla (session 9)
# Sweep differences (seeds 1-3) in linalg, signal, convolution and pooling.
case("sweepla_rfft_zero_length_keeps_zero_bins", """
    out = [tf.signal.rfft(tf.zeros([3, 0])), tf.signal.rfft2d(tf.zeros([1, 0], tf.float64)),
           tf.signal.rfft2d(tf.zeros([2, 0, 0])), tf.signal.rfft(tf.zeros([0, 3])),
           tf.signal.rfft2d(tf.constant(np.ones([1, 5, 3], np.float32)), fft_length=[0, 5])]""")
case("sweepla_rfft_empty_short_axis_refused",
     "out = tf.signal.rfft(tf.zeros([0, 2]), fft_length=[4])")
case("sweepla_rfft2d_empty_short_axis_refused",
     "out = tf.signal.rfft2d(tf.zeros([0, 1, 2], tf.float64), fft_length=[3, 2])")

case("sweepla_triangular_solve_singular_and_nonfinite", """
    inf, nan = float("inf"), float("nan")
    a = tf.constant([[[0., 0], [1, 1]], [[1, 0], [inf, 1]], [[2, 0], [3, 0]],
                     [[nan, 0], [3, 2]]])
    b = tf.constant([[[1.], [1]], [[0], [1]], [[1], [1]], [[1], [1]]])
    out = [tf.linalg.triangular_solve(a, b), tf.linalg.triangular_solve(a, b, adjoint=True),
           tf.linalg.triangular_solve(a, b, lower=False),
           tf.linalg.triangular_solve(tf.eye(2, dtype=tf.float64), f64(inf, 1)[:, None]),
           tf.linalg.cholesky_solve(tf.constant([[0., 0], [1, 1]]), tf.constant([[1.], [2]]))]""")
case("sweepla_cholesky_nonfinite_goes_on_as_eigen", """
    inf, nan = float("inf"), float("nan")
    a = tf.constant([[1.8199257, -3.945799e29], [-3.945799e29, inf]])
    out = [tf.linalg.cholesky(a),
           tf.linalg.cholesky(tf.constant([[4., 2, 0], [2, 5, 0], [0, nan, 9]])),
           tf.linalg.cholesky(tf.reshape(f64(inf, 1, 1, 2), [2, 2]))]""")
case("sweepla_cholesky_grad_of_overflowing_factor", """
    out = [grad(tf.linalg.cholesky, tf.constant([[5e30, -4e29], [-4e29, 1.35]])),
           grad(tf.linalg.logdet, tf.constant([[5e30, -1e30], [-1e30, 3.5]]))]""")
case("sweepla_cholesky_grad_not_positive_definite_complex", """
    a = tf.constant([[2.1 - 1.9j, 0.5 + 1.5j], [-1.1 + 0.5j, -0.1 + 0.2j]], tf.complex64)
    out = [grad(lambda a: tf.math.real(tf.linalg.cholesky(a)), a),
           grad(lambda a: tf.math.real(tf.linalg.logdet(a)), a)]""")

case("sweepla_conv_valid_filter_longer_than_input_eigen", """
    x, w = tf.ones([2, 4, 1, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64)
    out = [tf.nn.convolution(x, w, 1, "VALID"),
           grad(lambda x: tf.nn.convolution(x, w, 1, "VALID"), x),
           tf.nn.conv1d(tf.ones([2, 2, 1], tf.float16), tf.ones([3, 1, 1], tf.float16), 1,
                        "VALID"),
           tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 2], tf.float64),
                                  tf.ones([3, 3, 2, 1], tf.float64), [1, 1, 1, 1], "VALID")]""")

case("sweepla_avg_pool_window_longer_than_input_refused",
     "out = tf.nn.avg_pool(tf.ones([1, 3, 1, 2], tf.float64), 3, 1, 'VALID')")
case("sweepla_avg_pool1d_window_longer_than_input_refused",
     "out = tf.nn.avg_pool1d(tf.ones([1, 1, 2], tf.float16), 3, 1, 'VALID')")
case("sweepla_pool_empty_output_allowed", """
    out = [tf.nn.avg_pool(tf.ones([1, 1, 2, 1]), 3, 2, "VALID"),
           tf.nn.max_pool(tf.ones([1, 1, 2, 1], tf.float64), 3, 2, "VALID"),
           tf.nn.avg_pool1d(tf.ones([1, 2, 1], tf.float64), 3, 1, "VALID"),
           tf.nn.max_pool1d(tf.ones([1, 1, 1], tf.float16), 3, 2, "VALID")]""")

case("sweepla_sort_with_nan_in_topk_order", """
    nan = float("nan")
    x = tf.constant([[1., nan, 3., -1.], [nan, 2., nan, 1.], [-float("inf"), nan, 4., 0.]])
    out = [tf.sort(x), tf.sort(x, direction="DESCENDING"), tf.argsort(x),
           tf.argsort(x, direction="DESCENDING"), tf.argsort(tf.transpose(x), axis=0),
           tf.sort(tf.cast(x, tf.float16), direction="DESCENDING"),
           grad(lambda x: tf.sort(x) * tf.constant([1., 2., 3., 4.]), x)]""")

case("sweepla_moments_grad_nonfinite", """
    x = tf.constant([0.148, -0.171, float("inf")], tf.float16)
    y = tf.constant([[-0.52, 2.2], [7e4, -0.35]], tf.float16)
    out = [grad(lambda x: tf.nn.moments(x, [0])[1], x),
           grad(lambda y: tf.nn.moments(y, [0, 1])[1] * 3.0, y),
           grad(lambda x: tf.nn.moments(x, [0])[0], x)]""")

case("sweepla_dct_of_ints_refused", "out = tf.signal.dct(tf.constant([-5, 1, 8, -4]), type=4)")
case("sweepla_idct_of_bool_refused", "out = tf.signal.idct(tf.constant([True, False]))")
case("sweepla_dct_ortho_empty_refused",
     "out = tf.signal.dct(tf.zeros([2, 0]), type=3, norm='ortho')")
case("sweepla_dct_empty", """
    out = [tf.signal.dct(tf.zeros([2, 0])), tf.signal.idct(tf.zeros([2, 0]), type=3),
           tf.signal.dct(tf.zeros([3, 0], tf.float64), type=4, norm="ortho")]""")
case("sweepla_irfft_empty_short_axis_refused",
     "out = tf.signal.irfft(tf.zeros([0, 2], tf.complex64), fft_length=[6])")

case("sweepla_conv2d_transpose_bad_output_shape_float32",
     "out = tf.nn.conv2d_transpose(tf.ones([2, 3, 3, 1]), tf.ones([2, 3, 1, 1]), [2, 9, 6, 1], 2)")
case("sweepla_conv2d_transpose_bad_output_shape_float64", """
    out = tf.nn.conv2d_transpose(tf.ones([1, 4, 2, 1], tf.float64),
                                 tf.ones([3, 3, 1, 1], tf.float64), [1, 7, 2, 1], 1)""")
case("sweepla_conv1d_transpose_bad_channels_float32",
     "out = tf.nn.conv1d_transpose(tf.ones([2, 3, 1]), tf.ones([3, 2, 1]), [2, 3, 1], 1)")

case("sweepla_expm_per_matrix_pade_and_scaling", """
    a = np.array([[[0.001, 0.002], [-0.003, 0.001]], [[0.1, -0.2], [0.15, 0.05]],
                  [[1.1, 2.2], [3.3, -4.1]], [[30.0, -12.0], [7.0, 25.0]]])
    out = [tf.linalg.expm(tf.constant(a)), tf.linalg.expm(tf.constant(a, tf.float32)),
           tf.linalg.expm(tf.constant([[1e300, 0.0], [0.0, -1.0]], tf.float64)),
           grad(tf.linalg.expm, tf.constant(a)),
           grad(tf.linalg.expm, tf.constant(a, tf.float32))]""")

# ---------------------------------------------------------------- sweep seeds 1-3 (sweepmath)
case("polygamma_float32_large_orders", """
    inf = float("inf")
    out = [tf.math.polygamma(f32(1e30, 1e30, 41, 6721, 70000, 35, inf, 1e30),
                             f32(0.0013, 0.73, -23.808, 0.5, 3.0, 2.5, 54.5, -2.0)),
           tf.math.polygamma(f64(1e30, 171, 200, 4.0), f64(0.5, 3.0, 0.5, -30.25)),
           grad(lambda x: tf.math.polygamma(f32(6721, 40, 2), x), f32(0.5, 2.5, -1.5))]""")

case("forward_mode_zero_tangent_of_constant_inputs", """
    inf, nan = float("inf"), float("nan")
    c, x = f32(inf, 3.0, 2.0), f32(2.0, 1.0, 0.0)
    yt, yp = f64(4701.5827, -1059.4821, 1.0), f64(inf, 2.0, 1.5)
    with tf.autodiff.ForwardAccumulator((c, yp), (f32(1.0, 1.0, 1.0), f64(0.5, -0.2, 0.3))) as acc:
        ys = [x * c, c / x, x / c, tf.pow(c, x), tf.math.floormod(c, x), tf.math.atan2(c, x),
              tf.matmul(tf.reshape(x, (1, 3)), tf.reshape(c, (3, 1))), x + c,
              tf.keras.losses.huber(yt, yp), tf.math.scalar_mul(2.0, c)]
    out = [acc.jvp(y) for y in ys]""")
case("selu_l2_loss_one_op_forward_mode", """
    inf, nan = float("inf"), float("nan")
    x = f64(1.0, -3.0, nan, -inf, 0.0, -1e30, inf)
    t = f64(0.3, 0.7, 0.1, 0.2, -0.5, 0.4, 0.6)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        ys = [tf.nn.selu(x), tf.nn.l2_loss(x), tf.nn.l2_loss(x[:3])]
    out = [acc.jvp(y) for y in ys] + ys + [grad(tf.nn.selu, x), grad2(tf.nn.selu, x),
                                           grad(tf.nn.l2_loss, x), grad2(tf.nn.l2_loss, x)]""")

case("tensor_scatter_indices_into_empty_output", """
    out = [tf.tensor_scatter_nd_max(tf.zeros([4, 0]), [[2]], tf.zeros([1, 0])),
           tf.tensor_scatter_nd_max(tf.zeros([4, 0]), tf.zeros([0, 1], tf.int32),
                                    tf.zeros([0, 0]))]""")
for _op in ("max", "min", "sub", "add", "update"):
    case(f"tensor_scatter_nd_{_op}_empty_output_refused",
         f"out = tf.tensor_scatter_nd_{_op}(tf.zeros([2, 0, 1]), [[1], [0]], tf.zeros([2, 0, 1]))")
case("tensor_scatter_nd_min_max_nan", """
    nan = float("nan")
    t = f32(4.0, nan, -1.0, 2.0)
    i = tf.constant([[0], [0], [1], [2], [3]])
    u = f32(nan, 1.0, 3.0, nan, 5.0)
    out = [tf.tensor_scatter_nd_min(t, i, u), tf.tensor_scatter_nd_max(t, i, u),
           grad(lambda t, u: tf.tensor_scatter_nd_min(t, i, u), t, u),
           grad(lambda t, u: tf.tensor_scatter_nd_max(t, i, u), t, u)]""")

case("reduce_prod_gradients_by_cumprods", """
    a = tf.reshape(f32(-1.3458, 1.4231, -1e30, -0.27691), (2, 2))
    b = tf.reshape(f64(0.5, -2.0, 3.0, 1.5, -0.25, 4.0, 2.0, 0.75), (2, 2, 1, 2))
    h = tf.constant([[16473.3197, 3623.7446], [15894.2695, 3545.0643]], tf.float16)
    f = lambda x: tf.reduce_prod(x, axis=1)
    out = [grad(f, a), grad2(f, a), grad2(tf.reduce_prod, tf.constant(0.0009)),
           grad(lambda b: tf.reduce_prod(b, axis=[1, 2]), b),
           grad2(lambda b: tf.reduce_prod(b, axis=[1, 2]), b),
           grad(lambda h: tf.reduce_prod(h, axis=0), h),
           grad(lambda z: tf.reduce_prod(z, axis=0), tf.constant([[0.0, 2.0], [0.0, 3.0]])),
           grad(lambda z: tf.reduce_prod(z, axis=1), tf.zeros([0, 3])),
           grad(lambda z: tf.reduce_prod(z, axis=0), tf.zeros([0, 3]))]""")

case("forward_mode_mean_of_empty", """
    a, b = tf.zeros([3, 0], tf.float64), tf.zeros([3, 0], tf.float64)
    with tf.autodiff.ForwardAccumulator((a, b), (tf.zeros([3, 0], tf.float64),) * 2) as acc:
        ys = [tf.keras.losses.logcosh(a, b), tf.keras.losses.msle(a, b),
              tf.keras.losses.binary_crossentropy(a, b), tf.reduce_mean(b, axis=1),
              tf.reduce_mean(b)]
    out = [acc.jvp(y) for y in ys]""")

case("angle_of_ints_bools_strings_refused", "out = tf.math.angle(tf.constant([1, -2]))")
case("angle_of_bool_refused", "out = tf.math.angle(tf.constant([True]))")
case("angle_of_uint8_refused", "out = tf.math.angle(tf.constant([3], tf.uint8))")
case("complex_of_infinite_parts", """
    inf = float("inf")
    z = tf.complex(f32(-1.0, inf, 2.0, -inf), f32(inf, 0.5, -inf, -inf))
    out = [z, grad(tf.math.angle, tf.constant(complex(inf, -1), tf.complex64))]""")
case("complex_division_packets_and_tail", """
    inf = float("inf")
    out = [tf.math.reciprocal(tf.constant([complex(inf, 0)] * n, dt))
           for n in (1, 2, 3, 5, 9) for dt in (tf.complex64, tf.complex128)]
    out += [tf.constant(1 + 1j, tf.complex128) / tf.constant([complex(inf, 0)] * 3, tf.complex128),
            tf.math.reciprocal(tf.constant([complex(inf, 0), complex(1, inf), 1e-30 + 0j, 0j,
                                            1 + 1j, complex(3e38, 3e38), 0j], tf.complex64))]""")

_ZINF = ('tf.constant([complex(0.31, inf), complex(nan, 2.05), complex(inf, 0), 1 + 2j, 0j, '
         'complex(-inf, 1), complex(2, -inf), 0.5 - 0.3j], tf.complex64)')
for _op in ("log", "log1p", "tan", "asin", "acos", "atanh", "asinh"):
    case(f"grad_complex_nonfinite_{_op}", f"""
        inf, nan = float("inf"), float("nan")
        z = {_ZINF}
        out = [grad(tf.math.{_op}, z), grad(tf.math.{_op}, z[:3]), grad(tf.math.{_op}, z[4:])]""")
case("grad_complex_asinh_branch", """
    z = tf.constant([2j, -2j, 1e-9 + 2j, -1e-9 - 3j, 0.5 + 1.5j, -0.2 - 4j], tf.complex128)
    out = [grad(tf.math.asinh, z), grad(tf.math.asinh, tf.cast(z, tf.complex64))]""")
case("grad_complex_divide_nonfinite", """
    inf, nan = float("inf"), float("nan")
    x = tf.constant([1 + 1j, complex(inf, 1), 2 - 1j, 0j, 3j, complex(nan, 0), 1, 2], tf.complex64)
    y = tf.constant([complex(inf, 0), 1 + 1j, 0j, 0j, 2 + 0.5j, 1j, complex(0, inf), 3 - 1j],
                    tf.complex64)
    out = [grad(tf.math.divide, x, y),
           grad(tf.math.divide, tf.cast(x, tf.complex128), tf.cast(y, tf.complex128))]""")

case("softmax_float32_rows_with_nan", """
    inf, nan = float("inf"), float("nan")
    x = tf.constant([[1.0, nan, 0.5], [3.0, 4.0, 1.0], [inf, 0.0, -inf], [-inf, 1.0, 2.0]])
    out = [tf.math.softmax(x), tf.math.softmax(x, axis=0), tf.nn.softmax(tf.cast(x, tf.float64)),
           tf.nn.softmax(tf.cast(x, tf.float16)), tf.nn.softmax(tf.cast(x, tf.bfloat16)),
           tf.keras.activations.softmax(x)]""")

case("sparse_categorical_crossentropy_object_same_rank_refused", """
    loss = tf.keras.losses.SparseCategoricalCrossentropy(reduction=None)
    out = loss(tf.zeros([2, 2]), tf.fill([2, 2, 1], 0.5))""")
case("sparse_categorical_crossentropy_object_ranks", """
    loss = tf.keras.losses.SparseCategoricalCrossentropy(reduction=None)
    out = [loss(tf.zeros([2]), tf.fill([2, 1], 0.5)),
           loss(tf.constant([[1.0], [0.0]]), tf.constant([[0.3, 0.7], [0.9, 0.1]])),
           loss(tf.constant([1, 0]), tf.constant([[0.3, 0.7], [0.9, 0.1]]))]""")
case("string_tensor_with_python_number_refused", "out = tf.constant(['6']) == 1.0")
case("string_tensor_less_python_number_refused", "out = tf.constant(['6']) < 1")
case("string_tensor_times_python_number_refused", "out = tf.constant('0') * 1.0")

case("logical_or_python_number_refused", "out = tf.math.logical_or(tf.constant(8), 0)")
case("logical_and_bool_and_python_number_refused",
     "out = tf.math.logical_and(tf.constant([True]), 0)")
case("logical_or_int_tensors_refused",
     "out = tf.math.logical_or(tf.constant([1]), tf.constant([0]))")
case("logical_xor_float_and_number_refused", "out = tf.math.logical_xor(tf.constant(0.0), 47.2)")
case("logical_ops_bools", """
    out = [tf.math.logical_or(tf.constant([True, False]), [False, False]),
           tf.math.logical_xor(tf.constant([True]), True), tf.constant([True]) | False]""")
case("reduce_all_int_axis_list_refused",
     "out = tf.math.reduce_all(tf.zeros([3, 2], tf.int32), axis=[-1])")
case("reduce_any_float_axis_tuple_refused", "out = tf.math.reduce_any(tf.zeros([3, 2]), axis=(0,))")
case("reduce_all_int_axis_int_refused", "out = tf.math.reduce_all(tf.zeros([3, 2], tf.int32), -1)")
case("reduce_any_int_no_axis_refused", "out = tf.math.reduce_any(tf.zeros([3, 2], tf.int32))")

case("log_poisson_loss_full_loss_stirling_outside_0_1", """
    nan = float("nan")
    z = f64(-1.0, 0.0, 0.5, 1.0, 2.5, nan)
    c = f64(-1.6998, 0.3, -0.2, 0.1, 0.7, 0.4)
    f = lambda z, c: tf.nn.log_poisson_loss(z, c, compute_full_loss=True)
    out = [f(z, c), grad(f, z, c), grad2(f, z, c)]""")

case("reduce_euclidean_norm_one_op", """
    inf = float("inf")
    x = tf.reshape(f32(-2.1204, 2.3146, -1.5047, inf, 0.0, 0.0), (2, 3))
    t = tf.reshape(f32(0.3, -0.5, 0.7, 0.2, 0.1, -0.4), (2, 3))
    e = tf.zeros([0, 4], tf.float64)
    with tf.autodiff.ForwardAccumulator((x, e), (t, tf.zeros([0, 4], tf.float64))) as acc:
        ys = [tf.math.reduce_euclidean_norm(x, axis=1), tf.math.reduce_euclidean_norm(x),
              tf.math.reduce_euclidean_norm(e)]
    f = lambda x: tf.math.reduce_euclidean_norm(x, axis=0, keepdims=True)
    out = ys + [acc.jvp(y) for y in ys] + [grad(f, x), grad2(f, f64(1e-30)),
                                           grad2(f, tf.reshape(f64(1.0, -2.0, 0.5), (3, 1)))]""")
case("reduce_euclidean_norm_bool_refused",
     "out = tf.math.reduce_euclidean_norm(tf.constant([True]))")


# ---------------------------------------------------------------- session 10: sweeplin
# (linear algebra, convolution, pooling, signal: differences of the seeds 1-4 sweep)

case("eigh_nonfinite_as_eigen", """
    inf, nan = float("inf"), float("nan")
    def f(*rows):
        return tf.constant(rows, tf.float32)
    ok = [f([inf, 1.0], [2.0, 3.0]), f([1.0, 1.0], [2.0, -inf]),
          f([-inf, 1.0, 2.0], [1.0, 3.0, 4.0], [2.0, 4.0, 5.0]),
          tf.constant([[[1e60, 1.0], [2.0, 3.0]], [[2.0, 0.0], [0.0, 3.0]]], tf.complex64)]
    bad = [f([1.0, 1.0], [inf, 3.0]), f([1.0, 1.0, 2.0], [1.0, inf, 4.0], [2.0, 4.0, 5.0]),
           f([nan, 1.0], [2.0, 3.0]), f([1.0, 1.0], [2.0, nan])]
    out = [tf.linalg.eigh(x) for x in ok] + [tf.linalg.eigvalsh(x) for x in ok]
    for x in bad:
        for fn in (tf.linalg.eigh, tf.linalg.eigvalsh):
            try:
                fn(x)
                out.append("computed")
            except tf.errors.InvalidArgumentError:
                out.append("InvalidArgumentError")""")
case("eigvalsh_grad_infinite_and_repeated_eigenvalues", """
    x = tf.constant([[[1e60]], [[2.0]]], tf.float32)
    r = tf.constant([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 5.0]], tf.float64)
    w = tf.constant([[1.0, 0.0, 0.0], [1e-7, 1.0, 0.0], [0.3, 2e-7, 1.000001]], tf.float64)
    f = lambda x: tf.linalg.eigvalsh(x) * tf.constant([0.3, -1.2, 0.7][:x.shape[-1]], x.dtype)
    # eigenvectors of a diagonal matrix: unit vectors up to sign (squared away); the gap of
    # 1e-9 shows TensorFlow's regularised reciprocal x / (x^2 + 1e-20)
    d = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0 + 1e-9, 0.0], [0.0, 0.0, 3.0]], tf.float64)
    c = tf.reshape(tf.range(9, dtype=tf.float64) * 0.1 - 0.3, (3, 3))
    g = lambda x: tf.linalg.eigh(x)[1] ** 2 * c + tf.linalg.eigh(x)[0] * 0.5
    out = [grad(f, x), grad(f, r), grad(f, w), grad2(f, w), grad(g, d), grad2(g, d)]""")

case("cholesky_pivot_lost_to_rounding_nan", """
    # Eigen's LLT rounds each product apart: the last pivot of this Gram matrix is 0 there
    # (nan output, as for any matrix that is not positive definite); LAPACK's fused
    # multiply-adds keep a tiny positive pivot
    a = tf.constant([[1.4, -0.5, -0.5], [0.06, 1.9, -0.5], [-3e29, -0.5, -3e29]], tf.float64)
    b = tf.constant([[0.0, -3.0], [-1.0, -2.0], [0.0, -2.0]], tf.float64)
    g = tf.matmul(a, a, adjoint_a=True)
    out = [tf.linalg.cholesky(g)[..., 0, 0], tf.linalg.lstsq(a, b),
           tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 2.0]]))]""")

case("qr_nonfinite_and_overflow_as_eigen", """
    inf, nan = float("inf"), float("nan")
    # Eigen's Householder QR with plain squared norms: an inf, or a norm overflowing float32
    # (1e30), gives tau = nan and nan through the rest; a wide matrix's columns past the
    # panel take the block reflector (0 * inf = nan)
    xs = [tf.constant([[1e30, -0.46, -0.97, -0.73], [1.21, 1.10, 0.70, inf],
                       [0.25, 2.99, 0.13, 1.40]], tf.float32),
          tf.constant([[-0.86, inf, 0.75, -1.25], [1.08, 0.83, -0.92, 0.0],
                       [2.22, -1.0, 1.15, -1.04]], tf.float32),
          tf.constant([[0.48, -inf]], tf.float64),
          tf.constant([[nan, 0.0], [-2.0, 0.0]], tf.float32),
          tf.constant([[2.0, 1.0], [1e-30, 3.0]], tf.float32)]
    out = [tf.linalg.qr(x, full_matrices=f) for x in xs for f in (False, True)]""")

case("complex_matmul_inf_as_eigen_kernels", """
    inf = float("inf")
    def mat(m, k, dt, inf_col=0):
        a = np.full((m, k), 0.5 + 0.25j)
        a[:, inf_col] = complex(-inf, -3.0)
        return tf.constant(a, dt)
    def ones(k, n, dt):
        return tf.constant(np.full((k, n), 0.615 + 0.763j), dt)
    out = []
    for dt in (tf.complex64, tf.complex128):
        for m, k, n in ((3, 3, 3), (5, 3, 5), (6, 2, 7), (2, 2, 2), (1, 3, 4), (4, 1, 3),
                        (4, 3, 1)):
            out.append(tf.linalg.matmul(mat(m, k, dt), ones(k, n, dt)))
        out.append(tf.linalg.matmul(mat(2, 3, dt)[None], ones(3, 3, dt)[None]))
        out.append(tf.linalg.matmul(ones(3, 3, dt), mat(3, 3, dt), transpose_a=True,
                                    transpose_b=True))
        out.append(tf.linalg.matvec(mat(3, 2, dt, 1), tf.constant([0.6 + 0.7j, 1.0 - 2.0j], dt)))
        out.append(tf.linalg.matvec(ones(2, 2, dt), tf.constant([complex(0.0, inf), 1.0], dt)))""")
case("bool_matmul_transposed_batch_type_error", """
    t = tf.constant([[[True, False]]])
    out = []
    for kw in ({"transpose_b": True}, {"transpose_a": True}, {"adjoint_a": True}, {}):
        for a in (t, t[0]):
            try:
                tf.linalg.matmul(a, a, **kw)
                out.append("computed")
            except Exception as e:  # noqa: BLE001 - the class is the answer
                out.append(type(e).__name__)""")

case("sqrt_rsqrt_second_derivatives_as_tf", """
    # TensorFlow's SqrtGrad / RsqrtGrad kernels and their own gradients: the terms of the
    # second derivative of |x| = sqrt(x^2) cancel to 0 exactly; finite / inf is 0 in
    # Eigen's scalar complex division
    f = lambda x: tf.sqrt(tf.reduce_sum(tf.square(x)))
    out = [grad2(f, f32(-0.0009)), grad2(f, f32(-0.0845, -0.0773)),
           grad2(lambda x: tf.nn.l2_normalize(x, 0), f32(-0.6616)),
           grad2(lambda x: tf.math.rsqrt(x) * tf.sqrt(x), f64(0.3, 2.0)),
           grad(lambda x: tf.sqrt(x), tf.constant([complex(float("inf"), float("nan"))])),
           grad2(lambda x: tf.sqrt(x) + tf.math.rsqrt(x), c128(0.5+0.3j, -0.2+0.4j)),
           tf.linalg.global_norm([f32(-0.0009)])]""")

case("conv_float32_padding_not_multiplied", """
    # TF's float32 convolution kernels do not multiply the padding: an inf in the filter
    # meets no padded zero (a one-image batch)
    inf = float("inf")
    x = tf.reshape(tf.range(6, dtype=tf.float32) * 0.5 - 1.2, (1, 2, 3, 1))
    w = tf.reshape(tf.constant([0.3, -0.5, 1.0, 0.25, -0.7, 0.4, 2.0, -inf]), (2, 2, 1, 2))
    x1 = tf.constant([[[0.32, -1e30]]], tf.float32)
    w1 = tf.constant([[[2.0, 7e4], [1.0, 0.0]], [[2.0, 3.0], [1.0, -3.0]],
                      [[-3.0, -3.0], [-inf, 3.0]]], tf.float32)
    dy = tf.constant([[[[0.5, float("nan")], [1.0, -2.0], [0.25, 1.0]],
                       [[-1.0, 0.5], [2.0, 0.0], [1.5, -0.5]]]], tf.float32)
    with tf.GradientTape() as t:
        t.watch(w)
        y = tf.nn.conv2d(x, w, 1, "SAME")
    out = [y, tf.nn.conv1d(x1, w1, 1, "SAME"), t.gradient(y, w, output_gradients=dy)]""")

case("lu_kernels_nonfinite_as_eigen", """
    # Eigen's PartialPivLU (solve, inv, slogdet): inf and nan spread through its pivots and
    # updates; TF refuses a matrix whose pivots are all nan (or one is zero)
    nan, inf = float("nan"), float("inf")
    mats = [[[1.0, 2.0], [3.0, nan]], [[inf, 1.0], [2.0, 3.0]], [[1.0, inf], [2.0, 3.0]],
            [[23.7, 2.2, inf, inf], [-3e29, 0.84, 0.14, 6.98], [9.5, -2.7, 4.6, 20.7],
             [1.6, -1.9, 0.0, -8.9]], [[nan]], [[nan, 1.0], [2.0, 3.0]]]
    out = []
    for m in mats:
        a = tf.constant(m, tf.float64)
        b = tf.ones([a.shape[0], 2], tf.float64)
        for f in (lambda: tf.linalg.solve(a, b), lambda: tf.linalg.inv(a),
                  lambda: tf.linalg.slogdet(a)):
            try:
                out.append(f())
            except tf.errors.InvalidArgumentError:
                out.append("InvalidArgumentError")
    x = tf.constant([[[1.0, nan], [0.0, 1.0]], [[0.5, 0.1], [0.2, 0.3]]], tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.linalg.expm(x)
    out += [y, t.gradient(y, x)]""")

case("svd_badly_scaled_small_singular_value", """
    # Eigen's Jacobi SVD resolves the singular value 4.1231 (sqrt(17)) next to 1e30, where
    # LAPACK's bidiagonalisation returns 0; the gradient takes its singular vectors
    x = tf.constant([[-3.0, -3.0, 2.0, -2.0], [0.0, 1e30, -1.0, 3.0]], tf.float64)
    w = tf.constant([0.7, -1.3], tf.float64)
    f = lambda x: tf.linalg.svd(x, compute_uv=False) * w
    out = [tf.linalg.svd(x, compute_uv=False), grad(f, x)]""")

case("einsum_complex_inf_as_batch_matmul", """
    # TF contracts two operands by a batched matmul: Eigen's complex kernel forms inf/nan
    inf = float("inf")
    a = np.full((3, 3), 0.5 + 0.25j)
    a[:, 0] = complex(-inf, -3.0)
    b = np.full((3, 3), 0.615 + 0.763j)
    out = []
    for dt in (tf.complex64, tf.complex128):
        x, y = tf.constant(a, dt), tf.constant(b, dt)
        out += [tf.einsum("ij,jk->ik", x, y), tf.einsum("ij,kj->ki", x, y),
                tf.einsum("bij,bjk->bik", x[None], y[None])]""")

case("expm_empty_batch_gradients", """
    # an empty batch is TF's nan fill: a zero-size gradient, no second derivative
    x = tf.zeros([2, 0, 0], tf.float64)
    out = [tf.linalg.expm(x), grad(tf.linalg.expm, x), grad2(tf.linalg.expm, x)]""")
# ---------------------------------------------------------------- sweepmath (session 10)
# Sweep differences (seeds 1-4) in math ops: complex division, products, log, log1p, sqrt
# and rsqrt as Eigen's kernels (whole packets of 4 complex64 / 2 complex128, C's Annex G
# arithmetic past the last whole packet), and TF's gradient compositions.
case("complex_divide_no_nan_infinite_denominator", """
    inf = float("inf")
    x = tf.constant([-32.89+0.0005j, 1+1j, 2-1j, 0.5j, 3+0j], tf.complex64)
    y = tf.constant([complex(0.0085, -inf), complex(inf, 0), 0j, 1-2j, complex(0, inf)],
                    tf.complex64)
    f = tf.math.divide_no_nan
    out = [f(x, y), grad(f, x, y), grad2(f, x, y), tf.math.reciprocal_no_nan(y)]""")
case("complex_divide_no_nan_grad_scalar_tail", """
    inf = float("inf")
    x, y = tf.constant(complex(-0.7753, -inf), tf.complex64), tf.constant(-0.0004+0.5037j,
                                                                           tf.complex64)
    out = [grad(tf.math.divide_no_nan, x, y), grad2(tf.math.divide_no_nan, x, y)]""")
case("complex_divide_grad_infinite_numerator", """
    inf = float("inf")
    x1 = tf.constant([[complex(inf, -0.0004)]], tf.complex64)
    y1 = tf.constant([[-1.1377-0.0647j]], tf.complex64)
    x2 = tf.constant([[complex(1.8524, inf), 2.078-2.8893j]], tf.complex64)
    y2 = tf.constant([[-0.1196+1.1846j]], tf.complex64)
    f = tf.math.divide
    t = tf.constant([[0.3-0.7j]], tf.complex64)
    with tf.autodiff.ForwardAccumulator(y1, t) as acc:
        z = f(x1, y1)
    out = [grad(f, x1, y1), grad2(f, x1, y1), grad(f, x2, y2), grad2(f, x2, y2), acc.jvp(z)]""")
case("complex_xdivy_values_and_f32_grad2_at_zero", """
    inf, nan = float("inf"), float("nan")
    x = tf.constant([1-0.4439j, 0.5+0.5j, 0j, 2+0j], tf.complex64)
    y = tf.constant([complex(-1.1082, inf), complex(inf, -0.57), 1+1j, complex(nan, 1)],
                    tf.complex64)
    a = f32(0.083, 0.0, -1.0, 1e4)
    b = f32(0.0, 0.0, 2.0, 0.0)
    out = [tf.math.xdivy(x, y), grad(tf.math.xdivy, a, b), grad2(tf.math.xdivy, a, b)]""")
case("complex_xlog1py_and_log1p_nonfinite", """
    inf, nan = float("inf"), float("nan")
    y = tf.constant([complex(0, inf), complex(-inf, 1e-30), complex(inf, 0), 0.5+0.5j,
                     1e-8+1e-8j, complex(1e30, 1), complex(nan, 0), -1+0j, 1e-30+0j],
                    tf.complex64)
    x = tf.fill([9], tf.constant(1e30+0.3j, tf.complex64))
    out = [tf.math.log1p(y), tf.math.log1p(y[:1]), tf.math.xlog1py(x, y),
           tf.math.log1p(tf.cast(y, tf.complex128))]""")
case("complex_log_overflowing_modulus_in_packets", """
    out = [tf.math.log(tf.fill([5], tf.constant(-1e30+1j, tf.complex64))),
           tf.math.log(tf.fill([5], tf.constant(-2e19+1j, tf.complex64))),
           tf.math.log(tf.fill([3], tf.constant(-1e160+1j, tf.complex128))),
           tf.math.log(tf.fill([4], tf.constant(1.8e19-1j, tf.complex64)))]""")
case("complex_sqrt_rsqrt_square_gradients", """
    inf = float("inf")
    x = tf.constant([3.436+1.297j, 0.3149+0.1634j, 7e4-0.6813j, 0.907+1.2978j,
                     complex(inf, -0.9614), 3.925+0.6887j, 1.767-1.87j, 2.433+0.275j],
                    tf.complex64)
    r = tf.constant([complex(-1, -0.0), 0.2437+0.5506j, 1.2268+2.4092j], tf.complex64)
    s = tf.constant([complex(inf, 0.9546), -2-0.2478j, 1.2137j], tf.complex64)
    out = [tf.math.sqrt(x), grad(tf.math.sqrt, x), grad2(tf.math.sqrt, x),
           tf.math.rsqrt(r), grad(tf.math.rsqrt, r), grad(tf.math.square, s),
           grad(tf.math.square, tf.constant(complex(-inf, 1.0791), tf.complex64))]""")

case("pow_gradients_in_tf_association", """
    h = lambda *v: tf.constant(list(v), tf.float16)
    x, y = tf.constant(8247.1, tf.float16), h(-1.0, 2.0, 2.0)
    a = tf.constant(-0.6217, tf.float16)
    b = f32(2.2789, -1.5794, -0.574, 0.0)
    out = [grad(tf.math.pow, x, y), grad2(tf.math.pow, x, y),
           grad2(lambda a: tf.math.pow(a, tf.constant(11098.18, tf.float16)), a),
           grad2(lambda b: b ** -1e30, b)]""")

case("inverse_trig_gradients_as_tf_composes_them", """
    inf = float("inf")
    h = tf.constant([1078.14, 18944.19, -2428.3, 0.5], tf.float16)
    a = tf.constant(complex(8.9018, inf), tf.complex64)
    t = tf.constant([1e-30-1j, 0.5+0.3j], tf.complex64)
    z = tf.constant(complex(inf, -1.0), tf.complex64)
    with tf.autodiff.ForwardAccumulator(z, tf.constant(0.3-0.2j, tf.complex64)) as acc:
        ang = tf.math.angle(z)
    out = [grad(tf.math.asinh, h), grad(tf.math.acosh, a), grad(tf.math.atan, t),
           grad2(tf.math.atan, t), acc.jvp(ang)]""")

case("in_top_k_rows_with_nonfinite_or_targets_out_of_range", """
    nan, inf = float("nan"), float("inf")
    p = tf.constant([[-1., -1., 2.], [3., -1., nan], [-3., -2., -3.], [1., inf, 0.]])
    out = [tf.math.in_top_k(tf.constant([0, 0, 1, 0]), p, 3),
           tf.math.in_top_k(tf.constant([5, 0, 0, -1]), p, 2)]""")

case("truncatediv_empty_int_by_zero", """
    out = [tf.truncatediv(tf.zeros([2, 0, 2, 4], tf.int32), tf.constant([4, 10, 0, 9])),
           tf.math.floordiv(tf.zeros([0, 3], tf.int64), tf.constant([0, 1, 2], tf.int64))]""")
case("truncatediv_complex_and_float64_not_found", """
    out = tf.truncatediv(tf.constant([1-11j], tf.complex64), tf.constant([[0.5]], tf.float64))""")
case("unsorted_segment_max_empty_data_ids_out_of_range", """
    e = tf.zeros([4, 0], tf.float16)
    ids = tf.constant([0, 0, 0, 2])
    out = [tf.math.unsorted_segment_max(tf.zeros([3, 0], tf.int64), tf.constant([0, 2, 4]), 3),
           tf.math.unsorted_segment_max(e, ids, 1),
           grad(lambda e: tf.math.unsorted_segment_max(e, ids, 1), e)]""")

case("strided_slice_shrink_axis_negative_stride_refused", """
    x = tf.reshape(tf.range(6.), (3, 2))
    out = tf.strided_slice(x, [-2, -1], [3, -2], [-1, 2], shrink_axis_mask=3)""")
case("strided_slice_shrink_axis_positive_strides", """
    x = tf.reshape(tf.range(6.), (3, 2))
    out = [tf.strided_slice(x, [-2, -1], [3, -2], [1, 2], shrink_axis_mask=3),
           tf.strided_slice(x, [1, 0], [2, 1], [2, 1], shrink_axis_mask=1)]""")
case("complex_swish_infinite_exp", """
    x = tf.constant([-1e30-1.276j, 0.5+0.3j, 2-1j], tf.complex64)
    out = [tf.nn.swish(x), tf.nn.silu(x)]""")

case("complex_reduce_prod_and_cumprod_as_eigen", """
    inf, nan = float("inf"), float("nan")
    a = tf.constant([-1.2867+0j, 0.0908+1j, complex(0.2937, -inf)], tf.complex64)
    b = tf.constant([[complex(inf, -0.573), 1-1.123j, 2-0.125j],
                     [-3-1.14j, 1-0.576j, complex(nan, 1.22)]], tf.complex64)
    c = tf.constant([[[2-0.0013j, 3+0.0008j]], [[complex(inf, -0.0007), -3-0.001j]]],
                    tf.complex64)
    d = tf.constant([[2.5068+4329.669j, complex(-inf, 6659.39)],
                     [0.7183-6636.28j, -0.4666-8620.92j]], tf.complex64)
    e = tf.constant([1e30+1e30j, 1.48-1.83j, 1e30+1e30j, -0.75+1.32j, complex(-inf, 0.5),
                     0.3+0.2j, 1+1j, -2+0.1j, 0.5j], tf.complex128)
    out = [tf.reduce_prod(a), grad(tf.reduce_prod, a), grad2(tf.reduce_prod, a),
           tf.reduce_prod(b, 1), tf.reduce_prod(c, 1), grad2(lambda c: tf.reduce_prod(c, 1), c),
           tf.reduce_prod(d, 0), grad2(lambda d: tf.reduce_prod(d, 0), d), tf.reduce_prod(e),
           tf.math.cumprod(b, 1), tf.math.cumprod(b, 1, exclusive=True, reverse=True),
           tf.math.cumprod(tf.reshape(e, (9, 1)), 0)]""")

case("sorted_segment_min_max_nan_in_packets", """
    nan = float("nan")
    out = []
    for dt in (tf.float64, tf.float32, tf.float16):
        for rows in ([nan, nan], [nan, nan, 1.0], [1.0, nan], [1.0, nan, 2.0], [nan]):
            x = tf.constant(np.repeat(np.array(rows)[:, None], 9, 1), dt)
            ids = [0] * len(rows)
            out += [tf.math.segment_min(x, ids), tf.math.segment_max(x, ids)]
    x = tf.constant([[[2.2754, -0.4032, 0.8891], [-0.093, 0.4292, 0.8059]],
                     [[0.3014, 0.8609, -1.3647], [nan, 1.8727, -1.1533]]], tf.float64)
    out += [tf.math.segment_min(x, [0, 0]), grad(lambda x: tf.math.segment_min(x, [0, 0]), x)]""")
case("complex_segment_mean_one_row_copied", """
    nan = float("nan")
    z = complex(-0.2375, nan)
    d = tf.constant([[[z], [0.0838-1.5239j]]], tf.complex64)
    d2 = tf.constant([[z, 1+1j], [0.0838-1.5239j, 2+0j]], tf.complex128)
    out = [tf.math.segment_mean(d, [0]), tf.math.segment_mean(d2, [0, 0]),
           tf.math.segment_mean(d2, [0, 1])]""")

case("abs_negative_unsigned_refused", """
    out = []
    for dt in (tf.uint8, tf.uint16, tf.uint32, tf.uint64):
        for f in (tf.abs, tf.negative, tf.math.abs, tf.math.negative):
            try:
                f(tf.constant([7], dt))
                out.append("computed")
            except tf.errors.InvalidArgumentError:
                out.append("InvalidArgumentError")
    out += [tf.abs(tf.constant([-3], tf.int8)), tf.negative(tf.constant([2.5])),
            tf.abs(tf.constant([3-4j]))]""")

case("pow_and_xdivy_second_order_overflow", """
    inf = float("inf")
    h = lambda *v: tf.constant(list(v), tf.float16)
    x, y = tf.constant(1.1027, tf.float16), h(-0.0854, -1.0, -1.8977, 0.655)
    z, w = tf.constant([-2j], tf.complex64), tf.constant([0.0008+12182.72j], tf.complex64)
    out = [grad2(tf.math.xdivy, x, y), grad(tf.math.pow, z, w)]""")

# ---------------------------------------------------------------- sweeplin2 (session 10)
# The last linear-algebra and norm differences of the seeds 1-4 sweep.
case("norm_fro_is_a_matrix_norm_only", """
    out = []
    for x in (tf.constant([3-2j, 1j], tf.complex64), f32(3.0, 1.0),
              tf.constant([[3.0, 1.0]], tf.float64)):
        for f in (tf.norm, tf.linalg.norm):
            try:
                f(x, ord="fro")
                out.append("computed")
            except ValueError:
                out.append("ValueError")
    out.append(tf.norm(tf.constant([[3.0, 1.0]], tf.float64), ord="fro", axis=[0, 1]))""")

case("slogdet_exact_zero_pivot_of_eigen_lu", """
    m = [[0.00018726752169344538+0.5895840923801959j, 0.0004724563992692582-1.6799272792226942j,
          -0.0010667862252858804+1.1952673073553752j, -0.00022473261758917926+0.7014108117504976j],
         [-0.0010497823145021192-0.814141382574941j, 0.001473928865073319+0.8881122885614524j,
          0.0006763260291854193+1j, -0.0005337723409432944+0.6022031217295908j],
         [0.002103334311762928+0.07924927704745433j, -0.0006835035653610097+70000j,
          -0.0005423897700988018-1e+30j, 0.0011453532446023375+1e+30j],
         [3.529978519115629e-05+1.9298271440630808j, -0.0005301793610657551+0.23441711599904286j,
          -0.001525342348586117+0j, 7.177447215282489e-05+0.5095073415691894j]]
    out = list(tf.linalg.slogdet(tf.constant(m, tf.complex64)))
    for dt in (tf.complex64, tf.complex128, tf.float32):
        out += list(tf.linalg.slogdet(tf.constant([[[1, 2], [2, 4]], [[0, 0], [0, 0]]], dt)))""")

case("l2_normalize_complex_parts_scaled_apart", """
    inf, nan = float("inf"), float("nan")
    x = tf.constant([[complex(-2811.23, -inf), 1603.46 + 2023.0j],
                     [41.28 - 818.8j, complex(inf, 5116.4)]],
                    tf.complex64)
    out = [tf.math.l2_normalize(x, axis=0), tf.nn.l2_normalize(x, axis=1)]""")

case("l2_normalize_second_derivative_masked_by_maximum", """
    nan = float("nan")
    x = tf.constant([[-0.72 - 0.0002j, complex(1.07, nan)]], tf.complex64)
    u = tf.constant([[0.3 - 0.5j, 0.7 + 0.2j]], tf.complex64)
    v = tf.constant([[1.1 + 0.4j, -0.6 + 0.9j]], tf.complex64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.math.l2_normalize(x, axis=1)
        g = t1.gradient(y, x, output_gradients=u)
        s = tf.math.real(tf.reduce_sum(g * v))
    out = [g, t2.gradient(s, x)]""")

case("sqrt_rsqrt_grad_kernels_zero_upstream", """
    inf, nan = float("inf"), float("nan")
    out = []
    for dt, n in ((tf.float32, 6), (tf.float64, 6), (tf.complex64, 5)):
        x = tf.constant([nan, 0.0, inf, 4.0, nan, 0.0][:n], dt)
        dy = tf.constant([0.0, 0.0, 0.0, 0.0, 1.0, 1.0][:n], dt)
        for f in (tf.sqrt, tf.math.rsqrt):
            with tf.GradientTape() as t:
                t.watch(x)
                y = f(x)
            out.append(t.gradient(y, x, output_gradients=dy))""")

case("det_gradient_through_the_inverse_of_the_adjoint", """
    inf = float("inf")
    x = f64(*[-0.5215911093097032, 0.1156884504857526, 1e+30, 0.48919226853822345,
              -0.6039375657375163, -1.325791162905566, -0.17941873399322128, -0.413514066834885,
              0.22959065355988553, 0.20253707961344092, -inf, 1.184469136222025,
              -0.42666963096855887, 0.6931880777541403, 0.5182512395273656,
              1.3130554227511189])
    x = tf.reshape(x, [1, 4, 4])
    y = tf.constant([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.25, -1.0, 4.0]], tf.float32)
    out = [grad(tf.linalg.det, x), grad(tf.linalg.det, y), grad2(tf.linalg.det, y),
           grad(lambda a: tf.linalg.inv(a, adjoint=True), y),
           grad2(lambda a: tf.linalg.inv(a, adjoint=True), y)]""")


# ---------------------------------------------------------------- sweepnn2 (session 10)
# Sweep differences (seeds 1-4) in nn ops: which CPU kernel TF runs (oneDNN or its own)
# and that kernel's arithmetic at inf/nan.
case("depthwise_conv2d_nonfinite_filter_and_half_overflow", """
    inf, nan = float("inf"), float("nan")
    rng = np.random.default_rng(7)
    x = tf.constant(rng.standard_normal((2, 3, 4, 2)), tf.float32)
    w = rng.standard_normal((3, 3, 2, 2))
    w[0, 0, 0, 1], w[2, 1, 1, 0], w[1, 2, 0, 0] = nan, inf, -inf
    w = tf.constant(w, tf.float32)
    xh = tf.constant(rng.standard_normal((1, 2, 5, 2)) * 30, tf.float16)
    wh = tf.constant(rng.standard_normal((2, 2, 2, 1)) * 9000, tf.float16)
    f = tf.nn.depthwise_conv2d
    out = [f(x, w, [1, 1, 1, 1], "SAME"), f(x[:1], w, [1, 2, 2, 1], "SAME"),
           f(x, w, [1, 1, 1, 1], "VALID"), f(xh, wh, [1, 1, 1, 1], "SAME"),
           f(xh, wh, [1, 1, 1, 1], "VALID")]""")

case("max_pool_forward_mode_and_second_derivative_at_nan", """
    nan = float("nan")
    x = tf.reshape(f32(1, nan, 2, -1, 3, nan, 0.5, 4, nan, -2, 7, 1), (1, 3, 4, 1))
    t = tf.reshape(tf.range(1, 13, dtype=tf.float32), (1, 3, 4, 1))
    out = []
    for k, s, p in [(1, 2, "VALID"), (2, 2, "VALID"), (3, 1, "SAME"), (2, 1, "SAME")]:
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = tf.nn.max_pool(x, k, s, p)
        g = tf.ones_like(y)
        with tf.GradientTape() as tape:
            tape.watch(g)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y2 = tf.nn.max_pool(x, k, s, p)
            dx = inner.gradient(y2, x, output_gradients=g)
        out += [y, acc.jvp(y), tape.gradient(dx, g, output_gradients=t)]""")

case("conv2d_half_filter_gradient_partial_sums_overflow", """
    rng = np.random.default_rng(3)
    x = tf.constant((rng.standard_normal((2, 5, 5, 2)) * 110).astype(np.float16))
    w = tf.constant((rng.standard_normal((3, 3, 2, 2)) * 0.5).astype(np.float16))
    out = []
    for p in ("VALID", "SAME"):
        dy = tf.constant((rng.standard_normal((2, 3 if p == "VALID" else 5,
                                               3 if p == "VALID" else 5, 2)) * 110
                          ).astype(np.float16))
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.nn.conv2d(x, w, 1, p)
        out += [y, tape.gradient(y, w, output_gradients=dy)]
        with tf.GradientTape() as tape:
            tape.watch(w)
            z = tf.nn.conv2d_transpose(dy, w, [2, 5, 5, 2] if p == "SAME" else
                                       [2, 5, 5, 2], 1, p)
        out += [tape.gradient(z, w, output_gradients=x)]""")

case("meshgrid_and_scale_regularization_loss_forward_mode_at_inf_nan", """
    inf, nan = float("inf"), float("nan")
    x = tf.constant([inf, 2.0, nan], tf.float64)
    y = tf.constant([1.0, -inf], tf.float64)
    tx, ty = tf.constant([1.0, 2.0, 3.0], tf.float64), tf.constant([0.5, 4.0], tf.float64)
    with tf.autodiff.ForwardAccumulator([x, y], [tx, ty]) as acc:
        g = tf.meshgrid(x, y)
        h = tf.meshgrid(x, indexing="ij")
        r = tf.nn.scale_regularization_loss(x)
        q = tf.nn.scale_regularization_loss([y, y])
    out = [g, [acc.jvp(v) for v in g], acc.jvp(h[0]), r, acc.jvp(r), q, acc.jvp(q),
           tf.nn.scale_regularization_loss(tf.constant([1, 2]))]""")

case("global_norm_and_clip_by_norm_forward_mode_on_overflow", """
    a = tf.constant(1e30, tf.float32)
    b = tf.constant([[-0.17, 0.54], [-0.11, 0.43], [0.17, 1.49]], tf.float32)
    h = tf.constant([-5836.0, -33730.0, 1725.0], tf.float16)
    with tf.autodiff.ForwardAccumulator([a, b, h], [tf.constant(0.7), tf.ones([3, 2]) * 0.3,
                                                     tf.constant([1.0, 2.0, -1.0],
                                                                 tf.float16)]) as acc:
        g = tf.linalg.global_norm([a, b])
        c, m = tf.clip_by_global_norm([b, a], 1.0)
        n = tf.clip_by_norm(h, 10.0)
        k = tf.clip_by_norm(b, 0.5, axes=[1])
    out = [g, acc.jvp(g), c, [acc.jvp(v) for v in c], m, n, acc.jvp(n), k, acc.jvp(k)]""")

case("l2_normalize_complex_with_inf_parts", """
    inf = float("inf")
    x = tf.constant([[complex(inf, 0.5), 1 - 2j, 0.25j], [complex(0.0, -inf), 3 + 0j, 1 + 1j],
                     [2 - 1j, complex(1.0, inf), complex(-inf, 0.0)]], tf.complex64)
    out = [tf.nn.l2_normalize(x, axis=1), tf.nn.l2_normalize(x, axis=0),
           tf.nn.l2_normalize(tf.constant([complex(inf, 2.0), 1j], tf.complex128), axis=0),
           tf.math.l2_normalize(tf.constant([0.6 - 0.8j, 3 + 4j], tf.complex64))]""")

case("conv_transpose_half_products_overflow", """
    x = tf.constant([[[2924.0, 7080.0], [862.5, 11416.0]], [[0.0, -8064.0],
                     [-6932.0, float("-inf")]]], tf.float16)
    w = tf.constant([[[-1.443, -0.0], [66.2, 19.83]], [[-3.4, 36.16], [7.61, -27.17]],
                     [[47.2, -22.31], [2.977, -0.3591]]], tf.float16)
    out = [tf.nn.conv1d_transpose(x, w, [2, 4, 2], 1, "VALID"),
           tf.nn.conv2d_transpose(x[:, None], w[None], [2, 1, 4, 2], 1, "VALID"),
           tf.nn.conv1d_transpose(x / 4, w, [2, 4, 2], 1, "VALID")]""")

# ---------------------------------------------------------------- sweepdec (session 11)
# Decompositions: Eigen's SelfAdjointEigenSolver replayed bit for bit on small real matrices.
case("eigh_eigen_near_degenerate_vectors_and_signs", """
    a = tf.constant([[1.0000002682308573, 4.1394494197973261e-07, -2.8039460791599209e-07,
                      -6.8563553216244293e-08],
                     [4.1394494197973261e-07, 1.0000007437607006, -4.9408590696582251e-07,
                      -2.3164159844926752e-07],
                     [-2.8039460791599209e-07, -4.9408590696582251e-07, 1.0000004280416970,
                      1.1499434798630476e-08],
                     [-6.8563553216244293e-08, -2.3164159844926752e-07, 1.1499434798630476e-08,
                      1.0000017734305813]], tf.float64)
    g = tf.constant([0.3, -1.2, 0.7, 2.0], tf.float64)
    out = list(tf.linalg.eigh(a)) + grad(lambda x: tf.linalg.eigvalsh(x) * g, a)
    b = tf.constant([[4.0, 1.0, -2.0, 0.5, 3.0], [1.0, -3.0, 0.25, 2.0, 1.0],
                     [-2.0, 0.25, 1.0, -1.5, 0.0], [0.5, 2.0, -1.5, 2.0, 1.0],
                     [3.0, 1.0, 0.0, 1.0, -1.0]], tf.float32)
    out += list(tf.linalg.eigh(b)) + [tf.linalg.eigvalsh(tf.cast(b, tf.float64))]""")

case("eigvalsh_badly_scaled_as_eigen", """
    a = tf.constant([[3.3333333333333339e+59, -4.5426151178360664e+29, -3.0988860891570435e+28],
                     [-4.5426151178360664e+29, 1.9845229614085458, -3.5657574187397501e-01],
                     [-3.0988860891570435e+28, -3.5657574187397501e-01, 1.4888084312333378]],
                    tf.float64)
    big = 1.7976931348623157e+308
    b = tf.constant([[big, -big, big, -big],
                     [-big, 1.5794507245239404e+02, -1.1097646623223255e+01,
                      -2.0911054670188918e+02],
                     [big, -1.1097646623223255e+01, 5.4156881930852774e+02,
                      -3.3999149724148697e+02],
                     [-big, -2.0911054670188918e+02, -3.3999149724148697e+02,
                      7.1050623582688695e+02]], tf.float64)
    out = [tf.linalg.eigvalsh(a), tf.linalg.eigvalsh(b)] + grad(tf.linalg.eigvalsh, a)""")

case("svd_and_pinv_gradients_as_tf_compositions", """
    a = tf.constant([[0.0012563458537099, 0.00053155940505675, 0.00123160876118555],
                     [0.00053304411444332, -0.00076643232580703, -0.00034228096738293]],
                    tf.float64)
    t = tf.constant([[0.3, -1.1, 0.5], [2.0, 0.25, -0.7]], tf.float64)
    with tf.autodiff.ForwardAccumulator(primals=a, tangents=t) as acc:
        p = tf.linalg.pinv(a)
    out = [p, acc.jvp(p)] + grad(tf.linalg.pinv, a) + grad2(tf.linalg.pinv, a)
    b = tf.constant([[3.0], [3.0], [1e30], [-3.0]], tf.float32)
    with tf.autodiff.ForwardAccumulator(primals=b, tangents=tf.ones_like(b)) as acc:
        q = tf.linalg.pinv(b)
    out += [q, acc.jvp(q)]
    c = tf.constant([[1.5, -0.5], [0.25, 2.0], [-1.0, 0.75]], tf.float32)
    # squares of the singular vectors: their signs are the decomposition's choice
    out += grad(lambda x: tf.linalg.svd(x)[1] ** 2 * 3.0 + tf.linalg.svd(x)[0][0], c)
    out += grad2(lambda x: tf.reduce_sum(tf.linalg.svd(x)[2] ** 2 * [[1.0, 2.0], [-0.5, 0.3]]),
                 c)
    out += grad2(lambda x: tf.linalg.svd(tf.transpose(x), full_matrices=True)[1] ** 2, c)""")

case("reciprocal_gradient_kernel", """
    x = tf.constant([1e-30, 1e-20, 2.0, float("inf"), 0.5], tf.float32)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.math.reciprocal(x)
        g = t1.gradient(y, x, output_gradients=tf.constant([0.0, 1e-30, 3.0, 0.0, 1.0]))
    out = [g, t2.gradient(g, x)]
    z = tf.constant([1 + 2j, 0.5 - 1j, 3j], tf.complex64)
    out += grad(lambda v: tf.math.reciprocal(v) * (3 - 1j), z) + grad2(tf.math.reciprocal, z)""")

case("expm_pade_in_tf_association", """
    a = tf.constant([[-1.0, 1.748384145, -0.065941719], [5.546681627, 0.482465023, 0.79546127],
                     [0.443209071, 4.653071309, 1.143972253]], tf.float32)
    out = [tf.linalg.expm(a)] + grad(tf.linalg.expm, a) + grad2(tf.linalg.expm, a)
    for s in (0.01, 0.2, 0.6, 1.5):
        out.append(tf.linalg.expm(tf.cast(a, tf.float64) * s))""")

case("complex_batched_small_matmul_with_inf", """
    inf = float("inf")
    x = tf.constant([[[complex(16177.0, inf), -17672.7 + 1e30j], [-5465.2 + 0j, 13085.5 + 3j],
                      [8882.7 + 3j, 21787.9 + 2j]],
                     [[-15229.5 + 1j, -858.2 - 3j], [-2840.0 - 1j, -10989.8 - 1j],
                      [-9892.9 - 1j, -6016.1 + 3j]]], tf.complex64)
    y = tf.constant([[[2.03e-4 - 0.6475j, -5.99e-4 + 0.3895j], [1.43e-4 - 0.0297j,
                      8.39e-4 + 1.1791j]],
                     [[6.09e-4 + 0.6294j, -5.88e-5 - 0.6583j], [-2.5e-3 + 1.1561j,
                      -5.31e-4 + 0.4966j]]], tf.complex64)
    out = [tf.linalg.matmul(x, y), tf.linalg.matmul(x[:1], y[:1]), tf.matmul(x[0], y[0])]""")

# ---------------------------------------------------------------- sweepmisc (session 11)
# Sweep residue outside linear algebra (seeds 1-5).
case("keras_dice_sums_cancelling_at_1e30_in_eigens_order", """
    big = 1e30
    yt = np.array([[0.68, 0.88, 0.87, 0.33], [0.09, 0.82, 0.70, 0.57],
                   [0.33, 0.37, 0.82, 0.69], [0.99, 0.59, 0.15, 0.48]])
    yp = np.array([[-4.11, 0.0, big, -big], [-0.88, 2.16, 0.87, 0.62],
                   [-3.15, 1.44, -0.36, 4.82], [-0.09, 0.06, 2.29, 2.73]])
    out = []
    for dt, ax in [(tf.float64, None), (tf.float32, None), (tf.float64, 1),
                   (tf.float32, (0, 1))]:
        a, b = tf.constant(yt, dt), tf.constant(yp, dt)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch([a, b])
            with tf.GradientTape() as inner:
                inner.watch([a, b])
                loss = tf.keras.losses.dice(a, b, axis=ax)
            ga, gb = inner.gradient(loss, [a, b])
            s = tf.reduce_sum(ga * 0.25) + tf.reduce_sum(gb * 0.5)
        with tf.autodiff.ForwardAccumulator([a, b], [tf.ones_like(a) * 0.3,
                                                     tf.ones_like(b) * -0.7]) as acc:
            l2 = tf.keras.losses.dice(a, b, axis=ax)
        out += [loss, ga, gb, outer.gradient(s, [a, b]), acc.jvp(l2)]""")

case("log1p_and_reciprocal_gradients_in_tfs_composition", """
    nan, inf = float("nan"), float("inf")
    x = tf.constant([-1.0, 0.0, -1.00390625, 0.5], tf.float16)
    g = tf.constant([0.0, 0.0, 1.0, 2.0], tf.float16)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.log1p(x)
        d = inner.gradient(y, x, output_gradients=g)
    r = tf.constant([0.0, 2.0, inf, -0.5, nan], tf.float32)
    gr = tf.constant([0.0, 1.0, 0.0, 3.0, 0.0], tf.float32)
    with tf.GradientTape() as o2:
        o2.watch([r, gr])
        with tf.GradientTape() as i2:
            i2.watch(r)
            q = tf.math.reciprocal(r)
        dr = i2.gradient(q, r, output_gradients=gr)
    out = [d, outer.gradient(d, x), dr, o2.gradient(dr, [r, gr],
                                                    output_gradients=tf.ones_like(dr))]""")

case("digamma_of_subnormals_is_nan_as_tfs_flushed_zero", """
    out = [tf.math.digamma(tf.constant([1e-40, -1e-40, 1e-38, 1.2e-38, 0.0, 2.5], tf.float32)),
           tf.math.digamma(tf.constant([1e-310, -1e-310, 2.3e-308], tf.float64)),
           tf.math.digamma(tf.constant([1e-5, -1e-5, 1e-4], tf.float16)),
           grad(tf.math.lbeta, tf.constant([[1e-40, 0.53], [0.2, 0.7]], tf.float32))]""")

case("top_k_unsorted_heap_order_and_nan_rows", """
    nan = float("nan")
    rng = np.random.default_rng(11)
    a = rng.normal(size=(3, 29)).astype(np.float32)
    b = rng.integers(-3, 4, size=(4, 23)).astype(np.float64)
    b[rng.random(b.shape) < 0.25] = nan
    c = np.array([[0.0, nan, -3.0, -1.0, -5.0], [nan, 3.0, 0.0, 1.0, -4.0]], np.float32)
    d = rng.integers(-3, 4, size=(2, 21)).astype(np.float32)
    d[:, ::4] = nan
    out = []
    for x, k, s in [(a, 7, False), (a, 28, False), (a, 1, False), (b, 5, False),
                    (b, 9, True), (b, 23, True), (c, 1, True), (d, 1, True),
                    (d.astype(np.float16), 6, False),
                    (np.nan_to_num(b).astype(np.int32), 4, False)]:
        r = tf.math.top_k(tf.constant(x), k=k, sorted=s)
        out += [r.values, r.indices]
    x = tf.constant(rng.normal(size=(2, 12)), tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        v = tf.math.top_k(x, k=5, sorted=False).values
    out += [tape.gradient(v, x, output_gradients=tf.reshape(tf.range(10.0), (2, 5))),
            tf.sort(tf.constant(b), axis=-1),
            tf.argsort(tf.constant(b), direction="DESCENDING")]""")

case("complex_division_by_a_signed_zero_as_c", """
    z = tf.constant([complex(-0.25, 0.0), complex(0.5, -2.0), complex(0.0, 0.0), 1 + 1j,
                     complex(float("nan"), 1.0)], tf.complex64)
    w = tf.constant([complex(-0.0, 0.0), complex(-0.0, -0.0), complex(-0.0, 0.0),
                     complex(0.0, -0.0), complex(-0.0, 0.0)], tf.complex64)
    out = [tf.math.xdivy(z, w), tf.math.xdivy(tf.cast(z, tf.complex128), -0.0),
           tf.math.divide(z[:1], w[:1]), tf.math.reciprocal(w[:2])]""")

case("sparse_softmax_cross_entropy_float16_through_float32", """
    rng = np.random.default_rng(4)
    logits = tf.constant(rng.normal(size=(3, 2, 4)) * 3, tf.float16)
    labels = tf.constant([[1, 3], [0, 2], [2, 2]], tf.int64)
    v = tf.constant(rng.normal(size=(3, 2, 4)), tf.float16)
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        g = inner.gradient(loss, logits)
        s = tf.reduce_sum(g * v)
    out = [loss, g, outer.gradient(s, logits)]""")

case("rfft_and_stft_forward_mode_at_nonfinite_tangents", """
    nan, inf = float("nan"), float("inf")
    rng = np.random.default_rng(8)
    out = []
    for n, length, dt in [(1, None, tf.float64), (4, None, tf.float32), (5, None, tf.float32),
                          (4, [8], tf.float64), (3, [4], tf.float32)]:
        x = tf.constant(rng.normal(size=(2, n)), dt)
        t = rng.normal(size=(2, n))
        t[0, n // 2], t[1, 0] = inf, nan
        with tf.autodiff.ForwardAccumulator(x, tf.constant(t, dt)) as acc:
            y = tf.signal.rfft(x, length)
        out.append(acc.jvp(y))
    s = tf.constant([[1.2, inf, -0.57, -0.69, -1.05, inf, 0.31, -0.0],
                     [0.29, -1.0, -1.45, 0.21, -1.1, -0.14, 1.17, -0.43]], tf.float64)
    with tf.autodiff.ForwardAccumulator(s, tf.ones_like(s) * 0.5) as acc:
        f1 = tf.signal.stft(s, 4, 1)
        f2 = tf.signal.stft(s, 4, 3, fft_length=8)
    out += [acc.jvp(f1), acc.jvp(f2)]""")

case("max_pool_gradient_of_a_window_of_minus_inf", """
    ninf = float("-inf")
    out = []
    for dt in (tf.float16, tf.float32, tf.float64):
        for row, k, s, p in [([1.0, ninf, ninf, ninf, 2.0], 3, 1, "SAME"),
                             ([ninf, ninf, ninf, ninf], 2, 2, "VALID"),
                             ([ninf, ninf, ninf, ninf], 3, 1, "SAME")]:
            x = tf.constant(np.array(row).reshape(1, -1, 1), dt)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.nn.max_pool1d(x, k, s, p)
            up = tf.constant(np.arange(1, y.shape[1] + 1).reshape(y.shape), dt)
            out += [y, tape.gradient(y, x, output_gradients=up)]
    x = tf.constant([[[[ninf], [ninf]], [[ninf], [3.0]]]], tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 1, 1, "VALID") + tf.nn.max_pool2d(x, 2, 1, "SAME")
    out += [y, tape.gradient(y, x)]""")

# ---------------------------------------------------------------- sweepsolve (session 11)
# The sweep's residue in solves, determinants and second derivatives: TF's association and
# which kernel forms its products.
case("triangular_solve_gradient_products_rounded_apart", """
    chol = tf.constant([[2.1, 0.0, 0.0], [0.43, 2.0, 0.0], [-3e29, 0.14, 2.3]], tf.float32)
    rhs = tf.constant([[4278.0, 270.5, 13024.5], [-20253.4, -2976.3, -9968.5],
                       [279.0, -137.1, -19516.2]], tf.float32)
    up = tf.constant([[0.5, -0.1, 1.4], [-0.4, 0.1, -0.3], [0.2, 0.6, 0.8]], tf.float32)
    out = []
    for dt in (tf.float32, tf.float64):
        c, r, u = tf.cast(chol, dt), tf.cast(rhs, dt), tf.cast(up, dt)
        with tf.GradientTape() as t:
            t.watch([c, r])
            y = tf.linalg.cholesky_solve(c, r)
        out += [y] + t.gradient(y, [c, r], output_gradients=u)
    # the triangular solve's gradient -g y^T (MatMul with adj_y): products rounded one by one
    # in float64 and in float32 below 16 rows or for one column (inf - inf is nan), fused
    # multiply-adds in float32 from 16 rows and in batches (the first infinity stays)
    for rows, cols, dt in ((3, 3, tf.float32), (17, 3, tf.float32), (17, 1, tf.float32),
                           (17, 3, tf.float64)):
        big = 1e30 if dt == tf.float32 else 1e300
        b = np.ones((rows, cols))
        b[0, :3] = [big, big, -big][:cols] if cols == 3 else [big]
        g = np.ones((rows, cols))
        g[0] = 1e10
        b, g = tf.constant(b, dt), tf.constant(g, dt)
        for m in (tf.eye(rows, dtype=dt), tf.eye(rows, batch_shape=[1], dtype=dt)):
            with tf.GradientTape() as t:
                t.watch(m)
                y = tf.linalg.triangular_solve(m, b if m.shape.rank == 2 else b[None])
            out.append(t.gradient(y, m, output_gradients=g if m.shape.rank == 2 else g[None])
                       [..., 0, 0])
""")

case("slogdet_and_det_divide_by_an_infinite_complex_pivot", """
    inf = float("inf")
    out = []
    for m in ([[1 + 0j, 2], [complex(26334, inf), 3]],
              [[1 + 0j, 2, 0], [2, 1, 0], [complex(-inf, 0.0004), 3, 1]],
              [[1e30 + 0j, 1], [complex(1e30, 1e30), 1]],
              [[21897 - 0.38j, -5005 + 1j], [complex(26334, inf), 7711 + 1.6j]]):
        for dt in (tf.complex64, tf.complex128):
            x = tf.constant(m, dt)
            out += list(tf.linalg.slogdet(x)) + [tf.linalg.det(x)]
    x = tf.constant([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [-inf, 3.0, 1.0]], tf.float64)
    out += list(tf.linalg.slogdet(x)) + [tf.linalg.det(x)]""")

case("batch_matmul_complex_inf_by_kernel", """
    inf = float("inf")
    out = []
    # BatchMatMulV2 of complex with an infinite part: one matrix (or a big product) runs
    # the scaled contraction (nan), a batch of small ones Eigen's matrix product: per
    # coefficient below m + k + n = 20 (inf), its matrix-vector kernel for one column
    # (inf), its scaled matrix-matrix kernel otherwise (one row and k = 1 included)
    for bsz, m, k, n, row in ((2, 3, 2, 2, 0), (1, 3, 2, 2, 0), (2, 6, 6, 7, 0),
                              (2, 6, 7, 7, 0), (2, 1, 30, 31, 0), (2, 31, 1, 31, 30),
                              (2, 9, 7, 1, 8), (2, 5, 7, 9, 4), (1, 1, 30, 30, 0)):
        for dt in (tf.complex64, tf.complex128):
            a = np.ones((bsz, m, k)) * (1 + 0.5j)
            a[0, row, 0] = complex(16177, inf)
            b = np.ones((bsz, k, n)) * (0.3 - 0.7j)
            out.append(tf.matmul(tf.constant(a, dt), tf.constant(b, dt))[0, row])
    a = tf.constant([[[16177 + 1j, -17672 + 1e30j], [-5465 + 0j, 13085 + 3j]],
                     [[-15229 + 1j, -858 - 3j], [-2840 - 1j, -10989 - 1j]]], tf.complex64)
    a = tf.tensor_scatter_nd_update(a, [[0, 0, 0]], tf.constant([complex(16177, inf)],
                                                                tf.complex64))
    b = tf.constant([[[2e-4 - 0.65j, -6e-4 + 0.39j], [1.4e-4 - 0.03j, 8e-4 + 1.18j]],
                     [[6e-4 + 0.63j, -6e-5 - 0.66j], [-2.5e-3 + 1.16j, -5e-4 + 0.5j]]],
                    tf.complex64)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = tf.linalg.matmul(a, b)
    out += [y] + t.gradient(y, [a, b], output_gradients=tf.ones_like(y) * (0.5 - 1j))""")

case("rsqrt_half_rounded_once", """
    # TF's half (and bfloat16) rsqrt: 1 / sqrt in float, rounded once; l2_normalize of
    # half through it
    v = tf.constant(np.linspace(1.0, 3000.0, 64), tf.float16)
    x = tf.constant([[11.41], [32.37], [-47.54], [1.706], [6.5023], [-2.4674], [0.3], [7.0]],
                    tf.float16)
    out = [tf.math.rsqrt(v), tf.math.rsqrt(tf.cast(v, tf.bfloat16)),
           tf.math.l2_normalize(x, axis=1), grad(lambda a: tf.math.rsqrt(a), v[:8])]""")

case("reciprocal_grad_kernel_and_log1p_composition", """
    inf, nan = float("inf"), float("nan")
    out = []
    # log1p's gradient g * reciprocal(1 + x), its second derivative through TF's
    # ReciprocalGrad kernel (-y * y) * g: y * y overflows half before g scales it
    for dt in (tf.float16, tf.float32, tf.float64):
        x = tf.constant([-1.004, -0.999, 0.5, -1.0, 3.0], dt)
        out += [grad(tf.math.log1p, x), grad2(tf.math.log1p, x)]
    # ReciprocalGrad is 0 where the upstream gradient is 0 (y inf or nan there)
    x = tf.constant([0.0, nan, 2.0, -0.0, 1e-30], tf.float32)
    u = tf.constant([0.0, 0.0, 1.5, 1.0, 0.0], tf.float32)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.math.reciprocal(x)
        g = t1.gradient(y, x, output_gradients=u)
        s = tf.reduce_sum(g * tf.constant([1.0, 2.0, 0.5, 0.0, 1.0]))
    out += [g, t2.gradient(s, x)]
    z = tf.constant([0.5 + 0.25j, complex(inf, 1.0), 2j], tf.complex64)
    out += [grad(tf.math.reciprocal, z), grad2(tf.math.reciprocal, z)]""")

case("complex_division_by_a_signed_zero", """
    # C's (libgcc's) complex division by 0 + 0j: nan + nanj recovered as copysign(inf, re)
    # times the numerator's parts; NumPy's divides the parts by |0|. (The zeros come from
    # one list: TF's eager cache of scalar constants hands back -0.0 for a later 0.0.)
    ys = tf.constant([complex(-0.0, 0.0), complex(0.0, 0.0), complex(-0.0, -0.0),
                      complex(0.0, -0.0)], tf.complex64)
    xs = tf.constant([-0.2268 + 0j, 1 + 2j], tf.complex64)
    out = []
    for i in range(4):
        y = ys[i:i + 1]
        out += [tf.math.xdivy(xs[:1], y), tf.math.divide(xs[:1], y),
                tf.math.xdivy(tf.cast(xs[1:], tf.complex128), tf.cast(y, tf.complex128))]""")

case("top_k_unsorted_heap_order", """
    # sorted=False: TF's TopN heap array (k = 1 an argmax, k = n sorted)
    nan = float("nan")
    x = np.array([[-36.72, 6.51, -5.45, 20.27], [51.24, 22.87, 42.54, 35.7],
                  [9.59, 30.23, -68.27, -23.12]])
    y = np.array([[35, 13, 1, -24, -20, -46, -43, -49, -33, 31, 14],
                  [3, 3, -1, 3, nan, 0, 3, 2, nan, -1, 3]])
    out = []
    for dt in (tf.float16, tf.float32, tf.float64, tf.int32):
        for k in (1, 2, 3, 4):
            out += list(tf.math.top_k(tf.constant(x, dt), k=k, sorted=False))
        for k in (2, 3, 5, 9, 11):
            yy = y if dt != tf.int32 else np.nan_to_num(y, nan=7)
            out += list(tf.math.top_k(tf.constant(yy, dt), k=k, sorted=False))
    xt = tf.constant(x, tf.float32)
    with tf.GradientTape() as t:
        t.watch(xt)
        v, i = tf.math.top_k(xt, k=3, sorted=False)
    out.append(t.gradient(v, xt, output_gradients=tf.constant([[1.0, 2.0, 3.0]] * 3)))""")

# ---------------------------------------------------------------- sweepeig (session 11)
# Eigen's SelfAdjointEigenSolver replayed on complex Hermitian matrices too: TF's eigenvector
# phases and the eigenvectors of repeated eigenvalues.
case("eigh_complex_hermitian_as_eigen", """
    u = tf.constant([[1.0 + 0.5j, -0.5 + 2.0j, 0.25 - 1.0j, 1.5 + 0.0j],
                     [0.0 - 1.5j, 2.0 + 0.25j, -1.0 + 1.0j, 0.5 - 0.5j]], tf.complex64)
    a = tf.matmul(u, u, adjoint_a=True) / 4 + tf.eye(4, dtype=tf.complex64)
    b = tf.constant([[2.5 + 0.0j, 0.0, 0.0], [0.75 - 1.25j, -1.0 + 0.0j, 0.0],
                     [-0.5 + 0.5j, 2.0 + 1.0j, 0.5 + 0.0j]], tf.complex128)
    c = tf.constant([[0.3, 0.0], [0.0, 0.7]], tf.float64)
    out = list(tf.linalg.eigh(a)) + [tf.linalg.eigvalsh(a)]
    out += list(tf.linalg.eigh(b)) + [tf.linalg.eigvalsh(b)]
    out += grad(lambda x: tf.abs(tf.linalg.eigh(x)[1][:2, :2]) * tf.cast(c, tf.float32), a)
    out += grad(lambda x: tf.abs(tf.linalg.eigh(x)[1][1:, 1:]) * c
                + tf.math.real(tf.linalg.eigh(x)[0][:2]), b)""")

case("solve_small_real_as_eigen_expm_gradient", """
    x = tf.constant([[1.4999425411224365, -7.483011722797528e-05, -0.00011305367661407217,
                      -4.09920676247566e-06],
                     [3.0000000565330046e-31, 1.4998350143432617, 21000.0,
                      0.0002647184592206031],
                     [0.30000001192092896, 0.00038417259929701686, 1.5,
                      -0.0006854352541267872],
                     [-1.758710277499631e-05, -4.663282379624434e-05, 0.0003491185780148953,
                      1.5001327991485596]], tf.float32)
    u = tf.constant([[0.4778882563114166, 0.23294693231582642, 1.1033480167388916,
                      -0.3211944103240967],
                     [-0.8585452437400818, 0.500761866569519, 0.09649146348237991,
                      -0.5144497752189636],
                     [0.5346781015396118, -1.5614159107208252, -0.0028560839127749205,
                      -0.18022382259368896],
                     [-0.32981523871421814, 0.5339264869689941, 0.8236719369888306,
                      -0.2655150294303894]], tf.float32)
    out = grad(lambda x: tf.linalg.expm(x) * u, x)
    a = x / 4096.0 + tf.eye(4) * 0.5
    out += [tf.linalg.solve(a, u), tf.linalg.solve(a, u[:, :1], adjoint=True),
            tf.linalg.solve(tf.cast(a, tf.float64), tf.cast(u, tf.float64))]""")

# ---------------------------------------------------------------- s2b (session 12)
# tf.nn.convolution with a dilation above 1 runs as TF's: space_to_batch_nd, the undilated
# VALID convolution, batch_to_space_nd. The zero upstream gradient of the rows cropped after
# it meets an infinite filter tap in the input gradient (nan), as nn.convolution|5|5 showed.
case("dilated_convolution_grad_nan_as_space_to_batch", """
    out = []
    for dt in (tf.float16, tf.float32, tf.float64):
        x = tf.constant(np.random.default_rng(0).normal(size=(1, 5, 4, 1)), dt)
        w = tf.constant([[[[1.5]], [[np.inf]], [[2.0]]], [[[0.25]], [[-0.5]], [[1.0]]]], dt)
        out += grad(lambda x, w: tf.nn.convolution(x, w, padding="SAME", dilations=2), x, w)
    x = tf.constant(np.random.default_rng(1).normal(size=(1, 7, 1)), tf.float64)
    w = tf.constant([[[np.inf]], [[1.0]]], tf.float64)
    out += grad(lambda x: tf.nn.convolution(x, w, padding="SAME", dilations=3), x)
    out += grad(lambda x: tf.nn.convolution(x, w, padding="VALID", dilations=3), x)""")

case("dilated_convolution_sweep_5_5", """
    r = np.random.default_rng(5)
    x = tf.constant(r.normal(size=(2, 5, 4, 2)) * 1e-3, tf.float16)
    w = r.normal(size=(2, 3, 2, 2))
    w[0, 0, 0, 0], w[1, 0, 1, 0], w[1, 0, 1, 1] = 70000.0, -np.inf, 1e-30
    w = tf.constant(w, tf.float16)
    u = tf.constant(r.normal(size=(2, 5, 4, 2)), tf.float16)
    out = [tf.nn.convolution(x, w, strides=1, padding="SAME", dilations=2)]
    out += grad(lambda x, w: tf.nn.convolution(x, w, strides=1, padding="SAME",
                                               dilations=2) * u, x, w)""")

case("dilated_convolution_1d_2d_3d_values_and_gradients", """
    r = np.random.default_rng(2)
    out = []
    for xs, ws, dil, pads in [((2, 9, 2), (3, 2, 1), 4, ("SAME", "VALID")),
                              ((1, 7, 8, 2), (2, 3, 2, 3), [2, 3],
                               ("SAME", "VALID", [[0, 0], [1, 2], [3, 0], [0, 0]])),
                              ((2, 5, 4, 6, 2), (2, 3, 2, 2, 3), [2, 1, 3], ("SAME", "VALID"))]:
        x = tf.constant(r.normal(size=xs), tf.float64)
        w = tf.constant(r.normal(size=ws), tf.float64)
        for p in pads:
            y = tf.nn.convolution(x, w, padding=p, dilations=dil)
            u = tf.constant(r.normal(size=y.shape), tf.float64)
            out += [y] + grad(lambda x, w: tf.nn.convolution(x, w, padding=p,
                                                             dilations=dil) * u, x, w)""")

case("dilated_convolution_channels_first", """
    r = np.random.default_rng(3)
    x = tf.constant(r.normal(size=(2, 3, 5, 6)), tf.float32)
    w = tf.constant(r.normal(size=(2, 3, 3, 2)), tf.float32)
    out = [tf.nn.convolution(x, w, padding="SAME", dilations=2, data_format="NCHW"),
           tf.nn.convolution(x, w, padding="VALID", dilations=[1, 1, 2, 1],
                             data_format="NCHW")]""")

case("convolution_channels_first_1d_3d", """
    r = np.random.default_rng(5)
    x = tf.constant(r.normal(size=(2, 3, 7)), tf.float32)
    w = tf.constant(r.normal(size=(2, 3, 2)), tf.float32)
    v = tf.constant(r.normal(size=(1, 2, 4, 5, 6)), tf.float32)
    k = tf.constant(r.normal(size=(2, 2, 2, 2, 3)), tf.float32)
    out = [tf.nn.convolution(x, w, padding="SAME", data_format="NCW"),
           tf.nn.convolution(x, w, strides=[1, 1, 2], padding="VALID", data_format="NCW"),
           tf.nn.convolution(x, w, padding="SAME", dilations=2, data_format="NCW"),
           tf.nn.convolution(v, k, padding="SAME", data_format="NCDHW"),
           tf.nn.convolution(v, k, padding="VALID", dilations=[1, 2, 3], data_format="NCDHW")]
    out += grad(lambda v, k: tf.nn.convolution(v, k, padding="SAME", data_format="NCDHW"),
                v, k)""")

case("dilated_convolution_float32_grouped_free_batch_dilation", """
    r = np.random.default_rng(4)
    x = tf.constant(r.normal(size=(2, 6, 5, 2)), tf.float32)
    w = tf.constant(r.normal(size=(3, 2, 2, 3)), tf.float32)
    out = [tf.nn.convolution(x, w, strides=[1, 2, 2, 1], padding="SAME",
                             dilations=[2, 1, 1, 1])]""")

for _name, _src in [
        ("dilated_convolution_strides_and_dilations",
         "tf.nn.convolution(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), strides=2, "
         "padding='SAME', dilations=2)"),
        ("dilated_convolution_negative_output",
         "tf.nn.convolution(tf.ones([1, 2, 4, 1], tf.float16), tf.ones([3, 2, 1, 1], "
         "tf.float16), padding='VALID', dilations=2)"),
        ("dilated_convolution_negative_crop",
         "tf.nn.convolution(tf.ones([1, 3, 4, 1], tf.float64), tf.ones([3, 2, 1, 1], "
         "tf.float64), padding='VALID', dilations=2)"),
        ("dilated_convolution_channels_not_divisible",
         "tf.nn.convolution(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 2, 1]), padding='SAME', "
         "dilations=2)"),
        ("dilated_convolution_lowercase_padding",
         "tf.nn.convolution(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), padding='same', "
         "dilations=2)"),
        ("dilated_convolution_explicit_three_pairs",
         "tf.nn.convolution(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), "
         "padding=[[0, 0], [1, 1], [0, 0]], dilations=2)"),
        ("dilated_convolution_explicit_1d",
         "tf.nn.convolution(tf.ones([1, 5, 1]), tf.ones([2, 1, 1]), "
         "padding=[[0, 0], [1, 1], [2, 0], [0, 0]], dilations=2)"),
        ("convolution_channels_first_float64_1d",
         "tf.nn.convolution(tf.ones([1, 2, 5], tf.float64), tf.ones([2, 2, 1], tf.float64), "
         "padding='SAME', data_format='NCW')"),
        ("convolution_channels_first_float16_2d_dilated",
         "tf.nn.convolution(tf.ones([1, 2, 5, 5], tf.float16), tf.ones([2, 2, 2, 1], "
         "tf.float16), padding='SAME', dilations=2, data_format='NCHW')"),
        ("convolution_channels_first_float64_3d",
         "tf.nn.convolution(tf.ones([1, 2, 3, 3, 3], tf.float64), tf.ones([2, 2, 2, 2, 1], "
         "tf.float64), padding='VALID', data_format='NCDHW')"),
        ("dilated_convolution_zero_dilation",
         "tf.nn.convolution(tf.ones([1, 5, 1]), tf.ones([2, 1, 1]), padding='SAME', "
         "dilations=0)")]:
    case(_name, "out = " + _src)

# ---------------------------------------------------------------- sweeplsq (session 12)
# float32 second derivatives of lstsq and qr at rounding level: the sweep's cases, and TF's
# Cholesky (Eigen's LLT) and Qr (Eigen's HouseholderQR, under a tape) bit for bit
# (test_tf_regressions.py compares the "_bits" case exactly).
case("sweeplsq_lstsq_second_derivatives_as_eigen_llt", """
    a = tf.constant([[-0.13159449, 0.10456222, -1.0612766], [-1.9451464, 2.1469097, 0.5504976],
                     [1.3611894, -0.5062709, 1.5359997]], tf.float32)
    b = tf.constant([[0.0028856352], [2.0984842], [-1.0118144]], tf.float32)
    c = tf.constant([[1.6091304, 0.0897702, -0.7550291, -0.58989576],
                     [-0.5964944, 2.596901, -1.2769169, -1.1299384],
                     [0.9352685, 0.01135325, 0.60047106, -0.87656033],
                     [-0.23407903, -1.5849414, 2.3254528, 1.2250035]], tf.float32)
    d = tf.constant([[-2.0], [-1.0], [-3.0], [1.0]], tf.float32)
    w = tf.constant([[0.7], [-1.3], [0.4], [2.1]], tf.float32)
    out = [tf.linalg.lstsq(a, b), tf.linalg.lstsq(c, d)]
    out += grad2(lambda x, y: tf.linalg.lstsq(x, y) * w[:3], a, b)
    out += grad2(lambda x, y: tf.linalg.lstsq(x, y) * w, c, d)""")

case("sweeplsq_qr_second_derivatives_as_eigen_householder", """
    a = tf.constant([[-1.8117592, 0.46636567, -3.0585947, 3.5711524],
                     [4.997898, 2.1980898, -4.6706284, -0.39056805],
                     [-0.94164443, 2.434796, -2.0226018, -3.0124924],
                     [-0.7050337, -1.2293576, 2.7092618, -0.7768788]], tf.float32)
    b = tf.constant([[-0.00021018900362902, 0.00014109388391566, -0.00021705494214966],
                     [-0.00045638343916169, 0.00031441512552415, 0.00113949473791623]],
                    tf.float64)
    v = tf.constant([[0.3, -1.1, 0.5], [2.0, 0.25, -0.7]], tf.float64)
    # second derivatives through R^-1 keep the gradient's own rounding (BLAS against Eigen:
    # a few 1e-5 in float32 at cond(R) 95, 1e-7 of the small entries of b's, which cancel
    # from 5e5): the forward passes are checked bit for bit instead (next case)
    with tf.GradientTape() as t:
        t.watch(a)
        out = list(tf.linalg.qr(a, full_matrices=True))
    out += grad(lambda x: tf.reduce_sum(tf.linalg.qr(x)[0] * v[:, :2])
                + tf.reduce_sum(tf.linalg.qr(x)[1] * v), b)""")

case("sweeplsq_cholesky_and_qr_bits", """
    rng = np.random.default_rng(19)
    out = []
    for dt in (tf.float32, tf.float64):
        for n in (1, 2, 3, 4, 5, 7, 9, 12):
            a = rng.standard_normal((3, n, n))
            spd = tf.constant(a @ np.swapaxes(a, -1, -2) + 0.1 * np.eye(n), dt)
            out += [tf.linalg.cholesky(spd), tf.linalg.cholesky(spd[1])]
        for m, n in ((1, 1), (2, 2), (3, 2), (4, 4), (5, 3), (6, 5), (9, 4), (9, 1), (8, 8),
                     (2, 3), (3, 5), (1, 4), (4, 5)):
            x = tf.constant(rng.standard_normal((2, m, n)), dt)
            with tf.GradientTape() as t:
                t.watch(x)
                out += list(tf.linalg.qr(x)) + list(tf.linalg.qr(x[0], full_matrices=True))""")
# ---------------------------------------------------------------- sweepexpm (session 12)
# expm's scaling and squaring replayed to TF's bits: its products as Eigen's matrix kernel
# forms them (``MatMulEigen``), the Pade solve as Eigen's PartialPivLU in complex arithmetic;
# up to 97 squarings turn a last-bit difference into 0, inf or nan.
case("expm_overflowing_squarings_as_eigen", """
    c64, inf = tf.complex64, float("inf")
    mats = [
        tf.constant([[-2.1582610540156892 - 3e29j]], c64),
        tf.constant([[0.7510281668246159 - 0.0006068050216301916j,
                      -0.1705479345033752 + 0.00017265811568075392j,
                      0.08406269415501351 + 4.3350301660453585e-05j],
                     [0.7502579687438626 - 0.0004081956609590951j,
                      1.2 + 0.0006118457460945625j,
                      0.6180374607624879 + 3.9515889528339554e-05j],
                     [-1.2261392941654574 - 0.00036125357988217496j,
                      21000 + 0.0001815785244121833j,
                      1.8640678924210827 + 0.0003225211019869322j]], c64),
        tf.constant([[[2 - 1j, -2 + 3j], [-3 + 3j, 3 - 1e30j]]], c64),
        tf.constant([[-1.0, 972.9362732835154], [-11865.99173765924, 1554.74387120314]],
                    tf.float64),
        tf.constant([[1.468553737893029 + 0.6218690121914292j,
                      0.16806069842626345 + 0.27567857636811277j,
                      -0.3923836157225328 + 3.0000000000000003e-31j],
                     [-0.8905857508053822 - 0.4267261512575427j,
                      1.3782900680300347 - 0.45416059824479754j,
                      0.41271124110184665 + 0.6472843468847954j],
                     [0.09404881474119586 - 0.04859652226973361j,
                      0.018139293490411518 - 0.6384542372059203j,
                      1.4962654477590587 + 3e29j]], c64)]
    out = [tf.linalg.expm(m) for m in mats]
    for m in mats[:3]:  # forward mode through the squarings
        with tf.autodiff.ForwardAccumulator(m, tf.ones_like(m) * (0.5 - 0.25j)) as acc:
            y = tf.linalg.expm(m)
        out.append(acc.jvp(y))
    # batches: Eigen's coefficient-based product per matrix below 7 rows, gebp from 7
    out.append(tf.linalg.expm(tf.stack([mats[1], mats[4], mats[4] * 1e-25])))
    m = mats[2][0]
    out.append(tf.linalg.expm(tf.cast(tf.stack([m, tf.transpose(m),
                                                tf.eye(2, dtype=c64) * (0.5 - 3e17j)]),
                                      tf.complex128)))
    out.append(tf.linalg.expm(tf.stack([mats[3], tf.transpose(mats[3]) * 0.5])))
    z = tf.zeros_like(m)
    big = tf.concat([tf.concat([m if i == j else z for j in range(4)], 1) for i in range(4)], 0)
    out.append(tf.linalg.expm(tf.stack([big * 1e-12, tf.transpose(big) * 1e-13])))
    # a unit-modulus number squared 2^60 times: 1 ulp in the Pade solve decides the answer
    for dt in (tf.complex64, tf.complex128):
        out.append(tf.linalg.expm(tf.constant([[0.1 - 4e18j]], dt)))
        out.append(tf.linalg.expm(tf.constant([[0.5 + 3e17j, 0.25j], [-0.5, 1.0 - 3e17j]],
                                              dt)))""")

case("solve_small_complex_as_eigen", """
    def system(n, dt):
        i = tf.range(n * n, dtype=tf.float64)
        re = tf.reshape(tf.sin(i * 1.7) * 3.0 ** tf.math.floormod(i, 3.0), [n, n])
        im = tf.reshape(tf.cos(i * 0.9 + 0.3) * 2.0 ** tf.math.floormod(i, 2.0), [n, n])
        return (tf.cast(tf.complex(re, im), dt),
                tf.cast(tf.complex(tf.transpose(im), re), dt))

    def residual(a, x, b):  # a x - b in complex128: the float32 solve's rounding, to 1e-13
        w = tf.complex128
        return tf.matmul(tf.cast(a, w), tf.cast(x, w)) - tf.cast(b, w)

    out = []
    for n in (1, 2, 3, 5, 8):
        a, b = system(n, tf.complex64)
        x, xa = tf.linalg.solve(a, b), tf.linalg.solve(a, b[:, :1], adjoint=True)
        out += [x, residual(a, x, b), xa, residual(tf.linalg.adjoint(a), xa, b[:, :1]),
                tf.linalg.solve(a[None], b[None])]
    for n in (1, 3, 4, 6, 8):
        a, b = system(n, tf.complex128)
        out += [tf.linalg.solve(a, b), tf.linalg.solve(a, b[:, :1], adjoint=True)]""")

# ---------------------------------------------------------------- lead (session 12)
case("float16_transposed_convolution_sums_reversed_taps", """
    # TF's float16 Conv2DBackpropInput (the transposed convolution's forward) is Eigen's
    # SpatialConvolutionBackwardInput: the filter reversed, its taps taken last row first and
    # last column first, each product rounded to float16, each partial sum too. A partial sum
    # past 65504 stays inf: -43296 (exact -43300) here only in that order.
    x = tf.constant([[-2.0, -1.0, 0.0], [1.0, 3.0, -1.0], [3.0, -1.0, 1.0],
                     [-3.0, -1.0, -3.0], [3.0, 2.0, -1.0]], tf.float16)[None, :, :, None]
    w = tf.constant([[[7932.0, -5504.0], [10144.0, -8008.0], [27872.0, -14520.0]],
                     [[-1922.0, -10296.0], [-18576.0, 7476.0], [-5372.0, -7956.0]],
                     [[14928.0, 2154.0], [4086.0, -1246.0], [-7384.0, 3608.0]]],
                    tf.float16)[..., None]
    out = tf.nn.conv2d_transpose(x, w, [1, 7, 5, 2], 1, "VALID")
""")


# ---------------------------------------------------------------- residue19 (session 13)
case("glu_second_derivative_through_sigmoid_grad", """
    # TF's SigmoidGrad gradient gb - 2 gb y (gb = gg g): an infinite half gives inf - inf
    # = nan where gb (1 - 2 y) gives inf (sweep keras.activations.glu|4|64, |2|7)
    glu = lambda x: tf.keras.activations.glu(x)
    out = [grad2(glu, f32(float("inf"), -0.22512173)),
           grad2(glu, f64(float("-inf"), -0.0001832124613538226)),
           grad2(glu, f32(0.5, -1.0, 2.0, 3.0))]
""")

case("swish_float16_second_derivative_is_its_custom_gradient", """
    # tf.nn.silu's custom gradient dy * s (1 + x (1 - s)): its second derivative runs through
    # those ops, not SigmoidGrad's gradient (float16, large inputs: 0 where that gives nan)
    x = tf.constant([4704.0, -5408.0, -9808.0, -3312.0, 7296.0, 16168.0, -14360.0, -6664.0,
                     20768.0, 0.5, -2.0], tf.float16)
    out = [grad2(tf.nn.silu, x), grad(tf.nn.silu, x), grad2(tf.nn.swish, f32(0.5, -3.0, 30.0))]
""")

case("cumulative_logsumexp_forward_mode_past_inf", """
    # forward mode is TF's gradient transposed at an upstream of ones, op by op: past +inf
    # (a reverse scan) its tangent is not the closed form's (sweep |3|40)
    inf, nan = float("inf"), float("nan")
    x = tf.constant([0.417724609375, -21.15625, -1.0, -21.515625, 11.0546875, 22.96875, 0.0,
                     -31.015625, -21.09375, -15.75, -60.53125, -22.515625, -16.859375,
                     42.4375, 17.015625, -11.1171875, 11.921875, inf, 33.6875, -5.9453125,
                     15.7734375, 0.0, 31.296875, 27.296875, -0.85107421875, -14.3515625,
                     5.1015625, -4.75, 0.222412109375, 10.9140625, -31.640625, inf, nan,
                     24.75, -63.96875, inf, -44.34375, 22.03125, 10.7578125, -1.013671875,
                     -36.25, -103.125, -14.1328125, -60.4375, 13.9375, -inf, 35.09375,
                     -19.640625], tf.float16)
    x = tf.reshape(x, [2, 3, 4, 2])
    t = tf.reshape(tf.cast(tf.range(48) % 7 - 3, tf.float16) * 0.75, [2, 3, 4, 2])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.math.cumulative_logsumexp(x, axis=-2, reverse=True)
    out = [y, acc.jvp(y)]
""")

case("complex_inverse_past_an_infinite_pivot", """
    # Eigen's LU goes on past an infinite pivot: C's complex division of a finite value by
    # it is 0 (libgcc's Annex G recovery), so TF's inverse holds zeros and finite values
    # where LAPACK's is nan (sweep linalg.inv|5|35, |3|30; slogdet|0|1's gradient)
    inf, nan = float("inf"), float("nan")
    a = tf.constant([[complex(nan, -inf), 0.10193667560815811 + 0.18163137137889862j],
                     [-0.3743916451931 + 0.27598923444747925j,
                      1.2654318809509277 - 0.24675147235393524j]], tf.complex64)
    b = tf.constant([[-0.8595653772354126 + 0.0004508396959863603j,
                      0.8861474990844727 + 1e-30j, -0.8153518438339233 + 0.00036286559770815074j],
                     [0.28209808468818665 + 0.0020341540221124887j,
                      complex(0.5381436347961426, inf),
                      -1.2246416807174683 + 0.000434191373642534j],
                     [-0.8466107845306396 - 0.0004676043172366917j,
                      0.584132969379425 + 0.0005428087897598743j,
                      -0.8751609921455383 + 0.00016956210311036557j]], tf.complex64)
    c = tf.constant([[1.5 + 0.30000001192092896j, complex(nan, inf)],
                     [0.21148759126663208 + 0.8999999761581421j,
                      1.6512335538864136 - 0.8999999761581421j]], tf.complex64)
    out = [tf.linalg.inv(a), tf.linalg.inv(b), tf.linalg.inv(b, adjoint=True),
           grad(lambda m: tf.linalg.slogdet(m)[1], c)]
""")

case("multiply_of_empty_strings_raises", """
    # no string Mul kernel: TF refuses size-0 string tensors too
    out = tf.constant([], tf.string) * tf.constant([], tf.string)
""")

case("subtract_of_empty_strings_raises", """
    out = tf.subtract(tf.zeros([3, 0], tf.string), tf.constant([""]))
""")

_FD = """
def fd(f, zs, h=1e-6):
    outs = []
    for k in range(len(zs)):
        g = np.zeros_like(zs[k])
        for i in range(zs[k].size):
            for unit in (1.0, 1j):
                lo, hi = [z.copy() for z in zs], [z.copy() for z in zs]
                hi[k][i] += h * unit
                lo[k][i] -= h * unit
                d = (np.sum(f(*hi)).real - np.sum(f(*lo)).real) / (2 * h)
                g[i] += d * unit
        outs.append(g)
    return outs
zs = [np.array([0.5+0.3j, -0.2+0.4j]), np.array([0.7-0.2j, 1.5+0.5j])]
"""
BETTER = {
    "grad_complex_xlogy": _FD + "out = fd(lambda x, y: x * np.log(y), zs)",
    "grad_complex_xdivy": _FD + "out = fd(lambda x, y: x / y, zs)",
    "grad_complex_xlog1py": _FD + "out = fd(lambda x, y: x * np.log1p(y), zs)",
    # the norm is real: the imaginary part of the upstream gradient meets a constant zero,
    # so the gradient of Re(conj(v) |z|) is Re(v) z / |z|; TensorFlow's is v z / |z|
    "grad_complex_reduce_euclidean_norm_complex_upstream": _FD + (
        "out = fd(lambda x: np.conj(0.7-0.4j) * np.sqrt(np.sum(np.abs(x) ** 2)), zs[:1])"),
}


def encode(v):
    """A result as JSON: tensors and arrays with dtype, shape and values (nan/inf as
    strings, complex as [re, im] pairs), numbers as they are, lists and tuples element-wise."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, (int, float)):
        return {"py": type(v).__name__, "value": _num(v)}
    if isinstance(v, tf.IndexedSlices):
        v = tf.convert_to_tensor(v)
    dtype = v.dtype.name if hasattr(v.dtype, "name") and isinstance(v.dtype, tf.DType) \
        else str(np.asarray(v).dtype)
    a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    return {"dtype": dtype, "shape": list(a.shape),
            "value": [_num(x) for x in a.reshape(-1).tolist()]}


def _num(x):
    if isinstance(x, complex):
        return [_num(x.real), _num(x.imag)]
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


def first_line(exc):
    text = str(exc).strip("\n")
    line = text.split("\n")[0] if text else ""
    return _PREFIX.sub("", line)


def env_values(src):
    env = {"tf": tf, "np": np}
    exec(PRELUDE, env)  # noqa: S102
    exec(src, env)  # noqa: S102
    return [v.numpy() for v in env["out"]]


def run(src):
    env = {"tf": tf, "np": np}
    exec(PRELUDE, env)  # noqa: S102 - the recorder's own case text
    try:
        exec(src, env)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - recorded
        return {"error": [type(exc).__name__, first_line(exc)]}
    return {"out": encode(env["out"])}


def main():
    cases = []
    for name, src in CASES:
        got = run(src)
        entry = {"name": name, "src": src, **got}
        if name in BETTER:
            env = {"np": np}
            exec(BETTER[name], env)  # noqa: S102 - the recorder's own reference
            kept = [np.asarray(v) for v in env["out"]]
            tf_values = [np.asarray(v) for v in env_values(src)]
            assert not all(np.allclose(a, b, rtol=1e-6) for a, b in zip(kept, tf_values)), \
                f"{name}: TensorFlow now agrees with the reference; drop it from BETTER"
            entry["tf"] = got["out"]
            entry["out"] = [{"dtype": "complex128", "shape": list(v.shape),
                             "value": [_num(x) for x in v.reshape(-1).tolist()],
                             "atol": 1e-7} for v in kept]
            entry["better"] = BETTER[name].replace(_FD, "")
        cases.append(entry)
    with open(OUT, "w") as f:
        json.dump({"tf_version": tf.__version__, "prelude": PRELUDE, "cases": cases}, f,
                  indent=0, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
