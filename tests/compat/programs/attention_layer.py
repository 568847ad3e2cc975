"""keras.layers.Attention: dot and concat scores, use_scale, a value mask and a query mask
(from Embedding(mask_zero=True)), the causal mask, attention scores returned, its weights
and config, and the layer inside a functional model trained by fit."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

rng = np.random.default_rng(0)
q = rng.random((2, 3, 4)).astype("float32")
v = rng.random((2, 5, 4)).astype("float32")
k = rng.random((2, 5, 4)).astype("float32")
att = layers.Attention()
print(np.round(att([q, v]).numpy(), 5).tolist())
out, scores = att([q, v, k], return_attention_scores=True)
print(np.round(out.numpy(), 5).tolist())
print(np.round(scores.numpy(), 5).tolist())
scaled = layers.Attention(use_scale=True, score_mode="concat")
print(np.round(scaled([q, v]).numpy(), 5).tolist())
print([(w.name, w.shape) for w in scaled.weights])
print(sorted(k for k in scaled.get_config()))
vm = np.array([[True, True, False, False, True], [True, False, True, True, True]])
qm = np.array([[True, False, True], [True, True, True]])
print(np.round(att([q, v], mask=[qm, vm]).numpy(), 5).tolist())
x = rng.random((2, 4, 4)).astype("float32")
print(np.round(att([x, x], use_causal_mask=True, return_attention_scores=True)[1].numpy(),
               5).tolist())
try:
    att(q)
except ValueError as e:
    print("ValueError:", str(e)[:80])
try:
    layers.Attention(score_mode="cosine")
except ValueError as e:
    print("ValueError:", e)

tokens = tf.keras.Input((None,), dtype="int32")
emb = layers.Embedding(10, 4, mask_zero=True,
                       embeddings_initializer=tf.keras.initializers.Constant(0.1))(tokens)
ctx = layers.Attention(use_scale=True)([emb, emb])
pooled = layers.GlobalAveragePooling1D()(ctx)
model = tf.keras.Model(tokens, layers.Dense(1, kernel_initializer="ones")(pooled))
model.compile(optimizer="sgd", loss="mse")
data = np.array([[1, 2, 0, 0], [3, 4, 5, 0], [6, 7, 8, 9], [1, 0, 0, 0]])
h = model.fit(data, np.ones((4, 1), "float32"), batch_size=2, epochs=2, verbose=0,
              shuffle=False)
print([round(v, 5) for v in h.history["loss"]])
print(model.count_params(), [w.shape for w in model.trainable_weights])
