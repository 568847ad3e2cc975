"""tf.data.Dataset: structures, batching, shuffling, cardinality, transformations."""
import collections

import numpy as np
import pytest

import tapeflow as tf

Dataset = tf.data.Dataset


def values(ds):
    return list(ds.as_numpy_iterator())


def test_from_tensor_slices_tuple_yields_tensors_packed_like_the_input():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.array([0, 1, 2, 3])
    elements = list(Dataset.from_tensor_slices((x, y)))
    assert len(elements) == 4
    first_x, first_y = elements[0]
    assert isinstance(first_x, tf.Tensor) and first_x.dtype == tf.float32
    assert first_y.dtype == tf.int64 and first_y.shape == ()
    np.testing.assert_array_equal(elements[2][0].numpy(), x[2])


def test_from_tensor_slices_dicts_nesting_and_lists():
    ds = Dataset.from_tensor_slices({"a": [1, 2], "b": ([3.0, 4.0], np.array([[5], [6]]))})
    got = values(ds)
    assert got[1]["a"] == 2 and got[1]["b"][0] == np.float32(4.0)
    assert got[0]["b"][0].dtype == np.float32 and got[0]["a"].dtype == np.int32
    np.testing.assert_array_equal(got[1]["b"][1], [6])
    point = collections.namedtuple("Point", "x y")
    first = next(iter(Dataset.from_tensor_slices(point([1, 2], [3, 4]))))
    assert type(first).__name__ == "Point" and int(first.y) == 3


def test_from_tensor_slices_rejects_mismatched_lengths_and_scalars():
    with pytest.raises(ValueError):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError):
        Dataset.from_tensor_slices(1.0)


def test_batch_slices_and_keeps_or_drops_the_remainder():
    ds = Dataset.from_tensor_slices((np.arange(10), np.arange(10) * 2))
    batches = values(ds.batch(4))
    assert [len(b[0]) for b in batches] == [4, 4, 2]
    np.testing.assert_array_equal(batches[2][1], [16, 18])
    assert [len(b[0]) for b in values(ds.batch(4, drop_remainder=True))] == [4, 4]
    assert len(ds.batch(4)) == 3 and len(ds.batch(4, drop_remainder=True)) == 2


def test_batch_of_a_mapped_dataset_stacks_elements():
    ds = Dataset.range(5).map(lambda x: (x, x * x)).batch(2)
    got = values(ds)
    np.testing.assert_array_equal(got[1][1], [4, 9])
    assert got[0][0].dtype == np.int64


def test_shuffle_is_a_seeded_permutation_that_reshuffles_each_epoch():
    ds = Dataset.from_tensor_slices(np.arange(50)).shuffle(100, seed=7)
    first, second = values(ds), values(ds)
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert first != list(range(50)) and first != second
    again = Dataset.from_tensor_slices(np.arange(50)).shuffle(100, seed=7)
    assert values(again) == first


def test_shuffle_without_reshuffle_repeats_the_order():
    ds = Dataset.from_tensor_slices(np.arange(20)).shuffle(20, seed=1,
                                                           reshuffle_each_iteration=False)
    assert values(ds) == values(ds)


def test_small_shuffle_buffer_only_moves_elements_a_bounded_distance():
    out = values(Dataset.range(100).shuffle(4, seed=3))
    assert sorted(out) == list(range(100))
    # An element can only be emitted once it has entered the buffer of 4.
    assert all(v <= i + 3 for i, v in enumerate(out))
    assert out != list(range(100))


def test_global_seed_fixes_an_unseeded_shuffle():
    def order():
        tf.random.set_seed(5)
        return values(Dataset.range(30).shuffle(30))
    assert order() == order()


def test_shuffled_batches_keep_features_and_labels_aligned():
    x = np.arange(40, dtype=np.float32)
    for bx, by in Dataset.from_tensor_slices((x, x.astype(np.int64))).shuffle(40).batch(8):
        np.testing.assert_array_equal(bx.numpy().astype(np.int64), by.numpy())


def test_repeat_take_skip_and_cardinality():
    ds = Dataset.range(5)
    assert values(ds.repeat(2)) == [0, 1, 2, 3, 4] * 2
    assert values(ds.repeat().take(7)) == [0, 1, 2, 3, 4, 0, 1]
    assert values(ds.skip(3)) == [3, 4]
    assert int(ds.repeat().cardinality()) == tf.data.INFINITE_CARDINALITY == -1
    assert int(ds.filter(lambda x: x > 1).cardinality()) == -2
    assert len(ds.repeat(3)) == 15 and len(ds.take(2)) == 2 and len(ds.skip(9)) == 0
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(ds.repeat())
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(ds.filter(lambda x: x > 1))


def test_map_unpacks_tuples_and_filter_keeps_matches():
    ds = Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [10.0, 20.0, 30.0]))
    assert values(ds.map(lambda a, b: a + b)) == [11.0, 22.0, 33.0]
    assert values(Dataset.range(6).filter(lambda x: x % 2 == 0)) == [0, 2, 4]


def test_zip_enumerate_concatenate_and_from_tensors():
    a, b = Dataset.range(3), Dataset.range(10, 20)
    assert values(Dataset.zip((a, b))) == [(0, 10), (1, 11), (2, 12)]
    assert values(Dataset.zip({"p": a, "q": b}))[1] == {"p": 1, "q": 11}
    assert len(Dataset.zip((a, b))) == 3
    assert values(b.take(2).enumerate()) == [(0, 10), (1, 11)]
    assert values(a.concatenate(b.take(1))) == [0, 1, 2, 10]
    only = values(Dataset.from_tensors([1, 2]))
    assert len(only) == 1 and only[0].tolist() == [1, 2]


def test_from_generator_casts_to_the_signature():
    def gen():
        for i in range(3):
            yield i, [float(i)] * 2
    ds = Dataset.from_generator(gen, output_signature=(
        tf.data.TensorSpec((), tf.int64), tf.data.TensorSpec((2,), tf.float32)))
    got = values(ds)
    assert got[2][0] == 2 and got[2][0].dtype == np.int64 and got[1][1].dtype == np.float32


def test_element_spec_and_repr_follow_tensorflow():
    ds = Dataset.from_tensor_slices((np.zeros((5, 2), np.float32), np.arange(5)))
    assert repr(ds) == ("<_TensorSliceDataset element_spec=(TensorSpec(shape=(2,), "
                        "dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int64, "
                        "name=None))>")
    assert repr(ds.batch(2).element_spec[1]) == ("TensorSpec(shape=(None,), dtype=tf.int64, "
                                                 "name=None)")


def test_prefetch_and_cache_pass_through_and_iteration_restarts():
    ds = Dataset.range(3).cache().prefetch(tf.data.AUTOTUNE)
    assert values(ds) == values(ds) == [0, 1, 2]
    assert values(Dataset.range(2, 8, 2)) == [2, 4, 6]


def test_shard_reduce_and_get_single_element():
    ds = Dataset.range(10)
    assert values(ds.shard(3, 1)) == [1, 4, 7] and len(ds.shard(3, 1)) == 3
    assert values(ds.map(lambda x: x).shard(4, 3)) == [3, 7]
    total = ds.reduce(tf.constant(0, tf.int64), lambda state, x: state + x)
    assert int(total) == 45
    assert int(Dataset.from_tensors(7).get_single_element()) == 7
    with pytest.raises(tf.errors.InvalidArgumentError):
        ds.get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Index must be between 0 and 1"):
        ds.shard(2, 2)
