"""``tf.graph_util``: ``import_graph_def`` (a GraphDef's nodes into the default graph)."""
from .saved_model.graph_import import import_graph_def

__all__ = ["import_graph_def"]
