"""Record TensorFlow's answers for ``tf.space_to_batch_nd``, ``tf.batch_to_space`` and their
aliases into tests/fixtures/ops/space_to_batch.json.

Run with TensorFlow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_space_to_batch.py

Each case is a few lines of a TF program setting ``out``, in the format of
``tools/record_op_regressions.py`` (whose prelude and encoders it uses: ``grad``, ``grad2``):
values over dtypes, ranks, paddings and crops, size-0 axes, gradients with a random upstream,
and each error TensorFlow raises for a bad block shape, paddings or crops (class and first
message line). ``tests/ops/test_space_to_batch.py`` runs the same sources under tapeflow.
"""
import json
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import record_op_regressions as _reg  # noqa: E402 - its prelude, encoders and runner
import tensorflow as tf  # noqa: E402

OUT = os.path.join(_reg.ROOT, "tests", "fixtures", "ops", "space_to_batch.json")

CASES = []


def case(name, src):
    CASES.append((name, textwrap.dedent(src).strip("\n")))


_X = "x = tf.constant(np.random.default_rng({seed}).normal(size={shape}), tf.{dtype})\n"


def _x(shape, dtype="float64", seed=0):
    return _X.format(seed=seed, shape=tuple(shape), dtype=dtype)


# ------------------------------------------------------------------ values
for shape, block, pads in [
        ((2, 4, 6, 3), [2, 3], [[0, 0], [0, 0]]),
        ((2, 4, 6, 3), [2, 3], [[1, 1], [1, 2]]),
        ((1, 5, 2), [3], [[1, 0]]),
        ((3, 2, 3, 4, 2), [2, 1, 2], [[0, 0], [0, 0], [1, 1]]),
        ((2, 4, 6, 3), [2], [[0, 0]]),
        ((2, 4, 6, 3), [1, 1, 1], [[0, 0], [0, 0], [0, 0]]),
        ((2, 4, 6, 3), np.zeros([0], np.int32), np.zeros([0, 2], np.int32)),
        ((0, 4, 6, 3), [2, 3], [[0, 0], [0, 0]]),
        ((2, 0, 6, 3), [2, 3], [[0, 0], [0, 0]]),
        ((2, 0, 6, 3), [2, 3], [[1, 1], [0, 0]]),
        ((2, 4, 6, 0), [2, 3], [[0, 0], [0, 0]])]:
    tag = f"{'x'.join(map(str, shape))}_b{'x'.join(map(str, np.asarray(block).tolist()))}"
    b, p = repr(np.asarray(block).tolist()), repr(np.asarray(pads).tolist())
    if not np.asarray(block).size:
        b, p = "np.zeros([0], np.int32)", "np.zeros([0, 2], np.int32)"
    pad_tag = "_".join(str(v) for v in np.asarray(pads).reshape(-1))
    case(f"s2b_{tag}_p{pad_tag}", _x(shape) + f"out = tf.space_to_batch_nd(x, {b}, {p})")
    case(f"s2b_grad_{tag}_p{pad_tag}", _x(shape) + (
        f"y = tf.space_to_batch_nd(x, {b}, {p})\n"
        "u = tf.constant(np.random.default_rng(1).normal(size=y.shape.as_list()), tf.float64)\n"
        f"out = grad(lambda x: tf.space_to_batch_nd(x, {b}, {p}) * u, x)"))

for shape, block, crops in [
        ((12, 2, 2, 3), [2, 3], [[0, 0], [0, 0]]),
        ((12, 2, 2, 3), [2, 3], [[1, 0], [1, 2]]),
        ((12, 2, 2, 3), [2, 3], [[2, 2], [0, 0]]),
        ((6, 2, 2), [3], [[0, 2]]),
        ((8, 2, 3, 1, 2), [2, 1, 4], [[0, 1], [0, 0], [1, 2]]),
        ((0, 2, 2, 3), [2, 3], [[0, 0], [0, 0]]),
        ((12, 0, 2, 3), [2, 3], [[0, 0], [0, 0]]),
        ((12, 2, 2, 3), [2], [[1, 1]])]:
    tag = f"{'x'.join(map(str, shape))}_b{'x'.join(map(str, block))}"
    crop_tag = "_".join(str(v) for v in np.asarray(crops).reshape(-1))
    case(f"b2s_{tag}_c{crop_tag}", _x(shape) + f"out = tf.batch_to_space(x, {block}, {crops})")
    case(f"b2s_grad_{tag}_c{crop_tag}", _x(shape) + (
        f"y = tf.batch_to_space(x, {block}, {crops})\n"
        "u = tf.constant(np.random.default_rng(1).normal(size=y.shape.as_list()), tf.float64)\n"
        f"out = grad(lambda x: tf.batch_to_space(x, {block}, {crops}) * u, x)"))

case("s2b_grad2", _x((1, 4, 4, 1)) + (
    "out = grad2(lambda x: tf.square(tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 2]])), x)"))
case("b2s_grad2", _x((4, 3, 2, 1)) + (
    "out = grad2(lambda x: tf.square(tf.batch_to_space(x, [2, 2], [[1, 0], [0, 1]])), x)"))
case("s2b_b2s_round_trip", _x((2, 5, 3, 2)) + (
    "y = tf.space_to_batch_nd(x, [2, 2], [[1, 2], [0, 1]])\n"
    "out = [y, tf.batch_to_space(y, [2, 2], [[1, 2], [0, 1]])]"))
case("b2s_int_block", _x((8, 1, 2, 1)) + "out = tf.batch_to_space(x, 2, [[0, 0], [1, 0]])")
case("s2b_tensor_args_int64", _x((2, 4, 6, 1)) + (
    "out = tf.space_to_batch_nd(x, tf.constant([2, 3], tf.int64), "
    "tf.constant([[0, 2], [1, 2]], tf.int64))"))
case("b2s_tensor_args", _x((6, 2, 2, 1)) + (
    "out = tf.batch_to_space(x, tf.constant([3, 2]), tf.constant([[1, 1], [1, 0]]))"))
case("tf_space_to_batch", _x((1, 4, 4, 1)) + "out = tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])")
case("nn_space_to_batch", _x((1, 2, 4, 1)) + (
    "out = tf.nn.space_to_batch(x, [1, 2], [[0, 0], [1, 1]])"))
case("v1_space_to_batch", _x((1, 4, 2, 2)) + (
    "out = tf.compat.v1.space_to_batch(x, [[0, 0], [1, 1]], 2)"))
case("v1_space_to_batch_keyword", _x((1, 4, 2, 2)) + (
    "out = tf.compat.v1.space_to_batch(x, [[0, 0], [1, 1]], block_size=2)"))
case("v1_batch_to_space", _x((8, 2, 1, 1)) + (
    "out = tf.compat.v1.batch_to_space(x, [[0, 1], [1, 0]], 2)"))
case("v1_space_to_batch_nd", _x((1, 4, 2, 2)) + (
    "out = tf.compat.v1.space_to_batch_nd(x, [2, 1], [[0, 0], [0, 0]])"))
case("v1_batch_to_space_nd", _x((4, 1, 2, 2)) + (
    "out = tf.compat.v1.batch_to_space_nd(x, [2, 2], [[0, 1], [0, 0]])"))
case("v1_both_block_args", _x((1, 4, 2, 2)) + (
    "out = tf.compat.v1.space_to_batch(x, [[0, 0], [0, 0]], 2, block_shape=2)"))
case("v1_space_to_batch_block1", _x((1, 4, 2, 2)) + (
    "out = tf.compat.v1.space_to_batch(x, [[0, 0], [0, 0]], 1)"))

# the lowering to TF's GraphDef (node types, names, inputs), and the graph run again through
# import_graph_def (the SavedModel loader's kernels)
case("graph_def_lowering_and_import", """
@tf.function
def f(x):
    y = tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]])
    return tf.batch_to_space(y * 2.0, [2, 2], [[0, 0], [1, 0]])
gd = f.get_concrete_function(tf.TensorSpec([1, 4, 2, 1], tf.float32)).graph.as_graph_def()
@tf.function
def g(x):
    r, = tf.graph_util.import_graph_def(gd, input_map={"x:0": x},
                                        return_elements=["Identity:0"])
    return r
out = [[[n.op, n.name] + list(n.input) for n in gd.node],
       g(tf.reshape(tf.range(8.), [1, 4, 2, 1]))]""")

for dtype in ("float16", "bfloat16", "float32", "int8", "int32", "int64", "uint8", "uint16",
              "uint32", "uint64", "int16"):
    case(f"s2b_dtype_{dtype}", (
        f"x = tf.cast(tf.reshape(tf.range(24), [1, 4, 6, 1]), tf.{dtype})\n"
        "y = tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]])\n"
        "out = [y, tf.batch_to_space(y, [2, 2], [[0, 0], [1, 1]])]"))
for dtype in ("bool", "complex64", "complex128", "string"):
    src = ("x = tf.constant([[[['a'], ['b']], [['c'], ['d']]]])\n" if dtype == "string" else
           f"x = tf.cast(tf.reshape(tf.range(4), [1, 2, 2, 1]), tf.{dtype})\n")
    case(f"s2b_dtype_{dtype}", src + "out = tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])")
    case(f"b2s_dtype_{dtype}", src + "out = tf.batch_to_space(x, [1, 1], [[0, 0], [0, 0]])")

# ------------------------------------------------------------------ errors
_E = _x((2, 4, 6, 3))
_Y = _x((12, 2, 2, 3))
for name, src in [
        ("s2b_not_divisible", _E + "out = tf.space_to_batch_nd(x, [3, 3], [[0, 0], [0, 0]])"),
        ("s2b_not_divisible_padded",
         _E + "out = tf.space_to_batch_nd(x, [2, 3], [[1, 0], [0, 0]])"),
        ("s2b_negative_padding", _E + "out = tf.space_to_batch_nd(x, [2, 3], [[-1, 1], [0, 0]])"),
        ("s2b_block_zero", _E + "out = tf.space_to_batch_nd(x, [0, 3], [[0, 0], [0, 0]])"),
        ("s2b_block_negative", _E + "out = tf.space_to_batch_nd(x, [2, -3], [[0, 0], [0, 0]])"),
        ("s2b_paddings_rows", _E + "out = tf.space_to_batch_nd(x, [2, 3], [[0, 0]])"),
        ("s2b_paddings_vector", _E + "out = tf.space_to_batch_nd(x, [2, 3], [0, 0, 0, 0])"),
        ("s2b_paddings_columns", _E + "out = tf.space_to_batch_nd(x, [2, 3], [[0], [0]])"),
        ("s2b_block_matrix", _E + "out = tf.space_to_batch_nd(x, [[2, 3]], [[0, 0], [0, 0]])"),
        ("s2b_block_scalar", _E + "out = tf.space_to_batch_nd(x, 2, [[0, 0]])"),
        ("s2b_too_many_blocks", _E + "out = tf.space_to_batch_nd(x, [1, 1, 1, 1], [[0, 0]] * 4)"),
        ("s2b_scalar_input", "out = tf.space_to_batch_nd(tf.constant(1.), [1], [[0, 0]])"),
        ("s2b_rank1_input", "out = tf.space_to_batch_nd(tf.constant([1., 2.]), [2], [[0, 0]])"),
        ("s2b_float_block", _E + "out = tf.space_to_batch_nd(x, [2., 3.], [[0, 0], [0, 0]])"),
        ("s2b_float_paddings", _E + "out = tf.space_to_batch_nd(x, [2, 3], [[0., 0.], [0., 0.]])"),
        ("b2s_batch_not_divisible", _Y + "out = tf.batch_to_space(x, [5, 1], [[0, 0], [0, 0]])"),
        ("b2s_negative_crop", _Y + "out = tf.batch_to_space(x, [2, 3], [[-1, 0], [0, 0]])"),
        ("b2s_crop_too_big", _Y + "out = tf.batch_to_space(x, [2, 3], [[2, 3], [0, 0]])"),
        ("b2s_block_zero", _Y + "out = tf.batch_to_space(x, [0, 3], [[0, 0], [0, 0]])"),
        ("b2s_block_negative", _Y + "out = tf.batch_to_space(x, [-2, -3], [[0, 0], [0, 0]])"),
        ("b2s_crops_rows", _Y + "out = tf.batch_to_space(x, [2, 3], [[0, 0]])"),
        ("b2s_block_matrix", _Y + "out = tf.batch_to_space(x, [[2, 3]], [[0, 0], [0, 0]])"),
        ("b2s_too_many_blocks", _Y + "out = tf.batch_to_space(x, [1, 1, 1, 1], [[0, 0]] * 4)"),
        ("b2s_scalar_input", "out = tf.batch_to_space(tf.constant(1.), [1], [[0, 0]])"),
        ("s2b_bool_bad_block",
         "out = tf.space_to_batch_nd(tf.constant([[True]]), [1, 1], [[0, 0]])"),
        ("b2s_complex_int64_block", "out = tf.batch_to_space(tf.constant([[1j]]), "
         "tf.constant([1], tf.int64), [[0, 0]])"),
        ("b2s_numpy_int_block", _Y + "out = tf.batch_to_space(x, np.int64(2), [[0, 0]] * 2)"),
        ("v1_s2b_rank3", _E + "out = tf.compat.v1.space_to_batch(x[0], [[0, 0], [0, 0]], 2)")]:
    case(name, src)


def main():
    cases = [{"name": name, "src": src, **_reg.run(src)} for name, src in CASES]
    with open(OUT, "w") as f:
        json.dump({"tf_version": tf.__version__, "prelude": _reg.PRELUDE, "cases": cases}, f,
                  indent=0, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
