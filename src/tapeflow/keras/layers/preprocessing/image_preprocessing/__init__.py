"""Image preprocessing and augmentation layers (Keras 3), all on Keras's
``BaseImagePreprocessingLayer`` (``augmentation_base.AugmentationLayer``): Resizing and
CenterCrop (deterministic), RandomFlip, RandomRotation, RandomZoom, RandomTranslation,
RandomContrast, RandomCrop, RandomBrightness, the colour layers of ``color.py`` and
``augmentation_*.py``; dict inputs carry labels, bounding boxes and segmentation masks.

Each random layer draws its transformation from its own ``keras.random.SeedGenerator`` (a
TensorFlow stateless op per draw), so seeded layers give Keras-on-TensorFlow's numbers and a
traced function draws afresh on each call. As in Keras 3, they transform when ``training`` is
True or not given (``model.predict`` and ``evaluate`` pass False). Inputs are images in
``data_format`` 'channels_last' ``(batch, h, w, c)`` / ``(h, w, c)`` or 'channels_first'
``(batch, c, h, w)`` / ``(c, h, w)``.
"""
