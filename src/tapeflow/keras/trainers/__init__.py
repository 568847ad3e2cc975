"""compile / fit / evaluate / predict, in Keras 3's files: ``trainer.py`` (``Trainer``),
``compile_utils.py`` (the compiled loss and metrics), ``data_adapter.py`` (batches from
arrays or a Dataset, class weights, per-replica slices)."""
