"""The three cells of Keras 3's guide "The Functional API" (keras-io
guides/functional_api.py) that tapeflow matched last; the rest of the guide is
``keras3_functional_api_guide``. Same adaptations: seeded, random stand-ins for the data
(the guide's ticket data cut to 64 samples, bodies to 20 words), ``verbose=2``.

1. The ticket classifier's ``fit`` with RMSprop: its department targets are multi-hot, and
   Keras's ``CategoricalCrossentropy(from_logits=True)`` trains by TensorFlow's fused-op
   gradient ``softmax - labels``, which is not the loss's derivative for rows that do not
   sum to 1.
2. VGG19 as a feature extractor (``weights=None``: the ImageNet weights are a download).
3. A custom layer without ``build`` that holds a Functional model: Keras builds it by
   running ``call`` once symbolically first, so its ``print`` shows twice."""
import keras
import numpy as np
from keras import layers, ops

keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)

num_tags = 12  # Number of unique issue tags
num_words = 10000  # Size of vocabulary obtained when preprocessing text data
num_departments = 4  # Number of departments for predictions

title_input = keras.Input(shape=(None,), name="title")  # Variable-length sequence of ints
body_input = keras.Input(shape=(None,), name="body")  # Variable-length sequence of ints
tags_input = keras.Input(shape=(num_tags,), name="tags")  # Binary vectors of size `num_tags`

title_features = layers.Embedding(num_words, 64)(title_input)
body_features = layers.Embedding(num_words, 64)(body_input)
title_features = layers.LSTM(128)(title_features)
body_features = layers.LSTM(32)(body_features)
x = layers.concatenate([title_features, body_features, tags_input])
priority_pred = layers.Dense(1, name="priority")(x)
department_pred = layers.Dense(num_departments, name="department")(x)
model = keras.Model(
    inputs=[title_input, body_input, tags_input],
    outputs={"priority": priority_pred, "department": department_pred},
)
model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "priority": keras.losses.BinaryCrossentropy(from_logits=True),
        "department": keras.losses.CategoricalCrossentropy(from_logits=True),
    },
    loss_weights={"priority": 1.0, "department": 0.2},
)

# Dummy input data (the guide's 1,280 samples cut to 64)
title_data = rng.integers(num_words, size=(64, 10))
body_data = rng.integers(num_words, size=(64, 20))
tags_data = rng.integers(2, size=(64, num_tags)).astype("float32")

# Dummy target data
priority_targets = rng.random(size=(64, 1))
dept_targets = rng.integers(2, size=(64, num_departments))

model.fit(
    {"title": title_data, "body": body_data, "tags": tags_data},
    {"priority": priority_targets, "department": dept_targets},
    epochs=2,
    batch_size=32,
    verbose=2,
)

vgg19 = keras.applications.VGG19(weights=None)
features_list = [layer.output for layer in vgg19.layers]
feat_extraction_model = keras.Model(inputs=vgg19.input, outputs=features_list)

img = rng.random((1, 224, 224, 3)).astype("float32")
extracted_features = feat_extraction_model(img)
print(len(extracted_features), [tuple(f.shape) for f in extracted_features[-3:]])

units = 32
timesteps = 10
input_dim = 5

# Define a Functional model
inputs = keras.Input((None, units))
x = layers.GlobalAveragePooling1D()(inputs)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)


class CustomRNN(layers.Layer):
    def __init__(self):
        super().__init__()
        self.units = units
        self.projection_1 = layers.Dense(units=units, activation="tanh")
        self.projection_2 = layers.Dense(units=units, activation="tanh")
        # Our previously-defined Functional model
        self.classifier = model

    def call(self, inputs):
        outputs = []
        state = ops.zeros(shape=(inputs.shape[0], self.units))
        for t in range(inputs.shape[1]):
            x = inputs[:, t, :]
            h = self.projection_1(x)
            y = h + self.projection_2(state)
            state = y
            outputs.append(y)
        features = ops.stack(outputs, axis=1)
        print(features.shape)
        return self.classifier(features)


rnn_model = CustomRNN()
_ = rnn_model(ops.zeros((1, timesteps, input_dim)))
print(_)
