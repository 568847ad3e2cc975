"""``tf.keras.backend``: the global settings programs touch, and the few legacy Keras 2
backend functions (``sum``, ``mean``, ``int_shape``, ``ctc_batch_cost``, ...) that TF 2.21's
``tf.keras.backend`` still exports and programs still call."""
from . import _naming

__all__ = ["abs", "backend", "clear_session", "ctc_batch_cost", "ctc_decode",
           "ctc_label_dense_to_sparse", "epsilon", "floatx", "image_data_format", "int_shape",
           "mean", "random_normal", "result_type", "set_epsilon", "set_floatx",
           "set_image_data_format", "standardize_dtype", "sum"]


def clear_session(free_memory=True):
    """Restart automatic naming (``dense``, ``dense_1``, ... start again from ``dense``)."""
    _naming._uids.clear()


# Keras 3's global settings (``keras.config``), read where Keras reads them: ``floatx`` by
# every default dtype, ``epsilon`` at call time by the losses, metrics and layers that clip
# or divide by it, ``image_data_format`` by the image layers when they are made.
_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"


def epsilon():
    """The fuzz factor the losses clip probabilities with and the metrics add to their
    denominators (``tf.keras.config.epsilon``; default ``1e-7``)."""
    return _EPSILON


def set_epsilon(value):
    """Set the fuzz factor :func:`epsilon` returns (``tf.keras.config.set_epsilon``).

    Args:
        value: a float. As in Keras 3.15 it is stored unchecked; a non-number fails where it
            is used.
    """
    global _EPSILON
    _EPSILON = value


def floatx() -> str:
    """The default float type (``tf.keras.config.floatx``): ``'float32'`` unless
    :func:`set_floatx` changed it."""
    return _FLOATX


def set_floatx(value):
    """Set the default float type (``tf.keras.config.set_floatx``): the dtype of new weights
    (through the global dtype policy, when it has not been read yet), of ``keras.ops`` and
    ``keras.random`` results without a ``dtype``, of ``keras.Input`` and of losses and metrics.

    Args:
        value: ``'bfloat16'``, ``'float16'``, ``'float32'`` or ``'float64'``.

    Raises:
        ValueError: for any other value (Keras 3's text).
    """
    global _FLOATX
    accepted = {"bfloat16", "float16", "float32", "float64"}
    if value not in accepted:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {accepted}")
    _FLOATX = str(value)


def backend() -> str:
    """The name of the backend Keras runs on: ``'tensorflow'``, as Keras 3 on TF says
    (``tf.keras.backend.backend``, ``tf.keras.config.backend``)."""
    return "tensorflow"


def image_data_format() -> str:
    """The default layout of image layers (``tf.keras.config.image_data_format``):
    ``'channels_last'`` unless :func:`set_image_data_format` changed it."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    """Set the default layout of image layers made from now on
    (``tf.keras.config.set_image_data_format``).

    Args:
        data_format: ``'channels_first'`` or ``'channels_last'`` (any letter case).

    Raises:
        ValueError: for any other value (Keras 3's text).
    """
    global _IMAGE_DATA_FORMAT
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _IMAGE_DATA_FORMAT = data_format


def standardize_data_format(data_format) -> str:
    """A layer's ``data_format`` argument as Keras 3 reads it: None is
    :func:`image_data_format` (read when the layer is made), any letter case is accepted.

    Raises:
        ValueError: for anything but ``'channels_first'``/``'channels_last'`` (Keras's text).
    """
    if data_format is None:
        return _IMAGE_DATA_FORMAT
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format


# keras.config.enable_unsafe_deserialization()'s switch, read by saving/serialization.py
UNSAFE_DESERIALIZATION = [False]

# Keras's promotion rules live one floor up (keras/ops/_dtypes.py, which reads floatx from
# here): it registers result_type and standardize_dtype when it loads, as keras does.
_PROMOTION = {}


def result_type(*dtypes) -> str:
    """The dtype Keras 3's type promotion gives ``dtypes`` (``tf.keras.backend.result_type``):
    Python ``int``/``float`` are weak and take :func:`floatx`'s precision; none gives
    :func:`floatx`. See ``keras.ops``'s promotion (``keras/ops/_dtypes.py``).

    Raises:
        ValueError: for dtypes with no promotion path (Keras's text).
    """
    return _PROMOTION["result_type"](*dtypes)


def standardize_dtype(dtype) -> str:
    """A dtype's Keras name (``tf.keras.backend.standardize_dtype``): None is :func:`floatx`,
    Python ``int`` is ``'int64'``, ``float`` ``'float32'``."""
    return _PROMOTION["standardize_dtype"](dtype)


def int_shape(x):
    """The static shape of ``x`` as a tuple (``None`` for unknown dimensions), or None when
    the rank is unknown (``tf.keras.backend.int_shape``)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    if hasattr(shape, "as_list"):
        if getattr(shape, "rank", 0) is None:
            return None
        return tuple(shape.as_list())
    return tuple(shape)


def abs(x):  # noqa: A001 - Keras's name
    """``tf.abs(x)`` (``tf.keras.backend.abs``)."""
    from ..ops import math_ops
    return math_ops.abs(x)


def sum(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    """``tf.reduce_sum(x, axis, keepdims)`` (``tf.keras.backend.sum``)."""
    from ..ops import reduction_ops
    return reduction_ops.reduce_sum(x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    """``tf.reduce_mean(x, axis, keepdims)``, a bool ``x`` counted as float32
    (``tf.keras.backend.mean``)."""
    from .._core.tensor import convert_to_tensor
    from ..ops import array_ops, reduction_ops
    x = convert_to_tensor(x)
    if x.dtype.name == "bool":
        x = array_ops.cast(x, floatx())
    return reduction_ops.reduce_mean(x, axis, keepdims)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples (``tf.random.normal``); without ``seed`` one is drawn from NumPy's
    global generator, as Keras does (``tf.keras.backend.random_normal``)."""
    import numpy

    from ..ops import random_ops
    if seed is None:
        seed = numpy.random.randint(10e6)
    return random_ops.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                             seed=seed)


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first ``label_lengths[i]`` entries of each row of ``labels`` [batch, max_len] as
    a ``SparseTensor`` with int64 indices and dense shape ``labels.shape``."""
    from .._core.backend import np
    from .._core.tensor import convert_to_tensor
    from ..ops.sparse.sparse_tensor import SparseTensor
    labels = convert_to_tensor(labels)
    lengths = np.asarray(convert_to_tensor(label_lengths).numpy()).reshape(-1)
    dense = labels.numpy()
    keep = np.arange(dense.shape[1])[None, :] < lengths[:, None]
    indices = np.argwhere(keep).astype(np.int64)
    return SparseTensor(indices, dense[keep], np.asarray(dense.shape, np.int64))


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each batch element, ``[batch, 1]`` (``tf.keras.backend.ctc_batch_cost``).

    Args:
        y_true: int ``[batch, max_label_length]`` labels.
        y_pred: ``[batch, frames, num_classes]`` softmax outputs; the blank is the last
            class.
        input_length: int ``[batch, 1]`` frames of each element.
        label_length: int ``[batch, 1]`` labels of each element.
    """
    from ..ops import array_ops, ctc_ops, math_ops
    label_length = array_ops.cast(array_ops.squeeze(label_length, axis=-1), "int32")
    input_length = array_ops.cast(array_ops.squeeze(input_length, axis=-1), "int32")
    log_probs = math_ops.log(math_ops.add(array_ops.transpose(y_pred, [1, 0, 2]), epsilon()))
    loss = ctc_ops.ctc_loss(array_ops.cast(y_true, "int32"), log_probs, label_length,
                            input_length, logits_time_major=True, blank_index=-1)
    return array_ops.expand_dims(loss, 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Decode softmax outputs ``y_pred`` [batch, frames, num_classes] (blank last) by best
    path or beam search (``tf.keras.backend.ctc_decode``).

    Returns:
        ``(decoded, log_prob)``: a list of int64 ``[batch, frames]`` tensors padded with -1,
        and the ``[batch, top_paths]`` log probabilities (``[batch, 1]`` greedy).
    """
    from ..ops import array_ops, ctc_ops, math_ops
    from ..ops.sparse import sparse_ops
    from ..ops.sparse.sparse_tensor import SparseTensor
    num_samples, num_steps = int(y_pred.shape[0]), int(y_pred.shape[1])
    log_probs = math_ops.log(math_ops.add(array_ops.transpose(y_pred, [1, 0, 2]), epsilon()))
    input_length = array_ops.cast(input_length, "int32")
    if greedy:
        decoded, log_prob = ctc_ops.ctc_greedy_decoder(log_probs, input_length)
    else:
        decoded, log_prob = ctc_ops.ctc_beam_search_decoder(
            log_probs, input_length, beam_width=beam_width, top_paths=top_paths)
    dense = [sparse_ops.to_dense(
        SparseTensor(st.indices, st.values, [num_samples, num_steps]), default_value=-1)
        for st in decoded]
    return dense, log_prob
