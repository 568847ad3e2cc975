"""tf.GradientTape's documented and observed behaviour, one test per behaviour.

Expected values are closed forms or TensorFlow 2.21's answers to the same programs.
"""
import gc
import logging
import threading
import weakref

import numpy as np
import pytest

import tapeflow as tf

_CONSUMED = ("A non-persistent GradientTape can only be used to compute one set of "
             "gradients (or jacobians)")


def _val(t):
    return None if t is None else np.asarray(t.numpy()).tolist()


# ----------------------------------------------------------------------- persistence


def test_persistent_tape_allows_several_gradient_calls():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    assert _val(t.gradient(z, x)) == 108.0
    assert _val(t.gradient(y, x)) == 6.0
    assert _val(t.gradient(z, y)) == 18.0
    assert _val(t.jacobian(y, x)) == 6.0


def test_nonpersistent_tape_refuses_second_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    assert _val(t.gradient(y, x)) == 6.0
    with pytest.raises(RuntimeError) as info:
        t.gradient(y, x)
    assert str(info.value) == _CONSUMED


def test_nonpersistent_tape_refuses_jacobian_after_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    t.gradient(y, x)
    with pytest.raises(RuntimeError, match="only be used to compute one set"):
        t.jacobian(y, x)


def test_bad_unconnected_value_does_not_consume_the_tape():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    with pytest.raises(ValueError) as info:
        t.gradient(y, x, unconnected_gradients="foo")
    assert str(info.value) == "Unknown value for unconnected_gradients: 'foo'"
    assert _val(t.gradient(y, x)) == 6.0


# ----------------------------------------------------------------------- watch


def test_watch_tensor_records_its_uses():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x * x
    assert _val(t.gradient(y, x)) == 12.0


def test_constant_not_watched_gives_none():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        y = x * x
    assert t.gradient(y, x) is None


def test_trainable_variable_is_watched_when_read():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = v * v
    assert _val(t.gradient(y, v)) == 4.0


def test_watch_variable_explicitly():
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch(v)
        y = v * 3.0
    assert _val(t.gradient(y, v)) == 3.0


def test_watch_nested_list_and_dict():
    a, b, c = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    v = tf.Variable(4.0)
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch({"q": [a, (b,)], "p": c, "v": v})
        y = a * b * c * v
    assert [_val(g) for g in t.gradient(y, [a, b, c, v])] == [24.0, 12.0, 8.0, 6.0]


def test_watch_int_tensor_is_ignored_with_a_warning(caplog):
    x = tf.constant(3)
    with caplog.at_level(logging.WARNING):
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
    assert any("The dtype of the watched tensor must be floating (e.g. tf.float32), got "
               "tf.int32" in r.getMessage() for r in caplog.records)
    assert t.gradient(y, x) is None


def test_watch_refuses_non_tensor():
    with pytest.raises(ValueError) as info:
        tf.GradientTape().watch(1.0)
    assert str(info.value) == ("Passed in object 1.0 of type 'float', not tf.Tensor or "
                               "tf.Variable or ExtensionType.")


def test_watch_accessed_variables_false_ignores_unwatched_variables():
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a ** 2
        z = b ** 3
    grads = tape.gradient([y, z], [a, b])
    assert _val(grads[0]) == 4.0 and grads[1] is None
    assert tape.watched_variables() == (a,) or list(tape.watched_variables()) == [a]


def test_watched_variables_is_a_tuple_in_creation_order():
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as t:
        c * b * a
    watched = t.watched_variables()
    assert isinstance(watched, tuple) and len(watched) == 3
    assert watched[0] is a and watched[1] is b and watched[2] is c


def test_watched_variables_after_gradient_on_nonpersistent_tape():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = v * v
    t.gradient(y, v)
    assert len(t.watched_variables()) == 1 and t.watched_variables()[0] is v


def test_watched_tensors_are_not_watched_variables():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        x * x
    assert t.watched_variables() == ()


def test_nontrainable_variable_is_not_watched_automatically():
    w = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as t:
        y = w * 2.0
    assert t.gradient(y, w) is None
    assert t.watched_variables() == ()


def test_nontrainable_variable_watched_explicitly_has_gradient():
    w = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as t:
        t.watch(w)
        y = w * 2.0
    assert _val(t.gradient(y, w)) == 2.0
    assert len(t.watched_variables()) == 1


# ----------------------------------------------------------------------- gradient's arguments


def test_gradient_packs_results_like_list_sources():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = a * b
    g = t.gradient(y, [a, b])
    assert isinstance(g, list) and [_val(x) for x in g] == [2.0, 1.0]


def test_gradient_packs_results_like_tuple_sources():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(a)
        y = a * 3.0
    g = t.gradient(y, (a, b))
    assert isinstance(g, tuple) and _val(g[0]) == 3.0 and g[1] is None


def test_gradient_packs_results_like_dict_sources():
    w, b = tf.Variable([[1.0, 2.0]]), tf.Variable([0.5])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(w * 3.0 + b)
    g = t.gradient(y, {"w": w, "b": b})
    assert isinstance(g, dict) and sorted(g) == ["b", "w"]
    assert _val(g["w"]) == [[3.0, 3.0]] and _val(g["b"]) == [2.0]


def test_gradient_packs_results_like_nested_sources():
    a, b, c = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([a, b, c])
        y = a * b * c
    g = t.gradient(y, {"z": [a, (b,)], "a": c, "m": {"k": a}})
    assert list(g) == ["z", "a", "m"]
    assert _val(g["z"][0]) == 6.0 and isinstance(g["z"][1], tuple)
    assert _val(g["z"][1][0]) == 3.0 and _val(g["a"]) == 2.0 and _val(g["m"]["k"]) == 6.0


def test_gradient_for_repeated_source_is_repeated():
    a = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(a)
        y = a * 3.0
    assert [_val(g) for g in t.gradient(y, [a, a])] == [3.0, 3.0]


def test_multiple_targets_are_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y1 = x * x
        y2 = x * 3.0
    assert _val(t.gradient([y1, y2], x)) == 7.0


def test_nested_targets_are_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y1 = x * x
        y2 = x * 3.0
        y3 = x * x * x
    assert _val(t.gradient({"a": y1, "b": [y2, (y3,)]}, x)) == 4.0 + 3.0 + 12.0


def test_nonscalar_target_gradient_is_of_its_sum():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    assert _val(t.gradient(y, x)) == [2.0, 4.0, 6.0]


def test_output_gradients_weight_the_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert _val(g.gradient(y, x, output_gradients=tf.constant([1.0, 10.0]))) == [2.0, 40.0]


def test_output_gradients_nested_like_targets():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y1 = x * x
        y2 = x * 3.0
    g = t.gradient({"a": y1, "b": [y2]}, x,
                   output_gradients={"a": tf.constant(2.0), "b": [tf.constant(10.0)]})
    assert _val(g) == 38.0


def test_unconnected_gradients_none_gives_none():
    x, z = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch([x, z])
        y = x * 2.0
    assert t.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.NONE) is None


def test_unconnected_gradients_zero_gives_zeros_shaped_like_source():
    v = tf.Variable([1.0, 2.0])
    u = tf.Variable([[1.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(v * 2.0)
    g = t.gradient(y, [v, u], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert _val(g[0]) == [2.0, 2.0] and _val(g[1]) == [[0.0]]
    assert g[1].dtype == tf.float32


@pytest.mark.parametrize("value,expect_none", [("none", True), ("zero", False)])
def test_unconnected_gradients_accepts_strings(value, expect_none):
    x, z = tf.constant(1.0), tf.constant([2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
    g = t.gradient(y, z, unconnected_gradients=value)
    assert (g is None) if expect_none else _val(g) == [0.0, 0.0]


@pytest.mark.parametrize("value", ["zeros", "None", 0, None])
def test_unconnected_gradients_refuses_other_values(value):
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients"):
        t.gradient(y, x, unconnected_gradients=value)


def test_gradient_with_respect_to_intermediate_tensor():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    assert _val(t.gradient(z, y)) == 18.0
    assert _val(t.gradient(z, [x, y])[0]) == 108.0


def test_gradient_of_variable_with_respect_to_itself_is_ones():
    x = tf.Variable([2.0, 2.0])
    with tf.GradientTape() as tape:
        x * 1.0
    assert _val(tape.gradient(x, x)) == [1.0, 1.0]


def test_gradient_of_target_none_raises_type_error():
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        x * x
    with pytest.raises(TypeError, match="Argument `target` should be a list or nested"):
        t.gradient(None, x)


def test_integer_source_gives_none():
    x = tf.constant(3.0)
    i = tf.constant(2)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * tf.cast(i, tf.float32)
    assert t.gradient(y, [x, i])[1] is None


def test_integer_target_gives_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.int32) * 2
    assert t.gradient(y, x) is None


def test_gradient_keeps_source_dtype_float64():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x * x)
    g = t.gradient(y, x)
    assert g.dtype == tf.float64 and _val(g) == [2.0, 4.0]


def test_gradient_through_cast_returns_source_dtype():
    x = tf.constant(1.5, dtype=tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.float32) * 2.0
    g = t.gradient(y, x)
    assert g.dtype == tf.float64 and _val(g) == 2.0


def test_broadcast_operand_gradient_is_summed_to_its_shape():
    b = tf.Variable([1.0, 2.0, 3.0])
    x = tf.ones((4, 3))
    with tf.GradientTape() as t:
        y = tf.reduce_sum((x + b) * 2.0)
    assert _val(t.gradient(y, b)) == [8.0, 8.0, 8.0]


def test_gradient_of_watched_tensor_with_respect_to_itself_is_ones():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
    assert _val(t.gradient(x, x)) == [1.0, 1.0]


def test_ops_after_the_block_are_not_recorded():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
    y = x * x
    assert t.gradient(y, x) is None


def test_entering_a_tape_again_continues_its_recording():
    x = tf.constant([1.0, 2.0])
    t = tf.GradientTape()
    with t:
        t.watch(x)
        y = x * x
    with t:
        z = y * 3.0
    assert _val(t.gradient(z, x)) == [6.0, 12.0]


def test_gradient_on_a_tape_never_entered_raises_runtime_error():
    x = tf.constant(1.0)
    with pytest.raises(RuntimeError, match="only be used to compute one set"):
        tf.GradientTape().gradient(x, x)


def test_scalar_output_gradient_scales_every_element():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    assert _val(t.gradient(y, x, output_gradients=tf.constant(2.0))) == [4.0, 8.0]


def test_variable_read_before_and_after_assign_add():
    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        y = v * 2.0
        v.assign_add(1.0)
        z = y * v
    # z = (2 v0) * v1 with both reads of the same variable: 2 * v1 + 2 * v0 = 4 + 2.
    assert _val(t.gradient(z, v)) == 6.0


def test_leaving_through_numpy_cuts_the_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        escaped = tf.constant(x.numpy() * 2.0)
        y = tf.constant(x.numpy()) * x
    assert t.gradient(escaped, x) is None
    assert _val(t.gradient(y, x)) == [1.0, 2.0]


# ----------------------------------------------------------------------- jacobians


def test_jacobian_values_of_elementwise_square():
    with tf.GradientTape() as g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    assert _val(g.jacobian(y, x)) == [[2.0, 0.0], [0.0, 4.0]]


def test_jacobian_shape_is_target_shape_plus_source_shape():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.constant([1.0, -1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, v])
        y = tf.reduce_sum(a) * v[None, :] + tf.reduce_sum(v) * tf.ones((2, 3))
    ja, jv = t.jacobian(y, [a, v])
    assert ja.shape == (2, 3, 2, 2) and jv.shape == (2, 3, 3)
    want_a = np.broadcast_to(np.array([1.0, -1.0, 2.0])[None, :, None, None], (2, 3, 2, 2))
    np.testing.assert_allclose(ja.numpy(), want_a)
    want_v = np.eye(3)[None] * 10.0 + 1.0
    np.testing.assert_allclose(jv.numpy(), np.broadcast_to(want_v, (2, 3, 3)))


def test_jacobian_of_matmul_matches_closed_form():
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = tf.constant([0.5, -1.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reshape(tf.matmul(x[None, :], w), (3,))
    np.testing.assert_allclose(t.jacobian(y, x).numpy(), w.numpy().T)


def test_jacobian_of_scalar_target_is_gradient():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x * x)
    j = t.jacobian(y, x)
    assert j.shape == (3,) and _val(j) == [2.0, 4.0, 6.0]


def test_jacobian_unconnected_is_none_or_zeros():
    x = tf.constant([1.0, 2.0])
    z = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, z])
        y = x * 2.0
    assert t.jacobian(y, z) is None
    j = t.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert j.shape == (2, 1, 3) and not np.any(j.numpy())


def test_jacobian_packs_results_like_nested_sources_with_variables():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([1.0, -1.0])
    with tf.GradientTape(persistent=True) as t:  # use_pfor=False needs it, as in TF
        t.watch(x)
        y = tf.linalg.matvec(w, x)
    j = t.jacobian(y, {"w": w, "x": x}, experimental_use_pfor=False)
    assert sorted(j) == ["w", "x"]
    np.testing.assert_allclose(j["x"].numpy(), w.numpy())
    want_w = np.zeros((2, 2, 2))
    want_w[0, 0], want_w[1, 1] = x.numpy(), x.numpy()
    np.testing.assert_allclose(j["w"].numpy(), want_w)


def test_batch_jacobian_values_and_shape():
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
        g.watch(x)
        y = x * x
    bj = g.batch_jacobian(y, x)
    assert bj.shape == (2, 2, 2)
    assert _val(bj) == [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]]


def test_batch_jacobian_of_per_example_matmul():
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = tf.constant([[1.0, 0.0], [2.0, -1.0], [0.0, 3.0], [1.0, 1.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    bj = t.batch_jacobian(y, x)
    assert bj.shape == (4, 3, 2)
    s = 1 - np.tanh(x.numpy() @ w.numpy()) ** 2
    want = s[:, :, None] * w.numpy().T[None]
    np.testing.assert_allclose(bj.numpy(), want, rtol=1e-5)


def test_batch_jacobian_first_dimension_mismatch_raises_value_error():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x[:1] * 2.0
    with pytest.raises(ValueError) as info:
        t.batch_jacobian(y, x)
    assert str(info.value) == ("Need first dimension of target shape ((1, 2)) and source "
                               "shape ((2, 2)) to match.")


def test_batch_jacobian_unconnected_gives_zeros():
    x = tf.constant([[1.0, 2.0]])
    z = tf.constant([[1.0]])
    with tf.GradientTape() as t:
        t.watch([x, z])
        y = x * 2.0
    bj = t.batch_jacobian(y, z)
    assert bj is not None and bj.shape == (1, 2, 1) and not np.any(bj.numpy())


# ----------------------------------------------------------------------- reset, stop_recording


def test_reset_forgets_what_was_recorded():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        loss = v * v
        t.reset()
        loss += v * 10.0
    assert _val(t.gradient(loss, v)) == 10.0


def test_reset_forgets_watched_tensors():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        x * x
        t.reset()
        z = x * 3.0
    assert t.gradient(z, x) is None


def test_stop_recording_ops_are_not_recorded():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        with t.stop_recording():
            w = y * 5.0
        z = y + w
    assert _val(t.gradient(z, x)) == [2.0, 4.0]


def test_gradient_inside_stop_recording_is_not_traced():
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as t:
        loss = v ** 3
        with t.stop_recording():
            grads = t.gradient(loss, [v])
    assert _val(grads[0]) == 12.0
    assert t.gradient(grads[0], v) is None
    assert t.watched_variables()[0] is v


def test_stop_recording_when_not_recording_raises_runtime_error():
    t = tf.GradientTape()
    with pytest.raises(RuntimeError) as info:
        with t.stop_recording():
            pass
    assert str(info.value) == "Trying to stop recording a tape which is not recording."


def test_reentering_an_active_tape_raises_value_error():
    t = tf.GradientTape()
    with pytest.raises(ValueError) as info:
        with t:
            with t:
                pass
    assert str(info.value) == ("Tape is still recording, This can happen if you try to "
                               "re-enter an already-active tape.")


# ----------------------------------------------------------------------- higher order


def test_second_derivative_with_nested_tapes():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x
        dy_dx = gg.gradient(y, x)
    assert _val(dy_dx) == 6.0 and _val(g.gradient(dy_dx, x)) == 2.0


def test_third_derivative_of_cube():
    x = tf.Variable(1.5)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x ** 3
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert _val(d1) == pytest.approx(3 * 1.5 ** 2)
    assert _val(d2) == pytest.approx(6 * 1.5)
    assert _val(d3) == pytest.approx(6.0)


def test_higher_derivatives_of_sin_cycle():
    x = tf.constant(0.7, dtype=tf.float64)
    derivs = []
    with tf.GradientTape() as t4:
        t4.watch(x)
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.sin(x)
                derivs.append(t1.gradient(y, x))
            derivs.append(t2.gradient(derivs[-1], x))
        derivs.append(t3.gradient(derivs[-1], x))
    derivs.append(t4.gradient(derivs[-1], x))
    want = [np.cos(0.7), -np.sin(0.7), -np.cos(0.7), np.sin(0.7)]
    np.testing.assert_allclose([d.numpy() for d in derivs], want, rtol=1e-12)


def test_second_derivative_of_exp_times_polynomial():
    x = tf.constant([0.5, -1.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.exp(x) * x * x
        dy = inner.gradient(y, x)
    d2 = outer.gradient(dy, x)
    xv = x.numpy()
    np.testing.assert_allclose(dy.numpy(), np.exp(xv) * (xv ** 2 + 2 * xv), rtol=1e-12)
    np.testing.assert_allclose(d2.numpy(), np.exp(xv) * (xv ** 2 + 4 * xv + 2), rtol=1e-12)


def test_hessian_by_jacobian_of_gradient():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x[0] ** 2 * x[1] + x[1] ** 3
        g = inner.gradient(y, x)
    h = outer.jacobian(g, x)
    np.testing.assert_allclose(h.numpy(), [[2 * 2.0, 2 * 1.0], [2 * 1.0, 6 * 2.0]])


def test_persistent_gradient_inside_context_is_differentiable_again():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x ** 3
        g = t.gradient(y, x)
    assert _val(g) == 12.0 and _val(t.gradient(g, x)) == 12.0


_UNSET = object()


def _nested(placement):
    x = tf.Variable(1.0)
    d2 = _UNSET
    with tf.GradientTape() as tape_2:
        with tf.GradientTape() as tape_1:
            y = x * x * x
            if placement.startswith("first-inner"):
                dy_dx = tape_1.gradient(y, x)
        if placement.startswith("first-outer"):
            dy_dx = tape_1.gradient(y, x)
        if placement.endswith("second-inner-outer"):
            d2 = tape_2.gradient(dy_dx, x)
    if placement.startswith("first-outside"):
        dy_dx = tape_1.gradient(y, x)
    if d2 is _UNSET:
        d2 = tape_2.gradient(dy_dx, x)
    return dy_dx, d2


@pytest.mark.parametrize("placement,second", [
    ("first-outer", 6.0),
    ("first-inner", 6.0),
    ("first-outside", None),
    ("first-inner/second-inner-outer", 6.0),
    ("first-outer/second-inner-outer", 6.0),
])
def test_nested_tape_gradient_placements(placement, second):
    dy_dx, d2 = _nested(placement)
    assert _val(dy_dx) == 3.0
    assert _val(d2) == second


def test_second_gradient_inside_inner_block():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape_2:
        with tf.GradientTape() as tape_1:
            y = x * x * x
            dy_dx = tape_1.gradient(y, x)
            d2y_dx2 = tape_2.gradient(dy_dx, x)
    assert _val(dy_dx) == 3.0 and _val(d2y_dx2) == 6.0


def test_first_gradient_outside_both_persistent_tapes_gives_none():
    x = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape_2:
        with tf.GradientTape(persistent=True) as tape_1:
            y = x * x * x
    dy_dx = tape_1.gradient(y, x)
    assert _val(dy_dx) == 3.0 and tape_2.gradient(dy_dx, x) is None


def test_two_tapes_in_one_with_statement():
    x = tf.constant(2.0)
    with tf.GradientTape() as t1, tf.GradientTape() as t2:
        t1.watch(x)
        t2.watch(x)
        y = x ** 3
        g2 = t2.gradient(y, x)
    assert _val(g2) == 12.0 and _val(t1.gradient(g2, x)) == 12.0


def test_outer_tape_sees_ops_of_inner_block():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x
        z = y * 3.0
    assert _val(inner.gradient(y, x)) == 4.0
    assert _val(outer.gradient(z, x)) == 12.0


# ----------------------------------------------------------------------- threads, control flow


def test_tape_does_not_record_ops_of_another_thread():
    x = tf.constant(2.0)
    out = {}

    def other():
        out["y"] = x * x

    with tf.GradientTape() as t:
        t.watch(x)
        th = threading.Thread(target=other)
        th.start()
        th.join()
    assert t.gradient(out["y"], x) is None


def test_tapes_in_two_threads_record_only_their_own_thread():
    x = tf.constant(2.0)
    tapes, ys = {}, {}
    barrier = threading.Barrier(2)

    def work(name, power):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            barrier.wait()
            ys[name] = x ** power
            barrier.wait()
        tapes[name] = t

    threads = [threading.Thread(target=work, args=(n, p)) for n, p in (("a", 2.0), ("b", 3.0))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert _val(tapes["a"].gradient(ys["a"], x)) == 4.0
    assert _val(tapes["b"].gradient(ys["b"], x)) == 12.0
    assert tapes["a"].gradient(ys["b"], x) is None
    assert tapes["b"].gradient(ys["a"], x) is None


def test_gradient_through_python_control_flow():
    def f(x):
        if float(x) > 0:
            return x * x
        return -x * 3.0

    for value, want in ((2.0, 4.0), (-1.0, -3.0)):
        x = tf.constant(value)
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        assert _val(t.gradient(y, x)) == want


def test_gradient_through_loop_with_variable_reads():
    v = tf.Variable(1.1, dtype=tf.float64)
    with tf.GradientTape() as t:
        y = tf.constant(1.0, dtype=tf.float64)
        for _ in range(4):
            y = y * v
    assert _val(t.gradient(y, v)) == pytest.approx(4 * 1.1 ** 3)


def test_gradient_through_while_loop_until_condition():
    x = tf.constant(1.5)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        steps = 0
        while float(y) < 10.0:
            y = y * x
            steps += 1
    assert steps == 5
    assert _val(t.gradient(y, x)) == pytest.approx(6 * 1.5 ** 5, rel=1e-6)


# ----------------------------------------------------------------------- variables, memory


def test_assign_inside_tape_cuts_the_gradient_to_the_assigned_value():
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        v.assign(x * 2.0)
        y = v * v
    assert t.gradient(y, x) is None
    assert _val(t.gradient(y, v)) == 12.0


def test_tape_keeps_the_value_a_variable_had_when_read():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = v * v
        v.assign(100.0)
    assert _val(t.gradient(y, v)) == 4.0


def test_assign_sub_training_step_uses_gradient():
    w = tf.Variable(5.0)
    for _ in range(3):
        with tf.GradientTape() as t:
            loss = (w - 2.0) ** 2
        w.assign_sub(0.25 * t.gradient(loss, w))
    assert _val(w) == pytest.approx(2.0 + 3.0 * 0.5 ** 3)


def test_tape_does_not_keep_unrelated_tensors_alive():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        unrelated = tf.constant([3.0, 4.0]) * 2.0
        ref_unrelated = weakref.ref(unrelated)
        y = x * 2.0
        del unrelated
        gc.collect()
        assert ref_unrelated() is None
    assert _val(t.gradient(y, x)) == [2.0, 2.0]


def test_tape_does_not_keep_intermediates_its_rules_do_not_need():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        a = x + 1.0
        ref_a = weakref.ref(a)
        y = tf.reduce_sum(a + 2.0)
        del a
        gc.collect()
    assert ref_a() is None
    assert _val(t.gradient(y, x)) == [1.0, 1.0]


def test_consumed_tape_frees_its_recording():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        a = x * x
        ref_a = weakref.ref(a)
        y = tf.reduce_sum(a * x)
        del a
    t.gradient(y, x)
    gc.collect()
    assert ref_a() is None


def test_assign_sub_after_recording_keeps_the_recorded_value():
    # Variables update in place only when no tensor or tape snapshot shares their array.
    v = tf.Variable(np.array([1.0, 2.0], np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    v.assign_sub(tf.constant([10.0, 10.0]))
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(v.numpy(), [-9.0, -8.0])


def test_assign_add_leaves_tensors_read_earlier_unchanged():
    v = tf.Variable(np.array([1.0, 2.0], np.float32))
    read = v.read_value()
    view = tf.identity(v)
    v.assign_add(tf.constant([1.0, 1.0]))
    np.testing.assert_array_equal(read.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(view.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])


def test_unshared_variable_updates_in_place():
    v = tf.Variable(np.zeros(4, np.float32))
    buffer_id = id(v._value)
    for _ in range(3):
        v.assign_sub(tf.constant(np.ones(4, np.float32)))
    assert id(v._value) == buffer_id
    np.testing.assert_array_equal(v.numpy(), [-3.0] * 4)
