"""Programs that tests/distribute/test_mpi.py runs under ``mpiexec -n N``.

``python tests/distribute/mpi_cases.py NAME [global_batch]``; prints ``OK ...`` on rank 0 when
every check passed, raises (and so aborts the job) otherwise.
"""
import os
import sys

import numpy as np

import tapeflow as tf

STEPS = 100


def _data(global_batch):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((global_batch * 3, 16)).astype(np.float32)
    y = rng.integers(0, 4, global_batch * 3)
    return x, y


def _weights():
    rng = np.random.default_rng(11)
    return [(rng.standard_normal((16, 32)) * 0.3).astype(np.float32),
            np.zeros(32, np.float32),
            (rng.standard_normal((32, 4)) * 0.3).astype(np.float32),
            np.zeros(4, np.float32)]


def _model():
    return tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(32, "relu"),
                                tf.keras.layers.Dense(4)])


def _reference(global_batch):
    """One process, no strategy, the full global batch each step."""
    x, y = _data(global_batch)
    model, opt = _model(), tf.keras.optimizers.Adam(0.01)
    model.set_weights(_weights())
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch).repeat()
    for _, (bx, by) in zip(range(STEPS), ds):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_fn(by, model(bx)),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return model.get_weights()


def train(global_batch):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    comm = strategy._comm
    rank = comm.rank
    tf.random.set_seed(100 + rank)  # different local initialisations...
    with strategy.scope():
        model = _model()
        opt = tf.keras.optimizers.Adam(0.01)
    first = np.concatenate([w.ravel() for w in model.get_weights()])
    gathered = comm.allgather(first)
    assert all(np.array_equal(g, gathered[0]) for g in gathered), "not broadcast at creation"
    model.set_weights(_weights())
    x, y = _data(global_batch)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    ds = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch).repeat())

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_fn(by, model(bx)),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    rows = []
    for i, (bx, by) in zip(range(STEPS), ds):
        rows.append(int(bx.shape[0]))
        before = comm.calls["allreduce"]
        strategy.run(step, args=(bx, by))
        assert comm.calls["allreduce"] - before == 1, "not one all-reduce per step"
        flat = np.concatenate([w.ravel() for w in model.get_weights()])
        gathered = comm.allgather(flat)
        assert all(np.array_equal(g, gathered[0]) for g in gathered), f"ranks differ at {i}"
    sizes = comm.allgather(np.array(rows[:1]))
    assert sum(int(s[0]) for s in sizes) == global_batch
    if rank == 0:
        ref = _reference(global_batch)
        for a, b in zip(model.get_weights(), ref):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        dev = max(float(np.max(np.abs(a - b))) for a, b in zip(model.get_weights(), ref))
        print(f"OK size={comm.size} batches={[int(s[0]) for s in sizes]} "
              f"max_abs_dev={dev:.2e} iterations={int(opt.iterations)}")


def fit():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    x, y = _data(12)

    def run(strat):
        with strat.scope():
            model = _model()
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                          metrics=["accuracy"])
        model.set_weights(_weights())
        hist = model.fit(x, y, batch_size=12, epochs=2, verbose=0, shuffle=False)
        # predict: each rank predicts its slice of a batch, gathered in rank order
        return (hist.history, model.evaluate(x, y, batch_size=12, verbose=0),
                model.predict(x, batch_size=5, verbose=0))

    dist = run(strategy)
    local = run(tf.distribute.OneDeviceStrategy("/cpu:0"))
    if strategy._comm.rank == 0:
        for key in ("loss", "accuracy"):
            np.testing.assert_allclose(dist[0][key], local[0][key], rtol=1e-5)
        np.testing.assert_allclose(dist[1], local[1], rtol=1e-5)
        assert dist[2].shape == local[2].shape == (len(x), 4)
        np.testing.assert_allclose(dist[2], local[2], rtol=1e-5, atol=1e-6)
        print("OK", dist[:2])


def hvd_case():
    import tapeflow.distribute.hvd as hvd
    hvd.init()
    tf.random.set_seed(hvd.rank())
    x, y = _data(8)
    model, opt = _model(), tf.keras.optimizers.SGD(0.05)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    lo, hi = hvd.rank() * 4, hvd.rank() * 4 + 4
    for step in range(5):
        with tf.GradientTape() as tape:
            loss = loss_fn(y[lo:hi], model(x[lo:hi]))
        tape = hvd.DistributedGradientTape(tape)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        if step == 0:
            hvd.broadcast_variables(model.variables, root_rank=0)
            hvd.broadcast_variables(opt.variables, root_rank=0)
    flat = np.concatenate([w.ravel() for w in model.get_weights()])
    gathered = hvd.allgather(tf.constant(flat[None]))
    assert np.array_equal(gathered[0].numpy(), gathered[1].numpy())
    avg = hvd.allreduce(tf.constant(float(hvd.rank())))
    assert float(avg) == (hvd.size() - 1) / 2
    total = hvd.allreduce(tf.constant(float(hvd.rank())), op=hvd.Sum)
    assert float(total) == sum(range(hvd.size()))
    # DistributedOptimizer averages before applying: w -= lr * mean(rank + 1)
    w = tf.Variable(0.0)
    dist_opt = hvd.DistributedOptimizer(tf.keras.optimizers.SGD(1.0))
    dist_opt.apply_gradients([(tf.constant(float(hvd.rank() + 1)), w)])
    assert float(w.numpy()) == -(hvd.size() + 1) / 2, float(w.numpy())
    if hvd.rank() == 0:
        print("OK hvd")


def reduce_as_tensorflow():
    """reduce/gather over ranks equal TF 2.21's values for as many in-process replicas."""
    import json
    import os
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    n = strategy.num_replicas_in_sync
    path = os.path.join(os.path.dirname(__file__), "..", "fixtures", "distribute",
                        "tf_distribute.json")
    steps = json.load(open(path))[f"replicas_{n}"]["reduce_steps"]
    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.range(14).batch(8))
    for batch, want in zip(ds, steps, strict=True):
        assert batch.numpy().tolist() == want["parts"][strategy._comm.rank]
        f = strategy.run(lambda x: tf.cast(x, tf.float32), args=(batch,))
        got = {"mean_0": float(strategy.reduce("MEAN", f, axis=0)),
               "sum_0": float(strategy.reduce("SUM", f, axis=0)),
               "sum_none": float(strategy.reduce("SUM", tf.reduce_mean(f), axis=None)),
               "mean_none_vec": strategy.reduce("MEAN", f[:1] * 2.0, axis=None).numpy().tolist(),
               "gather": strategy.gather(batch, 0).numpy().tolist()}
        assert got == {k: want[k] for k in got}, (got, want)
    mean = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "MEAN", [tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                         tf.float32), tf.constant([2.0, 4.0])]))
    assert float(mean[0]) == (n - 1) / 2 and mean[1].numpy().tolist() == [2.0, 4.0]
    from threadpoolctl import threadpool_info  # part of tapeflow[mpi]
    blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    assert blas and all(t == 1 for t in blas), blas  # 2 cores shared by >= 2 ranks
    if strategy._comm.rank == 0:
        print("OK reduce", n)


def raise_on_rank_1():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    comm = strategy._comm
    if comm.rank == 1:
        raise RuntimeError("rank 1 fails")
    comm.barrier()  # rank 0 would wait here forever without the abort
    print("UNREACHED")


def checkpoint_case(directory):
    """Every worker saves and restores through one CheckpointManager on a shared directory:
    the chief writes, the others wait; all restore the same values."""
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    with strategy.scope():
        v = tf.Variable(tf.zeros([3]))
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    for step in range(1, 4):
        v.assign(tf.fill([3], float(step)))
        manager.save()
    v.assign(tf.zeros([3]))
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    assert v.numpy().tolist() == [3.0, 3.0, 3.0], v.numpy()
    assert tf.train.latest_checkpoint(directory).endswith("ckpt-3")
    assert [p.rsplit("-", 1)[1] for p in manager.checkpoints] == ["2", "3"], manager.checkpoints
    files = sorted(os.listdir(directory))
    assert files == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
                     "ckpt-3.data-00000-of-00001", "ckpt-3.index"], files
    if rank == 0:
        print("OK checkpoint", strategy.num_replicas_in_sync)


if __name__ == "__main__":
    name = sys.argv[1]
    if name == "checkpoint":
        checkpoint_case(sys.argv[2])
    if name == "train":
        train(int(sys.argv[2]))
    elif name == "fit":
        fit()
    elif name == "hvd":
        hvd_case()
    elif name == "reduce":
        reduce_as_tensorflow()
    elif name == "raise":
        raise_on_rank_1()
