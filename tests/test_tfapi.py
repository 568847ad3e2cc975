"""The non-Keras TF names of issue 22 against TensorFlow 2.21's recorded answers
(``tests/tfapi_cases.py`` -> ``tools/record_tfapi.py`` -> ``fixtures/tfapi/cases.json``)."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tests.tfapi_cases import CASES, _parsed, _spec_single, run

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tfapi", "cases.json")
with open(FIXTURE) as _f:
    RECORDED = json.load(_f)["cases"]


ATOL = {"ctc": 1e-6}   # CTC sums many float32 terms in another order than TF


def same(got, want, path="result", atol=1e-7):
    """Assert two encoded results agree: exact structure, dtypes, shapes and strings;
    floats to float32 rounding."""
    if isinstance(want, dict) and "array" in want:
        assert isinstance(got, dict) and "array" in got, f"{path}: {got!r} vs {want!r}"
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} vs {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} vs {want['shape']}"
        g = np.array([float(x) for x in got["array"]])
        w = np.array([float(x) for x in want["array"]])
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=atol, equal_nan=True, err_msg=path)
    elif isinstance(want, dict) and "float" in want:
        np.testing.assert_allclose(float(got["float"]), float(want["float"]), rtol=2e-6,
                                   err_msg=path)
    elif isinstance(want, dict) and "dict" in want:
        assert sorted(got["dict"]) == sorted(want["dict"]), path
        for k in want["dict"]:
            same(got["dict"][k], want["dict"][k], f"{path}[{k!r}]", atol)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]", atol)
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    want = RECORDED[name]
    got = run(tf, CASES[name])
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"] == want["message"]
    else:
        assert "ok" in got, got
        same(got["ok"], want["ok"], atol=ATOL.get(name.split("_")[0], 1e-7))


def test_tfrecord_of_examples_written_by_tensorflow_parses():
    """TF wrote the file (its Example bytes in its own map order); tapeflow reads and parses
    it with ``TFRecordDataset.map(parse_single_example)`` to what TF parsed."""
    path = os.path.join(os.path.dirname(FIXTURE), "examples.tfrecord")
    ds = tf.data.TFRecordDataset(path).map(
        lambda s: tf.io.parse_single_example(s, _spec_single(tf)))
    got = [run(tf, lambda tf, d=d: _parsed(tf, d)) for d in ds]
    want = RECORDED["parse_single_example_values"]["ok"]
    assert len(got) == len(want) == 3
    for g, w in zip(got, want):
        same(g["ok"], w)


def test_example_roundtrip_and_protobuf_api():
    ex = tf.train.Example(features=tf.train.Features(feature={
        "v": tf.train.Feature(float_list=tf.train.FloatList(value=np.array([0.5, 2.0])))}))
    data = ex.SerializeToString()
    back = tf.train.Example()
    assert back.ParseFromString(data) == len(data)
    assert back == ex and back.ByteSize() == len(data)
    copy = tf.train.Example()
    copy.CopyFrom(ex)
    assert copy.features.feature["v"].float_list.value == [0.5, 2.0]
    copy.Clear()
    assert not copy.HasField("features") and copy.SerializeToString() == b""


@pytest.mark.parametrize("name", ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e",
                                  "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
                                  "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e",
                                  "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"])
def test_special_function_gradients_match_finite_differences(name):
    f = getattr(tf.math.special, name)
    x = tf.constant([0.3, 0.9, 2.2, 3.7], tf.float64)
    # compute_gradient's central differences (step 1e-3) agree to ~1e-5 relative
    theoretical, numerical = tf.test.compute_gradient(f, [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-4, atol=1e-7)


def test_ctc_loss_gradient_matches_finite_differences():
    rng = np.random.RandomState(5)
    logits = tf.constant(rng.randn(5, 2, 4))
    labels = tf.constant([[1, 3, 3], [2, 0, 0]])

    def f(z):
        return tf.nn.ctc_loss(labels, z, tf.constant([3, 1]), tf.constant([5, 4]))
    theoretical, numerical = tf.test.compute_gradient(f, [logits])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-4, atol=1e-7)


def test_dynamic_stitch_and_partition_inside_tf_function_use_each_calls_values():
    @tf.function
    def f(x, p):
        a, b = tf.dynamic_partition(x, p, 2)
        return tf.dynamic_stitch([tf.range(tf.size(a)), tf.size(a) + tf.range(tf.size(b))],
                                 [a, b])
    one = f(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 0, 1]))
    two = f(tf.constant([4.0, 5.0, 6.0]), tf.constant([0, 0, 1]))
    np.testing.assert_array_equal(one.numpy(), [2.0, 1.0, 3.0])
    np.testing.assert_array_equal(two.numpy(), [4.0, 5.0, 6.0])


def test_example_classes_survive_a_schema_listing():
    """``_protobuf.message_types()`` once rebuilt every class, orphaning ``tf.train.Example``
    (decoded messages then lacked the protobuf methods)."""
    from tapeflow import _protobuf as pb
    cls = tf.train.Example
    pb.message_types()
    ex = cls.FromString(cls(features=tf.train.Features()).SerializeToString())
    assert type(ex) is cls and ex.SerializeToString() == b"\n\x00"
