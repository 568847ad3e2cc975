"""keras-io's example "Next-Frame Video Prediction with Convolutional LSTMs"
(examples/vision/conv_lstm.py), the one program of ../shared/api_gaps.md that uses
``ConvLSTM2D``. Adapted to run offline and in seconds: seeded with
``keras.utils.set_random_seed``; a stand-in for Moving MNIST made of squares drifting
across 12x12 frames (30 sequences of 8 frames, where the example downloads 1000 of 20 at
64x64); filters 8/8/8 where the example has 64; 3 epochs of ``verbose=2`` (a line per
epoch); the prediction loop over 3 frames prints summary numbers where the example plots.
Left out: the matplotlib and GIF cells."""
import keras
import numpy as np
from keras import layers

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)


def moving_squares(n, frames, size):
    """Sequences of one 3x3 square moving a cell per frame (bouncing off the borders)."""
    data = np.zeros((n, frames, size, size), "float32")
    for i in range(n):
        r, c = rng.integers(0, size - 3, size=2)
        dr, dc = rng.choice([-1, 1], size=2)
        for t in range(frames):
            data[i, t, r:r + 3, c:c + 3] = 255
            if not 0 <= r + dr <= size - 3:
                dr = -dr
            if not 0 <= c + dc <= size - 3:
                dc = -dc
            r, c = r + dr, c + dc
    return data


dataset = moving_squares(30, 8, 12)
dataset = np.expand_dims(dataset, axis=-1)

# Split into train and validation sets using indexing to optimize memory.
indexes = np.arange(dataset.shape[0])
rng.shuffle(indexes)
train_index = indexes[: int(0.9 * dataset.shape[0])]
val_index = indexes[int(0.9 * dataset.shape[0]) :]
train_dataset = dataset[train_index]
val_dataset = dataset[val_index]

# Normalize the data to the 0-1 range.
train_dataset = train_dataset / 255
val_dataset = val_dataset / 255


# We'll define a helper function to shift the frames, where
# `x` is frames 0 to n - 1, and `y` is frames 1 to n.
def create_shifted_frames(data):
    x = data[:, 0 : data.shape[1] - 1, :, :]
    y = data[:, 1 : data.shape[1], :, :]
    return x, y


# Apply the processing function to the datasets.
x_train, y_train = create_shifted_frames(train_dataset)
x_val, y_val = create_shifted_frames(val_dataset)

# Inspect the dataset.
print("Training Dataset Shapes: " + str(x_train.shape) + ", " + str(y_train.shape))
print("Validation Dataset Shapes: " + str(x_val.shape) + ", " + str(y_val.shape))

# Construct the input layer with no definite frame size.
inp = layers.Input(shape=(None, *x_train.shape[2:]))

# We will construct 3 `ConvLSTM2D` layers with batch normalization,
# followed by a `Conv3D` layer for the spatiotemporal outputs.
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(5, 5),
    padding="same",
    return_sequences=True,
    activation="relu",
)(inp)
x = layers.BatchNormalization()(x)
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(3, 3),
    padding="same",
    return_sequences=True,
    activation="relu",
)(x)
x = layers.BatchNormalization()(x)
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(1, 1),
    padding="same",
    return_sequences=True,
    activation="relu",
)(x)
x = layers.Conv3D(
    filters=1, kernel_size=(3, 3, 3), activation="sigmoid", padding="same"
)(x)

# Next, we will build the complete model and compile it.
model = keras.models.Model(inp, x)
model.compile(
    loss=keras.losses.binary_crossentropy,
    optimizer=keras.optimizers.Adam(),
)
model.summary()

# Define some callbacks to improve training.
early_stopping = keras.callbacks.EarlyStopping(monitor="val_loss", patience=10)
reduce_lr = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", patience=5)

# Define modifiable training hyperparameters.
epochs = 3
batch_size = 5

# Fit the model to the training data.
history = model.fit(
    x_train,
    y_train,
    batch_size=batch_size,
    epochs=epochs,
    validation_data=(x_val, y_val),
    callbacks=[early_stopping, reduce_lr],
    verbose=2,
)
print({k: [round(v, 5) for v in vs] for k, vs in history.history.items()})

# Select a random example from the validation dataset.
example = val_dataset[rng.choice(range(len(val_dataset)), size=1)[0]]

# Pick the first/last four frames from the example.
frames = example[:4, ...]
original_frames = example[4:, ...]

# Predict a new set of 3 frames.
for _ in range(3):
    # Extract the model's prediction and post-process it.
    new_prediction = model.predict(np.expand_dims(frames, axis=0), verbose=0)
    new_prediction = np.squeeze(new_prediction, axis=0)
    predicted_frame = np.expand_dims(new_prediction[-1, ...], axis=0)

    # Extend the set of prediction frames.
    frames = np.concatenate((frames, predicted_frame), axis=0)
    print(frames.shape, round(float(predicted_frame.mean()), 5),
          round(float(predicted_frame.max()), 5))
