# ruff: noqa: E501 - the case table keeps one case a line
"""The tf.data.Dataset transformations whose TensorFlow 2.21 results are recorded by
tools/record_data_transformations.py into tests/fixtures/data/transformations.json and
compared by tests/data/test_transformations.py: padded_batch, flat_map, interleave, window,
scan, take_while, unique, group_by_window, counter, sample/choose_from_datasets,
bucket_by_sequence_length ...

Each case is the source of a Python expression over ``tf`` and ``np`` (and ``FILES``) giving a
dataset, or a statement raising; the recorder evaluates it with TensorFlow bound to ``tf``, the
tests with tapeflow. This module imports nothing but the standard library.
"""
import os

R = "tf.data.Dataset.range"
# list_files cases glob this directory (made by the recorder and by the tests): a.txt,
# b.txt, c.csv. Its name is fixed so that TensorFlow's messages can be compared.
FILES = "/tmp/tapeflow_list_files_fixture"


def make_files():
    os.makedirs(FILES, exist_ok=True)
    for name in ("a.txt", "b.txt", "c.csv"):
        open(os.path.join(FILES, name), "w").close()
CASES = {
    # padded_batch
    "pb_default": f"{R}(1, 6).map(lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[None])",
    "pb_fixed": f"{R}(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(3, padded_shapes=[6])",
    "pb_drop": f"{R}(1, 6).map(lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=(None,), drop_remainder=True)",
    "pb_values": f"{R}(1, 4).map(lambda x: tf.fill([x], tf.cast(x, tf.float32))).padded_batch(2, padded_shapes=[None], padding_values=-1.0)",
    "pb_tuple": f"{R}(1, 5).map(lambda x: (x, tf.fill([x, 2], x))).padded_batch(3, padded_shapes=([], [None, 3]), padding_values=(np.int64(0), np.int64(9)))",
    "pb_dict": f"{R}(3).map(lambda x: {{'a': tf.fill([x + 1], x), 'b': x}}).padded_batch(2, padded_shapes={{'a': [None], 'b': []}})",
    "pb_scalars": f"{R}(5).padded_batch(2)",
    "pb_empty": f"{R}(0).padded_batch(2, padded_shapes=[])",
    "pb_slices": "tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).padded_batch(2, padded_shapes=[4])",
    "pb_strings": "tf.data.Dataset.from_tensor_slices(['a', 'bb', 'c']).padded_batch(2)",
    "pb_generator": "tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3], []]), output_signature=tf.TensorSpec([None], tf.int32)).padded_batch(2)",
    "pb_generator_types": "tf.data.Dataset.from_generator(lambda: iter([(1, [2.0]), (3, [4.0, 5.0])]), output_types=(tf.int64, tf.float32), output_shapes=((), (None,))).padded_batch(2, padding_values=(np.int64(0), -1.0))",
    "pb_err_small": f"list({R}(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(4, padded_shapes=[2]))",
    "pb_err_size": f"{R}(4).padded_batch(0)",
    "pb_err_rank": f"{R}(4).padded_batch(2, padded_shapes=[3])",
    # flat_map
    "fm_basic": f"{R}(4).flat_map(lambda x: tf.data.Dataset.range(x))",
    "fm_slices": "tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6]]).flat_map(tf.data.Dataset.from_tensor_slices)",
    "fm_tuple": f"tf.data.Dataset.zip(({R}(3), {R}(10, 13))).flat_map(lambda a, b: tf.data.Dataset.from_tensors((a, b)).repeat(2))",
    "fm_empty": f"{R}(0).flat_map(lambda x: tf.data.Dataset.range(x))",
    "fm_err": f"{R}(3).flat_map(lambda x: x)",
    # interleave
    "il_guide": f"{R}(3).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)",
    "il_default_block": f"{R}(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2)",
    "il_ragged": f"{R}(1, 5).interleave(lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=3, block_length=2)",
    "il_parallel": f"{R}(1, 4).interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)",
    "il_err_cycle": f"{R}(3).interleave(lambda x: tf.data.Dataset.range(x), cycle_length=0)",
    "il_err_block": f"{R}(3).interleave(lambda x: tf.data.Dataset.range(x), block_length=0)",
    # window
    "win_repr": f"{R}(7).window(3)",
    "win_batch": f"{R}(7).window(3).flat_map(lambda w: w.batch(3))",
    "win_shift": f"{R}(7).window(3, shift=2).flat_map(lambda w: w.batch(3))",
    "win_drop": f"{R}(7).window(3, shift=2, drop_remainder=True).flat_map(lambda w: w.batch(3))",
    "win_stride": f"{R}(10).window(3, shift=1, stride=3).flat_map(lambda w: w.batch(3))",
    "win_big_shift": f"{R}(10).window(2, shift=4).flat_map(lambda w: w.batch(2))",
    "win_tuple": f"tf.data.Dataset.zip(({R}(5), {R}(10, 15))).window(2).flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))",
    "win_dict": "tf.data.Dataset.from_tensor_slices({'a': [1, 2, 3], 'b': [4., 5., 6.]}).window(2)",
    "win_dict_flat": "tf.data.Dataset.from_tensor_slices({'a': [1, 2, 3], 'b': [4., 5., 6.]}).window(2).flat_map(lambda d: d['a'].batch(2))",
    "win_card_drop": f"{R}(10).window(3, shift=2, drop_remainder=True)",
    "win_empty": f"{R}(0).window(2)",
    "win_err_size": f"{R}(3).window(0)",
    "win_err_shift": f"{R}(3).window(2, shift=0)",
    "win_err_stride": f"{R}(3).window(2, stride=0)",
    # scan
    "scan_guide": f"{R}(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))",
    "scan_tuple_state": f"{R}(1, 6).scan((np.int64(0), np.int64(1)), lambda s, x: ((s[0] + x, s[1] * x), s[1]))",
    "scan_float": f"{R}(4).scan(tf.constant(1.0), lambda s, x: (s * 2.0, (s, x)))",
    "scan_err_dtype": f"list({R}(3).scan(tf.constant(0, tf.int32), lambda s, x: (x, s)))",
    # take_while
    "tw_basic": f"{R}(10).take_while(lambda x: x < 4)",
    "tw_none": f"{R}(10).take_while(lambda x: x > 4)",
    "tw_tuple": f"tf.data.Dataset.zip(({R}(5), {R}(5, 0, -1))).take_while(lambda a, b: a < b)",
    "tw_err": f"{R}(3).take_while(lambda x: x)",
    # unique
    "uniq_ints": "tf.data.Dataset.from_tensor_slices([1, 37, 2, 37, 2, 1])",
    "uniq_strings": "tf.data.Dataset.from_tensor_slices(['b', 'a', 'b', 'c'])",
    "uniq_err_float": "tf.data.Dataset.from_tensor_slices([1.0, 2.0]).unique()",
    "uniq_err_tuple": f"tf.data.Dataset.zip(({R}(2), {R}(2))).unique()",
    # group_by_window
    "gbw_guide": f"{R}(10).group_by_window(key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(3), window_size=3)",
    "gbw_key": f"{R}(10).group_by_window(key_func=lambda x: x % 3, reduce_func=lambda k, w: w.batch(5).map(lambda b: (k, b)), window_size=5)",
    "gbw_size_func": f"{R}(12).group_by_window(key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(10), window_size_func=lambda k: k + 2)",
    "gbw_err_both": f"{R}(3).group_by_window(lambda x: x, lambda k, w: w, window_size=2, window_size_func=lambda k: k)",
    "gbw_err_none": f"{R}(3).group_by_window(lambda x: x, lambda k, w: w)",
    # counter
    "counter": "tf.data.Dataset.counter().take(4)",
    "counter_step": "tf.data.Dataset.counter(start=2, step=-3, dtype=tf.int32).take(3)",
    "counter_inf": "tf.data.Dataset.counter()",
    # sample / choose
    "choose": "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.from_tensors('foo').repeat(), tf.data.Dataset.from_tensors('bar').repeat(), tf.data.Dataset.from_tensors('baz').repeat()], tf.data.Dataset.range(3).repeat(3))",
    "choose_stop": f"tf.data.Dataset.choose_from_datasets([{R}(2), {R}(10, 15)], tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 1, 1], np.int64)), stop_on_empty_dataset=True)",
    "choose_nostop": f"tf.data.Dataset.choose_from_datasets([{R}(2), {R}(10, 15)], tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 1, 1], np.int64)), stop_on_empty_dataset=False)",
    "choose_err_empty": f"tf.data.Dataset.choose_from_datasets([], {R}(3))",
    "choose_err_dtype": f"tf.data.Dataset.choose_from_datasets([{R}(3)], tf.data.Dataset.from_tensor_slices([0, 0]))",
    "sample_one": f"tf.data.Dataset.sample_from_datasets([{R}(4)], seed=3)",
    "sample_zero_weight": f"tf.data.Dataset.sample_from_datasets([{R}(4), {R}(10, 14)], weights=[1.0, 0.0], seed=3)",
    "sample_card": f"tf.data.Dataset.sample_from_datasets([{R}(4).repeat(), {R}(10, 14).repeat()], seed=3).take(0)",
    "sample_err_weights": f"tf.data.Dataset.sample_from_datasets([{R}(4), {R}(3)], weights=[1.0])",
    "sample_err_empty": "tf.data.Dataset.sample_from_datasets([])",
    # bucket_by_sequence_length
    "bucket": f"{R}(1, 9).map(lambda x: tf.fill([x], x)).bucket_by_sequence_length(lambda e: tf.shape(e)[0], bucket_boundaries=[3, 6], bucket_batch_sizes=[2, 2, 2])",
    "bucket_pad": f"{R}(1, 8).map(lambda x: tf.fill([x], x)).bucket_by_sequence_length(lambda e: tf.shape(e)[0], bucket_boundaries=[4, 8], bucket_batch_sizes=[3, 3, 3], pad_to_bucket_boundary=True, drop_remainder=False, padding_values=np.int64(-1))",
    "bucket_err": f"{R}(3).bucket_by_sequence_length(lambda e: e, bucket_boundaries=[3], bucket_batch_sizes=[2])",
    # misc
    "ignore_errors": f"{R}(4).ignore_errors()",
    "rebatch": f"{R}(10).batch(4).rebatch(3)",
    "rebatch_drop": f"{R}(10).batch(4).rebatch(3, drop_remainder=True)",
    "with_options": f"{R}(3).with_options(tf.data.Options())",
    "options_default": f"[{R}(3).options().deterministic]",
    "options_kept": f"[(lambda o: (setattr(o, 'deterministic', False), {R}(3).with_options(o).options().deterministic)[1])(tf.data.Options())]",
    "options_err": "setattr(tf.data.Options(), 'foo', 1)",
    "random": "tf.data.Dataset.random(seed=4)",
    "list_files": "tf.data.Dataset.list_files(FILES + '/*.txt', shuffle=False)",
    "list_files_list": "tf.data.Dataset.list_files([FILES + '/*.csv', FILES + '/a*'], shuffle=False)",
    "list_files_shuffled": "tf.data.Dataset.list_files(FILES + '/*.txt', seed=1)",
    "list_files_err": "tf.data.Dataset.list_files(FILES + '/*.zzz')",
}
# Pipelines iterated by ``for x in ds`` inside a tf.function (``total``): each call
# returns the sum over elements of sum(x) and the number of elements.
FUNCTION_CASES = {
    "padded_batch": f"{R}(1, 7).map(lambda x: tf.fill([x], x)).padded_batch(4, padded_shapes=[None], padding_values=np.int64(100))",
    "flat_map_window": f"{R}(9).window(4, shift=3).flat_map(lambda w: w.batch(4))",
    "interleave": f"{R}(1, 5).interleave(lambda x: tf.data.Dataset.range(x).map(lambda y: y * x), cycle_length=3, block_length=2)",
    "scan_take_while": f"{R}(20).scan(np.int64(0), lambda s, x: (s + x, s)).take_while(lambda x: x < 40)",
    "group_by_window": f"{R}(11).group_by_window(lambda x: x % 3, lambda k, w: w.batch(2).map(lambda b: b * (k + 1)), window_size=2)",
    "unique_choose": "tf.data.Dataset.choose_from_datasets([tf.data.Dataset.from_tensor_slices([3, 3, 1, 4, 1]).map(lambda v: tf.cast(v, tf.int64)).unique(), tf.data.Dataset.counter(100)], tf.data.Dataset.from_tensor_slices(np.array([0, 1, 0, 1, 0], np.int64)))",
}

# datasets whose elements are checked as sets (distinct outputs of a seeded sampler)
UNORDERED = {"sample_one", "sample_zero_weight"}
# cases evaluated as their cardinality/spec/repr only (infinite or sampled)
NO_ELEMENTS = {"counter_inf", "random", "list_files_shuffled", "sample_card", "win_repr", "win_card_drop", "win_empty",
               "win_dict"}


def make_total(tf):
    """``total`` over ``tf`` (TensorFlow or tapeflow): a ``for`` over a dataset inside a
    tf.function, returning the sum over elements of sum(x) and the number of elements."""
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        n = tf.constant(0, tf.int64)
        for x in ds:
            s += tf.reduce_sum(tf.cast(x, tf.int64))
            n += 1
        return s, n
    return total
