"""``tf.keras.config``: Keras 3's global settings (the backend's name, float type, fuzz
factor, image layout, unsafe deserialization)."""
from .backend import backend, epsilon, floatx, image_data_format
from .saving.serialization import enable_unsafe_deserialization

__all__ = ["backend", "enable_unsafe_deserialization", "epsilon", "floatx",
           "image_data_format"]
