"""Image preprocessing and augmentation layers (Keras 3), one file each: Resizing,
CenterCrop, RandomFlip, RandomRotation, RandomZoom, RandomTranslation, RandomContrast,
RandomCrop, RandomBrightness.

The random layers draw from ``tf.random.uniform`` (never NumPy's generator directly), so a
traced function draws afresh on each call. As in Keras 3, they transform when ``training``
is True or not given (``model.predict`` and ``evaluate`` pass False) and return the input
(cast to the layer's dtype) when ``training=False``. Inputs are channels-last images,
batched ``(batch, height, width, channels)`` or single ``(height, width, channels)``.
"""
