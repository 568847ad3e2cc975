"""TensorFlow 2.21's random numbers under tapeflow: Dataset.shuffle's order: global and op
seeds, small and large buffers, reshuffling, repeat.

Each program (tests/ops/random_cases.py) runs here as TensorFlow ran it for
tools/record_random.py; its outputs must equal TensorFlow's bit for bit (float32 included:
tapeflow computes TensorFlow's Box-Muller through the C library's ``logf``/``sinf``/
``cosf``), or within a tolerance the program states and explains.
"""
import pytest

import tapeflow as tf
from tests.ops import random_cases

FIXTURE = random_cases.load("data")


@pytest.mark.parametrize("name", sorted(FIXTURE["programs"]))
def test_program_prints_tensorflows_numbers(name):
    random_cases.check(FIXTURE, name, tf, tf.keras)
