"""Record TensorFlow 2.21's tf.distribute behaviour for tests/distribute/test_*.py.

Run with the TensorFlow venv from the repository root:
    /work/tfvenv/bin/python tools/record_distribute.py
Writes tests/fixtures/distribute/tf_distribute.json. Two and three logical CPU devices are
made in child processes (TensorFlow fixes the device list once per process).
tapeflow itself never imports TensorFlow.
"""
import contextlib
import inspect
import io
import json
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "distribute")


def _setup(n):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    cpus = tf.config.list_physical_devices("CPU")
    if n > 1:
        tf.config.set_logical_device_configuration(
            cpus[0], [tf.config.LogicalDeviceConfiguration()] * n)
    return tf


def _printed(x):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(x)
    return buf.getvalue()


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording the class and the text
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def record_signatures(tf):
    d = tf.distribute
    targets = {
        "MirroredStrategy": d.MirroredStrategy, "OneDeviceStrategy": d.OneDeviceStrategy,
        "MultiWorkerMirroredStrategy": d.MultiWorkerMirroredStrategy,
        "Strategy.run": d.Strategy.run, "Strategy.reduce": d.Strategy.reduce,
        "Strategy.gather": d.Strategy.gather, "Strategy.scope": d.Strategy.scope,
        "Strategy.experimental_distribute_dataset": d.Strategy.experimental_distribute_dataset,
        "Strategy.distribute_datasets_from_function":
            d.Strategy.distribute_datasets_from_function,
        "Strategy.experimental_local_results": d.Strategy.experimental_local_results,
        "Strategy.experimental_distribute_values_from_function":
            d.Strategy.experimental_distribute_values_from_function,
        "ReplicaContext.all_reduce": d.ReplicaContext.all_reduce,
        "ReplicaContext.all_gather": d.ReplicaContext.all_gather,
        "ReplicaContext.merge_call": d.ReplicaContext.merge_call,
        "InputContext": d.InputContext, "InputOptions": d.InputOptions,
        "HierarchicalCopyAllReduce": d.HierarchicalCopyAllReduce,
        "NcclAllReduce": d.NcclAllReduce, "ReductionToOneDevice": d.ReductionToOneDevice,
        "experimental.CommunicationOptions": d.experimental.CommunicationOptions,
        "get_strategy": d.get_strategy, "has_strategy": d.has_strategy,
        "in_cross_replica_context": d.in_cross_replica_context,
        "get_replica_context": d.get_replica_context,
        "nn.compute_average_loss": tf.nn.compute_average_loss,
        "nn.scale_regularization_loss": tf.nn.scale_regularization_loss,
        "config.set_logical_device_configuration": tf.config.set_logical_device_configuration,
        "config.list_logical_devices": tf.config.list_logical_devices,
        "config.LogicalDeviceConfiguration": tf.config.LogicalDeviceConfiguration,
    }
    out = {}
    for name, obj in targets.items():
        try:
            out[name] = str(inspect.signature(obj))
        except (TypeError, ValueError):
            out[name] = None
    return out


def record_default(tf):
    s = tf.distribute.get_strategy()
    loss = tf.constant([1.0, 2.0, 3.0, 4.0])
    return {
        "default_replicas": s.num_replicas_in_sync,
        "has_strategy": tf.distribute.has_strategy(),
        "in_cross_replica_context": tf.distribute.in_cross_replica_context(),
        "replica_context_is_none": tf.distribute.get_replica_context() is None,
        "default_replica_id": int(tf.distribute.get_replica_context().replica_id_in_sync_group),
        "reduce_op_from_str": [str(tf.distribute.ReduceOp("SUM")),
                               tf.distribute.ReduceOp.SUM.value],
        "reduce_op_repr": repr(tf.distribute.ReduceOp.MEAN),
        "cal": float(tf.nn.compute_average_loss(loss)),
        "cal_global": float(tf.nn.compute_average_loss(loss, global_batch_size=8)),
        "cal_weighted": float(tf.nn.compute_average_loss(
            loss, sample_weight=tf.constant([1.0, 0.0, 2.0, 0.5]), global_batch_size=5)),
        "cal_weight_scalar": float(tf.nn.compute_average_loss(loss, sample_weight=2.0)),
        "cal_2d": float(tf.nn.compute_average_loss(tf.constant([[1.0, 2.0], [3.0, 5.0]]))),
        "cal_zero_global": float(tf.nn.compute_average_loss(loss, global_batch_size=0)),
        "cal_scalar_error": _error(lambda: tf.nn.compute_average_loss(tf.constant(1.0))),
        "cal_int_error": _error(lambda: tf.nn.compute_average_loss(tf.constant([1, 2]))),
        "srl": float(tf.nn.scale_regularization_loss([tf.constant(1.0), tf.constant(2.5)])),
        "srl_scalar": float(tf.nn.scale_regularization_loss(tf.constant(3.0))),
        "input_context": _input_context(tf),
        "run_args_error": _error(lambda: s.run(lambda x: x, args=1.0)),
        "local_results_plain": repr(s.experimental_local_results(tf.constant(1.0))),
        "one_device_replicas": tf.distribute.OneDeviceStrategy("/cpu:0").num_replicas_in_sync,
        "mirrored_one_cpu_replicas": tf.distribute.MirroredStrategy().num_replicas_in_sync,
        "mwms_replicas": tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync,
        "reduce_op_error": _error(lambda: tf.distribute.ReduceOp("MAX")),
        "one_device_var_type": _var_in(tf.distribute.OneDeviceStrategy("/cpu:0"), tf)[0],
        "mirrored_one_var": _var_in(tf.distribute.MirroredStrategy(), tf),
        "mwms_var": _var_in(tf.distribute.MultiWorkerMirroredStrategy(), tf),
    }


def _var_in(strategy, tf):
    with strategy.scope():
        v = tf.Variable(1.0)
    return [type(v).__name__, _printed(v)]


def _input_context(tf):
    c = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1,
                                   num_replicas_in_sync=4)
    return {"str": str(c), "per_replica_16": c.get_per_replica_batch_size(16),
            "error": _error(lambda: c.get_per_replica_batch_size(10)),
            "props": [c.num_input_pipelines, c.input_pipeline_id, c.num_replicas_in_sync]}


def record_replicas(tf, n):
    s = tf.distribute.MirroredStrategy()
    out = {"num_replicas": s.num_replicas_in_sync,
           "logical": [d.name for d in tf.config.list_logical_devices("CPU")],
           "ldc_repr": repr(tf.config.LogicalDeviceConfiguration())}
    splits = {}
    for g in (8, 7, 6, 4, 3, 2, 1):
        ds = s.experimental_distribute_dataset(tf.data.Dataset.range(g).batch(g))
        for batch in ds:
            splits[str(g)] = [t.numpy().tolist() for t in s.experimental_local_results(batch)]
    out["splits"] = splits
    # A two-step epoch with a final partial batch, as the reduce docstring discusses.
    ds = s.experimental_distribute_dataset(tf.data.Dataset.range(14).batch(8))
    steps = []
    for batch in ds:
        steps.append({
            "parts": [t.numpy().tolist() for t in s.experimental_local_results(batch)],
            "sum_none": s.reduce("SUM", s.run(lambda x: tf.reduce_mean(tf.cast(x, "float32")),
                                              args=(batch,)), axis=None).numpy().tolist(),
            "mean_0": s.reduce("MEAN", tf.cast(batch, tf.float32) if False else s.run(
                lambda x: tf.cast(x, tf.float32), args=(batch,)), axis=0).numpy().tolist(),
            "sum_0": s.reduce("SUM", s.run(lambda x: tf.cast(x, tf.float32), args=(batch,)),
                              axis=0).numpy().tolist(),
            "mean_none_vec": _maybe(lambda b=batch: s.reduce("MEAN", s.run(
                lambda x: tf.cast(x[:1], tf.float32) * 2.0, args=(b,)),
                axis=None).numpy().tolist()),
            "gather": s.gather(batch, axis=0).numpy().tolist(),
        })
    out["reduce_steps"] = steps
    if n == 2:
        ds = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(8))
        batch = next(iter(ds))
        out["printed_batch"] = _printed(batch)
        out["repr_batch"] = repr(batch)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            result = s.run(lambda x: x * 2, args=(batch,))
        out["printed_run"] = _printed(result)
        out["run_type"] = type(result).__name__
        with s.scope():
            v = tf.Variable(1.0)
            w = tf.Variable([1.5, 2.0], name="w")
        out["printed_var"] = _printed(v)
        out["printed_var_w"] = _printed(w)
        out["var_type"] = type(v).__name__
        s.run(lambda: v.assign_add(1.0))
        out["assign_add_each"] = [float(x) for x in s.experimental_local_results(v)]
        out["var_outside"] = float(v.numpy())
        ar = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
            "SUM", tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                           tf.float32) + 1.0))
        out["printed_all_reduce"] = _printed(ar)
        out["all_reduce_type"] = type(ar).__name__
        ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        out["printed_ids"] = _printed(ids)
        out["num_in_ctx"] = s.run(lambda: tf.constant(
            tf.distribute.get_replica_context().num_replicas_in_sync)).values[0].numpy().item()
        out["reduce_plain_sum"] = _maybe(lambda: float(s.reduce("SUM", tf.constant(3.0), None)))
        out["reduce_plain_mean"] = _maybe(lambda: float(s.reduce("MEAN", tf.constant(3.0),
                                                                  None)))
        out["cal_cross_replica_error"] = _error(lambda: _in_scope(
            s, lambda: tf.nn.compute_average_loss(tf.constant([1.0, 2.0]))))
        out["cal_cross_replica_global"] = _maybe(lambda: float(_in_scope(
            s, lambda: tf.nn.compute_average_loss(tf.constant([1.0, 2.0]),
                                                  global_batch_size=4))))
        out["srl_cross_replica_error"] = _error(lambda: _in_scope(
            s, lambda: tf.nn.scale_regularization_loss(tf.constant(1.0))))
        cal = s.run(lambda: tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 4.0])))
        out["cal_replica_default"] = [float(x) for x in s.experimental_local_results(cal)]
        srl = s.run(lambda: tf.nn.scale_regularization_loss(tf.constant(3.0)))
        out["srl_replica"] = [float(x) for x in s.experimental_local_results(srl)]
        out.update(_metrics_and_losses(tf, s))
        out["local_results_repr"] = repr(s.experimental_local_results(batch))
        out["values_from_fn"] = _printed(s.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(ctx.replica_id_in_sync_group * 10)))
        seen = []

        def dataset_fn(ctx):
            seen.append([ctx.num_input_pipelines, ctx.input_pipeline_id,
                         ctx.num_replicas_in_sync, ctx.get_per_replica_batch_size(8)])
            return tf.data.Dataset.range(10).batch(ctx.get_per_replica_batch_size(8))

        dds = s.distribute_datasets_from_function(dataset_fn)
        out["from_function"] = [[t.numpy().tolist() for t in s.experimental_local_results(b)]
                                for b in dds]
        out["from_function_contexts"] = seen
        out["in_scope"] = _in_scope(s, lambda: [tf.distribute.has_strategy(),
                                                tf.distribute.in_cross_replica_context(),
                                                tf.distribute.get_replica_context() is None])
        out["no_merge_call_warning"] = err.getvalue().strip().splitlines()[-1:]
    return out


def _in_scope(s, fn):
    with s.scope():
        return fn()


def _maybe(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return {"error": [type(e).__name__, str(e).split("\n")[0]]}


def _metrics_and_losses(tf, s):
    import numpy as np
    out = {}
    with s.scope():
        m = tf.keras.metrics.Mean()
    vals = tf.constant([1.1695, 2.4411])
    ds = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(vals).batch(2))
    batch = next(iter(ds))
    s.run(lambda x: m.update_state(x), args=(batch,))
    out["metric_mean"] = float(m.result())
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 3)).astype(np.float32)
    y = rng.integers(0, 4, 6)
    ds = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(6))
    xb, yb = next(iter(ds))
    with s.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4)])
    model.set_weights([np.arange(12, dtype=np.float32).reshape(3, 4) / 10.0,
                       np.array([0.1, -0.2, 0.3, 0.0], np.float32)])
    loss_default = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    loss_none = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def step(xr, yr):
        logits = model(xr)
        return loss_default(yr, logits), tf.nn.compute_average_loss(
            loss_none(yr, logits), global_batch_size=6)

    a, b = s.run(step, args=(xb, yb))
    out["keras_loss_in_replica"] = [float(t) for t in s.experimental_local_results(a)]
    out["cal_in_replica"] = [float(t) for t in s.experimental_local_results(b)]
    out["keras_loss_in_scope"] = float(_in_scope(s, lambda: loss_default(y, model(x))))
    out["keras_loss_outside"] = float(loss_default(y, model(x)))
    out["loss_x"] = x.tolist()
    out["loss_y"] = y.tolist()
    out["model_var_printed"] = _printed(model.weights[0])
    out["model_var_type"] = type(model.weights[0]).__name__
    return out


def child(n):
    tf = _setup(n)
    data = {"replicas": record_replicas(tf, n)}
    if n == 1:
        data["signatures"] = record_signatures(tf)
        data["default"] = record_default(tf)
    json.dump(data, sys.stdout)


def main():
    if len(sys.argv) > 1:
        child(int(sys.argv[1]))
        return
    fixture = {}
    for n in (1, 2, 3):
        out = subprocess.run([sys.executable, __file__, str(n)], capture_output=True,
                             text=True, check=False)
        if out.returncode:
            sys.stderr.write(out.stderr)
            raise SystemExit(out.returncode)
        data = json.loads(out.stdout)
        if n == 1:
            fixture["signatures"] = data["signatures"]
            fixture["default"] = data["default"]
        fixture[f"replicas_{n}"] = data["replicas"]
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "tf_distribute.json")
    with open(path, "w") as f:
        json.dump(fixture, f, indent=1)
        f.write("\n")
    print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
