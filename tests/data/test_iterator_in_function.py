"""Dataset iterators inside tf.function: ``next(iterator)`` and ``for x in iterator`` pull
at every call, as TensorFlow's IteratorGetNext (TF 2.21 prints the same values for these
programs; the expected values are closed forms of the pipelines)."""
import pytest

import tapeflow as tf


def _doubles():
    return tf.data.Dataset.range(10).map(lambda x: x * 2)   # 0, 2, ..., 18


def test_next_in_a_function_pulls_at_every_call():
    it = iter(_doubles())

    @tf.function
    def f(it):
        return next(it) + 1

    assert [int(f(it)) for _ in range(3)] == [1, 3, 5]

    @tf.function
    def two(it):
        s = tf.constant(0, tf.int64)
        for _ in range(2):
            s += next(it)
        return s

    assert [int(two(it)), int(two(it))] == [6 + 8, 10 + 12]
    assert int(next(it)) == 14          # the eager iterator continues where calls left it
    other = iter(_doubles())
    assert [int(f(other)), int(f(it))] == [1, 17]


def test_for_over_an_iterator_and_over_a_mapped_dataset_in_a_function():
    ds = _doubles()

    @tf.function
    def total(source):
        s = tf.constant(0, tf.int64)
        for x in source:
            s += x
        return s

    assert int(total(ds)) == 90 and int(total(ds)) == 90
    it = iter(ds)
    next(it)
    next(it)
    assert int(total(it)) == 90 - 2
    assert int(total(it)) == 0          # exhausted: the loop runs no more


def test_structured_elements_and_the_end_of_the_sequence():
    it = iter(tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0, 3.0], "b": [4, 5, 6]}))

    @tf.function
    def pair(it):
        e = next(it)
        return e["a"] * 2, e["b"]

    got = [tuple(t.numpy().item() for t in pair(it)) for _ in range(3)]
    assert got == [(2.0, 4), (4.0, 5), (6.0, 6)]
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        pair(it)


def test_iterator_position_after_calls_is_checkpointed(tmp_path):
    it = iter(_doubles())

    @tf.function
    def f(it):
        return next(it)

    f(it)
    f(it)
    path = tf.train.Checkpoint(it=it).write(str(tmp_path / "c"))
    fresh = iter(_doubles())
    tf.train.Checkpoint(it=fresh).read(path)
    assert int(next(fresh)) == 4


def test_a_first_call_that_creates_variables_pulls_once():
    # The first call is traced twice (variables created, then without): TF 2.21 gives
    # [0, 1, 2], a total of 3, and 3 next.
    it = iter(tf.data.Dataset.range(10))

    class M(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, it):
            if self.v is None:
                self.v = tf.Variable(tf.constant(0, tf.int64))
            x = next(it)
            self.v.assign_add(x)
            return x

    m = M()
    assert [int(m(it)) for _ in range(3)] == [0, 1, 2]
    assert int(m.v) == 3 and int(next(it)) == 3
