"""Cases for ``keras.config`` (Keras 3.15's global settings), shared by the recorder
(``tools/record_keras_config.py``, Keras 3.15.1 on TF 2.21, each case in a fresh process)
and ``tests/keras/test_config.py`` (tapeflow, each case after the settings are reset).

A case is a snippet run with ``keras``, ``np``, ``C`` (``keras.config``), ``R(key, value)``
(record a value) and ``E(key, fn)`` (record ``fn()``'s value or the exception it raises) in
scope; ``run_case`` returns what it recorded, encoded by ``encode``.
"""
import contextlib
import io
import logging
import re
import warnings

import numpy as np

CASES = {}


def case(name, env=None):
    def register(code):
        CASES[name] = {"code": code, "env": env or {}}
        return code
    return register


def _sorted_sets(message):
    """Keras prints Python sets ({'float16', 'float32', ...}) in hash order: sort them."""
    def fix(m):
        items = sorted(re.findall(r"'[^']*'", m.group(0)))
        return "{" + ", ".join(items) + "}"
    return re.sub(r"\{'[^{}]*'\}", fix, message)


def _times(text):
    """Progress lines with their timings blanked (``0s``, ``12ms/step`` -> ``Ts``...)."""
    text = re.sub(r"\d+(us|ms|s)/step", "T/step", text)
    return re.sub(r"\b\d+s\b", "Ts", text)


def encode(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if hasattr(value, "numpy") and hasattr(value, "shape"):
        a = np.asarray(value.numpy())
        return {"dtype": str(a.dtype), "shape": list(a.shape),
                "value": a.astype(np.float64).round(7).tolist() if a.dtype.kind == "f"
                else a.tolist()}
    if isinstance(value, np.ndarray):
        return {"dtype": str(value.dtype), "shape": list(value.shape),
                "value": value.astype(np.float64).round(7).tolist()
                if value.dtype.kind == "f" else value.tolist()}
    if hasattr(value, "shape") and hasattr(value, "dtype"):   # a KerasTensor
        return {"dtype": dtype_name(value.dtype), "shape": list(value.shape)}
    return dtype_name(value)


def dtype_name(d):
    return getattr(d, "name", None) or str(d)


def run_case(keras, name):
    """Run case ``name`` with ``keras`` and return what it recorded."""
    out = {}

    def R(key, value):  # noqa: N802
        out[key] = encode(value)

    def E(key, fn):  # noqa: N802
        try:
            out[key] = {"ok": encode(fn())}
        except Exception as e:   # noqa: BLE001 - the case records which
            out[key] = {"error": type(e).__name__, "message": _sorted_sets(str(e))}

    keras.backend.clear_session()   # layer names start again, as in a fresh process
    scope = {"keras": keras, "np": np, "C": keras.config, "R": R, "E": E,
             "warnings": warnings, "logging": logging, "io": io,
             "contextlib": contextlib, "times": _times, "dtype": dtype_name}
    exec(CASES[name]["code"], scope)  # noqa: S102 - the cases above
    return out


case("defaults")("""
for n in ["floatx", "epsilon", "image_data_format", "backend", "max_epochs",
          "max_steps_per_epoch", "is_interactive_logging_enabled",
          "is_traceback_filtering_enabled", "is_flash_attention_enabled", "is_nnx_enabled"]:
    R(n, getattr(C, n)())
R("dtype_policy", C.dtype_policy().name)
R("backend_setters", [n for n in ["set_floatx", "set_epsilon", "set_image_data_format"]
                      if hasattr(keras.backend, n)])
R("utils_logging", [n for n in ["enable_interactive_logging", "disable_interactive_logging",
                                "is_interactive_logging_enabled"] if hasattr(keras.utils, n)])
""")

case("invalid_values")("""
E("floatx_float8", lambda: C.set_floatx("float8"))
E("floatx_none", lambda: C.set_floatx(None))
E("floatx_float", lambda: C.set_floatx("float"))
E("floatx_int32", lambda: C.set_floatx("int32"))
E("floatx_kept", lambda: C.floatx())
E("idf_nchw", lambda: C.set_image_data_format("nchw"))
E("idf_none", lambda: C.set_image_data_format(None))
E("idf_kept", lambda: C.image_data_format())
E("idf_upper", lambda: (C.set_image_data_format("Channels_First"), C.image_data_format())[1])
E("idf_back", lambda: (C.set_image_data_format("channels_last"), C.image_data_format())[1])
E("eps_str", lambda: (C.set_epsilon("a"), C.epsilon())[1])
E("eps_int", lambda: (C.set_epsilon(1), C.epsilon())[1])
E("eps_back", lambda: (C.set_epsilon(1e-7), C.epsilon())[1])
E("policy_none", lambda: C.set_dtype_policy(None))
E("policy_int", lambda: C.set_dtype_policy(3))
E("policy_bad", lambda: C.set_dtype_policy("foo"))
E("max_epochs", lambda: (C.set_max_epochs(3), C.max_epochs())[1])
E("max_steps", lambda: (C.set_max_steps_per_epoch(4), C.max_steps_per_epoch())[1])
E("caps_off", lambda: (C.set_max_epochs(None), C.set_max_steps_per_epoch(None),
                       C.max_epochs(), C.max_steps_per_epoch())[2:])
E("flash_disable", lambda: (C.disable_flash_attention(), C.is_flash_attention_enabled())[1])
E("flash_enable", lambda: (C.enable_flash_attention(), C.is_flash_attention_enabled())[1])
E("tb_disable", lambda: (C.disable_traceback_filtering(),
                         C.is_traceback_filtering_enabled())[1])
E("tb_enable", lambda: (C.enable_traceback_filtering(), C.is_traceback_filtering_enabled())[1])
E("log_disable", lambda: (C.disable_interactive_logging(),
                          C.is_interactive_logging_enabled(),
                          keras.utils.is_interactive_logging_enabled())[1:])
E("log_enable", lambda: (keras.utils.enable_interactive_logging(),
                         C.is_interactive_logging_enabled())[1])
E("backend_set", lambda: (keras.backend.set_floatx("float16"), C.floatx(),
                          keras.backend.set_epsilon(0.5), C.epsilon(),
                          keras.backend.set_image_data_format("channels_first"),
                          C.image_data_format())[1::2])
""")

case("dtype_policy")("""
E("mixed", lambda: (C.set_dtype_policy("mixed_float16"), C.dtype_policy().name,
                    keras.mixed_precision.global_policy().name,
                    keras.mixed_precision.dtype_policy().name)[1:])
d = keras.layers.Dense(2)
d.build((1, 3))
R("dense_mixed", [d.compute_dtype, d.variable_dtype, dtype(d.kernel.dtype)])
E("via_mixed_precision", lambda: (keras.mixed_precision.set_global_policy("float64"),
                                  C.dtype_policy().name)[1])
d = keras.layers.Dense(2)
d.build((1, 3))
R("dense_float64", dtype(d.kernel.dtype))
E("policy_object", lambda: (C.set_dtype_policy(keras.DTypePolicy("bfloat16")),
                            keras.mixed_precision.global_policy().name)[1])
E("float32_again", lambda: (C.set_dtype_policy("float32"), C.dtype_policy().name)[1])
""")

case("floatx_first")("""
C.set_floatx("float64")
d = keras.layers.Dense(2, kernel_initializer="ones")
y = d(np.ones((1, 3), "float32"))
R("dense_kernel", dtype(d.kernel.dtype))
R("dense_policy", d.dtype_policy.name)
R("dense_out", y)
R("policy", C.dtype_policy().name)
R("backend_floatx", keras.backend.floatx())
R("ops_zeros", dtype(keras.ops.zeros((2,)).dtype))
R("ops_ones", dtype(keras.ops.ones((2,)).dtype))
R("ops_eye", dtype(keras.ops.eye(2).dtype))
R("ops_convert", dtype(keras.ops.convert_to_tensor(1.0).dtype))
R("random_normal", dtype(keras.random.normal((2,), seed=1).dtype))
R("random_uniform", dtype(keras.random.uniform((2,), seed=1).dtype))
R("random_truncated", dtype(keras.random.truncated_normal((2,), seed=1).dtype))
R("input", dtype(keras.Input((3,)).dtype))
R("init_glorot", dtype(keras.initializers.GlorotUniform(seed=1)((2, 2)).dtype))
R("init_zeros", dtype(keras.initializers.Zeros()((2,)).dtype))
R("init_constant", dtype(keras.initializers.Constant(2.0)((2,)).dtype))
R("variable_init", dtype(keras.Variable(initializer="ones", shape=(2,)).dtype))
R("loss_mse", keras.losses.MeanSquaredError()(np.ones((2, 1), "float32"),
                                              np.zeros((2, 1), "float32")))
R("metric_mean", dtype(keras.metrics.Mean().dtype))
R("layer_norm", dtype(keras.layers.LayerNormalization().dtype))
R("result_type_weak", [keras.backend.result_type(int, float), keras.backend.result_type(int),
                       keras.backend.result_type(float), keras.backend.result_type()])
R("ops_add_weak", dtype(keras.ops.add(1, 2.5).dtype))
R("ops_int_weak", dtype(keras.ops.add(np.int8(1), 2).dtype))
""")

case("floatx_after_a_layer")("""
keras.layers.Dense(2)
C.set_floatx("float64")
d = keras.layers.Dense(2)
d.build((1, 3))
R("dense_kernel", dtype(d.kernel.dtype))
R("policy", C.dtype_policy().name)
R("policy_default_name", keras.DTypePolicy().name)
R("input", dtype(keras.Input((3,)).dtype))
R("ops_zeros", dtype(keras.ops.zeros((2,)).dtype))
R("metric_mean", dtype(keras.metrics.Mean().dtype))
""")

case("floatx_float16")("""
C.set_floatx("float16")
R("ops_ones", dtype(keras.ops.ones((2,)).dtype))
R("random_normal", dtype(keras.random.normal((2,), seed=1).dtype))
R("result_type_weak", [keras.backend.result_type(int, float), keras.backend.result_type(int),
                       keras.backend.result_type()])
d = keras.layers.Dense(1, kernel_initializer="ones")
R("dense_out", d(np.ones((1, 2), "float32")))
R("loss", keras.losses.BinaryCrossentropy()(np.array([[1.0]], "float32"),
                                            np.array([[0.5]], "float32")))
""")

case("epsilon")("""
C.set_epsilon(1e-2)
f32 = lambda v: np.array(v, "float32")
t, p = f32([[1.0, 0.0]]), f32([[1.0, 0.0]])
R("bce_obj", keras.losses.BinaryCrossentropy()(t, p))
R("bce", keras.losses.binary_crossentropy(t, p))
R("bfce", keras.losses.binary_focal_crossentropy(t, p))
R("cce", keras.losses.categorical_crossentropy(f32([[0.0, 1.0]]), f32([[1.0, 0.0]])))
R("cfce", keras.losses.categorical_focal_crossentropy(f32([[0.0, 1.0]]), f32([[1.0, 0.0]])))
R("scce", keras.losses.sparse_categorical_crossentropy(np.array([1]), f32([[1.0, 0.0]])))
R("kld", keras.losses.kl_divergence(f32([[0.0, 1.0]]), f32([[0.5, 0.0]])))
R("poisson", keras.losses.poisson(f32([[1.0, 2.0]]), f32([[0.0, 1.0]])))
R("mape", keras.losses.mean_absolute_percentage_error(f32([[0.0, 2.0]]), f32([[1.0, 1.0]])))
R("msle", keras.losses.mean_squared_logarithmic_error(f32([[-1.0, 2.0]]), f32([[0.0, 1.0]])))
R("dice", keras.losses.dice(f32([[0.0, 0.0]]), f32([[0.0, 0.0]])))
R("tversky", keras.losses.tversky(f32([[0.0, 0.0]]), f32([[0.0, 0.0]])))
R("cosine", keras.losses.cosine_similarity(f32([[1e-3, 0.0]]), f32([[1e-3, 1e-3]])))
R("ops_bce", keras.ops.binary_crossentropy(t, p))
R("ops_cce", keras.ops.categorical_crossentropy(f32([[0.0, 1.0]]), f32([[1.0, 0.0]])))
R("ops_normalize", keras.ops.normalize(f32([[1e-3, 1e-3]])))
R("ops_rms", keras.ops.rms_normalization(f32([[0.0, 0.1]])))
R("ops_layer_norm", keras.ops.layer_normalization(f32([[0.0, 0.1]])))
m = keras.metrics.F1Score()
m.update_state(f32([[1.0, 0.0]]), f32([[0.0, 1.0]]))
R("f1", m.result())
m = keras.metrics.PearsonCorrelation()
m.update_state(f32([1.0, 1.0]), f32([1.0, 2.0]))
R("pearson", m.result())
m = keras.metrics.IoU(num_classes=2, target_class_ids=[0, 1])
m.update_state(np.array([0]), np.array([0]))
R("iou", m.result())
R("auc_thresholds", keras.metrics.AUC(num_thresholds=3).thresholds)
R("normalization", keras.layers.Normalization(mean=0.0, variance=0.0)(f32([[1.0]])))
v = keras.ops.convert_to_tensor(f32([[1e-3, 0.0]]))
R("dot", keras.layers.Dot(axes=1, normalize=True)([v, v]))
R("unit_norm", keras.constraints.UnitNorm()(f32([[0.0], [0.0]])))
R("max_norm", keras.constraints.MaxNorm(1.0)(f32([[0.5], [0.0]])))
""")

case("image_data_format")("""
before = keras.layers.Conv2D(2, 3)
C.set_image_data_format("channels_first")
x = (np.arange(75, dtype="float32") % 7).reshape(1, 3, 5, 5)
kernel = ((np.arange(54, dtype="float32") % 5 - 2) / 4).reshape(3, 3, 3, 2)
conv = keras.layers.Conv2D(2, 3, strides=(1, 2), padding="same")
R("conv_format", [before.data_format, conv.data_format])
conv.build(x.shape)
conv.set_weights([kernel, np.array([0.5, -0.5], "float32")])
R("conv", conv(x))
R("conv_config_format", conv.get_config()["data_format"])
c1 = keras.layers.Conv1D(2, 3, padding="causal")
c1.build((1, 3, 5))
c1.set_weights([kernel[0], np.zeros(2, "float32")])
R("conv1d", c1(x[:, :, 0]))
R("maxpool", keras.layers.MaxPooling2D(2)(x))
R("avgpool1d", keras.layers.AveragePooling1D(2)(x[:, :, 0]))
R("gap", keras.layers.GlobalAveragePooling2D()(x))
R("gmp1d_keepdims", keras.layers.GlobalMaxPooling1D(keepdims=True)(x[:, :, 0]))
R("upsample", keras.layers.UpSampling2D((1, 2))(x[:, :, :2, :3]))
R("upsample_bilinear", keras.layers.UpSampling2D(2, interpolation="bilinear")(x[:, :2, :2, :2]))
R("zeropad", keras.layers.ZeroPadding2D(((1, 0), (0, 1)))(x[:, :2, :2, :2]))
R("crop", keras.layers.Cropping2D(((1, 2), (0, 1)))(x))
R("crop_sym", keras.layers.Cropping2D((1, 2))(keras.Input((3, 8, 8))).shape)
R("flatten", keras.layers.Flatten()(np.arange(8, dtype="float32").reshape(1, 2, 2, 2)))
R("sym", keras.layers.Conv2D(4, 3)(keras.Input((3, 8, 8))).shape)
""")

case("caps")("""
x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")
m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
m.compile("sgd", "mse")
steps = []
class Count(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        steps.append(("train", batch))
    def on_test_batch_end(self, batch, logs=None):
        steps.append(("test", batch))
C.set_max_epochs(2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    h = m.fit(x, y, epochs=5, batch_size=4, verbose=0)
R("epochs", len(h.history["loss"]))
R("epoch_warnings", [str(v.message) for v in w if "Limiting" in str(v.message)])
C.set_max_epochs(None)
C.set_max_steps_per_epoch(1)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    m.fit(x, y, epochs=2, batch_size=2, verbose=0, callbacks=[Count()],
          validation_data=(x, y))
    R("fit_steps", steps)
    steps.clear()
    m.evaluate(x, y, batch_size=2, verbose=0, callbacks=[Count()])
    R("evaluate_steps", steps)
    R("predict", m.predict(x, batch_size=2, verbose=0).shape)
    steps.clear()
    m.fit(x, y, epochs=1, batch_size=2, steps_per_epoch=3, verbose=0, callbacks=[Count()])
    R("fit_steps_given", steps)
R("step_warnings", [str(v.message) for v in w if "Limiting" in str(v.message)])
R("categories", sorted({v.category.__name__ for v in w if "Limiting" in str(v.message)}))
""")

case("caps_from_env", env={"KERAS_MAX_EPOCHS": "2", "KERAS_MAX_STEPS_PER_EPOCH": "3"})("""
R("max_epochs", C.max_epochs())
R("max_steps_per_epoch", C.max_steps_per_epoch())
""")

case("logging")("""
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append([record.levelname, record.getMessage()])
absl = logging.getLogger("absl")
handler = Keep()
absl.addHandler(handler)
old_level = absl.level
absl.setLevel(logging.INFO)
x = np.ones((8, 3), "float32")
y = np.ones((8, 1), "float32")
m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")],
                     name="seq")
m.compile("sgd", "mse")
C.disable_interactive_logging()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    m.fit(x, y, epochs=2, batch_size=4, verbose=2)
    m.summary()
    m.evaluate(x, y, batch_size=4, verbose=2)
R("stdout", out.getvalue())
R("records", [[lv, times(msg)] for lv, msg in records])
records.clear()
absl.setLevel(logging.WARNING)
with contextlib.redirect_stdout(out):
    m.fit(x, y, epochs=1, batch_size=4, verbose=2)
R("records_at_warning", records)
C.enable_interactive_logging()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    m.fit(x, y, epochs=2, batch_size=4, verbose=2)
R("interactive_stdout", times(out.getvalue()))
absl.removeHandler(handler)
absl.setLevel(old_level)
""")

case("flash_attention")("""
q = np.ones((1, 2, 2, 4), "float32")
E("ops_true", lambda: keras.ops.dot_product_attention(q, q, q, flash_attention=True))
E("ops_false", lambda: keras.ops.dot_product_attention(q, q, q, flash_attention=False))
E("ops_soft_cap", lambda: keras.ops.dot_product_attention(q, q, q, attn_logits_soft_cap=1.0))
x = np.ones((1, 3, 4), "float32")
E("mha_dropout", lambda: keras.layers.MultiHeadAttention(2, 2, dropout=0.1,
                                                         flash_attention=True))
E("mha_call", lambda: keras.layers.MultiHeadAttention(2, 2, flash_attention=True)(x, x).shape)
E("mha_scores", lambda: keras.layers.MultiHeadAttention(2, 2, flash_attention=True)(
    x, x, return_attention_scores=True))
E("gqa_call", lambda: keras.layers.GroupQueryAttention(2, 2, 1, flash_attention=True)(
    x, x).shape)
C.disable_flash_attention()
E("mha_disabled", lambda: keras.layers.MultiHeadAttention(2, 2, dropout=0.1)(x, x).shape)
C.enable_flash_attention()
E("mha_enabled", lambda: keras.layers.MultiHeadAttention(2, 2, dropout=0.1)(x, x).shape)
""")

for _name in ("jax", "torch", "numpy", "openvino", "foo", "tensorflow"):
    case(f"set_backend_{_name}")(f"""
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    E("set", lambda: C.set_backend({_name!r}))
R("warnings", [[v.category.__name__, str(v.message)] for v in w
               if "set_backend" in str(v.message)])
import os
R("env", os.environ.get("KERAS_BACKEND"))
""")

case("floatx_fit")("""
C.set_floatx("float64")
x = (np.arange(24, dtype="float64") % 5).reshape(8, 3) / 4
y = x.sum(axis=1, keepdims=True) * 0.3
m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
opt = keras.optimizers.SGD(0.05)
m.compile(opt, "mse", metrics=["mae"])
h = m.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
R("loss", h.history["loss"])
R("mae", h.history["mae"])
R("kernel", m.layers[0].kernel)
R("lr_dtype", dtype(opt.learning_rate.dtype))
R("iterations_dtype", dtype(opt.iterations.dtype))
R("predict", m.predict(x[:2], verbose=0))
R("evaluate", m.evaluate(x, y, verbose=0))
""")
