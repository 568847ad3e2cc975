# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_layers_vs_keras.py)
# TensorFlow's "Data augmentation" tutorial, deterministic parts: resize and rescale, the
# augmentation stack at inference, and fixed (degenerate-range) transforms.
image = np.arange(8 * 8 * 3, dtype="float32").reshape(1, 8, 8, 3) % 256
resize_and_rescale = keras.Sequential([keras.layers.Resizing(4, 4),
                                       keras.layers.Rescaling(1.0 / 255)])
result = resize_and_rescale(image)
print(result.shape, round(float(np.min(result)), 4), round(float(np.max(result)), 4))
data_augmentation = keras.Sequential([keras.layers.RandomFlip("horizontal_and_vertical"),
                                      keras.layers.RandomRotation(0.2)])
same = data_augmentation(image, training=False)
print(same.shape, bool(np.array_equal(np.asarray(same), image)))
turn = keras.layers.RandomRotation((0.25, 0.25), fill_mode="constant")
print(np.round(np.asarray(turn(image[..., :1]))[0, :3, :3, 0], 3))
zoom = keras.layers.RandomZoom((-0.5, -0.5), fill_mode="nearest")
print(np.round(np.asarray(zoom(image[..., :1]))[0, :3, :3, 0], 3))
shift = keras.layers.RandomTranslation((0.25, 0.25), (-0.125, -0.125), fill_mode="wrap")
print(np.round(np.asarray(shift(image[..., :1]))[0, :3, :3, 0], 3))
print(np.round(np.asarray(keras.layers.CenterCrop(2, 2)(image))[0, :, :, 0], 3))
up = keras.layers.UpSampling2D(size=(2, 1), interpolation="bilinear")
print(np.round(np.asarray(up(image[:, :2, :2, :1]))[0, :, :, 0], 3))
norm = keras.layers.Normalization(axis=-1)
norm.adapt(image.reshape(-1, 3))
print(np.round(np.asarray(norm(image[0, 0, :2])), 4))
