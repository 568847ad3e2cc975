"""Record Keras 3.15's keras.applications for tapeflow's tests.

Run with the TensorFlow venv from the repository root:
    /work/tfenv/bin/python tools/record_keras_applications.py
Writes tests/fixtures/keras/applications/{structure,outputs,preprocess}.json: per case of
``tests/keras/applications_cases.py`` the layer list (name, class, output shape) and
``count_params()``; for the cases marked so, the output on a fixed input with the seeded
weights of ``applications_cases.set_weights``; ``summary()`` text for a few; each module's
``preprocess_input`` on a fixed array.
"""
import importlib
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["COLUMNS"] = "80"   # the summary table's width, as the tests set it
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import keras  # noqa: E402

from tests.keras import applications_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras", "applications")


def layer_rows(model):
    rows = []
    for layer in model.layers:
        shape = layer.output.shape if not isinstance(layer.output, list) else [
            t.shape for t in layer.output]
        rows.append([layer.name, type(layer).__name__, list(shape)])
    return rows


def main(only=None):
    os.makedirs(OUT, exist_ok=True)
    path_s, path_o = os.path.join(OUT, "structure.json"), os.path.join(OUT, "outputs.json")
    structure = json.load(open(path_s)) if only else {}
    outputs = json.load(open(path_o)) if only else {}
    for key, module, fn, kwargs, want_output in cases.CASES:
        if only and key not in only:
            continue
        keras.utils.clear_session()
        model = getattr(keras.applications, fn)(**kwargs)
        entry = {"params": int(model.count_params()),
                 "trainable": int(sum(np.prod(w.shape) for w in model.trainable_weights)),
                 "n_weights": len(model.weights), "model_name": model.name,
                 "layers": layer_rows(model)}
        if key in cases.SUMMARIES:
            lines = []
            model.summary(print_fn=lambda line, out=lines, **k: out.append(line))
            entry["summary"] = lines
        structure[key] = entry
        if want_output:
            cases.set_weights(model)
            x = cases.model_input(module, kwargs["input_shape"])
            y = np.asarray(model(x, training=False))
            outputs[key] = y.astype(np.float32).ravel().tolist()
        print(key, entry["params"], len(entry["layers"]), flush=True)
    outputs["Conv2D_groups"] = grouped_conv()
    json.dump(structure, open(path_s, "w"), separators=(",", ":"))
    json.dump(outputs, open(path_o, "w"), separators=(",", ":"))

    pre = {}
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 255, (2, 3, 3)).astype(np.float32)
    pre["input"] = x.ravel().tolist()
    for module in ("mobilenet", "mobilenet_v2", "mobilenet_v3", "resnet", "resnet50",
                   "resnet_v2", "vgg16", "vgg19", "efficientnet", "efficientnet_v2",
                   "densenet", "xception", "inception_v3", "convnext", "nasnet",
                   "inception_resnet_v2"):
        mod = importlib.import_module(f"keras.applications.{module}")
        pre[module] = np.asarray(mod.preprocess_input(x.copy())).ravel().tolist()
    from keras.applications import imagenet_utils
    for mode in ("caffe", "tf", "torch"):
        pre["imagenet_utils_" + mode] = np.asarray(
            imagenet_utils.preprocess_input(x.copy(), mode=mode)).ravel().tolist()
        pre["imagenet_utils_" + mode + "_cf"] = np.asarray(imagenet_utils.preprocess_input(
            x.copy().transpose(2, 0, 1), mode=mode, data_format="channels_first")
        ).ravel().tolist()
    json.dump(pre, open(os.path.join(OUT, "preprocess.json"), "w"), separators=(",", ":"))


def grouped_conv():
    """Conv2D with groups (ConvNeXt's depthwise form and a general one) on fixed values."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 7, 7, 4)).astype(np.float32)
    out = {"x": x.ravel().tolist()}
    for groups, filters in ((2, 6), (4, 8)):
        layer = keras.layers.Conv2D(filters, 3, strides=2, padding="same", groups=groups)
        layer.build((None, 7, 7, 4))
        kernel = rng.standard_normal(tuple(layer.kernel.shape)).astype(np.float32)
        bias = rng.standard_normal((filters,)).astype(np.float32)
        layer.set_weights([kernel, bias])
        out[f"{groups}_{filters}"] = {"kernel": kernel.ravel().tolist(),
                                     "bias": bias.tolist(),
                                     "y": np.asarray(layer(x)).ravel().tolist()}
    return out


if __name__ == "__main__":
    # keys given: re-record only those cases (the other entries are kept)
    main(set(sys.argv[1:]) or None)
