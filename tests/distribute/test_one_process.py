"""tf.distribute in one process against TensorFlow 2.21's recorded behaviour
(tests/fixtures/distribute/tf_distribute.json, tools/record_distribute.py)."""
import contextlib
import inspect
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf

FIX = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "distribute",
                                  "tf_distribute.json")))
TWO = FIX["replicas_2"]


def _strategy(n):
    if n == 1:
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    return tf.distribute.MirroredStrategy([f"CPU:{i}" for i in range(n)])


def _printed(x):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(x)
    return buf.getvalue()


def test_signatures_match_tensorflow():
    d = tf.distribute
    ours = {
        "MirroredStrategy": d.MirroredStrategy, "OneDeviceStrategy": d.OneDeviceStrategy,
        "Strategy.run": d.Strategy.run, "Strategy.reduce": d.Strategy.reduce,
        "Strategy.gather": d.Strategy.gather, "Strategy.scope": d.Strategy.scope,
        "Strategy.experimental_distribute_dataset": d.Strategy.experimental_distribute_dataset,
        "Strategy.distribute_datasets_from_function":
            d.Strategy.distribute_datasets_from_function,
        "Strategy.experimental_local_results": d.Strategy.experimental_local_results,
        "ReplicaContext.all_reduce": d.ReplicaContext.all_reduce,
        "ReplicaContext.all_gather": d.ReplicaContext.all_gather,
        "ReplicaContext.merge_call": d.ReplicaContext.merge_call,
        "InputContext": d.InputContext, "HierarchicalCopyAllReduce": d.HierarchicalCopyAllReduce,
        "NcclAllReduce": d.NcclAllReduce, "ReductionToOneDevice": d.ReductionToOneDevice,
        "has_strategy": d.has_strategy, "get_replica_context": d.get_replica_context,
        "nn.compute_average_loss": tf.nn.compute_average_loss,
        "nn.scale_regularization_loss": tf.nn.scale_regularization_loss,
        "config.set_logical_device_configuration": tf.config.set_logical_device_configuration,
        "config.list_logical_devices": tf.config.list_logical_devices,
    }
    for name, obj in ours.items():
        assert str(inspect.signature(obj)) == FIX["signatures"][name], name
    assert str(inspect.signature(d.MultiWorkerMirroredStrategy)) == \
        FIX["signatures"]["MultiWorkerMirroredStrategy"]


def test_default_strategy_context():
    d = FIX["default"]
    assert tf.distribute.get_strategy().num_replicas_in_sync == d["default_replicas"]
    assert tf.distribute.has_strategy() is d["has_strategy"]
    assert tf.distribute.in_cross_replica_context() is d["in_cross_replica_context"]
    assert int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 0
    assert repr(tf.distribute.ReduceOp.MEAN) == d["reduce_op_repr"]
    assert str(tf.distribute.ReduceOp("SUM")) == d["reduce_op_from_str"][0]
    with pytest.raises(ValueError, match=d["reduce_op_error"][1]):
        tf.distribute.ReduceOp("MAX")
    with pytest.raises(ValueError, match="positional args must be a list or tuple"):
        tf.distribute.get_strategy().run(lambda x: x, args=1.0)
    assert tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync == 1
    for key, strategy in (("mirrored_one_var", tf.distribute.MirroredStrategy()),
                          ("mwms_var", tf.distribute.MultiWorkerMirroredStrategy())):
        with strategy.scope():
            v = tf.Variable(1.0)
        assert [type(v).__name__, _printed(v)] == d[key]
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        v = tf.Variable(1.0)
    assert type(v).__name__ != "MirroredVariable"
    assert d["one_device_var_type"] == "ResourceVariable"
    assert tf.distribute.MirroredStrategy().num_replicas_in_sync == 1  # one CPU device


def test_compute_average_loss_and_scale_regularization_loss():
    d = FIX["default"]
    loss = tf.constant([1.0, 2.0, 3.0, 4.0])
    assert float(tf.nn.compute_average_loss(loss)) == d["cal"]
    assert float(tf.nn.compute_average_loss(loss, global_batch_size=8)) == d["cal_global"]
    assert float(tf.nn.compute_average_loss(
        loss, sample_weight=tf.constant([1.0, 0.0, 2.0, 0.5]), global_batch_size=5)) == \
        pytest.approx(d["cal_weighted"], rel=1e-7)
    assert float(tf.nn.compute_average_loss(loss, sample_weight=2.0)) == d["cal_weight_scalar"]
    assert float(tf.nn.compute_average_loss(tf.constant([[1.0, 2.0], [3.0, 5.0]]))) == d["cal_2d"]
    assert float(tf.nn.compute_average_loss(loss, global_batch_size=0)) == d["cal_zero_global"]
    with pytest.raises(ValueError) as err:
        tf.nn.compute_average_loss(tf.constant(1.0))
    assert str(err.value) == d["cal_scalar_error"][1]
    assert float(tf.nn.scale_regularization_loss([tf.constant(1.0), tf.constant(2.5)])) == d["srl"]
    s = _strategy(2)
    with s.scope():
        with pytest.raises(RuntimeError) as err:
            tf.nn.compute_average_loss(tf.constant([1.0, 2.0]))
        assert str(err.value) == TWO["cal_cross_replica_error"][1]
        assert float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=4)) \
            == TWO["cal_cross_replica_global"]
        with pytest.raises(RuntimeError) as err:
            tf.nn.scale_regularization_loss(tf.constant(1.0))
        assert str(err.value) == TWO["srl_cross_replica_error"][1]
    cal = s.run(lambda: tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 4.0])))
    assert [float(x) for x in s.experimental_local_results(cal)] == pytest.approx(
        TWO["cal_replica_default"], rel=1e-7)
    srl = s.run(lambda: tf.nn.scale_regularization_loss(tf.constant(3.0)))
    assert [float(x) for x in s.experimental_local_results(srl)] == TWO["srl_replica"]


def test_input_context():
    d = FIX["default"]["input_context"]
    c = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1,
                                   num_replicas_in_sync=4)
    assert str(c) == d["str"]
    assert c.get_per_replica_batch_size(16) == d["per_replica_16"]
    assert [c.num_input_pipelines, c.input_pipeline_id, c.num_replicas_in_sync] == d["props"]
    with pytest.raises(ValueError) as err:
        c.get_per_replica_batch_size(10)
    assert str(err.value) == d["error"][1]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_global_batches_split_as_tensorflow_splits_them(n):
    s = _strategy(n)
    for g, parts in FIX[f"replicas_{n}"]["splits"].items():
        ds = s.experimental_distribute_dataset(tf.data.Dataset.range(int(g)).batch(int(g)))
        (batch,) = list(ds)
        assert [t.numpy().tolist() for t in s.experimental_local_results(batch)] == parts, g


@pytest.mark.parametrize("n", [1, 2, 3])
def test_reduce_and_gather_as_tensorflow(n):
    s = _strategy(n)
    ds = s.experimental_distribute_dataset(tf.data.Dataset.range(14).batch(8))
    steps = FIX[f"replicas_{n}"]["reduce_steps"]
    batches = list(ds)
    assert len(batches) == len(steps)
    for batch, want in zip(batches, steps):
        assert [t.numpy().tolist() for t in s.experimental_local_results(batch)] == want["parts"]
        means = s.run(lambda x: tf.reduce_mean(tf.cast(x, "float32")), args=(batch,))
        assert float(s.reduce("SUM", means, axis=None)) == want["sum_none"]
        floats = s.run(lambda x: tf.cast(x, tf.float32), args=(batch,))
        assert float(s.reduce("MEAN", floats, axis=0)) == want["mean_0"]
        assert float(s.reduce(tf.distribute.ReduceOp.SUM, floats, axis=0)) == want["sum_0"]
        vec = s.run(lambda x: tf.cast(x[:1], tf.float32) * 2.0, args=(batch,))
        assert s.reduce("mean", vec, axis=None).numpy().tolist() == want["mean_none_vec"]
        assert s.gather(batch, axis=0).numpy().tolist() == want["gather"]


def test_printed_forms_are_tensorflows():
    s = _strategy(2)
    batch = next(iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(8))))
    assert _printed(batch) == TWO["printed_batch"]
    assert repr(batch) == TWO["repr_batch"]
    result = s.run(lambda x: x * 2, args=(batch,))
    assert type(result).__name__ == TWO["run_type"]
    assert _printed(result) == TWO["printed_run"]
    with s.scope():
        v = tf.Variable(1.0)
        w = tf.Variable([1.5, 2.0], name="w")
    assert type(v).__name__ == TWO["var_type"]
    assert _printed(v) == TWO["printed_var"]
    assert _printed(w) == TWO["printed_var_w"]
    ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert _printed(ids) == TWO["printed_ids"]
    assert repr(s.experimental_local_results(batch)) == TWO["local_results_repr"]
    values = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group * 10))
    assert _printed(values) == TWO["values_from_fn"]


def test_replica_updates_and_all_reduce():
    s = _strategy(2)
    with s.scope():
        v = tf.Variable(1.0)
    s.run(lambda: v.assign_add(1.0))  # each replica's copy gets its own +1: 2.0, not 3.0
    assert [float(x) for x in s.experimental_local_results(v)] == TWO["assign_add_each"]
    assert float(v.numpy()) == TWO["var_outside"]
    ar = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                       tf.float32) + 1.0))
    assert _printed(ar) == TWO["printed_all_reduce"]
    n = s.run(lambda: tf.constant(tf.distribute.get_replica_context().num_replicas_in_sync))
    assert int(n.values[0]) == TWO["num_in_ctx"]
    with pytest.raises(ValueError) as err:
        s.reduce("SUM", tf.constant(3.0), None)
    assert str(err.value) == TWO["reduce_plain_sum"]["error"][1]
    assert float(s.reduce("MEAN", tf.constant(3.0), None)) == TWO["reduce_plain_mean"]
    with s.scope():
        assert [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(),
                tf.distribute.get_replica_context() is None] == TWO["in_scope"]


def test_distribute_datasets_from_function():
    s = _strategy(2)
    seen = []

    def dataset_fn(ctx):
        seen.append([ctx.num_input_pipelines, ctx.input_pipeline_id,
                     ctx.num_replicas_in_sync, ctx.get_per_replica_batch_size(8)])
        return tf.data.Dataset.range(10).batch(ctx.get_per_replica_batch_size(8))

    got = [[t.numpy().tolist() for t in s.experimental_local_results(b)]
           for b in s.distribute_datasets_from_function(dataset_fn)]
    assert got == TWO["from_function"]
    assert seen == TWO["from_function_contexts"]


def _keras_model(s):
    with s.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4)])
    model.set_weights([np.arange(12, dtype=np.float32).reshape(3, 4) / 10.0,
                       np.array([0.1, -0.2, 0.3, 0.0], np.float32)])
    return model


def test_metrics_and_keras_losses_under_a_strategy():
    s = _strategy(2)
    with s.scope():
        m = tf.keras.metrics.Mean()
    ds = s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(tf.constant([1.1695, 2.4411])).batch(2))
    s.run(lambda x: m.update_state(x), args=(next(iter(ds)),))
    assert float(m.result()) == pytest.approx(TWO["metric_mean"], rel=1e-6)
    x = np.array(TWO["loss_x"], np.float32)
    y = np.array(TWO["loss_y"])
    tf.keras.backend.clear_session()  # names restart at sequential/dense, as in the fixture
    model = _keras_model(s)
    default = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    none = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    ds = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(6))
    xb, yb = next(iter(ds))
    a, b = s.run(lambda xr, yr: (default(yr, model(xr)), tf.nn.compute_average_loss(
        none(yr, model(xr)), global_batch_size=6)), args=(xb, yb))
    np.testing.assert_allclose([float(t) for t in s.experimental_local_results(a)],
                               TWO["keras_loss_in_replica"], rtol=1e-6)
    np.testing.assert_allclose([float(t) for t in s.experimental_local_results(b)],
                               TWO["cal_in_replica"], rtol=1e-6)
    with s.scope():
        assert float(default(y, model(x))) == pytest.approx(TWO["keras_loss_in_scope"], 1e-6)
    assert float(default(y, model(x))) == pytest.approx(TWO["keras_loss_outside"], 1e-6)
    assert _printed(model.weights[0]) == TWO["model_var_printed"]


def _train(strategy, steps=20, global_batch=16):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((global_batch, 5)).astype(np.float32)
    y = rng.integers(0, 3, global_batch)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((5,)),
                                     tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
        model.set_weights([np.linspace(-1, 1, w.size, dtype=np.float32).reshape(w.shape)
                           for w in model.get_weights()])
        opt = tf.keras.optimizers.Adam(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    ds = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch))

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_fn(by, model(bx)),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = []
    for _ in range(steps):
        for bx, by in ds:
            losses.append(float(strategy.reduce("SUM", strategy.run(step, args=(bx, by)),
                                                axis=None)))
    return model.get_weights(), int(opt.iterations), losses


@pytest.mark.parametrize("global_batch", [16, 7])
def test_two_replicas_equal_one_replica_on_the_full_batch_after_20_steps(global_batch):
    w1, it1, l1 = _train(_strategy(1), global_batch=global_batch)
    w2, it2, l2 = _train(_strategy(2), global_batch=global_batch)
    assert it1 == it2 == 20
    np.testing.assert_allclose(l2, l1, rtol=1e-6)
    for a, b in zip(w2, w1):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert max(float(np.max(np.abs(a - b))) for a, b in zip(w1, w2)) < 1e-5


def test_fit_and_evaluate_under_mirrored_strategy_equal_one_device():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 5)).astype(np.float32)
    y = rng.integers(0, 3, 32)

    def run(strategy):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(3)])
            model.set_weights([np.linspace(-1, 1, w.size, dtype=np.float32).reshape(w.shape)
                               for w in model.get_weights()])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), metrics=["accuracy"],
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        hist = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
        return hist.history, model.evaluate(x, y, verbose=0), model.predict(x, verbose=0)

    one, two = run(_strategy(1)), run(_strategy(2))
    for key in ("loss", "accuracy"):
        np.testing.assert_allclose(two[0][key], one[0][key], rtol=1e-6)
    np.testing.assert_allclose(two[1], one[1], rtol=1e-6)
    np.testing.assert_allclose(two[2], one[2], rtol=1e-6)


def test_replica_error_reaches_the_caller():
    s = _strategy(2)

    def fn():
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise KeyError("replica 1")
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))

    with pytest.raises(KeyError, match="replica 1"):
        s.run(fn)


def test_logical_devices():
    assert repr(tf.config.LogicalDeviceConfiguration()) == FIX["replicas_2"]["ldc_repr"]
    code = ("import tapeflow as tf\n"
            "cpu = tf.config.list_physical_devices('CPU')[0]\n"
            "tf.config.set_logical_device_configuration(cpu, "
            "[tf.config.LogicalDeviceConfiguration()] * 2)\n"
            "print([d.name for d in tf.config.list_logical_devices('CPU')])\n"
            "print('Number of devices: {}'.format("
            "tf.distribute.MirroredStrategy().num_replicas_in_sync))\n")
    out = _python(code)
    assert out.splitlines() == [str(TWO["logical"]), "Number of devices: 2"]


def _python(code, env=None):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    full = dict(os.environ, PYTHONPATH=os.path.join(root, "src"), **(env or {}))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=full)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_import_tapeflow_loads_neither_distribute_nor_mpi4py():
    out = _python("import sys, tapeflow as tf\n"
                  "print(sorted(m for m in sys.modules if 'mpi4py' in m or 'distribute' in m))\n"
                  "tf.distribute.MirroredStrategy()\n"
                  "print('mpi4py' in sys.modules)\n")
    assert out.splitlines() == ["[]", "False"]


def test_thread_communicator_sums_in_rank_order():
    import threading

    from tapeflow.distribute import collective_ops
    from tapeflow.distribute.communicator import ThreadCommunicator

    comms = ThreadCommunicator.group(3)
    out = {}

    def work(c):
        out[c.rank] = collective_ops.pack_all_reduce(
            [tf.constant([1.0, 2.0]) * float(c.rank + 1), tf.constant(3.0),
             tf.constant([c.rank], tf.int64)], c, "sum")

    threads = [threading.Thread(target=work, args=(c,)) for c in comms]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in range(3):
        assert out[r][0].numpy().tolist() == [6.0, 12.0]
        assert float(out[r][1]) == 9.0
        assert out[r][2].numpy().tolist() == [3]
        assert comms[r].calls["allreduce"] == 2  # one per dtype: float32, int64


def test_distributed_digits_example_with_two_thread_replicas_matches_one():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    example = os.path.join(root, "examples", "distributed_digits.py")
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"), OPENBLAS_NUM_THREADS="1")
    runs = [subprocess.run([sys.executable, example, "--epochs", "2", *extra],
                           capture_output=True, text=True, timeout=120, env=env)
            for extra in ([], ["--replicas", "2"])]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr + runs[1].stderr
    epochs = [[line for line in r.stdout.splitlines() if line.startswith("Epoch")]
              for r in runs]
    assert len(epochs[0]) == 2 and epochs[0] == epochs[1]
    assert float(epochs[0][-1].rsplit(" ", 1)[1]) > 90.0  # test accuracy, percent
    assert runs[1].stdout.splitlines()[0] == "Number of devices: 2"


@pytest.mark.parametrize("n", [1, 2])
def test_run_inside_tf_function_and_replica_all_reduce_mean(n):
    s = _strategy(n)
    with s.scope():
        v = tf.Variable([1.0, 2.0])

    @tf.function
    def step(x):
        def fn(xr):
            ctx = tf.distribute.get_replica_context()
            mean = ctx.all_reduce(tf.distribute.ReduceOp.MEAN, tf.reduce_sum(xr) * v)
            gathered = ctx.all_gather(xr, axis=0)
            return mean, gathered
        mean, gathered = s.run(fn, args=(x,))
        # the tracer returns Tensors only (a PerReplica output is not supported yet)
        return s.experimental_local_results(mean), s.experimental_local_results(gathered)

    ds = s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(tf.constant([1.0, 2.0, 3.0, 5.0])).batch(4))
    means, gathered = step(next(iter(ds)))
    sums = [3.0, 8.0] if n == 2 else [11.0]
    want = (np.mean(sums) * np.array([1.0, 2.0])).tolist()
    assert len(means) == len(gathered) == n
    for t in means:
        assert t.numpy().tolist() == want
    for t in gathered:
        assert t.numpy().tolist() == [1.0, 2.0, 3.0, 5.0]


def test_metric_state_takes_every_replicas_assign_add_plain_mirrored_takes_one():
    s = _strategy(2)
    with s.scope():
        m = tf.keras.metrics.Sum()
        v = tf.Variable(0.0)

    def fn():
        x = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        m.total.assign_add(x + 1.0)  # what a metric written with assign_add does
        v.assign_add(1.0)

    s.run(fn)
    assert float(m.result()) == 3.0  # 1 + 2: summed over replicas, as TF's sum-on-read
    assert float(v.numpy()) == 1.0   # each copy + 1, the buffer once


@pytest.mark.parametrize("run_eagerly", [True, False])
def test_fit_runs_a_custom_train_step_once_per_replica_on_its_slice(run_eagerly):
    class Custom(tf.keras.Sequential):
        def train_step(self, data):
            ctx = tf.distribute.get_replica_context()
            print("python", ctx.num_replicas_in_sync, data[0].shape[0])
            tf.print("rows", tf.shape(data[0])[0], output_stream=sys.stdout)
            return super().train_step(data)

    s = _strategy(2)
    with s.scope():
        model = Custom([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    x = np.ones((7, 2), np.float32)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(x, np.zeros((7, 1), np.float32), batch_size=7, epochs=2, verbose=0)
    # eagerly: the Python body runs per replica and step on the concrete slices (4 and 3
    # rows); compiled (Keras traces strategy.run): once per replica, with the slices' spec
    want = (["python 2 4", "rows 4", "python 2 3", "rows 3"] * 2 if run_eagerly else
            ["python 2 None"] * 2 + ["rows 4", "rows 3"] * 2)
    assert out.getvalue().split("\n") == want + [""]
    assert int(model.optimizer.iterations) == 2
    report = model.train_function.experimental_trace_report()
    if not run_eagerly:
        assert "`train_multi_step_on_iterator`: 1 trace(s)" in report


@pytest.mark.parametrize("ids", [[0, 3, 3, 5], [0, 3, 5, 3, 1]])
def test_indexed_slices_gradients_are_gathered_over_replicas(ids):
    # Row 3 appears on both replicas: Adam's sparse update sees each slice (the sum of
    # squared slices in its second moment), as on one replica with the whole batch; a dense
    # sum of the replicas' gradients would give row 3 a different value.
    def run(n):
        s = _strategy(n)
        with s.scope():
            table = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2))
            opt = tf.keras.optimizers.Adam(0.1)
        ds = s.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices(tf.constant(ids)).batch(len(ids)))

        def step(i):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.gather(table, i) ** 2) / float(len(ids))
            grads = tape.gradient(loss, [table])
            assert isinstance(grads[0], tf.IndexedSlices)
            opt.apply_gradients(zip(grads, [table]))
        for _ in range(3):
            s.run(step, args=(next(iter(ds)),))
        return table.numpy()
    one, two = run(1), run(2)
    np.testing.assert_allclose(two, one, rtol=1e-6)
    assert one[3].tolist() != [6.0, 7.0]  # the row was updated
