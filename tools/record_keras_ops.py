"""Record Keras 3.15's ``keras.ops`` (TensorFlow backend) for tests/keras/test_ops.py.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_keras_ops.py
Writes tests/fixtures/keras/ops_names.json (the name lists of ``keras.ops`` and its
submodules) and tests/fixtures/keras/ops_values.json (calls on small fixed inputs: Keras's
output values, dtypes and shapes, the gradient of ``sum(out * w)`` for float inputs, or the
exception class). tapeflow itself never imports TensorFlow.

A case is ``[name, args, kwargs]``; an argument is a JSON value where a tensor is
``{"T": nested list, "dtype": name}``, a tuple is ``{"tuple": [...]}`` and a Python number
stays a number (a weak type under Keras's promotion rules).
"""
import json
import math
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402
from keras import ops  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras")
SUBMODULES = ["numpy", "nn", "linalg", "image"]


def T(v, dtype="float32"):
    return {"T": v, "dtype": dtype}


def I(v, dtype="int32"):  # noqa: E743 - a short case builder
    return T(v, dtype)


def tup(*v):
    return {"tuple": list(v)}


FA = T([[-1.5, -0.25, 0.0], [0.5, 1.0, 2.0]])          # (2, 3) float32
FB = T([[0.5, -2.0, 3.0], [1.5, 0.25, -1.0]])          # (2, 3) float32, no zero
FV = T([0.25, -0.75, 1.5])                             # (3,)
IA = I([[-2, 0, 1], [3, 4, -5]])
IB = I([[2, -3, 1], [4, 1, 2]])
U8 = I([[1, 2, 3], [4, 5, 6]], "uint8")
I8 = I([[-1, 2, -3], [4, -5, 6]], "int8")
F16 = T([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], "float16")
F64 = T([[0.1, -0.6, 1.2], [2.5, -0.4, 0.9]], "float64")
BA = T([[True, False, True], [False, False, True]], "bool")
BB = T([[True, True, False], [False, True, True]], "bool")
UNIT = T([[-0.9, -0.25, 0.0], [0.3, 0.6, 0.95]])       # inside (-1, 1)
POS = T([[0.2, 0.7, 1.0], [1.5, 2.5, 4.0]])            # positive
M3 = T([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])   # symmetric positive definite
M3B = T([[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]])


def unary(names, inputs):
    return [[n, [x], {}] for n in names.split() for x in inputs]


def binary(names, pairs):
    return [[n, list(p), {}] for n in names.split() for p in pairs]


FLOAT_UNARY = """arccos arcsin arctanh arccosh arcsinh arctan cos cosh sin sinh tan tanh exp exp2
 expm1 log log10 log1p log2 sqrt cbrt deg2rad rad2deg sinc i0 erf erfinv rsqrt sigmoid
 relu relu6 softplus softsign silu swish log_sigmoid leaky_relu hard_sigmoid elu selu gelu celu
 hard_silu hard_swish hard_tanh hard_shrink soft_shrink tanh_shrink squareplus sparse_plus
 sparse_sigmoid"""
KEEP_UNARY = """abs absolute fabs negative square sign ceil floor round trunc reciprocal
 isfinite isinf isnan isneginf isposinf isreal signbit logical_not conj conjugate real imag
 angle copy nan_to_num ravel"""
BINARY = """add subtract multiply divide true_divide floor_divide mod fmod power maximum minimum
 arctan2 hypot logaddexp logaddexp2 equal not_equal greater greater_equal less less_equal
 logical_and logical_or logical_xor fmax fmin heaviside divide_no_nan isclose nextafter
"""
INT_BINARY = """gcd lcm bitwise_and bitwise_or bitwise_xor left_shift right_shift
 bitwise_left_shift bitwise_right_shift"""
REDUCE = """sum mean max min prod std var all any amax amin argmax argmin count_nonzero median
 ptp nanmax nanmin nansum nanmean nanprod nanstd nanvar nanargmax nanargmin nanmedian
 logsumexp"""


def cases():
    c = []
    c += unary(FLOAT_UNARY, [FA, IA, F16])
    c += [[n, [x], {}] for n in ("arccos", "arcsin", "arctanh") for x in (UNIT,)]
    c += [[n, [x], {}] for n in ("log", "sqrt", "arccosh", "log2", "rsqrt") for x in (POS,)]
    c += unary(KEEP_UNARY, [FA, IA, BA, F64])
    c += binary(BINARY, [(FA, FB), (IA, FB), (IA, 2.5), (FA, 2), (IA, IB), (I8, U8),
                         (F16, FA), (FA, FV), (BA, BB), (2, FB)])
    c += binary(INT_BINARY, [(IA, IB), (I8, U8), (IA, 1), (BA, BB)])
    c += unary("bitwise_invert bitwise_not", [IA, U8, BA])
    for n in REDUCE.split():
        for x in (FA, IA, BA, F16):
            c.append([n, [x], {}])
        c.append([n, [FA], {"axis": 1, "keepdims": True}])
        c.append([n, [IA], {"axis": 0}])
    c += [["threshold", [FA, 0.4, -1.0], {}], ["leaky_relu", [FA], {"negative_slope": 0.3}],
          ["elu", [FA], {"alpha": 0.5}], ["celu", [FA], {"alpha": 2.0}],
          ["gelu", [FA], {"approximate": False}], ["glu", [T([[1.0, -2.0, 0.5, 3.0]])], {}],
          ["hard_shrink", [FA], {"threshold": 0.3}], ["soft_shrink", [FA], {"threshold": 0.3}],
          ["squareplus", [FA], {"b": 2}],
          ["softmax", [FA], {}], ["softmax", [FA], {"axis": 0}], ["softmax", [IA], {}],
          ["log_softmax", [FA], {}], ["log_softmax", [FA], {"axis": 0}],
          ["sparsemax", [FA], {}], ["clip", [FA, -0.3, 0.8], {}], ["clip", [IA, -1, 2], {}],
          ["clip", [IA, -1.5, 2.5], {}], ["clip", [BA, 0, 1], {}],
          ["where", [BA, FA, FB], {}], ["where", [BA, IA, 2.5], {}], ["where", [BA, 1, 0], {}],
          ["where", [BA], {}], ["nonzero", [IA], {}],
          ["normalize", [FA], {}], ["normalize", [FA], {"axis": 0, "order": 1}],
          ["one_hot", [I([0, 2, 1, -1]), 3], {}], ["one_hot", [I([0, 2]), 3], {"axis": 0}],
          ["one_hot", [I([1, 2]), 4], {"dtype": "int32"}],
          ["multi_hot", [I([[0, 2], [1, 1]]), 3], {}],
          ["moments", [FA, [0]], {}], ["moments", [FA, [0, 1]], {"keepdims": True}],
          ["batch_normalization", [FA, FV, T([1.0, 2.0, 0.5])], {"axis": -1}],
          ["batch_normalization", [FA, FV, T([1.0, 2.0, 0.5])],
           {"axis": -1, "offset": FV, "scale": T([2.0, 1.0, 0.5]), "epsilon": 0.01}],
          ["layer_normalization", [FA], {}], ["rms_normalization", [FA], {}],
          ["binary_crossentropy", [T([[0.0, 1.0, 1.0]]), T([[0.2, 0.7, 0.9]])], {}],
          ["binary_crossentropy", [T([[0.0, 1.0, 1.0]]), T([[-1.0, 0.5, 2.0]])],
           {"from_logits": True}],
          ["categorical_crossentropy", [T([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]),
                                        T([[0.2, 0.7, 0.1], [0.5, 0.3, 0.2]])], {}],
          ["categorical_crossentropy", [T([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), FA],
           {"from_logits": True}],
          ["sparse_categorical_crossentropy", [I([1, 0]), T([[0.2, 0.7, 0.1], [0.5, 0.3, 0.2]])],
           {}],
          ["sparse_categorical_crossentropy", [I([1, 0]), FA], {"from_logits": True}],
          ["psnr", [POS, T([[0.3, 0.6, 1.1], [1.4, 2.0, 4.0]]), 4.0], {}],
          ["dot_product_attention", [T([[[[0.1, 0.2], [0.3, -0.1]]]]),
                                     T([[[[0.5, -0.2], [0.1, 0.4]]]]),
                                     T([[[[1.0, 2.0], [3.0, 4.0]]]])], {}],
          ["dot_product_attention", [T([[[[0.1, 0.2], [0.3, -0.1]]]]),
                                     T([[[[0.5, -0.2], [0.1, 0.4]]]]),
                                     T([[[[1.0, 2.0], [3.0, 4.0]]]])], {"is_causal": True}],
          ]
    img = T(np.arange(2 * 4 * 4 * 1, dtype=np.float32).reshape(2, 4, 4, 1).tolist())
    seq = T(np.arange(1 * 6 * 2, dtype=np.float32).reshape(1, 6, 2).tolist())
    k2 = T((np.arange(2 * 2 * 1 * 2, dtype=np.float32).reshape(2, 2, 1, 2) / 4 - 0.5).tolist())
    c += [["max_pool", [img, 2], {}], ["max_pool", [img, 3], {"strides": 1, "padding": "same"}],
          ["average_pool", [img, 2], {}], ["average_pool", [seq, 2], {"strides": 1}],
          ["max_pool", [seq, 2], {}],
          ["adaptive_average_pool", [img, 2], {}], ["adaptive_max_pool", [img, 2], {}],
          ["conv", [img, k2], {}], ["conv", [img, k2], {"strides": 2, "padding": "same"}],
          ["conv", [seq, T([[[1.0], [0.5]], [[-1.0], [2.0]]])], {}],
          ["conv_transpose", [img, T(np.ones((2, 2, 3, 1), np.float32).tolist()), 2],
           {"strides": 2}],
          ["depthwise_conv", [img, T([[[[1.0]], [[0.5]]], [[[-1.0]], [[2.0]]]])], {}],
          ["separable_conv", [img, T([[[[1.0]], [[0.5]]], [[[-1.0]], [[2.0]]]]),
                              T([[[[2.0, -1.0]]]])], {}],
          ["depth_to_space", [T(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4).tolist()),
                              2], {}],
          ["space_to_depth", [img, 2], {}],
          ["extract_sequences", [T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), 3, 2], {}],
          ["top_k", [T([[0.3, 0.9, 0.1, 0.5]]), 2], {}], ["top_k", [FA, 1], {"sorted": False}],
          ["in_top_k", [I([1, 0]), FA, 2], {}],
          ["segment_sum", [FA, I([0, 0])], {}], ["segment_max", [FA, I([0, 1])], {}],
          ["segment_sum", [FV, I([0, 2, 2])], {"num_segments": 3}],
          ["segment_min", [FV, I([0, 2, 2])], {"num_segments": 3}],
          ["segment_prod", [FV, I([0, 0, 1])], {}],
          ["erfc", [FA], {}], ["logdet", [M3], {}],
          ["fft", [tup(FV, T([0.5, 0.0, -1.0]))], {}],
          ["fft2", [tup(T([[1.0, 2.0], [3.0, 4.0]]), T([[0.0, 1.0], [0.5, 0.0]]))], {}],
          ["ifft2", [tup(T([[1.0, 2.0], [3.0, 4.0]]), T([[0.0, 1.0], [0.5, 0.0]]))], {}],
          ["rfft", [T([1.0, 2.0, 0.5, -1.0])], {}],
          ["irfft", [tup(T([1.0, 2.0, 0.5]), T([0.0, -1.0, 0.0]))], {}],
          ["view_as_complex", [T([[1.0, 2.0], [3.0, -1.0]])], {}],
          ]
    c += [
        ["matmul", [FA, T([[1.0], [2.0], [-1.0]])], {}],
        ["matmul", [IA, T([[1.0], [0.5], [2.0]])], {}],
        ["matmul", [IA, I([[1], [2], [3]])], {}], ["matmul", [FV, FV], {}],
        ["matmul", [T([[[1.0, 2.0]], [[3.0, 4.0]]]), T([[1.0], [0.5]])], {}],
        ["matmul", [FA, FB], {}],
        ["dot", [FV, FV], {}], ["dot", [FA, FV], {}], ["dot", [FA, 2.0], {}],
        ["dot", [FA, T([[1.0], [2.0], [-1.0]])], {}],
        ["inner", [FV, FV], {}], ["outer", [FV, T([1.0, 2.0])], {}], ["vdot", [FV, FV], {}],
        ["cross", [FV, T([1.0, 2.0, 0.5])], {}], ["kron", [FV, T([1.0, 2.0])], {}],
        ["tensordot", [FA, FB], {"axes": [[1], [1]]}], ["tensordot", [FA, FB], {"axes": 0}],
        ["tensordot", [FA, T([[1.0], [2.0], [-1.0]])], {"axes": 1}],
        ["einsum", ["ij,kj->ik", FA, FB], {}], ["einsum", ["ij->j", IA], {}],
        ["einsum", ["ij,j->i", IA, FV], {}],
        ["trace", [M3], {}], ["trace", [IA], {}], ["diagonal", [M3], {}],
        ["diagonal", [FA], {"offset": 1}], ["diag", [FV], {}], ["diag", [M3], {"k": 1}],
        ["diagflat", [FV], {}], ["tri", [3], {}], ["tri", [2, 3], {"k": 1}],
        ["tril", [M3], {}], ["triu", [M3], {"k": 1}], ["tril", [IA], {"k": -1}],
        ["vander", [FV], {}], ["vander", [I([1, 2, 3])], {"N": 2}],
        ["reshape", [FA, (3, 2)], {}], ["reshape", [IA, [-1]], {}], ["reshape", [FA, (4, 2)], {}],
        ["expand_dims", [FA, 0], {}], ["expand_dims", [FA, -1], {}],
        ["expand_dims", [FA, (0, 3)], {}],
        ["squeeze", [T([[1.0], [2.0]])], {}], ["squeeze", [T([[[1.0, 2.0]]])], {"axis": 0}],
        ["squeeze", [FA], {"axis": 0}],
        ["transpose", [FA], {}], ["transpose", [T([[[1.0, 2.0]]])], {"axes": (2, 0, 1)}],
        ["swapaxes", [FA, 0, 1], {}], ["moveaxis", [T([[[1.0, 2.0]]]), 2, 0], {}],
        ["concatenate", [[FA, FB]], {}], ["concatenate", [[IA, FB]], {"axis": 1}],
        ["concatenate", [[FA, F16]], {"axis": None}],
        ["stack", [[FV, FV]], {}], ["stack", [[IA, FB]], {"axis": 1}],
        ["hstack", [[FA, FB]], {}], ["vstack", [[FA, IA]], {}], ["dstack", [[FA, FB]], {}],
        ["append", [FA, FB], {}], ["append", [FA, IB], {"axis": 0}],
        ["split", [T([1.0, 2.0, 3.0, 4.0]), 2], {}], ["split", [FA, [1]], {"axis": 1}],
        ["split", [FA, 4], {"axis": 1}],
        ["array_split", [T([1.0, 2.0, 3.0, 4.0, 5.0]), 3], {}],
        ["hsplit", [T([[1.0, 2.0], [3.0, 4.0]]), 2], {}],
        ["vsplit", [T([[1.0, 2.0], [3.0, 4.0]]), 2], {}],
        ["dsplit", [T([[[1.0, 2.0]]]), 2], {}],
        ["unstack", [FA], {}], ["unstack", [FA], {"axis": 1}],
        ["tile", [FV, 2], {}], ["tile", [FA, (2, 1)], {}],
        ["repeat", [FV, 2], {}], ["repeat", [FA, 2], {"axis": 0}],
        ["repeat", [FA, [1, 2, 0]], {"axis": 1}],
        ["broadcast_to", [FV, (2, 3)], {}], ["broadcast_to", [FV, (2, 2)], {}],
        ["flip", [FA], {}], ["flip", [FA], {"axis": 1}], ["fliplr", [FA], {}],
        ["flipud", [FA], {}], ["rot90", [FA], {}], ["rot90", [FA], {"k": 2}],
        ["roll", [FA, 1], {}], ["roll", [FA, -1], {"axis": 1}],
        ["pad", [FA, 1], {}], ["pad", [FA, ((0, 1), (2, 0))], {"constant_values": 9}],
        ["pad", [FA, ((1, 1), (1, 1))], {"mode": "reflect"}],
        ["pad", [FA, ((1, 1), (1, 1))], {"mode": "symmetric"}],
        ["take", [FA, I([2, 0])], {"axis": 1}], ["take", [FA, I([[1, 4]])], {}],
        ["take", [FA, I([-1])], {"axis": 1}],
        ["take_along_axis", [FA, I([[0, 2], [1, 1]])], {"axis": 1}],
        ["cumsum", [FA], {}], ["cumsum", [FA], {"axis": 1}], ["cumsum", [IA], {"axis": 0}],
        ["cumsum", [BA], {"axis": 1}],
        ["cumprod", [FA], {"axis": 1}], ["cumprod", [IA], {}],
        ["nancumsum", [FA], {"axis": 1}], ["nancumprod", [FA], {}],
        ["diff", [FA], {}], ["diff", [FA], {"n": 2, "axis": 1}], ["diff", [IA], {"axis": 0}],
        ["sort", [FA], {}], ["sort", [FA], {"axis": 0}], ["argsort", [FA], {}],
        ["argsort", [FA], {"axis": None}], ["argpartition", [T([3.0, 1.0, 2.0, 0.5]), 2], {}],
        ["unique", [I([3, 1, 3, 2])], {}], ["unique", [I([3, 1, 3, 2])],
                                             {"return_counts": True, "return_inverse": True}],
        ["searchsorted", [T([0.0, 1.0, 2.0, 3.0]), T([0.5, 2.0, 4.0])], {}],
        ["searchsorted", [T([0.0, 1.0, 2.0, 3.0]), T([0.5, 2.0, 4.0])], {"side": "right"}],
        ["digitize", [T([0.2, 1.5, 3.2]), [0.0, 1.0, 2.0]], {}],
        ["bincount", [I([0, 1, 1, 3])], {}], ["bincount", [I([0, 1, 1, 3])],
                                             {"weights": T([0.5, 1.0, 2.0, 1.0]), "minlength": 5}],
        ["histogram", [T([0.1, 0.4, 0.45, 0.9])], {"bins": 3}],
        ["average", [FA], {}], ["average", [FA], {"axis": 1, "weights": FV}],
        ["quantile", [FA, 0.5], {}], ["quantile", [FA, T([0.25, 0.75])], {"axis": 1}],
        ["percentile", [FA, 30.0], {}], ["nanquantile", [FA, 0.5], {}],
        ["nanpercentile", [FA, 50.0], {}],
        ["corrcoef", [T([[1.0, 2.0, 4.0], [1.0, 3.0, 2.0]])], {}],
        ["correlate", [T([1.0, 2.0, 3.0]), T([0.0, 1.0, 0.5])], {}],
        ["correlate", [T([1.0, 2.0, 3.0]), T([0.0, 1.0])], {"mode": "full"}],
        ["trapezoid", [FV], {}], ["trapezoid", [FA], {"dx": 0.5, "axis": 0}],
        ["norm", [FA], {}], ["norm", [FV], {"ord": 1}], ["norm", [FA], {"axis": 1}],
        ["norm", [FA], {"ord": "fro", "keepdims": True}], ["norm", [M3], {"ord": 2}],
        ["norm", [IA], {}],
        ["meshgrid", [T([1.0, 2.0]), T([3.0, 4.0, 5.0])], {}],
        ["meshgrid", [T([1.0, 2.0]), T([3.0, 4.0, 5.0])], {"indexing": "ij"}],
        ["isin", [IA, I([0, 4])], {}], ["select", [[BA, BB], [FA, FB]], {}],
        ["select", [[BA], [IA]], {"default": 7}],
        ["ldexp", [FA, IB], {}], ["polar", [POS, FA], {}],
        ["allclose", [FA, FA], {}], ["allclose", [FA, FB], {}],
        ["cdist", [T([[0.0, 1.0], [2.0, 2.0]]), T([[1.0, 1.0]])], {}],
        ["unravel_index", [I([5, 2]), (2, 3)], {}],
        ["empty_like", [FA], {}],
        ["zeros_like", [FA], {}], ["zeros_like", [IA], {"dtype": "float32"}],
        ["ones_like", [IA], {}], ["full_like", [FA, 3], {}],
        ["full_like", [IA, 2.5], {"dtype": "float32"}],
        ["size", [FA], {}], ["ndim", [FA], {}],
    ]
    c += [
        ["arange", [5], {}], ["arange", [1, 4, 0.5], {}], ["arange", [0.0, 3.0], {}],
        ["arange", [2, 9, 3], {"dtype": "float32"}],
        ["linspace", [0.0, 1.0, 5], {}], ["linspace", [0, 4, 4], {"endpoint": False}],
        ["linspace", [0, 4, 3], {"dtype": "int32"}],
        ["logspace", [0.0, 2.0, 3], {}], ["geomspace", [1.0, 8.0, 4], {}],
        ["zeros", [(2, 3)], {}], ["zeros", [2], {"dtype": "int32"}], ["ones", [(2,)], {}],
        ["full", [(2, 2), 1.5], {}], ["full", [(2,), 3], {}], ["eye", [3], {}],
        ["eye", [2, 3], {"k": 1, "dtype": "int32"}], ["identity", [2], {}],
        ["empty", [(2, 2)], {}],
        ["array", [[1, 2, 3]], {}], ["array", [[1.0, 2.0]], {"dtype": "float64"}],
        ["hamming", [4], {}], ["hanning", [4], {}], ["bartlett", [5], {}],
        ["blackman", [4], {}], ["kaiser", [4, 2.0], {}],
        ["cast", [FA, "int32"], {}], ["cast", [IA, "float16"], {}], ["cast", [FA, "bool"], {}],
        ["saturate_cast", [T([[-300.0, 1.5, 300.0]]), "uint8"], {}],
        ["convert_to_tensor", [[1, 2]], {}], ["convert_to_tensor", [[1.5, 2.0]], {}],
        ["convert_to_tensor", [3], {}], ["convert_to_tensor", [[1, 2]], {"dtype": "float32"}],
        ["convert_to_tensor", [FA], {"dtype": "float64"}],
        ["stop_gradient", [FA], {}], ["shape", [FA], {}], ["dtype", [IA], {}],
        ["is_tensor", [FA], {}], ["is_tensor", [[1.0]], {}],
        ["slice", [FA, (0, 1), (2, 2)], {}], ["slice", [IA, [1, 0], [1, 3]], {}],
        ["slice_update", [FA, (0, 1), T([[9.0, 8.0]])], {}],
        ["scatter", [I([[0, 1], [1, 2]]), T([1.0, 2.0]), (2, 3)], {}],
        ["scatter", [I([[0], [0]]), T([[1.0, 2.0], [3.0, 4.0]]), (3, 2)], {}],
        ["scatter_update", [FA, I([[0, 1], [1, 2]]), T([7.0, 8.0])], {}],
        ["get_item", [FA, 1], {}],
        ["matrix_rank", [M3B], {}],
        ["cholesky", [M3], {}], ["cholesky_inverse", [T([[2.0, 0.0], [1.0, 3.0]])], {}],
        ["det", [M3], {}], ["inv", [M3], {}], ["solve", [M3, FV], {}],
        ["solve", [M3, T([[1.0], [2.0], [0.5]])], {}],
        ["solve_triangular", [T([[2.0, 0.0], [1.0, 3.0]]), T([[1.0], [2.0]])], {"lower": True}],
        ["solve_triangular", [T([[2.0, 1.0], [0.0, 3.0]]), T([[1.0], [2.0]])], {}],
        ["slogdet", [M3], {}], ["pinv", [M3B], {}], ["eigh", [M3], {}],
        ["qr", [M3B], {}], ["qr", [M3B], {"mode": "complete"}],
        ["svd", [M3B], {"compute_uv": False}], ["lstsq", [M3B, FV], {}],
        ["lu_factor", [M3], {}], ["eig", [M3], {}],
        ["view", [T([1.0, -2.0]), "int32"], {}], ["view", [I([1, 2], "int16"), "uint16"], {}],
    ]
    rgb = T((np.arange(2 * 3 * 4 * 3, dtype=np.float32).reshape(2, 3, 4, 3) / 40).tolist())
    c += [["image.resize", [img, (2, 2)], {}], ["image.resize", [img, (3, 5)], {}],
          ["image.resize", [img, (8, 8)], {"interpolation": "nearest"}],
          ["image.resize", [rgb, (2, 6)], {"interpolation": "bicubic"}],
          ["image.resize", [rgb, (3, 3)], {"crop_to_aspect_ratio": True}],
          ["image.resize", [rgb, (4, 2)], {"pad_to_aspect_ratio": True}],
          ["image.resize", [rgb, (2, 2)], {"antialias": True}],
          ["image.resize", [T([[[1.0]]]), (2, 2)], {}],
          ["image.resize", [FV, (2, 2)], {}],
          ["image.extract_patches", [img, 2], {}],
          ["image.extract_patches", [rgb, (2, 2)], {"strides": 1}],
          ["image.extract_patches", [img, 3], {"strides": 2, "padding": "same"}],
          ["image.rgb_to_grayscale", [rgb], {}],
          ["image.pad_images", [rgb, 1, 2], {"target_height": 5, "target_width": 7}],
          ["image.pad_images", [rgb], {"top_padding": 1, "bottom_padding": 0,
                                       "left_padding": 0, "right_padding": 2}],
          ["image.crop_images", [rgb, 1, 1], {"target_height": 2, "target_width": 2}],
          ["image.rgb_to_hsv", [rgb], {}],
          ["image.rgb_to_hsv", [T([[[0.2, 0.7, 0.1], [0.9, 0.3, 0.5], [0.4, 0.4, 0.4],
                                    [0.1, 0.2, 0.8]]])], {}],
          ["image.hsv_to_rgb", [T([[[0.2, 0.7, 0.1], [0.9, 0.3, 0.5], [0.45, 0.0, 0.4],
                                    [0.6, 1.0, 0.8]]])], {}],
          ["image.rgb_to_hsv", [IA], {}],
          ["image.gaussian_blur", [rgb], {}],
          ["image.gaussian_blur", [img], {"kernel_size": (5, 5), "sigma": (1.5, 0.7)}],
          ["image.gaussian_blur", [img], {"kernel_size": (3, 3),
                                                               "sigma": (0.5, 2.0)}],
          ["image.sobel_edges", [rgb], {}], ["image.sobel_edges", [img], {}],
          ["image.elastic_transform", [rgb], {"alpha": 2.0, "sigma": 1.0, "seed": 7}],
          ["image.elastic_transform", [img], {"alpha": 5.0, "sigma": 0.7, "seed": 11,
                                              "interpolation": "nearest",
                                              "fill_mode": "constant", "fill_value": 0.5}],
          ["image.scale_and_translate", [rgb, (2, 5, 3, 3), T([1.6, 0.7]), T([0.5, -0.2]),
                                         (1, 2), "linear"], {}],
          ["image.scale_and_translate", [rgb, (2, 5, 3, 3), T([1.6, 0.7]), T([0.5, -0.2]),
                                         (1, 2), "bicubic"], {"antialias": False}],
          ["image.scale_and_translate", [rgb, (2, 2, 6, 3), T([0.6, 1.5]), T([0.0, 0.3]),
                                         (1, 2), "lanczos3"], {}],
          ["image.scale_and_translate", [U8, (4, 2), T([2.0, 0.7]), T([0.0, 0.0]),
                                         (0, 1), "lanczos5"], {}],
          ["image.perspective_transform", [rgb, T([[0.0, 0.0], [3.0, 0.0], [0.0, 2.0],
                                                   [3.0, 2.0]]),
                                           T([[0.3, 0.2], [2.8, -0.1], [-0.2, 2.1],
                                              [3.1, 1.7]])], {}],
          ["image.perspective_transform", [rgb, T([[0.0, 0.0], [3.0, 0.0], [0.0, 2.0],
                                                   [3.0, 2.0]]),
                                           T([[0.5, 0.2], [2.5, 0.1], [0.2, 1.9],
                                              [2.9, 1.6]])],
           {"interpolation": "nearest", "fill_value": 0.25}],
          ["image.affine_transform", [rgb, T([1.0, 0.2, -0.5, 0.1, 0.9, 0.7, 0.0, 0.0])], {}],
          ["image.affine_transform", [rgb, T([[0.8, -0.3, 1.2, 0.25, 1.1, -0.9, 0.0, 0.0],
                                              [1.3, 0.0, -1.4, 0.0, 0.7, 0.4, 0.01, -0.02]])],
           {"interpolation": "nearest"}],
          ["image.affine_transform", [rgb, T([1.1, 0.2, -1.5, 0.1, 0.9, 1.7, 0.0, 0.0])],
           {"fill_mode": "reflect"}],
          ["image.affine_transform", [rgb, T([1.1, 0.2, -1.5, 0.1, 0.9, 1.7, 0.0, 0.0])],
           {"fill_mode": "wrap"}],
          ["image.affine_transform", [rgb, T([1.1, 0.2, -1.5, 0.1, 0.9, 1.7, 0.0, 0.0])],
           {"fill_mode": "nearest", "fill_value": 0.5}],
          ["image.affine_transform", [rgb, T([1.1, 0.2, -1.5, 0.1, 0.9, 1.7, 0.0, 0.0])],
           {"fill_value": 0.5}],
          ["image.map_coordinates", [M3, T([[0.2, 1.5, 2.9, -0.4], [0.7, 0.1, 2.2, 1.0]]), 1],
           {}],
          ["image.map_coordinates", [M3, T([[0.2, 1.5, 2.6, -0.4], [0.7, 0.1, 2.2, 1.0]]), 0],
           {}],
          ["image.map_coordinates", [M3, T([[0.2, 3.5, 2.9, -0.4], [0.7, 0.1, 4.2, 1.0]]), 1],
           {"fill_mode": "nearest"}],
          ["image.map_coordinates", [M3, T([[0.2, 3.5, 2.9, -1.4], [0.7, 0.1, 4.2, 1.0]]), 1],
           {"fill_mode": "wrap"}],
          ["image.map_coordinates", [M3, T([[0.2, 3.5, 1.9, -1.4], [0.7, 0.1, 4.2, 1.0]]), 1],
           {"fill_mode": "reflect"}],
          ["image.map_coordinates", [M3, T([[0.2, 1.5, 1.9, -1.4], [0.7, 0.1, 1.2, 1.0]]), 1],
           {"fill_mode": "mirror"}],
          ["image.map_coordinates", [M3, T([[0.2, 1.5, 2.9, -0.4], [0.7, 0.1, 2.2, 1.0]]), 1],
           {"fill_value": 9.0}],
          ["image.map_coordinates", [IA, T([[0.2, 1.5, 0.9], [0.7, 0.1, 2.2]]), 1], {}],
          ["image.extract_patches_3d", [T(np.arange(2 * 4 * 4 * 4 * 2, dtype=np.float32)
                                          .reshape(2, 4, 4, 4, 2).tolist()), 2], {}],
          ["image.extract_patches_3d", [T(np.arange(5 * 4 * 3 * 1, dtype=np.float32)
                                          .reshape(5, 4, 3, 1).tolist()), (2, 2, 1)],
           {"strides": 1, "padding": "same"}],
          ["image.ssim", [T((np.cos(np.arange(2 * 12 * 12 * 2)) * 0.5 + 0.5)
                            .reshape(2, 12, 12, 2).tolist()),
                          T((np.sin(np.arange(2 * 12 * 12 * 2) * 0.3) * 0.5 + 0.5)
                            .reshape(2, 12, 12, 2).tolist())], {}],
          ["image.ssim", [T((np.cos(np.arange(6 * 7 * 1)) * 0.5 + 0.5).reshape(6, 7, 1)
                            .tolist()),
                          T((np.sin(np.arange(6 * 7 * 1)) * 0.5 + 0.5).reshape(6, 7, 1)
                            .tolist())], {"filter_size": 3, "max_val": 2.0}],
          ["unfold", [T(np.arange(2 * 2 * 4 * 4, dtype=np.float32).reshape(2, 2, 4, 4)
                        .tolist()), 2], {}],
          ["unfold", [T(np.arange(1 * 1 * 5 * 4, dtype=np.float32).reshape(1, 1, 5, 4)
                        .tolist()), (2, 3)], {"stride": 2, "padding": 1, "dilation": 1}],
          ["fold", [T(np.arange(1 * 4 * 4, dtype=np.float32).reshape(1, 4, 4).tolist()),
                    (3, 3), 2], {}],
          ["fold", [T(np.arange(1 * 6 * 6, dtype=np.float32).reshape(1, 6, 6).tolist()),
                    (5, 4), (2, 3)], {"stride": 2, "padding": 1}],
          ["stft", [T(np.sin(np.arange(16) * 0.7).astype(np.float32).tolist()), 6, 3, 8], {}],
          ["stft", [T(np.cos(np.arange(2 * 12) * 0.3).reshape(2, 12).tolist(), "float64"),
                    4, 2, 4], {"window": "hamming", "center": False}],
          ["stft", [T(np.arange(10, dtype=np.float32).tolist()), 4, 4, 4], {"window": None}],
          ["stft", [IA, 2, 1, 2], {}],
          ["ctc_decode", [T((np.cos(np.arange(2 * 7 * 4) * 1.7) * 2).reshape(2, 7, 4)
                            .tolist()), I([7, 5])], {}],
          ["ctc_decode", [T((np.cos(np.arange(2 * 7 * 4) * 1.7) * 2).reshape(2, 7, 4)
                            .tolist()), I([7, 5])], {"merge_repeated": False, "mask_index": 3}],
          ["ctc_decode", [T(np.log(np.array([[[0.1, 0.6, 0.3], [0.2, 0.5, 0.3], [0.7, 0.2, 0.1],
                                              [0.1, 0.1, 0.8], [0.3, 0.6, 0.1]]])).tolist()),
                          I([5])], {}],
          ["istft", [tup(T(np.cos(np.arange(5 * 5) * 0.9).reshape(5, 5).tolist()),
                         T(np.sin(np.arange(5 * 5) * 0.4).reshape(5, 5).tolist())), 6, 3, 8],
           {}],
          ["istft", [tup(T(np.cos(np.arange(2 * 4 * 3) * 0.9).reshape(2, 4, 3).tolist(),
                           "float64"),
                         T(np.sin(np.arange(2 * 4 * 3) * 0.4).reshape(2, 4, 3).tolist(),
                           "float64")), 4, 2, 4], {"window": "hamming", "center": False}],
          ["istft", [tup(T(np.cos(np.arange(4 * 3) * 0.9).reshape(4, 3).tolist()),
                         T(np.sin(np.arange(4 * 3) * 0.4).reshape(4, 3).tolist())), 4, 4, 4],
           {"window": None, "length": 9}],
          ["rearrange", [img, "b h w c -> b c h w"], {}],
          ["rearrange", [img, "b h w c -> (b h) w c"], {}],
          ["rearrange", [img, "b h w c -> h (b w) c"], {}],
          ["rearrange", [img, "b (h p) w c -> b h (p w c)"], {"p": 2}],
          ["rearrange", [img, "b (h p) (w q) c -> (b p q) h w c"], {"p": 2, "q": 2}],
          ["rearrange", [img, "b h w c -> b h w"], {}],
          ["rearrange", [img, "b (h p) w c -> b h p w c"], {"p": 3}],
          ["ctc_loss", [I([[1, 2, 0], [2, 2, 1]]),
                        T((np.cos(np.arange(2 * 6 * 4)) * 2).reshape(2, 6, 4).tolist()),
                        I([2, 3]), I([6, 5])], {}],
          ["ctc_loss", [I([[3, 1], [1, 0]]),
                        T((np.sin(np.arange(2 * 5 * 4) * 0.7)).reshape(2, 5, 4).tolist(),
                          "float64"), I([2, 1]), I([5, 4])], {"mask_index": 0}],
          ["ctc_loss", [I([[1, 1], [0, 0]]),
                        T((np.sin(np.arange(2 * 4 * 3) * 1.3)).reshape(2, 4, 3).tolist()),
                        I([2, 1]), I([4, 4])], {"mask_index": 2}],
          ["image.crop_images", [rgb], {"top_cropping": 1, "bottom_cropping": 1,
                                        "left_cropping": 0, "right_cropping": 1}],
          ]
    return c


def encode(x):
    """Keras's answer as JSON: tensors with dtype and shape, tuples, Python values."""
    if isinstance(x, (tf.Tensor, tf.Variable, np.ndarray, np.generic)) or hasattr(x, "numpy"):
        a = np.asarray(x)
        if a.dtype.kind == "c":
            return {"C": [a.real.tolist(), a.imag.tolist()], "dtype": str(a.dtype),
                    "shape": list(a.shape)}
        return {"T": a.tolist(), "dtype": keras.backend.standardize_dtype(x.dtype),
                "shape": list(a.shape)}
    if isinstance(x, (list, tuple)):
        return {"tuple" if isinstance(x, tuple) else "list": [encode(v) for v in x]}
    if x is None or isinstance(x, (bool, int, float, str)):
        return {"py": x, "type": type(x).__name__}
    return {"py": repr(x), "type": type(x).__name__}


def decode(x):
    if isinstance(x, dict) and "T" in x:
        return tf.constant(np.asarray(x["T"], dtype=x["dtype"]))
    if isinstance(x, dict) and "tuple" in x:
        return tuple(decode(v) for v in x["tuple"])
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        return {k: decode(v) for k, v in x.items()}
    return x


def weights(shape):
    n = int(np.prod(shape)) if shape else 1
    return np.cos(np.arange(n) + 0.5).reshape(shape)


def _float_leaves(tree, out):
    if isinstance(tree, tf.Tensor) and tree.dtype.is_floating:
        out.append(tree)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            _float_leaves(v, out)
    elif isinstance(tree, dict):
        for v in tree.values():
            _float_leaves(v, out)
    return out


def record(case):
    name, args, kwargs = case
    fn = ops
    for part in name.split("."):
        fn = getattr(fn, part)
    a, k = decode(args), decode(kwargs)
    sources = _float_leaves([a, k], [])
    try:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(sources)
            out = fn(*a, **k)
            flat = [o for o in tf.nest.flatten(out) if isinstance(o, tf.Tensor)]
            flat = [o for o in flat if o.dtype.is_floating]
            if flat:
                loss = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * weights(o.shape))
                                 for o in flat])
        result = {"out": encode(out)}
    except Exception as e:  # noqa: BLE001 - the class is the recorded answer
        return {"error": type(e).__name__, "message": str(e)[:200]}
    if sources and flat:
        try:
            grads = tape.gradient(loss, sources)
        except Exception as e:  # noqa: BLE001 - TensorFlow cannot differentiate this call
            result["grad_error"] = type(e).__name__
            return result
        result["grads"] = [None if g is None else encode(tf.convert_to_tensor(g))
                           for g in grads]
    return result


def names():
    out = {"ops": sorted(n for n in dir(ops) if not n.startswith("_"))}
    for m in SUBMODULES:
        out[m] = sorted(n for n in dir(getattr(ops, m)) if not n.startswith("_"))
    return out


def sanitize(x):
    """NaN and infinities as strings, so the JSON is standard."""
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if isinstance(x, list):
        return [sanitize(v) for v in x]
    if isinstance(x, dict):
        return {k: sanitize(v) for k, v in x.items()}
    return x


def main():
    with open(os.path.join(OUT, "ops_names.json"), "w") as f:
        json.dump(names(), f, indent=0)
        f.write("\n")
    entries = []
    for case in cases():
        if not hasattr(ops, case[0].split(".")[0]):
            continue
        entries.append({"call": case, **record(case)})
    with open(os.path.join(OUT, "ops_values.json"), "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(sanitize(e), separators=(",", ":")) for e in entries))
        f.write("\n]\n")
    print("wrote", len(entries), "calls")


if __name__ == "__main__":
    main()
