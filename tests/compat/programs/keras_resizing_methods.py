"""keras.layers.Resizing with every interpolation Keras 3.15 accepts on TensorFlow (bicubic, area,
lanczos3/5, antialias), float and uint8 images, its error for another method,
and pad_to_aspect_ratio (with fill_value, nearest and bicubic, batched and not)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
x = np.arange(2*6*4*3, dtype='float32').reshape(2,6,4,3) % 5
for kw in [dict(interpolation='bicubic'), dict(interpolation='area'),
           dict(interpolation='lanczos5', antialias=True),
           dict(interpolation='bilinear', antialias=True), dict(interpolation='lanczos3')]:
    for d in ('uint8', 'float32'):
        y = keras.layers.Resizing(3, 5, **kw)(x.astype(d))
        print(kw, d, y.dtype, np.round(np.asarray(y)[0,:,:,0], 5).tolist())
try:
    keras.layers.Resizing(3, 5, interpolation='gaussian')(x)
except ValueError as e:
    print(str(e).splitlines()[2][-80:])

# pad_to_aspect_ratio
x = np.arange(2 * 6 * 4 * 3, dtype='float32').reshape(2, 6, 4, 3) % 7
for kw in [dict(pad_to_aspect_ratio=True), dict(pad_to_aspect_ratio=True, fill_value=2.5),
           dict(pad_to_aspect_ratio=True, interpolation='nearest'),
           dict(pad_to_aspect_ratio=True, interpolation='bicubic')]:
    for size in ((3, 5), (5, 2), (6, 4), (7, 3)):
        y = keras.layers.Resizing(*size, **kw)(x)
        print(kw, size, y.dtype, y.shape, np.round(np.asarray(y)[1, :, :, 2], 4).tolist())
y = keras.layers.Resizing(4, 4, pad_to_aspect_ratio=True)(x[0])
print(y.shape, np.round(np.asarray(y)[:, :, 1], 4).tolist())
