"""The TensorBoard callback: epoch (and batch) logs, weight histograms and images through
``tf.summary``, in Keras 3's layout (``<log_dir>/train``, ``<log_dir>/validation``)."""
import os
import time
import warnings

from ... import summary as _summary
from ..._core.backend import np
from ..saving.serialization import MODEL_CLASSES
from .callback import Callback

__all__ = ["TensorBoard"]


class TensorBoard(Callback):
    """Write logs for TensorBoard (``tf.keras.callbacks.TensorBoard``).

    Each epoch writes ``epoch_<name>`` scalars (and ``epoch_learning_rate``) to
    ``<log_dir>/train`` and the validation logs to ``<log_dir>/validation``; evaluation
    writes ``evaluation_<name>_vs_iterations``; with ``update_freq`` 'batch' or N, every
    batch writes ``batch_<name>``; with ``histogram_freq`` N, every N-th epoch writes a
    histogram (and with ``write_images`` an image) of each weight.

    Args:
        log_dir: the directory.
        histogram_freq: epochs between weight histograms (0: none).
        write_graph: write the model's JSON config (tag ``keras``) for TensorBoard's graph
            view, for Sequential and functional models, as Keras does (tapeflow has no
            TF graph of the train function to add).
        write_images: also write each weight as an image.
        write_steps_per_second: log the training speed too.
        update_freq: 'epoch', 'batch' or a number of batches.
        profile_batch, embeddings_freq, embeddings_metadata: accepted; not supported.

    Raises:
        ImportError: without the optional tensorboardX package (``tapeflow[tensorboard]``).
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        self.log_dir = str(log_dir)
        self.histogram_freq, self.write_graph = histogram_freq, write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.embeddings_freq, self.embeddings_metadata = embeddings_freq, embeddings_metadata
        self._writers = {}
        self._contexts = []
        self._global_train_batch = self._global_test_batch = 0
        self._batch_start = self._epoch_start = 0.0
        self._epoch_batches = 0

    def set_model(self, model):
        self.model = model
        self._train_dir = os.path.join(self.log_dir, "train")
        self._val_dir = os.path.join(self.log_dir, "validation")
        self._writers = {}
        functional = getattr(model, "_fn_outputs", None) is not None
        if self.write_graph and (type(model) is MODEL_CLASSES["Sequential"] or functional):
            try:
                text = model.to_json()
            except Exception as exc:  # noqa: BLE001 - Keras warns and goes on
                warnings.warn(f"Model failed to serialize as JSON. Ignoring... {exc}",
                              stacklevel=2)
                return
            with self._writer("train").as_default():
                _summary.write("keras", np.array(text, dtype=object), step=0,
                               metadata=("graph_keras_model", b"1"))

    def _writer(self, key):
        if key not in self._writers:
            path = self._train_dir if key == "train" else self._val_dir
            self._writers[key] = _summary.create_file_writer(path)
        return self._writers[key]

    def _push_writer(self, key, step):
        if self.update_freq == "epoch":
            return
        writer_context = self._writer(key).as_default(step)
        record_context = _summary.record_if(lambda: step % self.update_freq == 0)
        writer_context.__enter__()
        record_context.__enter__()
        self._contexts.append((writer_context, record_context))

    def _pop_writer(self):
        if self.update_freq == "epoch" or not self._contexts:
            return
        writer_context, record_context = self._contexts.pop()
        record_context.__exit__(None, None, None)
        writer_context.__exit__(None, None, None)

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0
        self._push_writer("train", self._global_train_batch)

    def on_train_end(self, logs=None):
        self._pop_writer()
        for writer in self._writers.values():
            writer.close()

    def on_test_begin(self, logs=None):
        self._push_writer("val", self._global_test_batch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and hasattr(optimizer, "iterations"):
            with self._writer("val").as_default():
                for name, value in (logs or {}).items():
                    _summary.scalar(f"evaluation_{name}_vs_iterations", value,
                                    step=optimizer.iterations)
        self._pop_writer()

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        self._epoch_batches += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer("train", self._global_train_batch)
        if self.write_steps_per_second:
            self._batch_start = _now()

    def on_train_batch_end(self, batch, logs=None):
        if self.write_steps_per_second:
            _summary.scalar("batch_steps_per_second",
                            1.0 / max(_now() - self._batch_start, 1e-9),
                            step=self._global_train_batch)
        if isinstance(logs, dict):
            for name, value in logs.items():
                _summary.scalar(f"batch_{name}", value, step=self._global_train_batch)

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start, self._epoch_batches = _now(), 0

    def on_epoch_end(self, epoch, logs=None):
        self._log_epoch_metrics(epoch, logs)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    def _log_epoch_metrics(self, epoch, logs):
        if not logs:
            return
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and hasattr(optimizer, "learning_rate"):
            train["learning_rate"] = float(np.asarray(optimizer.learning_rate))
        if self.write_steps_per_second:
            train["steps_per_second"] = self._epoch_batches / max(
                _now() - self._epoch_start, 1e-9)
        for key, values in (("train", train), ("val", val)):
            if values:
                with self._writer(key).as_default():
                    for name, value in values.items():
                        _summary.scalar(f"epoch_{name}", value, step=epoch)

    def _log_weights(self, epoch):
        with self._writer("train").as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    name = weight.path.replace(":", "_")
                    _summary.histogram(f"{name}/histogram", weight, step=epoch)
                    if self.write_images:
                        self._log_weight_as_image(weight, f"{name}/image", epoch)
            self._writer("train").flush()

    def _log_weight_as_image(self, weight, name, epoch):
        w = np.squeeze(weight.numpy())
        if w.ndim == 1:
            w = w.reshape(1, w.shape[0], 1, 1)
        elif w.ndim == 2:
            if w.shape[0] > w.shape[1]:
                w = w.T
            w = w.reshape(1, w.shape[0], w.shape[1], 1)
        elif w.ndim == 3:
            w = np.transpose(w, (2, 0, 1))[..., None]
        if w.ndim == 4 and w.shape[-1] in (1, 3, 4):
            _summary.image(name, w, step=epoch)


def _now():
    return time.time()
