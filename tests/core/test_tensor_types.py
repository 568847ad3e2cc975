"""Tensors and ops of TensorFlow's API long tail against TensorFlow 2.21's recorded answers:
type names, UnreadVariable, TensorSpec, sliced and scatter assignment, boolean masks, complex
and bfloat16 dtypes, random ops, strings, ragged and sparse tensors, IndexedSlices, images.

The programs live in tensor_types_cases.py; TensorFlow's answers in
fixtures/core/tensor_types/*.json
(re-record with ``/work/tfvenv/bin/python tools/record_core_tensor_types.py``).
"""
import json
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
from tests.core import tensor_types_cases as cases

FIXTURES = Path(__file__).parents[1] / "fixtures" / "core" / "tensor_types"

# Where tapeflow knowingly answers otherwise (strict: a fix fails until removed here).
_ABS_ULP = ("NumPy's complex64 abs (hypotf) can round one ulp away from TensorFlow's "
            "(3.0413811 vs 3.0413814 here)")
KNOWN_DIFFERENCES = {
    "tf.abs(tf.constant([1 + 2j, -3 + 0.5j, -1 - 1j], dtype=tf.complex64))": _ABS_ULP,
    "tf.math.abs(tf.constant([1 + 2j, -3 + 0.5j, -1 - 1j], dtype=tf.complex64))": _ABS_ULP,
}


# Known differences by the start of their code (long programs).
KNOWN_BY_PREFIX = {}


def _known(code):
    if code in KNOWN_DIFFERENCES:
        return KNOWN_DIFFERENCES[code]
    for prefix, why in KNOWN_BY_PREFIX.items():
        if code.startswith(prefix):
            return why
    return None


def _params(group):
    recorded = json.loads((FIXTURES / f"{group}.json").read_text())["cases"]
    missing = [c for c in cases.GROUPS[group] if c not in recorded]
    assert not missing, f"re-record the fixtures: {missing}"
    params = []
    for code in cases.GROUPS[group]:
        marks = ()
        if _known(code):
            marks = pytest.mark.xfail(reason=_known(code), strict=True)
        params.append(pytest.param(group, code, recorded[code], id=code[:60], marks=marks))
    return params


def _close(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
    elif isinstance(want, dict) and "values" in want:
        assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"]
        if want["dtype"] in ("string", "bool") or want["dtype"].startswith(("int", "uint")):
            assert got["values"] == want["values"]
        else:
            # bfloat16 keeps 8 bits of mantissa: results agree to its rounding.
            tol = 1e-2 if want["dtype"] == "bfloat16" else 2e-6
            np.testing.assert_allclose(np.array(got["values"], float),
                                       np.array(want["values"], float),
                                       rtol=tol, atol=tol / 2)
    else:
        assert got == want


@pytest.mark.parametrize("group,code,want",
                         [p for g in cases.PRINTED for p in _params(g)])
def test_printed_result_matches_tensorflow(group, code, want):
    assert cases.evaluate(code, tf, np) == want


@pytest.mark.parametrize("group,code,want",
                         [p for g in cases.VALUES for p in _params(g)])
def test_values_match_tensorflow(group, code, want):
    _close(cases.evaluate(code, tf, np, cases.values), want)


@pytest.mark.parametrize("group,code,want",
                         [p for g in cases.STDOUT for p in _params(g)])
def test_guide_like_program_prints_what_tensorflow_prints(group, code, want):
    assert cases.stdout(code, tf, np) == want


def test_non_deterministic_generator_draws_from_its_own_state():
    a = tf.random.Generator.from_non_deterministic_state()
    b = tf.random.Generator.from_non_deterministic_state()
    assert a.state.dtype == tf.int64 and a.state.shape == (3,)
    assert a.state.numpy().tolist() != b.state.numpy().tolist()
    first = a.state.numpy()
    x = a.normal([5])
    assert x.shape == (5,) and x.dtype == tf.float32
    assert int(a.state.numpy()[0]) - int(first[0]) == 5 * 256  # TensorFlow's skip per draw
    again = tf.random.Generator.from_state(first, tf.random.Algorithm.PHILOX)
    np.testing.assert_array_equal(again.normal([5]).numpy(), x.numpy())


def test_random_ops_draw_inside_primitives():
    # A tape (and a tracer) sees the draw as an op: replaying it draws again.
    from tapeflow._core.registry import PRIMITIVES
    for name in ("RandomUniformInt", "RandomShuffle", "Multinomial", "StatelessRandomV2",
                 "StatelessMultinomial", "StatefulRandomV2"):
        assert name in PRIMITIVES and not PRIMITIVES[name].differentiable


def test_gather_gradient_reaching_an_intermediate_tensor_is_dense():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        h = v * 2.0
        y = tf.reduce_sum(tf.gather(h, [1, 1]))
    g_h = tape.gradient(y, h)
    assert isinstance(g_h, tf.IndexedSlices)  # h itself is a source here
    g_v = tape.gradient(y, v)
    assert isinstance(g_v, tf.Tensor)
    np.testing.assert_array_equal(g_v.numpy(), [[0.0, 0.0], [4.0, 4.0]])
    g_h, g_v = tape.gradient(y, [h, v])  # h's slices flow on, dense, into v * 2.0
    assert isinstance(g_h, tf.IndexedSlices)
    np.testing.assert_array_equal(g_v.numpy(), [[0.0, 0.0], [4.0, 4.0]])
    j = tape.jacobian(y, v)  # the jacobian sweep stays dense
    np.testing.assert_array_equal(j.numpy(), [[0.0, 0.0], [4.0, 4.0]])
