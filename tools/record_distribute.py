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


def _enum(e):
    return [repr(m) for m in e]


def record_config(tf):
    """tf.config names (session 8): before any device listing, then after."""
    out = {}
    cpu = tf.config.list_physical_devices("CPU")[0]
    exp = tf.config.experimental
    out["aliases"] = [exp.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration,
                      exp.set_virtual_device_configuration
                      is tf.config.set_logical_device_configuration]
    exp.set_virtual_device_configuration(cpu, [exp.VirtualDeviceConfiguration()] * 2)
    out["logical"] = [d.name for d in tf.config.list_logical_devices("CPU")]
    out["get_config"] = repr(tf.config.get_logical_device_configuration(cpu))
    out["reconfigure"] = _error(lambda: tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 3))
    out["same_again"] = _error(lambda: tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2))
    out["not_a_device"] = _error(lambda: tf.config.set_logical_device_configuration(
        "CPU:0", [tf.config.LogicalDeviceConfiguration()]))
    opt = tf.config.optimizer
    out["options_default"] = opt.get_experimental_options()
    opt.set_experimental_options({"layout_optimizer": False, "constant_folding": True})
    out["options_set"] = opt.get_experimental_options()
    jit = [opt.get_jit()]
    for v in (True, False, "autoclustering"):
        opt.set_jit(v)
        jit.append(opt.get_jit())
    out["jit"] = jit
    soft = [tf.config.get_soft_device_placement()]
    tf.config.set_soft_device_placement(False)
    soft.append(tf.config.get_soft_device_placement())
    out["soft"] = soft
    out["memory_cpu"] = exp.get_memory_info("CPU:0")
    out["memory_cpu1"] = exp.get_memory_info("CPU:1")
    out["memory_gpu"] = _error(lambda: exp.get_memory_info("GPU:0"))
    out["reset_cpu"] = exp.reset_memory_stats("CPU:0")
    out["reset_gpu"] = _error(lambda: exp.reset_memory_stats("GPU:0"))
    out["determinism"] = exp.enable_op_determinism()
    out["connect_empty"] = tf.config.experimental_connect_to_cluster(tf.train.ClusterSpec({}))
    out["log_placement"] = tf.debugging.set_log_device_placement(False)
    return out


def record_cluster(tf):
    cr = tf.distribute.cluster_resolver
    cs = tf.train.ClusterSpec({"worker": ["h1:2222", "h2:2222"], "ps": ["p0:2222"],
                               "chief": {0: "c:1"}})
    sparse = tf.train.ClusterSpec({"worker": {1: "a:1", 3: "b:2"}})
    out = {
        "repr": repr(cs), "as_dict": repr(cs.as_dict()), "jobs": cs.jobs,
        "num_tasks": cs.num_tasks("worker"), "task_indices": cs.task_indices("worker"),
        "task_address": cs.task_address("ps", 0), "job_tasks": cs.job_tasks("worker"),
        "bool": [bool(cs), bool(tf.train.ClusterSpec({}))],
        "eq": [cs == tf.train.ClusterSpec(cs.as_dict()), cs == tf.train.ClusterSpec({}),
               cs != tf.train.ClusterSpec({})],
        "copy_jobs": tf.train.ClusterSpec(cs).jobs,
        "sparse": [repr(sparse.as_dict()), sparse.task_indices("worker"),
                   sparse.job_tasks("worker"), repr(sparse)],
        "cluster_def": str(cs.as_cluster_def()),
        "errors": [_error(lambda: cs.task_address("ps", 3)), _error(lambda: cs.num_tasks("x")),
                   _error(lambda: cs.job_tasks("x")), _error(lambda: tf.train.ClusterSpec("x")),
                   _error(lambda: tf.train.ClusterSpec({"w": "a:1"}))],
    }
    r = cr.SimpleClusterResolver(cs, task_type="worker", task_id=1, rpc_layer="grpc")
    out["simple"] = [repr(r.cluster_spec()), r.task_type, r.task_id, r.rpc_layer, r.master(),
                     r.master("ps", 0), r.environment, r.num_accelerators()]
    r0 = cr.SimpleClusterResolver(cs)
    out["simple_default"] = [r0.master(), r0.task_type, r0.task_id, r0.rpc_layer]
    os.environ.pop("TF_CONFIG", None)
    t = cr.TFConfigClusterResolver()
    out["tfconfig_unset"] = [repr(t.cluster_spec()), t.task_type, t.task_id, t.master(),
                             t.rpc_layer, t.environment]
    os.environ["TF_CONFIG"] = json.dumps({
        "cluster": {"worker": ["h1:1", "h2:2"], "chief": ["c:0"]},
        "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"})
    t = cr.TFConfigClusterResolver()
    out["tfconfig"] = [repr(t.cluster_spec()), t.task_type, t.task_id, t.master(),
                       t.rpc_layer, t.master("chief", 0)]
    del os.environ["TF_CONFIG"]
    local = tf.train.ClusterSpec({"worker": ["localhost:1", "localhost:2"],
                                  "ps": ["localhost:3"]})
    out["server_errors"] = [
        _error(lambda: tf.distribute.Server(local, start=False)),
        _error(lambda: tf.distribute.Server(local, job_name="worker", start=False)),
        _error(lambda: tf.distribute.Server(local, job_name="x", task_index=0, start=False)),
        _error(lambda: tf.distribute.Server(local, job_name="worker", task_index=5,
                                            start=False))]
    out["server_target"] = tf.distribute.Server(local, job_name="worker", task_index=1,
                                                start=False).target
    pss = tf.distribute.ParameterServerStrategy
    out["pss_same"] = pss is tf.distribute.experimental.ParameterServerStrategy
    out["pss_errors"] = [
        _error(lambda: pss(cr.SimpleClusterResolver(tf.train.ClusterSpec({})))),
        _error(lambda: pss(cr.SimpleClusterResolver(tf.train.ClusterSpec(
            {"worker": ["a:1"], "chief": ["c:1"]}), task_type="chief", task_id=0))),
        _error(lambda: pss(cr.SimpleClusterResolver(tf.train.ClusterSpec(
            {"ps": ["a:1"], "chief": ["c:1"]}), task_type="chief", task_id=0))),
        _error(lambda: pss(cr.SimpleClusterResolver(tf.train.ClusterSpec(
            {"ps": ["a:1"], "worker": ["c:1"]}), task_type="chief", task_id=0)))]
    p = tf.distribute.experimental.partitioners
    mp = p.MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=2)
    out["partitions"] = [
        mp(tf.TensorShape([1000, 100]), tf.float32), mp(tf.TensorShape([10, 10]), tf.float32),
        mp(tf.TensorShape([100000, 10]), tf.float64),
        p.MinSizePartitioner(min_shard_bytes=4, max_shards=3)(tf.TensorShape([5, 3]),
                                                              tf.float32),
        p.MinSizePartitioner(min_shard_bytes=4, max_shards=10)(tf.TensorShape([6, 1]),
                                                               tf.float32),
        p.MinSizePartitioner(min_shard_bytes=7, max_shards=9)(tf.TensorShape([3, 8]),
                                                              tf.string),
        p.FixedShardsPartitioner(3)(tf.TensorShape([10, 3]), tf.float32),
        p.FixedShardsPartitioner(5)(tf.TensorShape([2, 3]), tf.float32)]
    out["partition_errors"] = [_error(lambda: p.MinSizePartitioner(min_shard_bytes=0)),
                               _error(lambda: p.MinSizePartitioner(max_shards=0))]
    return out


def record_in_process_ps(tf):
    """ParameterServerStrategy + ClusterCoordinator on TF's in-process cluster."""
    import socket

    def port():
        with socket.socket() as s:
            s.bind(("localhost", 0))
            return s.getsockname()[1]
    spec = {"worker": [f"localhost:{port()}" for _ in range(2)], "ps": [f"localhost:{port()}"]}
    cs = tf.train.ClusterSpec(spec)
    for i in range(2):
        tf.distribute.Server(cs, job_name="worker", task_index=i, protocol="grpc")
    tf.distribute.Server(cs, job_name="ps", task_index=0, protocol="grpc")
    s = tf.distribute.ParameterServerStrategy(
        tf.distribute.cluster_resolver.SimpleClusterResolver(cs, rpc_layer="grpc"))
    out = {"replicas": s.num_replicas_in_sync}
    with s.scope():
        v = tf.Variable(1.0)
    out["var"] = [repr(v), isinstance(v, tf.distribute.DistributedValues)]
    c = tf.distribute.coordinator.ClusterCoordinator(s)

    @tf.function
    def step():
        def fn():
            v.assign_add(1.0)
            return v * 2
        return s.run(fn)
    rv = c.schedule(step)
    c.join()
    out["fetch"] = [float(rv.fetch()), type(rv.fetch()).__name__, float(rv.get()),
                    float(v.numpy()), c.done()]
    rvs = [c.schedule(step) for _ in range(3)]
    c.join()
    out["after_three"] = [sorted(float(r.fetch()) for r in rvs), float(v.numpy())]
    pwd = c.create_per_worker_dataset(lambda: tf.data.Dataset.range(10).batch(2))
    it = iter(pwd)

    @tf.function
    def step2(it):
        return s.run(lambda x: tf.reduce_sum(x), args=(next(it),))
    res = [c.schedule(step2, args=(it,)) for _ in range(4)]
    c.join()
    out["per_worker_sums"] = sorted(int(r.fetch()) for r in res)
    return out


def record_variables_and_generators(tf):
    import numpy as np
    out = {"aggregation": _enum(tf.VariableAggregation),
           "synchronization": _enum(tf.VariableSynchronization),
           "aggregation_class": repr(tf.VariableAggregation)}
    v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN,
                    synchronization=tf.VariableSynchronization.ON_WRITE)
    plain = tf.Variable(2)
    on_read = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ)
    out["modes"] = [repr(v.aggregation), repr(v.synchronization), v.trainable,
                    repr(plain.aggregation), repr(plain.synchronization), on_read.trainable]
    s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    aggs = {}
    for name in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
        with s.scope():
            w = tf.Variable(1.0, aggregation=getattr(tf.VariableAggregation, name))
        s.run(lambda w=w, name=name: w.assign_add(tf.cast(
            tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0)
            if name != "NONE" else w.assign_add(1.0))
        aggs[name] = [float(x) for x in s.experimental_local_results(w)]
    out["aggregated_assign_add"] = aggs
    with s.scope():
        m = tf.Variable(1.0)
    out["mirrored_is_distributed"] = [isinstance(m, tf.distribute.DistributedValues),
                                      isinstance(m, tf.Variable)]
    out["mwms_task"] = [tf.distribute.MultiWorkerMirroredStrategy().cluster_resolver.task_type,
                        tf.distribute.MultiWorkerMirroredStrategy().cluster_resolver.task_id]
    d = tf.distribute.get_strategy()
    ds = tf.data.Dataset.range(4).batch(2)
    out["default_run_int64"] = [_printed(d.run(lambda x: x * 2, args=(b,)))
                                for b in d.experimental_distribute_dataset(ds)]
    # generators
    gens = {}
    with s.scope():
        g = tf.random.Generator.from_seed(1)
        gens["normal"] = [_printed(s.run(lambda: g.normal([]))) for _ in range(2)]
        gens["state_after"] = _printed(g.state)
        gens["uniform_int"] = _printed(s.run(lambda: g.uniform([3], 0, 100, tf.int64)))
        gens["cross_replica"] = _printed(g.normal([2]))
        gens["after_cross"] = _printed(s.run(lambda: g.normal([])))
        gens["state_end"] = _printed(g.state)
    g2 = tf.random.Generator.from_seed(5)
    gens["outside"] = _printed(s.run(lambda: g2.normal([])))
    gens["outside_state"] = _printed(g2.state)
    out["generators"] = gens
    import tempfile
    d_ = tempfile.mkdtemp()
    g3 = tf.random.Generator.from_seed(3)
    ck = tf.train.Checkpoint(gen=g3)
    first = g3.normal([2]).numpy().tolist()
    path = ck.write(os.path.join(d_, "c"))
    after = [g3.normal([2]).numpy().tolist() for _ in range(2)]
    ck.restore(path)
    again = [g3.normal([2]).numpy().tolist() for _ in range(2)]
    out["generator_checkpoint"] = {"first": first, "after": after, "again": again,
                                   "keys": sorted(k for k, _ in
                                                  tf.train.list_variables(path))}
    # a distributed dataset in a tf.function loop: reshuffled at every call
    dds = s.experimental_distribute_dataset(
        tf.data.Dataset.range(7).shuffle(7, seed=7).batch(4))

    @tf.function
    def f(d):
        acc = tf.constant(0, tf.int64)
        for x in d:
            acc = acc * 1000 + s.reduce("SUM", s.run(lambda b: tf.reduce_sum(
                b * tf.range(1, tf.size(b) + 1, dtype=tf.int64)), args=(x,)), axis=None)
        return acc
    out["loop_in_function"] = [int(f(dds)), int(f(dds)), [[t.numpy().tolist() for t in
                               s.experimental_local_results(b)] for b in dds]]
    # CentralStorageStrategy
    c = tf.distribute.experimental.CentralStorageStrategy(["CPU:0", "CPU:1"])
    with c.scope():
        cv = tf.Variable(1.0)
    b = next(iter(c.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))))
    out["central"] = [c.num_replicas_in_sync, type(cv).__name__, repr(cv),
                      isinstance(cv, tf.distribute.DistributedValues), _printed(b),
                      _printed(c.run(lambda x: x * 2, args=(b,))),
                      _printed(c.reduce("SUM", c.run(lambda x: x * 2, args=(b,)), axis=0)),
                      tf.distribute.experimental.CentralStorageStrategy().num_replicas_in_sync]
    # tf.data names
    P = tf.data.experimental.AutoShardPolicy
    filt = tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0)
    ac = tf.data.experimental.assert_cardinality

    def drain(n):
        return _error(lambda: list(filt.apply(ac(n)).as_numpy_iterator()))
    o = tf.data.Options()
    out["data"] = {
        "policy": _enum(P), "policy_default": repr(o.experimental_distribute.auto_shard_policy),
        "cardinality": [int(tf.data.experimental.cardinality(filt)),
                        int(tf.data.experimental.cardinality(tf.data.Dataset.range(5).repeat())),
                        int(tf.data.experimental.cardinality(filt.apply(ac(5)))),
                        tf.data.experimental.cardinality(filt).dtype.name],
        "asserted": [np.asarray(list(filt.apply(ac(5)).as_numpy_iterator())).tolist(),
                     len(filt.apply(ac(5)))],
        "errors": [drain(3), drain(7), drain(tf.data.INFINITE_CARDINALITY)],
    }
    return out


def child_s8():
    import warnings
    warnings.simplefilter("ignore")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    data = {"config": record_config(tf)}   # first: it makes the two logical CPUs
    data["cluster"] = record_cluster(tf)
    data["variables"] = record_variables_and_generators(tf)
    json.dump(data, sys.stdout)


def child_ps():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    json.dump(record_in_process_ps(tf), sys.stdout)


def child(n):
    tf = _setup(n)
    data = {"replicas": record_replicas(tf, n)}
    if n == 1:
        data["signatures"] = record_signatures(tf)
        data["default"] = record_default(tf)
    json.dump(data, sys.stdout)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "s8":
        child_s8()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "ps":   # its own process: TF's in-process
        child_ps()                                  # cluster, no logical devices
        return
    if len(sys.argv) > 1:
        child(int(sys.argv[1]))
        return
    s8 = {}
    # ("ps": TF's in-process cluster + ClusterCoordinator, `record_distribute.py ps`, hangs
    # at times on a loaded 2-core box; its probed values are in test_cluster_config_generators)
    for part in ("s8",):
        out = subprocess.run([sys.executable, __file__, part], capture_output=True,
                             text=True, check=False)
        if out.returncode:
            sys.stderr.write(out.stderr)
            raise SystemExit(out.returncode)
        if part == "ps":
            s8["ps"] = json.loads(out.stdout)
        else:
            s8.update(json.loads(out.stdout))
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "tf_distribute_s8.json")
    with open(path, "w") as f:
        json.dump(s8, f, indent=1)
        f.write("\n")
    print("wrote", os.path.relpath(path))
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
