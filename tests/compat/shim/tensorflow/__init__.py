"""``import tensorflow as tf`` inside tests/compat runs tapeflow (this directory is put on
sys.path only by the compat harness; tapeflow itself never imports TensorFlow)."""
import sys

import tapeflow

sys.modules[__name__] = tapeflow
