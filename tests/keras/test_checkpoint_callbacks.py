"""ModelCheckpoint and BackupAndRestore: Keras 3's files, names, messages and resumption."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("h5py")

RNG = np.random.default_rng(3)
X = RNG.normal(size=(24, 4)).astype(np.float32)
Y = (X @ RNG.normal(size=(4, 2))).astype(np.float32)


def make_model(seed=0):
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(5, activation="tanh"),
                                 tf.keras.layers.BatchNormalization(),
                                 tf.keras.layers.Dense(2)])
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(0.5, 1.5, w.shape).astype(np.float32) if "variance" in w.name
                       else rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.weights])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    return model


def fit(model, epochs, callbacks, **kwargs):
    return model.fit(X, Y, batch_size=8, epochs=epochs, shuffle=False, verbose=0,
                     callbacks=callbacks, **kwargs)


class StopAt(tf.keras.callbacks.Callback):
    """Simulate a crash: raise when epoch ``epoch`` begins."""

    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise KeyboardInterrupt(f"interrupted at epoch {epoch}")


# -- ModelCheckpoint --------------------------------------------------------------------

def test_checkpoint_filepath_template_and_messages(tmp_path, capsys):
    model = make_model()
    pattern = str(tmp_path / "ckpt-{epoch:02d}-{val_loss:.3f}.weights.h5")
    cb = tf.keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True, verbose=1)
    history = fit(model, 3, [cb], validation_data=(X, Y))
    names = sorted(os.listdir(tmp_path))
    expected = [f"ckpt-{e + 1:02d}-{v:.3f}.weights.h5"
                for e, v in enumerate(history.history["val_loss"])]
    assert names == expected
    out = capsys.readouterr().out
    first = str(tmp_path / expected[0])
    assert f"\nEpoch 1: saving model to {first}\n" in out
    assert f"\nEpoch 1: finished saving model to {first}\n" in out
    # The last file holds the final weights.
    other = make_model(seed=9)
    other.load_weights(str(tmp_path / expected[-1]))
    for a, b in zip(other.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_save_best_only_keeps_the_best_by_monitor_and_mode(tmp_path, capsys):
    model = make_model()
    path = str(tmp_path / "best.keras")
    cb = tf.keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True,
                                            verbose=1)
    # Validation on data the model gets worse at after the first epochs.
    bad_y = -Y
    history = fit(model, 4, [cb], validation_data=(X, bad_y))
    losses = history.history["val_loss"]
    best = int(np.argmin(losses))
    out = capsys.readouterr().out
    assert f"Epoch 1: val_loss improved from None to {losses[0]:.5f}, saving model to {path}" in out
    for epoch in range(1, 4):
        if losses[epoch] >= min(losses[:epoch]):
            assert (f"Epoch {epoch + 1}: val_loss did not improve from "
                    f"{min(losses[:epoch]):.5f}") in out
    assert cb.best == pytest.approx(losses[best])
    restored = tf.keras.models.load_model(path)
    assert restored.evaluate(X, bad_y, verbose=0, return_dict=True)["loss"] == pytest.approx(
        losses[best], rel=1e-5)
    # mode='max' keeps the worst val_loss instead.
    cb_max = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "max.weights.h5"),
                                                save_weights_only=True, save_best_only=True,
                                                mode="max")
    history = fit(make_model(), 4, [cb_max], validation_data=(X, bad_y))
    assert cb_max.best == pytest.approx(max(history.history["val_loss"]))


def test_save_best_only_direction_from_the_metric_name(tmp_path):
    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.weights.h5"), monitor="val_mae",
                                            save_weights_only=True, save_best_only=True)
    history = fit(make_model(), 3, [cb], validation_data=(X, Y))
    assert cb.best == pytest.approx(min(history.history["val_mae"]))
    odd = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "o.weights.h5"), monitor="val_odd",
                                             save_weights_only=True, save_best_only=True)
    with pytest.raises(ValueError, match="isn't able to automatically determine"):
        fit(make_model(), 1, [odd], validation_data=(X, Y))


def test_missing_monitor_warns_and_saves(tmp_path):
    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.weights.h5"),
                                            save_weights_only=True, save_best_only=True)
    with pytest.warns(UserWarning, match="Can save best model only with val_loss available"):
        fit(make_model(), 1, [cb])
    assert os.path.exists(tmp_path / "m.weights.h5")


def test_integer_save_freq_saves_every_n_batches_with_the_batch_in_the_name(tmp_path):
    cb = tf.keras.callbacks.ModelCheckpoint(
        str(tmp_path / "e{epoch}-b{batch}.weights.h5"), save_weights_only=True, save_freq=2)
    fit(make_model(), 2, [cb])
    # 3 batches per epoch: saves after batches 2 (epoch 1), then 1 and 3 of epoch 2.
    assert sorted(os.listdir(tmp_path)) == ["e1-b2.weights.h5", "e2-b1.weights.h5",
                                            "e2-b3.weights.h5"]


def test_checkpoint_file_names_are_checked_as_keras_does(tmp_path):
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "w.h5"), save_weights_only=True)
    with pytest.raises(ValueError, match=r"must end in `\.keras`"):
        tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.hdf5"))
    tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.h5"))  # the legacy model file
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), save_freq="batch")
    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "{nope}.keras"))
    with pytest.raises(KeyError, match="Failed to format this callback filepath"):
        fit(make_model(), 1, [cb])


# -- BackupAndRestore -------------------------------------------------------------------

def test_interrupted_fit_resumes_at_the_epoch_and_ends_with_the_same_weights(tmp_path):
    backup = str(tmp_path / "backup")
    straight = make_model()
    fit(straight, 5, [])

    crashed = make_model()
    with pytest.raises(KeyboardInterrupt):
        fit(crashed, 5, [tf.keras.callbacks.BackupAndRestore(backup), StopAt(3)])
    assert sorted(os.listdir(backup)) == ["latest.weights.h5", "training_metadata.json"]
    with open(os.path.join(backup, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 3, "batch": 0}

    # A new process: another model object with other weights and an unbuilt optimizer.
    resumed = make_model(seed=42)
    history = fit(resumed, 5, [tf.keras.callbacks.BackupAndRestore(backup)])
    assert history.epoch == [3, 4]
    assert int(resumed.optimizer.iterations.numpy()) == 5 * 3
    for a, b in zip(resumed.get_weights(), straight.get_weights()):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(resumed.optimizer.variables, straight.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not os.path.exists(backup)  # delete_checkpoint after a normal end


def test_backup_with_batch_frequency_and_kept_directory(tmp_path):
    backup = str(tmp_path / "b")
    with pytest.raises(KeyboardInterrupt):
        fit(make_model(), 4, [tf.keras.callbacks.BackupAndRestore(
            backup, save_freq=2, delete_checkpoint=False), StopAt(2)])
    with open(os.path.join(backup, "training_metadata.json")) as f:
        # Every 2 batches across epochs of 3: the last save follows batch 2 of epoch 1
        # (0-based); Keras restarts that epoch from its start.
        assert json.load(f) == {"epoch": 1, "batch": 2}
    model = make_model(seed=5)
    history = fit(model, 4, [tf.keras.callbacks.BackupAndRestore(
        backup, save_freq=2, delete_checkpoint=False)])
    assert history.epoch == [1, 2, 3]
    assert os.path.exists(backup)


def test_double_checkpoint_falls_back_to_the_previous_backup(tmp_path):
    backup = str(tmp_path / "b")
    with pytest.raises(KeyboardInterrupt):
        fit(make_model(), 5, [tf.keras.callbacks.BackupAndRestore(
            backup, double_checkpoint=True), StopAt(3)])
    assert sorted(os.listdir(backup)) == ["latest.weights.h5", "latest.weights.h5.bkp",
                                          "training_metadata.json",
                                          "training_metadata.json.bkp"]
    with open(os.path.join(backup, "latest.weights.h5"), "wb") as f:
        f.write(b"not an hdf5 file")  # a torn write the previous backup survives
    model = make_model(seed=5)
    history = fit(model, 5, [tf.keras.callbacks.BackupAndRestore(backup,
                                                                 double_checkpoint=True)])
    assert history.epoch == [2, 3, 4]


def test_backup_arguments_are_checked():
    with pytest.raises(ValueError, match="Empty `backup_dir`"):
        tf.keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="Invalid value for argument `save_freq`"):
        tf.keras.callbacks.BackupAndRestore("x", save_freq="batch")
