# ruff: noqa: E501 - the case table keeps one case a line
"""Cases for tf.data's ignore_errors, save/load, snapshot, ragged_batch, sparse_batch and
rejection_resample, shared by tools/record_data_experimental.py (run under
TensorFlow 2.21, writing tests/fixtures/data/experimental.json) and tests/data/test_experimental.py
(the same sources with tapeflow bound to ``tf``). NumPy only: ``tf`` is passed in.

Each case is a Python expression over the names of :func:`namespace` giving a dataset (its
elements, element_spec, repr and cardinality are recorded), a list (recorded as it is), or
raising (the exception class and first line are recorded).
"""
import os
import shutil

import numpy as np

# Files of the save/load/snapshot cases go under this directory (made afresh by the
# recorder and the tests); its name is fixed so that messages naming paths compare.
ROOT = "/tmp/tapeflow_dataset_more_fixture"

R = "tf.data.Dataset.range"
NUMS = "tf.data.Dataset.from_tensor_slices(['1', '2', 'x', '3', 'y', '4'])"
VARLEN = "tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3], [], [4, 5, 6], [7]]), output_signature=tf.TensorSpec([None], tf.int64))"
VAR2D = "tf.data.Dataset.from_generator(lambda: iter([np.ones((1, 2), np.float32), np.zeros((2, 2), np.float32), np.full((3, 2), 2, np.float32)]), output_signature=tf.TensorSpec([None, 2], tf.float32))"
SQUARES = "tf.data.Dataset.from_generator(lambda: (np.full((n, n), n, np.int32) for n in range(4)), output_signature=tf.TensorSpec([None, None], tf.int32))"
LABELS = "tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 1, 0] * 4, np.int32))"

CASES = {
    # ignore_errors
    "ie_basic": f"{NUMS}.map(tf.strings.to_number).ignore_errors()",
    "ie_log_false": f"{NUMS}.map(tf.strings.to_number).ignore_errors(log_warning=False)",
    "ie_experimental": f"{NUMS}.map(tf.strings.to_number).apply(tf.data.experimental.ignore_errors())",
    "ie_dict": f"{NUMS}.map(lambda s: {{'n': tf.strings.to_number(s), 's': s}}).ignore_errors()",
    "ie_filter": f"{NUMS}.map(tf.strings.to_number).filter(lambda x: x > 1.0).ignore_errors()",
    "ie_batch": f"{NUMS}.map(tf.strings.to_number).batch(2).ignore_errors()",
    "ie_no_error": f"{R}(4).ignore_errors()",
    "ie_infinite": f"{R}(4).repeat().ignore_errors()",
    "ie_then_map": f"{NUMS}.map(tf.strings.to_number).ignore_errors().map(lambda x: x * 2.0)",
    "ie_resumes": f"collect({NUMS}.map(tf.strings.to_number))",
    # save / load
    "save_returns": f"[{R}(3).save(fresh('ret'))]",
    "save_dict": "saved(tf.data.Dataset.from_tensor_slices({'a': np.arange(6), 'b': (np.arange(6.0) * 2, np.array([b'x%d' % i for i in range(6)]))}))",
    "save_varlen": f"saved(tf.data.Dataset.zip(({R}(5), {VARLEN})))",
    "save_2d": f"saved({VAR2D})",
    "save_gzip": f"saved({R}(5), save=dict(compression='GZIP'), load=dict(compression='GZIP'))",
    "save_shards": f"saved({R}(10), save=dict(shard_func=lambda x: x % 3), load=dict(reader_func=lambda dss: dss.flat_map(lambda x: x)))",
    "save_shards_interleave": f"saved({R}(10), save=dict(shard_func=lambda x: x % 3), load=dict(reader_func=lambda dss: dss.interleave(lambda x: x, cycle_length=2, block_length=2)))",
    "save_empty": f"saved({R}(0))",
    "save_batched": f"saved({R}(7).batch(3))",
    "save_spec_given": f"saved({R}(4), load=dict(element_spec=tf.TensorSpec([], tf.int64)))",
    "save_overwrite": f"saved({R}(2), before={R}(5))",
    "save_take_of_infinite": f"saved({R}(4).repeat().take(6))",
    "save_then_ops": f"saved({R}(6)).map(lambda x: x * 10).batch(4)",
    "save_experimental": f"saved_experimental({R}(3))",
    "load_missing": "tf.data.Dataset.load(ROOT + '/nothere')",
    "load_missing_with_spec": "tf.data.Dataset.load(ROOT + '/nothere', element_spec=tf.TensorSpec([], tf.int64))",
    "load_dtype_mismatch": f"list(saved({R}(3), load=dict(element_spec=tf.TensorSpec([], tf.int32))))",
    "load_gzip_as_plain": f"list(saved({R}(3), save=dict(compression='GZIP')))",
    "load_plain_as_gzip": f"list(saved({R}(3), load=dict(compression='GZIP')))",
    "save_bad_shard_dtype": f"{R}(4).save(fresh('bad1'), shard_func=lambda x: tf.cast(x, tf.int32))",
    "save_bad_shard_pair": f"{R}(4).save(fresh('bad2'), shard_func=lambda x: (x, x))",
    "save_bad_checkpoint_args": f"{R}(4).save(fresh('bad3'), checkpoint_args={{}})",
    "save_bad_checkpoint_key": f"{R}(4).save(fresh('bad4'), checkpoint_args={{'foo': 1}})",
    # snapshot
    "snap_basic": f"{R}(5).snapshot(fresh('snap_basic'))",
    "snap_passes": "snapshot_passes()",
    "snap_gzip": f"twice({R}(4).snapshot(fresh('snap_gzip'), compression='GZIP'))",
    "snap_shards": f"twice({R}(6).snapshot(fresh('snap_shards'), shard_func=lambda x: x % 2, reader_func=lambda dss: dss.flat_map(lambda x: x)))",
    "snap_other_pipeline": f"[list({R}(3).snapshot(fresh('snap_other')).as_numpy_iterator()), list({R}(10, 13).snapshot(ROOT + '/snap_other').as_numpy_iterator())]",
    "snap_infinite": f"{R}(4).repeat().snapshot(fresh('snap_inf'))",
    "snap_map": f"{R}(4).map(lambda x: x * 3).snapshot(fresh('snap_map'))",
    "snap_experimental": f"{R}(3).apply(tf.data.experimental.snapshot(fresh('snap_exp')))",
    # ragged_batch
    "rb_varlen": f"{VARLEN}.ragged_batch(2)",
    "rb_drop": f"{VARLEN}.ragged_batch(2, drop_remainder=True)",
    "rb_int32": f"{VARLEN}.ragged_batch(3, row_splits_dtype=tf.int32)",
    "rb_int32_splits": f"[r.row_splits for r in {VARLEN}.ragged_batch(3, row_splits_dtype=tf.int32)]",
    "rb_2d": f"{VAR2D}.ragged_batch(2)",
    "rb_squares": f"{SQUARES}.ragged_batch(3)",
    "rb_scalars": f"{R}(6).ragged_batch(4)",
    "rb_fixed": "tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).ragged_batch(2)",
    "rb_tuple": f"tf.data.Dataset.zip(({R}(5), {VARLEN})).ragged_batch(3)",
    "rb_map": f"{R}(6).map(lambda x: tf.range(x)).ragged_batch(4)",
    "rb_map_dict": f"{R}(4).map(lambda x: (x, {{'a': tf.fill([x, 2], 1.0)}})).ragged_batch(3)",
    "rb_numpy": f"list({VARLEN}.ragged_batch(3).as_numpy_iterator())",
    "rb_infinite": f"{VARLEN}.repeat().ragged_batch(3)",
    "rb_experimental": f"{VARLEN}.apply(tf.data.experimental.dense_to_ragged_batch(2, row_splits_dtype=tf.int32))",
    "rb_err_size": f"{R}(3).ragged_batch(0)",
    # sparse_batch
    "sb_basic": f"{VARLEN}.sparse_batch(2, row_shape=[5])",
    "sb_none": f"{VARLEN}.sparse_batch(2, row_shape=[None])",
    "sb_2d": f"{VAR2D}.sparse_batch(2, [3, 2])",
    "sb_scalars": f"{R}(5).sparse_batch(2, [])",
    "sb_strings": "tf.data.Dataset.from_tensor_slices([['a', 'b'], ['c', 'd'], ['e', 'f']]).sparse_batch(2, [3])",
    "sb_numpy": f"list({VARLEN}.sparse_batch(3, [4]).as_numpy_iterator())",
    "sb_experimental": f"{VARLEN}.apply(tf.data.experimental.dense_to_sparse_batch(2, [3]))",
    "sb_err_small": f"list({VARLEN}.sparse_batch(2, [2]))",
    "sb_err_rank": f"list({VARLEN}.sparse_batch(2, [3, 4]))",
    "sb_err_size": f"{VARLEN}.sparse_batch(0, [3])",
    "sb_err_tuple": f"{R}(3).map(lambda x: (x, x)).sparse_batch(2, [3])",
    "sb_err_negative": f"{VARLEN}.sparse_batch(2, [-1])",
    # rejection_resample (its structure, specs, cardinality and errors; the sampling is
    # tested statistically in tests/data/test_experimental.py)
    "rr_mixed": f"{LABELS}.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.375, 0.625], seed=1)",
    "rr_estimated": f"{LABELS}.rejection_resample(lambda x: x, [0.5, 0.5], seed=1)",
    "rr_identity": f"{LABELS}.rejection_resample(lambda x: x, [0.375, 0.625], initial_dist=[0.375, 0.625], seed=1)",
    "rr_reject_only": f"{LABELS}.rejection_resample(lambda x: x, [0.0, 1.0], initial_dist=[0.375, 0.625], seed=1)",
    "rr_tuple": f"tf.data.Dataset.zip(({R}(32), {LABELS})).rejection_resample(lambda i, c: c, [0.375, 0.625], initial_dist=[0.375, 0.625])",
    "rr_dict": f"{LABELS}.map(lambda c: {{'c': c, 'v': tf.cast(c, tf.float32) * 2.0}}).rejection_resample(lambda d: d['c'], [0.375, 0.625], initial_dist=[0.375, 0.625])",
    "rr_int64": f"{R}(8).rejection_resample(lambda x: x % 2, [0.5, 0.5], initial_dist=[0.5, 0.5])",
    "rr_infinite": f"{LABELS}.repeat().rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.375, 0.625], seed=1)",
    "rr_experimental": f"{LABELS}.apply(tf.data.experimental.rejection_resample(lambda x: x, [0.5, 0.5], seed=1))",
    "rr_err_shapes": f"{LABELS}.rejection_resample(lambda x: x, [0.5, 0.2, 0.3], initial_dist=[0.375, 0.625], seed=1)",
    "rr_err_float_class": f"list({R}(4).rejection_resample(lambda x: tf.cast(x % 2, tf.float32), [0.5, 0.5], seed=1).take(2))",
}
# cases checked on their cardinality, spec and repr only (random or infinite)
NO_ELEMENTS = {"rr_mixed", "rr_estimated", "rr_reject_only", "rr_infinite", "rr_experimental",
               "ie_infinite", "snap_infinite", "rb_infinite"}

# Pipelines iterated by ``for x in ds`` inside a tf.function (``total``, as in
# tests/data/test_transformations.py): the sum of each element's values and the element count, twice.
FUNCTION_CASES = {
    "ignore_errors": f"{NUMS}.map(tf.strings.to_number).ignore_errors()",
    "load": f"saved({R}(7).map(lambda x: x * x))",
    "load_shards": f"saved({R}(9), save=dict(shard_func=lambda x: x % 2), load=dict(reader_func=lambda dss: dss.flat_map(lambda x: x)))",
    "snapshot": f"{R}(6).map(lambda x: x + 1).snapshot(fresh('fn_snap'))",
    "rejection_identity": f"{LABELS}.rejection_resample(lambda x: x, [0.375, 0.625], initial_dist=[0.375, 0.625]).map(lambda c, x: c + x)",
    "sparse_to_dense": f"{VARLEN}.sparse_batch(2, [3]).map(tf.sparse.to_dense)",
    "ragged_to_dense": f"{VARLEN}.ragged_batch(2).map(lambda r: r.to_tensor())",
}


def reset_root():
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)


def namespace(tf):
    """The names the case sources use, bound to ``tf`` (TensorFlow or tapeflow)."""
    counter = [0]

    def fresh(name):
        path = os.path.join(ROOT, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def saved(ds, save=None, load=None, before=None):
        """``ds`` saved under a new directory and loaded back."""
        counter[0] += 1
        path = fresh(f"saved{counter[0]}")
        if before is not None:
            before.save(path)
        ds.save(path, **(save or {}))
        return tf.data.Dataset.load(path, **(load or {}))

    def saved_experimental(ds):
        counter[0] += 1
        path = fresh(f"saved{counter[0]}")
        tf.data.experimental.save(ds, path)
        return tf.data.experimental.load(path)

    def collect(ds):
        """``next`` until the end, an error recorded as its class name (iteration goes on
        after an error, as TensorFlow's iterators do)."""
        out, it = [], iter(ds)
        for _ in range(20):
            try:
                out.append(next(it).numpy())
            except StopIteration:
                break
            except Exception as e:  # noqa: BLE001 - the class is the record
                out.append(type(e).__name__)
        return out

    def twice(ds):
        return [list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator())]

    def snapshot_passes():
        """Which elements the pipeline computes on each pass of a snapshot: a partial pass
        (take(2); TensorFlow's writer reads ahead, so its computed elements are not
        recorded), two full passes, then a new snapshot dataset of a new from_generator
        over the same files (another pipeline, as TensorFlow's generator tokens)."""
        calls = []

        def gen():
            for i in range(5):
                calls.append(i)
                yield np.int64(i * 10)
        spec = tf.TensorSpec([], tf.int64)
        path = fresh("snap_passes")
        ds = tf.data.Dataset.from_generator(gen, output_signature=spec).snapshot(path)
        record = []
        for source in (ds.take(2), ds, ds,
                       tf.data.Dataset.from_generator(gen, output_signature=spec).snapshot(
                           path)):
            del calls[:]
            elements = [int(x) for x in source.as_numpy_iterator()]
            record.append([elements, list(calls) if record else None])
        return record

    return {"tf": tf, "np": np, "ROOT": ROOT, "fresh": fresh, "saved": saved,
            "saved_experimental": saved_experimental, "collect": collect, "twice": twice,
            "snapshot_passes": snapshot_passes}


def encode(value):
    """A nested element as JSON: tuples/dicts kept, leaves as {dtype, value}; ragged and
    sparse tensors by their parts."""
    if isinstance(value, dict):
        return {"dict": {k: encode(v) for k, v in value.items()}}
    if isinstance(value, (tuple, list)):
        return {"tuple" if isinstance(value, tuple) else "list": [encode(v) for v in value]}
    if value is None or isinstance(value, (bool, str)):
        return {"python": value}
    if hasattr(value, "nested_row_splits"):
        return {"ragged": encode(value.flat_values),
                "splits": [encode(s) for s in value.nested_row_splits]}
    if hasattr(value, "dense_shape"):
        return {"sparse": [encode(value.indices), encode(value.values),
                           encode(value.dense_shape)]}
    if hasattr(value, "numpy"):
        value = value.numpy()
    arr = np.asarray(value)
    if arr.dtype == object and arr.size and not isinstance(arr.ravel()[0], bytes):
        return {"objects": [encode(v) for v in arr.ravel().tolist()]}   # ragged numpy rows
    if arr.dtype == object or arr.dtype.kind == "S":
        data = np.vectorize(lambda b: b.decode(), otypes=[object])(arr).tolist()
        return {"dtype": "string", "shape": list(arr.shape), "value": data}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "value": arr.tolist()}


def record(tf, name, source, env):
    """What ``source`` gives under ``tf``: a dict for the fixture."""
    out = {"source": source}
    try:
        result = eval(source, dict(env))  # noqa: S307 - the case table above
    except Exception as e:  # noqa: BLE001 - recording the errors is the point
        out["error"] = [type(e).__name__, str(e).split("\n")[0]]
        return out
    if not isinstance(result, tf.data.Dataset):
        out["value"] = encode(result)
        return out
    out["repr"] = repr(result)
    out["element_spec"] = repr(result.element_spec)
    out["element_spec_sorted"] = repr(_sort_dicts(result.element_spec))
    out["cardinality"] = int(result.cardinality())
    if name not in NO_ELEMENTS:
        try:
            out["elements"] = [encode(e) for e in result]
        except Exception as e:  # noqa: BLE001
            out["iter_error"] = [type(e).__name__, str(e).split("\n")[0]]
    return out


def _sort_dicts(spec):
    """``spec`` with its dicts' keys sorted (TensorFlow's load gives them in an order that
    varies between runs)."""
    if isinstance(spec, dict):
        return {k: _sort_dicts(spec[k]) for k in sorted(spec)}
    if isinstance(spec, tuple) and not hasattr(spec, "_fields"):
        return tuple(_sort_dicts(s) for s in spec)
    return spec


def total_function(tf):
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        n = tf.constant(0, tf.int64)
        for x in ds:
            s += tf.reduce_sum(tf.cast(x, tf.int64))
            n += 1
        return s, n
    return total
