"""Huber, KL divergence, Poisson and cosine losses; precision, recall, top-k and RMSE
metrics, against Keras 3 / TensorFlow 2.21."""
import numpy as np
import pytest

import tapeflow as tf
from tests.keras._fixtures import f32, load

FIX = load("extra.json")
L, M = tf.keras.losses, tf.keras.metrics
y_true, y_pred = f32(FIX["y_true"]), f32(FIX["y_pred"])


@pytest.mark.parametrize("name,fn", [
    ("huber", lambda: L.Huber()(y_true, y_pred)),
    ("huber_delta", lambda: L.Huber(delta=0.5)(y_true, y_pred)),
    ("kl_divergence", lambda: L.KLDivergence()(f32(FIX["probs_t"]), f32(FIX["probs_p"]))),
    ("poisson", lambda: L.Poisson()(f32(FIX["counts"]), f32(FIX["rates"]))),
    ("cosine_similarity", lambda: L.CosineSimilarity()(y_true, y_pred)),
])
def test_extra_losses_match_tensorflow(name, fn):
    assert float(fn()) == pytest.approx(FIX[name], rel=1e-5)


def test_precision_recall_topk_and_rmse_match_tensorflow():
    t, p = f32(FIX["bin_true"]), f32(FIX["bin_pred"])
    precision, recall, multi = M.Precision(), M.Recall(), M.Precision(thresholds=[0.3, 0.6])
    for metric in (precision, recall, multi):
        metric.update_state(t, p)
    assert float(precision.result()) == pytest.approx(FIX["precision"], rel=1e-6)
    assert float(recall.result()) == pytest.approx(FIX["recall"], rel=1e-6)
    np.testing.assert_allclose(multi.result().numpy(), FIX["precision_thresholds"], rtol=1e-6)
    topk = M.SparseTopKCategoricalAccuracy(k=2)
    topk.update_state(np.asarray(FIX["labels"]), f32(FIX["probs_p"]))
    assert float(topk.result()) == pytest.approx(FIX["sparse_top_2"])
    rmse = M.RootMeanSquaredError()
    rmse.update_state(y_true, y_pred)
    assert float(rmse.result()) == pytest.approx(FIX["rmse"], rel=1e-6)


def test_huber_gradient_is_the_clipped_error():
    x = tf.constant([[0.2, 3.0, -4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = L.huber(tf.zeros((1, 3)), x)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), [[0.2 / 3, 1 / 3, -1 / 3]],
                               rtol=1e-6)
