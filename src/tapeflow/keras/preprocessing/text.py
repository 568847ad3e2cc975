"""``tf.keras.preprocessing.text``."""

__all__ = []
