"""Keras layers: Dense against TensorFlow's outputs and gradients, finite differences,
build on first call, names and reprs, Flatten, Dropout, Activation."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("dense.json")
NAMES = load("naming.json")


def dense_from_fixture(activation):
    layer = tf.keras.layers.Dense(3, activation=activation)
    layer.build((None, 4))
    layer.kernel.assign(f32(FIX["kernel"]))
    layer.bias.assign(f32(FIX["bias"]))
    return layer


@pytest.mark.parametrize("activation", ["linear", "relu", "softmax", "sigmoid", "tanh"])
def test_dense_output_matches_tensorflow(activation):
    layer = dense_from_fixture(activation)
    np.testing.assert_allclose(layer(f32(FIX["x2"])).numpy(), f32(FIX[f"y2_{activation}"]),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer(f32(FIX["x3"])).numpy(), f32(FIX[f"y3_{activation}"]),
                               rtol=1e-5, atol=1e-6)


def test_dense_loss_gradient_matches_tensorflow():
    layer = dense_from_fixture("softmax")
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.SparseCategoricalCrossentropy()(
            np.asarray(FIX["labels"]), layer(f32(FIX["x2"])))
    gk, gb = tape.gradient(loss, layer.trainable_variables)
    assert float(loss) == pytest.approx(FIX["loss"], rel=1e-5)
    np.testing.assert_allclose(gk.numpy(), f32(FIX["grad_kernel"]), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gb.numpy(), f32(FIX["grad_bias"]), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("activation", ["relu", "tanh", "softmax"])
def test_dense_gradients_match_float64_finite_differences(activation):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4))
    w = rng.standard_normal((5, 3))
    layer = tf.keras.layers.Dense(3, activation=activation, dtype="float64",
                                  bias_initializer="random_normal")
    layer(x)
    assert layer.kernel.dtype == tf.float64

    def loss_of(kernel, bias):
        layer.kernel.assign(kernel)
        layer.bias.assign(bias)
        return float(tf.reduce_sum(layer(x) * w))

    k0, b0 = layer.kernel.numpy(), layer.bias.numpy()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) * w)
    gk, gb = (g.numpy() for g in tape.gradient(loss, [layer.kernel, layer.bias]))
    eps = 1e-6
    for params, grad, is_kernel in ((k0, gk, True), (b0, gb, False)):
        numeric = np.zeros_like(params)
        for idx in np.ndindex(params.shape):
            up, down = params.copy(), params.copy()
            up[idx] += eps
            down[idx] -= eps
            if is_kernel:
                numeric[idx] = (loss_of(up, b0) - loss_of(down, b0)) / (2 * eps)
            else:
                numeric[idx] = (loss_of(k0, up) - loss_of(k0, down)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


def test_dense_builds_on_first_call_with_the_input_width():
    layer = tf.keras.layers.Dense(7)
    assert not layer.built and layer.variables == []
    layer(tf.ones((2, 5)))
    assert layer.built
    assert [tuple(v.shape) for v in layer.trainable_variables] == [(5, 7), (7,)]
    assert np.all(layer.bias.numpy() == 0)
    limit = np.sqrt(6 / (5 + 7))
    assert np.all(np.abs(layer.kernel.numpy()) <= limit)


def test_seeded_initialisation_is_reproducible():
    # Keras 3 seeds initializers from Python's `random` (keras.utils.set_random_seed), not
    # from tf.random.set_seed; tests/keras/test_random_tf.py checks TF's own numbers.
    def kernel():
        tf.keras.utils.set_random_seed(3)
        layer = tf.keras.layers.Dense(4)
        layer(tf.ones((1, 3)))
        return layer.kernel.numpy()
    np.testing.assert_array_equal(kernel(), kernel())


def test_dense_casts_float64_and_integer_inputs_to_float32():
    layer = tf.keras.layers.Dense(2)
    assert layer(np.ones((1, 3))).dtype == tf.float32
    assert layer(tf.ones((1, 3), dtype=tf.int32)).dtype == tf.float32


def test_variable_names_and_reprs_follow_keras():
    tf.keras.backend.clear_session()
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones")
    layer(tf.ones((1, 2)))
    assert [repr(v) for v in layer.variables] == NAMES["dense_repr"]
    assert [v.name for v in layer.variables] == NAMES["dense_names"]


def test_layer_names_are_made_unique():
    tf.keras.backend.clear_session()
    names = [tf.keras.layers.Dense(1).name for _ in range(3)]
    assert names == ["dense", "dense_1", "dense_2"]
    assert tf.keras.layers.Flatten().name == "flatten"
    assert tf.keras.layers.Dense(1, name="head").name == "head"


def test_untrainable_layer_has_no_trainable_variables():
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 2)))
    layer.trainable = False
    assert layer.trainable_variables == []
    assert len(layer.non_trainable_variables) == 2


def test_add_weight_in_a_custom_layer_and_weights_order():
    class Scale(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = tf.keras.layers.Dense(2)

        def build(self, input_shape):
            self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
            self.steps = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         name="steps")

        def call(self, x):
            return self.inner(x) * self.w

    layer = Scale()
    layer(tf.ones((1, 3)))
    assert [v.name for v in layer.trainable_variables] == ["w", "kernel", "bias"]
    assert [v.name for v in layer.non_trainable_variables] == ["steps"]
    assert layer.count_params() == 2 + 1 + 3 * 2 + 2


def test_flatten_collapses_all_but_the_batch_axis():
    flat = tf.keras.layers.Flatten()
    assert flat(tf.ones((4, 2, 3))).shape == (4, 6)
    assert flat(tf.ones((4,))).shape == (4, 1)


def test_dropout_scales_kept_units_and_is_identity_at_inference():
    tf.random.set_seed(1)
    drop = tf.keras.layers.Dropout(0.25)
    x = tf.ones((200, 50))
    np.testing.assert_array_equal(drop(x).numpy(), x.numpy())
    y = drop(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.02


def test_activation_layer_and_lookup_by_name():
    x = tf.constant([[-1.0, 2.0]])
    np.testing.assert_allclose(tf.keras.layers.Activation("relu")(x).numpy(), [[0.0, 2.0]])
    assert tf.keras.activations.get("linear")(x) is x
    with pytest.raises(ValueError):
        tf.keras.activations.get("nope")


def test_initializers_have_keras_scales():
    tf.random.set_seed(0)
    w = tf.keras.initializers.HeUniform()((400, 300)).numpy()
    assert np.abs(w).max() <= np.sqrt(6 / 400)
    assert np.std(w) == pytest.approx(np.sqrt(2 / 400), rel=0.02)
    n = tf.keras.initializers.RandomNormal(stddev=0.5)((500, 100)).numpy()
    assert np.std(n) == pytest.approx(0.5, rel=0.02)
    assert np.all(tf.keras.initializers.get("ones")((2,)).numpy() == 1.0)


def test_dense_refuses_an_input_of_another_width_like_keras():
    layer = tf.keras.layers.Dense(3, name="probe")
    layer(tf.ones((1, 3)))
    with pytest.raises(ValueError, match=r"^Input 0 with name 'None' of layer 'probe' is "
                       r"incompatible with the layer: expected axis -1 of input shape to have "
                       r"value 3, but received input with shape \(1, 4\)$"):
        layer(tf.ones((1, 4)))


def test_regularization_and_added_losses_follow_keras():
    # Values printed by TensorFlow 2.21 for the same program.
    dense = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L2(0.1),
                                  bias_regularizer="l1", kernel_initializer="ones")
    dense(tf.ones((1, 3)))
    np.testing.assert_allclose([float(v) for v in dense.losses], [0.6, 0.0], rtol=1e-6)

    class AddsSum(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    model = tf.keras.Sequential([AddsSum(), dense])
    model(tf.ones((1, 3)))
    model(tf.ones((1, 3)) * 2)
    np.testing.assert_allclose([float(v) for v in model.losses], [6.0, 0.6, 0.0], rtol=1e-6)
    l1l2 = tf.keras.regularizers.L1L2(l1=0.1, l2=0.2)(tf.constant([1.0, -2.0]))
    assert float(l1l2) == pytest.approx(1.3)
    assert tf.keras.regularizers.get("l2").l2 == 0.01
    with tf.GradientTape() as tape:
        penalty = tf.add_n(dense.losses)
    grad = tape.gradient(penalty, dense.kernel)
    np.testing.assert_allclose(grad.numpy(), 0.2 * dense.kernel.numpy(), rtol=1e-6)


def test_unknown_keyword_arguments_are_refused_like_keras():
    with pytest.raises(ValueError, match=r"^Unrecognized keyword arguments passed to Dense: "
                       r"\{'foo': 1\}$"):
        tf.keras.layers.Dense(3, foo=1)


def test_merge_and_global_pooling_layers():
    # Expected values as TensorFlow 2.21 printed them for the same inputs.
    tf.keras.backend.clear_session()
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = a * 2.0
    layers = tf.keras.layers
    assert layers.Add()([a, b]).numpy().tolist() == [[0, 3, 6], [9, 12, 15]]
    assert layers.Subtract()([a, b]).numpy().tolist() == [[0, -1, -2], [-3, -4, -5]]
    assert layers.Average()([a, b]).numpy().tolist() == [[0, 1.5, 3], [4.5, 6, 7.5]]
    assert layers.Concatenate().name == "concatenate"
    assert layers.Concatenate()([a, b]).shape == (2, 6)
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 2, 3, 2))
    assert layers.GlobalAveragePooling2D()(x).numpy().tolist() == [[5, 6], [17, 18]]
    assert layers.GlobalMaxPooling2D(keepdims=True)(x).shape == (2, 1, 1, 2)
    with pytest.raises(ValueError, match="A merge layer should be called on a list of inputs"):
        layers.Add()(a)


def test_lambda_rescaling_and_identity_layers():
    # Values and names as TensorFlow 2.21 printed them.
    tf.keras.backend.clear_session()
    double = tf.keras.layers.Lambda(lambda x: x * 2)
    assert double.name == "lambda" and double(tf.constant([1.0])).numpy().tolist() == [2.0]
    shift = tf.keras.layers.Rescaling(0.5, offset=1.0)
    assert shift.name == "rescaling"
    assert shift(tf.constant([[2.0, 4.0]])).numpy().tolist() == [[2.0, 3.0]]
    scaled = tf.keras.layers.Rescaling(0.5)(tf.constant([[2, 4]], dtype=tf.uint8))
    assert scaled.dtype == tf.float32 and scaled.numpy().tolist() == [[1.0, 2.0]]
    assert tf.keras.layers.Identity()(tf.ones(2)).numpy().tolist() == [1.0, 1.0]


def test_normalization_adapts_like_keras():
    # Values as TensorFlow 2.21 printed them for the same data.
    data = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]], np.float32)
    norm = tf.keras.layers.Normalization()
    norm.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))
    np.testing.assert_allclose(norm(data).numpy(), [[-1.2247448, -1.2247448], [0, 0],
                                                    [1.2247448, 1.2247448]], rtol=1e-6)
    assert [v.name for v in norm.weights] == ["mean", "variance", "count"]
    np.testing.assert_allclose(norm.variance.numpy(), [[2.6666667, 10.666667]], rtol=1e-6)
    flat = tf.keras.layers.Normalization(axis=None)
    flat.adapt(data)
    np.testing.assert_allclose(flat(data).numpy()[0], [-1.1721057, -0.8372183], rtol=1e-6)
    back = tf.keras.layers.Normalization(invert=True, mean=2.0, variance=4.0)
    assert back(data).numpy().tolist() == [[4, 6], [8, 14], [12, 22]]


def test_activity_regularizer_is_divided_by_the_batch_size():
    # TensorFlow 2.21 gives 0.18: 0.01 * sum(3.0 ** 2 over 4 x 2 outputs) / 4.
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", activity_regularizer="l2")
    dense(tf.ones((4, 3)))
    np.testing.assert_allclose([float(v) for v in dense.losses], [0.18], rtol=1e-6)


def test_constraints_project_weights_after_each_update():
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_constraint="non_neg",
                                  kernel_constraint=tf.keras.constraints.MaxNorm(1.0))
    dense(tf.ones((1, 3)))
    tf.keras.optimizers.SGD(1.0).apply_gradients(
        zip([-tf.ones((3, 2)), tf.ones((2,))], dense.trainable_variables, strict=True))
    # kernel columns (2, 2, 2) have norm sqrt(12) > 1: scaled to unit norm; bias -1 -> 0.
    np.testing.assert_allclose(dense.kernel.numpy(), np.full((3, 2), 3 ** -0.5), rtol=1e-6)
    assert dense.bias.numpy().tolist() == [0.0, 0.0]
    unit = tf.keras.constraints.UnitNorm()(tf.constant([[3.0, 0.0], [4.0, 2.0]]))
    np.testing.assert_allclose(unit.numpy(), [[0.6, 0.0], [0.8, 1.0]], rtol=1e-6)
