"""The array namespace the engine computes with: NumPy today, another array library later."""
import numpy as np

__all__ = ["np"]
