"""Session 8's distribution details against TensorFlow 2.21's recorded behaviour
(tests/fixtures/distribute/tf_distribute_s8.json, tools/record_distribute.py): tf.config's
logical devices and runtime switches, ClusterSpec and the cluster resolvers, Server and
ParameterServerStrategy's checks, the partitioners, VariableAggregation and
VariableSynchronization (aggregated replica updates), a MirroredVariable as a
DistributedValues, MultiWorkerMirroredStrategy's task type, tf.random.Generator under a
strategy and in checkpoints, CentralStorageStrategy, a distributed dataset looped inside a
tf.function, tf.data.experimental's AutoShardPolicy/cardinality/assert_cardinality.

The recorder's own functions run under tapeflow (``import tapeflow as tf``) in a fresh
process (logical devices are fixed once per process), and their results must equal TF's.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = json.load(open(os.path.join(ROOT, "tests", "fixtures", "distribute",
                                  "tf_distribute_s8.json")))
_PLACEMENT = re.compile(r"\{\{function_node [^}]*\}\} ")


def _clean(x):
    """TF's kernel-placement prefix of op errors names its runtime, not the error."""
    if isinstance(x, str):
        return _PLACEMENT.sub("", x)
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    return x


@pytest.fixture(scope="module")
def ours():
    code = ("import json, sys\n"
            f"sys.path.insert(0, {os.path.join(ROOT, 'tools')!r})\n"
            "import tapeflow as tf\n"
            "import record_distribute as r\n"
            "data = {'config': r.record_config(tf)}\n"
            "data['cluster'] = r.record_cluster(tf)\n"
            "data['variables'] = r.record_variables_and_generators(tf)\n"
            "json.dump(data, sys.stdout)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    env.pop("TF_CONFIG", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("part", ["config", "cluster"])
def test_config_and_cluster_data_match_tensorflow(ours, part):
    for key, want in FIX[part].items():
        assert _clean(ours[part][key]) == _clean(want), key


@pytest.mark.parametrize("key", sorted(k for k in FIX["variables"] if k != "generators"))
def test_variables_strategies_and_data_match_tensorflow(ours, key):
    assert _clean(ours["variables"][key]) == _clean(FIX["variables"][key])


@pytest.mark.parametrize("key", sorted(FIX["variables"]["generators"]))
def test_generators_under_a_strategy_match_tensorflow(ours, key):
    """Per-replica streams (key hashed with the replica id), 256 per draw per replica, a
    cross-replica draw advancing every replica, a generator made outside drawing in turn."""
    assert ours["variables"]["generators"][key] == FIX["variables"]["generators"][key]


def test_generator_checkpoint_under_strategy_restores_every_replica(tmp_path):
    s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1", "CPU:2"])
    with s.scope():
        g = tf.random.Generator.from_seed(1)
        ck = tf.train.Checkpoint(my_generator=g)
        s.run(lambda: g.normal([]))
        path = ck.write(str(tmp_path / "c"))
        after = [s.experimental_local_results(s.run(lambda: g.normal([]))) for _ in range(2)]
        ck.restore(path)
        again = [s.experimental_local_results(s.run(lambda: g.normal([]))) for _ in range(2)]
    for a, b in zip(after, again):
        np.testing.assert_array_equal([float(x) for x in a], [float(x) for x in b])
    # the three replicas' streams differ (keys hashed with their ids)
    assert len({float(x) for x in after[0]}) == 3


def test_eager_run_warns_as_tensorflow_first_five_times(tmp_path):
    code = ("import tapeflow as tf\n"
            "s = tf.distribute.MirroredStrategy(['CPU:0'])\n"
            "for _ in range(2): s.run(lambda: 1.0)\n"
            "s = tf.distribute.MirroredStrategy(['CPU:0', 'CPU:1'])\n"
            "for _ in range(7): s.run(lambda: 1.0)\n"
            "tf.distribute.get_strategy().run(lambda: 1.0)\n"
            "tf.distribute.OneDeviceStrategy('cpu:0').run(lambda: 1.0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
    lines = out.stderr.splitlines()
    # TF 2.21 (probed): log_first_n(..., 5) shared by every strategy run this way
    assert len(lines) == 5 and all(line.startswith(
        "WARNING:tensorflow:Using MirroredStrategy eagerly has significant overhead")
        for line in lines), out.stderr


def _in_process_cluster(workers=2):
    import socket

    def port():
        with socket.socket() as s:
            s.bind(("localhost", 0))
            return s.getsockname()[1]
    cs = tf.train.ClusterSpec({"worker": [f"localhost:{port()}" for _ in range(workers)],
                               "ps": [f"localhost:{port()}"]})
    for i in range(workers):
        tf.distribute.Server(cs, job_name="worker", task_index=i, protocol="grpc")
    tf.distribute.Server(cs, job_name="ps", task_index=0, protocol="grpc")
    return cs


def test_parameter_server_strategy_and_coordinator_in_process():
    """TF 2.21 probe on its in-process cluster: one replica, plain variables, a scheduled
    step's fetch 4.0 (float32 NumPy), v 2.0, done(); per-worker datasets give each worker
    its own pipeline (sums 1, 1 then 5 or 9 by which worker is free: tapeflow takes the
    workers in turn, 5 and 5)."""
    cs = _in_process_cluster()
    s = tf.distribute.ParameterServerStrategy(
        tf.distribute.cluster_resolver.SimpleClusterResolver(cs, rpc_layer="grpc"),
        variable_partitioner=tf.distribute.experimental.partitioners.MinSizePartitioner(
            min_shard_bytes=256 << 10, max_shards=1))
    assert s.num_replicas_in_sync == 1
    with s.scope():
        v = tf.Variable(1.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert not isinstance(v, tf.distribute.DistributedValues)
    c = tf.distribute.coordinator.ClusterCoordinator(s)

    @tf.function
    def step():
        def fn():
            v.assign_add(1.0)
            return v * 2
        return s.run(fn)
    rv = c.schedule(step)
    c.join()
    assert rv.fetch() == 4.0 and type(rv.fetch()).__name__ == "float32"
    assert float(rv.get()) == 4.0 and float(v.numpy()) == 2.0 and c.done()
    it = iter(c.create_per_worker_dataset(lambda: tf.data.Dataset.range(10).batch(2)))

    @tf.function
    def step2(it):
        return s.run(lambda x: tf.reduce_sum(x), args=(next(it),))
    res = [c.schedule(step2, args=(it,)) for _ in range(4)]
    c.join()
    assert [int(r.fetch()) for r in res] == [1, 1, 5, 5]
    assert c.fetch([res[0], 7]) == [1, 7]


def test_scheduled_error_is_raised_by_join_and_fetch():
    cs = _in_process_cluster(1)
    s = tf.distribute.ParameterServerStrategy(
        tf.distribute.cluster_resolver.SimpleClusterResolver(cs))
    c = tf.distribute.coordinator.ClusterCoordinator(s)
    rv = c.schedule(lambda: s.run(lambda: tf.gather(tf.constant([1]), [5])))
    with pytest.raises(tf.errors.InvalidArgumentError):
        c.join()
    with pytest.raises(tf.errors.InvalidArgumentError):
        rv.fetch()
    c.join()  # raised once


def test_a_cluster_not_served_in_this_process_is_unavailable():
    r = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec({"worker": ["nohost:1"], "ps": ["nohost:2"]}))
    with pytest.raises(tf.errors.UnavailableError, match="nohost:1"):
        tf.distribute.ParameterServerStrategy(r)
    with pytest.raises(tf.errors.UnavailableError):
        tf.config.experimental_connect_to_cluster(r)
    with pytest.raises(ValueError, match="Only `tf.distribute.experimental.Parameter"):
        tf.distribute.coordinator.ClusterCoordinator(tf.distribute.get_strategy())


def test_mirrored_variable_is_a_distributed_value_and_a_variable():
    s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    assert isinstance(v, tf.distribute.DistributedValues) and isinstance(v, tf.Variable)
    assert s.experimental_local_results(v) == (v, v)
    assert float(s.reduce("SUM", v, axis=None)[1]) == 4.0   # each replica's copy, summed
