"""Record Keras 3.15 / TensorFlow 2.21 values of the layers of issue 21's session-9 batch:
ConvLSTM1D/2D/3D, Conv3DTranspose (and ``tf.nn.conv3d_transpose``), the adaptive poolings and
GroupQueryAttention.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_keras_kconv.py
Writes tests/fixtures/keras/layers/kconv.json, read by tests/keras/test_layers_kconv.py.

A case builds ``cls(**kwargs)`` (after ``keras.utils.set_random_seed(case seed)``), calls it
once on its inputs (the build call), sets random weights, for a stateful layer resets its
states and makes ``pre_calls`` more calls, then calls it under a tape with ``training``.
It stores the inputs, weights (in ``layer.weights`` order) and names, every output, a random
cotangent per output and the gradients of ``sum(output_i * cotangent_i)`` with respect to the
float inputs and the trainable weights, the output shape and the config. A test replays the
same calls in the same order, so layers with dropout draw the same masks from their seeds.
"""
import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # TF's plain CPU kernels
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "layers")
RNG = np.random.default_rng(20261129 + 9)


def arr(shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def lists(x):
    """Nested lists; floats with float32's 9 significant digits (exact round trip)."""
    a = np.asarray(x)
    if a.dtype.kind != "f":
        return a.tolist()
    return _round(a.astype(np.float32).tolist())


def _round(v):
    if isinstance(v, list):
        return [_round(e) for e in v]
    return float(f"{v:.9g}")


def plain(value):
    """A JSON-able copy of a get_config value (dtype policies as their name)."""
    if isinstance(value, dict):
        if value.get("class_name") == "DTypePolicy":
            return value["config"]["name"]
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def encode(value):
    if isinstance(value, np.ndarray):
        return {"array": lists(value), "dtype": str(value.dtype)}
    return value


def decode_kwargs(kwargs):
    return {k: (tf.constant(np.asarray(v["array"], v["dtype"])) if isinstance(v, dict)
                and "array" in v else v) for k, v in kwargs.items()}


def case(cls, kwargs, inputs, label, call_kwargs=None, training=False, seed=1, pre_calls=0,
         build_kwargs=None, keep_weights=False):
    call_kwargs = call_kwargs or {}
    keras.utils.set_random_seed(seed)
    layer = getattr(keras.layers, cls)(**kwargs)
    ts = [tf.constant(x) for x in inputs]
    ckw = decode_kwargs(call_kwargs)
    layer(*ts, **decode_kwargs(build_kwargs if build_kwargs is not None else call_kwargs))
    # keep_weights: the layer's own initial weights (set again by the test after comparing)
    weights = ([w.numpy() for w in layer.weights] if keep_weights
               else [arr(w.shape, 0.5) for w in layer.weights])
    layer.set_weights(weights)
    first = None
    if kwargs.get("stateful"):
        layer.reset_state()
        for _ in range(pre_calls):
            out = layer(*ts, **ckw)
            first = first if first is not None else lists(out)
    floats = [t for t in ts if t.dtype.is_floating]
    with tf.GradientTape() as tape:
        tape.watch(floats)
        y = layer(*ts, training=training, **ckw)
        ys = list(y) if isinstance(y, (list, tuple)) else [y]
        cts = [arr(o.shape) for o in ys]
        loss = tf.add_n([tf.reduce_sum(o * c) for o, c in zip(ys, cts)])
    grads = tape.gradient(loss, floats + list(layer.trainable_weights))
    shapes = [(None,) + tuple(x.shape[1:]) for x in inputs]
    out_shape = layer.compute_output_shape(*shapes)
    return {"label": label, "cls": cls, "kwargs": kwargs, "seed": seed,
            "inputs": [{"array": lists(x), "dtype": str(x.dtype)} for x in inputs],
            "call_kwargs": {k: encode(v) for k, v in call_kwargs.items()},
            "build_kwargs": None if build_kwargs is None else {
                k: encode(v) for k, v in build_kwargs.items()},
            "training": training, "pre_calls": pre_calls, "first": first,
            "keep_weights": keep_weights,
            "weights": [lists(w) for w in weights],
            "weight_names": [w.path for w in layer.weights],
            "trainable": [w.path for w in layer.trainable_weights],
            "ys": [lists(o) for o in ys], "cts": [lists(c) for c in cts],
            "grads": [None if g is None else lists(tf.convert_to_tensor(g)) for g in grads],
            "output_shape": plain(out_shape), "config": plain(layer.get_config())}


def conv_lstm_cases():
    s1, s2, s3 = arr((2, 4, 6, 2)), arr((2, 3, 5, 4, 2)), arr((2, 3, 3, 4, 3, 2))
    mask = np.array([[True, True, False, True], [True, False, False, False]])
    return [
        case("ConvLSTM1D", {"filters": 3, "kernel_size": 3}, [s1], "ConvLSTM1D"),
        case("ConvLSTM1D", {"filters": 2, "kernel_size": 2, "padding": "same",
                            "return_sequences": True, "go_backwards": True}, [s1],
             "ConvLSTM1DSameBackwards"),
        case("ConvLSTM1D", {"filters": 2, "kernel_size": 3, "strides": 2,
                            "return_state": True, "activation": "relu",
                            "recurrent_activation": "hard_sigmoid"}, [s1],
             "ConvLSTM1DStateStrided"),
        case("ConvLSTM1D", {"filters": 2, "kernel_size": 2, "dilation_rate": 2,
                            "return_sequences": True, "use_bias": False}, [s1],
             "ConvLSTM1DDilatedMasked", call_kwargs={"mask": mask}),
        case("ConvLSTM2D", {"filters": 3, "kernel_size": 2}, [s2], "ConvLSTM2D"),
        case("ConvLSTM2D", {"filters": 2, "kernel_size": (3, 2), "padding": "same",
                            "return_sequences": True, "return_state": True,
                            "unit_forget_bias": False}, [s2], "ConvLSTM2DSameState"),
        case("ConvLSTM2D", {"filters": 2, "kernel_size": 2, "padding": "same",
                            "return_sequences": True, "dropout": 0.3,
                            "recurrent_dropout": 0.4, "seed": 7}, [s2],
             "ConvLSTM2DDropoutTraining", training=True),
        case("ConvLSTM2D", {"filters": 2, "kernel_size": 2, "dropout": 0.5, "seed": 3}, [s2],
             "ConvLSTM2DDropoutInference"),
        case("ConvLSTM2D", {"filters": 2, "kernel_size": 2, "stateful": True,
                            "return_sequences": True}, [s2], "ConvLSTM2DStateful",
             pre_calls=1),
        case("ConvLSTM3D", {"filters": 2, "kernel_size": 2, "padding": "same"}, [s3],
             "ConvLSTM3D"),
        case("ConvLSTM3D", {"filters": 2, "kernel_size": (2, 1, 2), "strides": (1, 2, 1),
                            "return_sequences": True}, [s3], "ConvLSTM3DStrided"),
        case("ConvLSTM3D", {"filters": 2, "kernel_size": 2, "padding": "same",
                            "data_format": "channels_first", "return_state": True},
             [np.moveaxis(s3, -1, 2).copy()], "ConvLSTM3DChannelsFirst"),
    ]


def conv3d_transpose_cases():
    vol = arr((2, 3, 4, 2, 3))
    layers = [
        case("Conv3DTranspose", {"filters": 2, "kernel_size": 2}, [vol], "Conv3DTranspose"),
        case("Conv3DTranspose", {"filters": 3, "kernel_size": (3, 2, 2), "strides": (2, 1, 2),
                                 "padding": "same", "activation": "tanh"}, [vol],
             "Conv3DTransposeSame"),
        case("Conv3DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2,
                                 "padding": "valid", "output_padding": (1, 0, 1),
                                 "use_bias": False}, [vol], "Conv3DTransposeOutPad"),
        case("Convolution3DTranspose", {"filters": 1, "kernel_size": 3, "strides": 3,
                                        "padding": "same"}, [vol], "Convolution3DTranspose"),
    ]
    ops = []
    for xs, ws, out, st, pad, dil in [
            ((2, 3, 4, 2, 3), (2, 2, 2, 4, 3), (2, 4, 5, 3, 4), 1, "VALID", None),
            ((2, 2, 3, 2, 3), (3, 2, 3, 2, 3), (2, 4, 6, 5, 2), [1, 2, 2, 3, 1], "SAME", None),
            ((1, 2, 2, 3, 2), (3, 3, 2, 2, 2), (1, 5, 6, 7, 2), [1, 2, 3, 2, 1], "VALID", None),
            ((2, 3, 3, 3, 1), (2, 2, 2, 2, 1), (2, 5, 6, 5, 2), [1, 2, 2, 2, 1], "SAME", None)]:
        x, w = tf.constant(arr(xs)), tf.constant(arr(ws))
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            kw = {"dilations": dil} if dil else {}
            y = tf.nn.conv3d_transpose(x, w, out, st, pad, **kw)
            ct = arr(y.shape)
            loss = tf.reduce_sum(y * ct)
        gx, gw = tape.gradient(loss, [x, w])
        ops.append({"x": lists(x), "w": lists(w), "output_shape": list(out), "strides": st,
                    "padding": pad, "dilations": dil, "y": lists(y), "ct": lists(ct),
                    "grads": [lists(gx), lists(gw)]})
    errors = []
    for xs, ws, out, st, dil in [
            ((1, 3, 3, 3, 2), (2, 2, 2, 4, 2), (1, 5, 4, 4, 4), 1, None),
            ((1, 3, 3, 3, 2), (2, 2, 2, 4, 3), (1, 4, 4, 4, 4), 1, None),
            ((1, 3, 2, 2, 2), (2, 2, 2, 1, 2), (1, 4, 4, 3, 1), 1, [1, 1, 3, 2, 1])]:
        try:
            tf.nn.conv3d_transpose(tf.ones(xs), tf.ones(ws), out, st, "VALID", dilations=dil)
            errors.append(None)
        except Exception as e:  # noqa: BLE001
            errors.append({"x": xs, "w": ws, "output_shape": out, "strides": st,
                           "dilations": dil,
                           "class": type(e).__name__, "message": str(e).split("\n")[0]})
    return layers, ops, errors


def adaptive_pooling_cases():
    out = []
    for kind in ("Average", "Max"):
        out += [
            case(f"Adaptive{kind}Pooling1D", {"output_size": 3}, [arr((2, 7, 3))],
                 f"Adaptive{kind}Pooling1D"),
            case(f"Adaptive{kind}Pooling1D", {"output_size": 5}, [arr((2, 10, 2))],
                 f"Adaptive{kind}Pooling1DEven"),
            case(f"Adaptive{kind}Pooling1D", {"output_size": 6, "data_format":
                                              "channels_first"}, [arr((2, 3, 4))],
                 f"Adaptive{kind}Pooling1DUpFirst"),
            case(f"Adaptive{kind}Pooling2D", {"output_size": (3, 2)}, [arr((2, 7, 5, 2))],
                 f"Adaptive{kind}Pooling2D"),
            case(f"Adaptive{kind}Pooling2D", {"output_size": 4, "data_format":
                                              "channels_first"}, [arr((1, 2, 9, 6))],
                 f"Adaptive{kind}Pooling2DFirst"),
            case(f"Adaptive{kind}Pooling3D", {"output_size": (2, 3, 2)},
                 [arr((2, 5, 7, 4, 2))], f"Adaptive{kind}Pooling3D"),
            case(f"Adaptive{kind}Pooling3D", {"output_size": 2, "data_format":
                                              "channels_first"}, [arr((1, 2, 3, 5, 4))],
                 f"Adaptive{kind}Pooling3DFirst"),
        ]
    return out


def gqa_cases():
    q, v, k = arr((2, 4, 6)), arr((2, 5, 6)), arr((2, 5, 6))
    amask = RNG.random((2, 4, 5)) > 0.3
    amask[:, :, 0] = True
    vmask = np.array([[True, True, True, False, False], [True, True, True, True, False]])
    g = "GroupQueryAttention"
    return [
        case(g, {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2}, [q, v],
             "GQA"),
        case(g, {"head_dim": 2, "num_query_heads": 3, "num_key_value_heads": 1}, [q, v, k],
             "GQAKeyScores", call_kwargs={"return_attention_scores": True}),
        case(g, {"head_dim": 3, "num_query_heads": 2, "num_key_value_heads": 2,
                 "use_bias": False}, [q, v], "GQAMasks",
             call_kwargs={"attention_mask": amask, "value_mask": vmask}),
        case(g, {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2}, [q, q],
             "GQACausal", call_kwargs={"use_causal_mask": True}),
        case(g, {"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2,
                 "dropout": 0.4, "seed": 5}, [q, v], "GQADropoutTraining", training=True),
        case(g, {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1,
                 "use_gate": True, "sliding_window": 2}, [q, q], "GQAGateWindow",
             call_kwargs={"return_attention_scores": True}),
    ]


def spectrogram_cases():
    t = np.linspace(0, 1, 200, dtype=np.float32)
    tone = (np.sin(2 * np.pi * 37 * t) + 0.5 * np.sin(2 * np.pi * 91 * t)).astype(np.float32)
    audio = np.stack([tone + arr(200, 0.1), arr(200)]).astype(np.float32)
    multi = arr((2, 90, 2))
    stft = "STFTSpectrogram"
    mel = "MelSpectrogram"
    return [
        case(stft, {"frame_length": 16}, [multi], "STFTLog", keep_weights=True),
        case(stft, {"mode": "magnitude", "frame_length": 12, "frame_step": 5,
                    "fft_length": 16, "padding": "same"}, [multi], "STFTMagnitudeSame",
             keep_weights=True),
        case(stft, {"mode": "psd", "frame_length": 16, "window": "hamming",
                    "periodic": True, "scaling": "spectrum"}, [multi], "STFTPsd",
             keep_weights=True),
        case(stft, {"mode": "real", "frame_length": 10, "frame_step": 3, "window": None,
                    "scaling": None, "expand_dims": True}, [multi], "STFTRealExpand",
             keep_weights=True),
        case(stft, {"mode": "imag", "frame_length": 8, "fft_length": 8}, [multi],
             "STFTImag", keep_weights=True),
        case(stft, {"mode": "angle", "frame_length": 8, "window": "blackman"}, [multi],
             "STFTAngle", keep_weights=True),
        case(stft, {"mode": "stft", "frame_length": 8, "expand_dims": True}, [multi],
             "STFTStftExpand", keep_weights=True),
        case(stft, {"frame_length": 16}, [multi], "STFTRandomKernels"),
        case(mel, {"fft_length": 64, "sequence_stride": 16, "sampling_rate": 8000,
                   "num_mel_bins": 12}, [audio], "Mel"),
        case(mel, {"fft_length": 64, "sequence_stride": 20, "sequence_length": 40,
                   "window": "hamming", "sampling_rate": 4000, "num_mel_bins": 8,
                   "min_freq": 100.0, "max_freq": 1500, "power_to_db": False,
                   "mag_exp": 1.0}, [audio], "MelLinear"),
        case(mel, {"fft_length": 32, "sequence_stride": 8, "sampling_rate": 16000,
                   "num_mel_bins": 6, "top_db": 20.0, "ref_power": 2.0,
                   "min_power": 1e-3}, [audio[:, :120]], "MelTopDb"),
    ]


def layer_error_cases():
    """Keras calls that fail on TensorFlow's CPU (its Conv2D has no NCHW kernel)."""
    out = []
    for cls, kwargs, shape in [
            ("ConvLSTM1D", {"filters": 2, "kernel_size": 2, "data_format": "channels_first"},
             (2, 3, 2, 5)),
            ("ConvLSTM2D", {"filters": 2, "kernel_size": 2, "data_format": "channels_first"},
             (2, 3, 2, 5, 4)),
            ("STFTSpectrogram", {"frame_length": 4, "data_format": "channels_first"},
             (1, 1, 8))]:
        try:
            getattr(keras.layers, cls)(**kwargs)(np.ones(shape, np.float32))
            out.append(None)
        except Exception as e:  # noqa: BLE001
            text = str(e)
            start = text.index("}} ") + 3
            out.append({"cls": cls, "kwargs": kwargs, "shape": shape,
                        "class": type(e).__name__,
                        "message": text[start:text.index(" [Op:", start)]})
    return out


def main():
    keras.utils.set_random_seed(1)
    conv3dt, nn_ops, nn_errors = conv3d_transpose_cases()
    data = {"keras_version": keras.__version__, "tf_version": tf.__version__,
            "conv_lstm": conv_lstm_cases(), "conv3d_transpose": conv3dt,
            "conv3d_transpose_ops": nn_ops, "conv3d_transpose_errors": nn_errors,
            "adaptive_pooling": adaptive_pooling_cases(), "gqa": gqa_cases(),
            "spectrogram": spectrogram_cases(), "layer_errors": layer_error_cases()}
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "kconv.json")
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
