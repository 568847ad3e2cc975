# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_layers_vs_keras.py)
# keras-io's "Masking and padding" guide, in short: padded ids, mask_zero, masks reaching an
# LSTM and an average pooling, the same model functional.
rng = np.random.default_rng(3)
raw = [[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]]
padded = keras.utils.pad_sequences(raw, padding="post")
print(padded)
ids = np.asarray(padded) % 50
embedding = keras.layers.Embedding(input_dim=50, output_dim=4, mask_zero=True)
masked_output = embedding(ids)
print(embedding.compute_mask(ids))
lstm = keras.layers.LSTM(3)
pool = keras.layers.GlobalAveragePooling1D()
model = keras.Sequential([keras.Input((6,), dtype="int32"), embedding, lstm])
model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.5 for w in model.weights])
print(np.round(model(ids).numpy(), 4))
inputs = keras.Input((6,), dtype="int32")
x = embedding(inputs)
outputs = keras.layers.Dense(2)(pool(x))
functional = keras.Model(inputs, outputs)
functional.layers[-1].set_weights([np.ones((4, 2), "float32"), np.zeros(2, "float32")])
print(np.round(functional(ids).numpy(), 4))
masking = keras.layers.Masking(mask_value=0.0)
samples = np.ones((2, 4, 3), "float32")
samples[0, 2:] = 0.0
print(masking.compute_mask(samples))
