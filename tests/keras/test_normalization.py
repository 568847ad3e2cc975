"""BatchNormalization, LayerNormalization and Embedding against Keras 3 / TensorFlow 2.21."""
import numpy as np

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("normalization.json")


def close(got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(got), f32(want), rtol=rtol, atol=atol)


def test_batch_normalization_training_step_moving_stats_and_inference():
    x, w = tf.constant(f32(FIX["x"])), f32(FIX["w"])
    bn = tf.keras.layers.BatchNormalization(momentum=0.9)
    bn.build((None, 4))
    bn.gamma.assign(f32(FIX["bn_gamma"]))
    bn.beta.assign(f32(FIX["bn_beta"]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = bn(x, training=True)
        loss = tf.reduce_sum(y * w)
    gx, gg, gb = tape.gradient(loss, [x, bn.gamma, bn.beta])
    close(y, FIX["bn_train"])
    close(gx, FIX["bn_grad_x"], rtol=1e-4)
    close(gg, FIX["bn_grad_gamma"])
    close(gb, FIX["bn_grad_beta"])
    bn(x * 0.5, training=True)
    close(bn.moving_mean.numpy(), FIX["bn_moving_mean"])
    close(bn.moving_variance.numpy(), FIX["bn_moving_variance"])
    close(bn(x, training=False), FIX["bn_inference"])
    assert [v.name for v in bn.weights] == FIX["bn_names"]
    assert [v.name for v in bn.trainable_variables] == ["gamma", "beta"]


def test_batch_normalization_over_images_normalises_each_channel():
    bn = tf.keras.layers.BatchNormalization()
    close(bn(f32(FIX["x4"]), training=True), FIX["bn4_train"])


def test_batch_normalization_updates_no_moving_stat_at_inference():
    bn = tf.keras.layers.BatchNormalization()
    bn(tf.ones((2, 3)) * 5.0)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), [0.0, 0.0, 0.0])


def test_layer_normalization_and_its_gradients():
    x, w = tf.constant(f32(FIX["x"])), f32(FIX["w"])
    ln = tf.keras.layers.LayerNormalization()
    ln.build((None, 4))
    ln.gamma.assign(f32(FIX["ln_gamma"]))
    ln.beta.assign(f32(FIX["ln_beta"]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ln(x)
        loss = tf.reduce_sum(y * w)
    gx, gg = tape.gradient(loss, [x, ln.gamma])
    close(y, FIX["ln"])
    close(gx, FIX["ln_grad_x"], rtol=1e-4)
    close(gg, FIX["ln_grad_gamma"])


def test_embedding_lookup_and_gradient():
    emb = tf.keras.layers.Embedding(5, 3)
    emb.build()
    emb.embeddings.assign(f32(FIX["table"]))
    ids = np.asarray(FIX["ids"])
    with tf.GradientTape() as tape:
        e = emb(ids)
        loss = tf.reduce_sum(e * e)
    close(e, FIX["embedding"])
    close(tf.convert_to_tensor(tape.gradient(loss, emb.embeddings)), FIX["embedding_grad"])


def test_reshape_layer_keeps_the_batch_axis():
    assert tf.keras.layers.Reshape((3, -1))(tf.ones((2, 12))).shape == (2, 3, 4)
