"""Keras 3's preprocessing layers, one file per layer (``keras/src/layers/preprocessing/``):
the lookups (``index_lookup.py`` and ``string_lookup.py``, ``integer_lookup.py``,
``text_vectorization.py``), ``category_encoding.py``, ``discretization.py``, ``hashing.py``,
``hashed_crossing.py``, ``normalization.py``, ``rescaling.py`` and the image layers
(``image_preprocessing/``, with the resampling in ``_image.py``)."""
