"""The bodies of ``tf.data.Dataset``'s methods, one module per family of transformations
(``Dataset`` in ``data/dataset.py`` lists the methods and delegates here)."""
