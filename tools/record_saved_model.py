"""Record TF-written SavedModels and TF's answers on them (run with /work/tfenv/bin/python).

Writes ``tests/fixtures/saved_model/<name>/`` (the SavedModel directory as TF 2.21 / Keras 3.15
write it) and ``<name>.json`` beside it: per call of the loaded object in TF, the callable's
path, the arguments, the outputs, and the gradients of ``loss = sum_o reduce_sum(o * weights(o))``
(``weights`` below; the test uses the same) with respect to the float tensor arguments and the
loaded object's trainable variables; the signatures' printed forms; the variables' names,
trainable flags and values; and for some fixtures the variables after one SGD step (lr 0.1).
"""
import json
import os
import pathlib
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/saved_model"
RNG = np.random.default_rng(20)


def weights(shape):
    """The fixed weights of an output in the recorded loss (the test computes the same)."""
    n = int(np.prod(shape))
    return np.linspace(-1.0, 1.0, n).reshape(shape) if n > 1 else np.ones(shape)


def enc(x):
    """A nest of tensors, arrays and Python values as JSON."""
    if isinstance(x, (tf.Tensor, tf.Variable, np.ndarray, np.generic)):
        a = np.asarray(x)
        return {"@a": a.tolist(), "@d": a.dtype.name, "@s": list(a.shape)}
    if isinstance(x, dict):
        return {"@dict": [[k, enc(v)] for k, v in sorted(x.items())]}
    if isinstance(x, tuple):
        return {"@tuple": [enc(v) for v in x]}
    if isinstance(x, list):
        return [enc(v) for v in x]
    return x


def dec(x):
    """The inverse of ``enc`` (arrays become tf tensors)."""
    if isinstance(x, dict):
        if "@a" in x:
            return tf.constant(np.array(x["@a"], dtype=x["@d"]).reshape(x["@s"]))
        if "@dict" in x:
            return {k: dec(v) for k, v in x["@dict"]}
        if "@tuple" in x:
            return tuple(dec(v) for v in x["@tuple"])
        return {k: dec(v) for k, v in x.items()}
    if isinstance(x, list):
        return [dec(v) for v in x]
    return x


def resolve(obj, path):
    for part in path.split("."):
        obj = obj[part] if isinstance(obj, dict) or (
            hasattr(obj, "keys") and not hasattr(obj, part)) else getattr(obj, part)
    return obj


def loaded_variables(loaded, trainable=True):
    """``[(path, variable)]``: a loaded object's (trainable) variables, breadth-first over its
    children in sorted order, or its ``trainable_variables`` list when it has one."""
    if trainable and hasattr(loaded, "trainable_variables"):
        return [(f"trainable_variables.{i}", v)
                for i, v in enumerate(loaded.trainable_variables)]
    seen, out, queue = set(), [], [("", loaded)]
    while queue:
        path, o = queue.pop(0)
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, tf.Variable):
            if o.trainable or not trainable:
                out.append((path, o))
            continue
        children = o._trackable_children() if hasattr(o, "_trackable_children") else {}
        for name in sorted(children):
            if name != "signatures":
                queue.append((f"{path}.{name}" if path else name, children[name]))
    return out


def record_call(loaded, path, args, kwargs=None, grads=True, persistent=True):
    """One call's outputs, loss and gradients (``persistent=False``: both gradients taken
    at once from a non-persistent tape, for what TF cannot differentiate twice: a loaded
    tf.recompute_grad under a persistent tape raises NotImplementedError in TF 2.21)."""
    kwargs = kwargs or {}
    if not grads:  # TF cannot differentiate some loaded functions (RNN loops over resources)
        out = resolve(loaded, path)(*dec(args), **{k: dec(v) for k, v in kwargs.items()})
        return {"path": path, "args": args, "kwargs": kwargs, "output": enc(out)}
    fn = resolve(loaded, path)
    pairs = loaded_variables(loaded)
    paths, variables = [p for p, _ in pairs], [v for _, v in pairs]
    args_t = dec(args)
    kwargs_t = dec(kwargs)
    float_inputs = [t for t in tf.nest.flatten((args_t, kwargs_t))
                    if isinstance(t, tf.Tensor) and t.dtype.is_floating]
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(float_inputs)
        out = fn(*args_t, **kwargs_t)
        loss = tf.constant(0.0, tf.float64)
        for o in tf.nest.flatten(out):
            if isinstance(o, tf.Tensor) and o.dtype.is_floating:
                loss += tf.reduce_sum(tf.cast(o, tf.float64) * weights(o.shape))
    if persistent:
        grads_in = tape.gradient(loss, float_inputs)
        grads_v = tape.gradient(loss, variables)
    else:
        both = tape.gradient(loss, float_inputs + variables)
        grads_in, grads_v = both[:len(float_inputs)], both[len(float_inputs):]
    return {"path": path, "args": args, "kwargs": kwargs, "output": enc(out),
            "loss": float(loss),
            "input_grads": [None if g is None else enc(g) for g in grads_in],
            "variable_grads": [[p, None if g is None else enc(tf.convert_to_tensor(g))]
                               for p, g in zip(paths, grads_v)]}


def sgd_step(loaded, path, args):
    """Variables after one SGD step (lr 0.1) on the recorded loss, as TF computes it."""
    paths, variables = zip(*loaded_variables(loaded))
    fn = resolve(loaded, path)
    with tf.GradientTape() as tape:
        out = fn(*dec(args))
        loss = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * weights(o.shape))
                         for o in tf.nest.flatten(out) if o.dtype.is_floating])
    grads = tape.gradient(loss, variables)
    keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
    after = fn(*dec(args))
    return {"path": path, "args": args,
            "variables": [[p, enc(v)] for p, v in zip(paths, variables)],
            "output": enc(after)}


def describe(loaded):
    sigs = {}
    for key in sorted(loaded.signatures):
        f = loaded.signatures[key]
        sigs[key] = {"structured_input_signature": repr(f.structured_input_signature),
                     "structured_outputs": repr(f.structured_outputs), "str": str(f)}
    return {"signatures": sigs, "signature_keys": list(loaded.signatures.keys())}


def save_dir(name):
    d = OUT / name
    if d.exists():
        shutil.rmtree(d)
    return d


def write(name, loaded, calls, extra=None):
    facts = describe(loaded)
    fresh = tf.saved_model.load(str(OUT / name))  # values as saved, before the calls
    variables = [[p, v.name, v.trainable, enc(v)]
                 for p, v in loaded_variables(fresh, trainable=False)]
    facts.update(calls=calls, variables=variables, **(extra or {}))
    (OUT / f"{name}.json").write_text(json.dumps(facts, indent=1) + "\n")
    size = sum(p.stat().st_size for p in (OUT / name).rglob("*") if p.is_file())
    print(f"{name}: {size} bytes")


def arr(*shape, dtype="float32"):
    return enc(RNG.standard_normal(shape).astype(dtype))


# ------------------------------------------------------------------------------ fixtures

class Affine(tf.Module):
    """A tf.Module with input_signature methods and variables (one not trainable)."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(RNG.standard_normal((3, 2)).astype("float32"), name="w")
        self.b = tf.Variable([0.5, -0.25], name="b")
        self.count = tf.Variable(0, trainable=False, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n")])
    def bump(self, n):
        self.count.assign_add(n)
        return self.count.read_value()

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.float32, name="scale")])
    def both(self, x, scale):
        y = tf.sigmoid(x @ self.w) * scale
        return {"y": y, "mean": tf.reduce_mean(y, axis=0)}


def record_module():
    m = Affine()
    d = save_dir("module")
    tf.saved_model.save(m, str(d), signatures={"serving_default": m.__call__,
                                               "both": m.both})
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "__call__", [arr(4, 3)]),
             record_call(loaded, "both", [arr(2, 3), enc(np.float32(1.5))]),
             record_call(loaded, "signatures.serving_default", [], {"x": arr(2, 3)}),
             record_call(loaded, "signatures.both", [], {"x": arr(2, 3),
                                                        "scale": enc(np.float32(2.0))}),
             record_call(loaded, "bump", [enc(np.int32(3))]),
             record_call(loaded, "bump", [enc(np.int32(4))])]
    write("module", loaded, calls,
          {"sgd": sgd_step(tf.saved_model.load(str(d)), "__call__", [arr(5, 3)])})


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(RNG.standard_normal((in_features, out_features)).astype("float32"),
                             name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def record_guide_module():
    """The intro_to_modules guide's module, traced on Python lists (as the guide does)."""
    m = MySequentialModule(name="the_model")
    m([[2.0, 2.0, 2.0]])
    m([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
    d = save_dir("guide_module")
    tf.saved_model.save(m, str(d))
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "__call__", [[[2.0, 2.0, 2.0]]]),
             record_call(loaded, "__call__", [[[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]])]
    errors = {}
    try:
        loaded([[1.0, 2.0, 3.0]])
    except Exception as e:  # noqa: BLE001
        errors["unmatched"] = [type(e).__name__, str(e)]
    try:        # a tensor where the traces took Python lists
        loaded(tf.constant([[2.0, 2.0, 2.0]]))
    except Exception as e:  # noqa: BLE001
        errors["unmatched_tensor"] = [type(e).__name__, str(e)]
    write("guide_module", loaded, calls, {"errors": errors})


def record_keras_mlp():
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(3, activation="softmax")])
    d = save_dir("keras_mlp")
    tf.saved_model.save(model, str(d))
    loaded = tf.saved_model.load(str(d))
    x = arr(5, 6)
    calls = [record_call(loaded, "signatures.serving_default", [], {"inputs": x})]
    if callable(loaded):
        calls.append(record_call(loaded, "__call__", [x]))
    write("keras_mlp", loaded, calls, {"callable": callable(loaded),
                                       "attributes": sorted(a for a in dir(loaded)
                                                            if not a.startswith("_"))})


def record_keras_cnn():
    keras.utils.set_random_seed(2)
    model = keras.Sequential([
        keras.Input((8, 8, 2)), keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
        keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(2),
        keras.layers.DepthwiseConv2D(3, padding="valid"), keras.layers.AveragePooling2D(1),
        keras.layers.GlobalAveragePooling2D(), keras.layers.Dropout(0.5),
        keras.layers.Dense(3)])
    model(np.zeros((1, 8, 8, 2), "float32"))
    bn = model.layers[1]
    bn.moving_mean.assign(RNG.standard_normal(4).astype("float32") * 0.1)
    bn.moving_variance.assign(1.0 + RNG.random(4).astype("float32"))
    d = save_dir("keras_cnn")
    model.export(str(d), verbose=False)
    loaded = tf.saved_model.load(str(d))
    key, = loaded.signatures["serving_default"].structured_input_signature[1]
    x = arr(2, 8, 8, 2)
    calls = [record_call(loaded, "serve", [x]),
             record_call(loaded, "signatures.serving_default", [], {key: x})]
    write("keras_cnn", loaded, calls,
          {"sgd": sgd_step(tf.saved_model.load(str(d)), "serve", [x])})


def record_keras_rnn():
    keras.utils.set_random_seed(3)
    inp = keras.Input((5, 3))
    a = keras.layers.LSTM(4, return_sequences=True)(inp)
    b = keras.layers.GRU(3)(a)
    e = keras.layers.Embedding(7, 2)(keras.ops.cast(keras.ops.abs(inp[:, :, 0]) * 2, "int32"))
    c = keras.layers.Concatenate()([b, keras.layers.Flatten()(e)])
    out = keras.layers.Dense(2)(keras.layers.LayerNormalization()(c))
    model = keras.Model(inp, out)
    d = save_dir("keras_rnn")
    model.export(str(d), verbose=False)
    loaded = tf.saved_model.load(str(d))
    x = arr(2, 5, 3)
    calls = [record_call(loaded, "serve", [x], grads=False)]
    try:
        record_call(loaded, "serve", [x])
        raise AssertionError("TF now differentiates the loaded RNN: record its gradients")
    except ValueError as e:
        error = str(e)
    write("keras_rnn", loaded, calls, {"tf_gradient_error": error})


def record_keras_layers():
    """More of what Keras 3 exports: attention, gelu, 1-D and separable convolutions,
    residual Add, SimpleRNN, pooling, UpSampling, a non-default activation."""
    keras.utils.set_random_seed(4)
    inp = keras.Input((6, 4))
    h = keras.layers.Conv1D(4, 3, padding="same", activation="gelu")(inp)
    a = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)(h, h)
    h = keras.layers.LayerNormalization()(keras.layers.Add()([h, a]))
    r = keras.layers.SimpleRNN(3)(h)
    img = keras.layers.Reshape((6, 4, 1))(h)
    s = keras.layers.SeparableConv2D(2, 3, padding="same", activation="elu")(img)
    s = keras.layers.MaxPooling2D(2)(keras.layers.UpSampling2D(2)(s))
    s = keras.layers.GlobalMaxPooling2D()(s)
    out = keras.layers.Dense(2, activation="softplus")(keras.layers.Concatenate()([r, s]))
    model = keras.Model(inp, out)
    d = save_dir("keras_layers")
    model.export(str(d), verbose=False)
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "serve", [arr(3, 6, 4)], grads=False)]  # TF: While again
    write("keras_layers", loaded, calls)


class LoopBranch(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, -2.0, 0.5], name="v")

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.int32, name="n")])
    def __call__(self, x, n):
        acc = tf.zeros([3])
        v = self.v * 1.0  # read outside the loop: TF cannot differentiate a loaded While
        for i in tf.range(n):  # that captures a resource
            if tf.reduce_sum(x) > 0.0:
                acc = acc + x * v * tf.cast(i, tf.float32)
            else:
                acc = acc - tf.square(x)
        if tf.reduce_sum(acc) > 1.0:
            acc = acc / 2.0
        return acc


def record_loop_branch():
    m = LoopBranch()
    d = save_dir("loop_branch")
    tf.saved_model.save(m, str(d))
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "__call__", [enc(np.array([1.0, 2.0, -0.5], "float32")),
                                              enc(np.int32(4))]),
             record_call(loaded, "__call__", [enc(np.array([-1.0, 0.5, -0.5], "float32")),
                                              enc(np.int32(3))]),
             record_call(loaded, "__call__", [enc(np.array([1.0, 2.0, -0.5], "float32")),
                                              enc(np.int32(0))])]
    write("loop_branch", loaded, calls)


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


class CustomGrad(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def call_custom_grad(self, x):
        return clip_gradients(x)


def record_custom_gradient():
    """The advanced_autodiff guide's clip_by_norm custom gradient, saved with it."""
    d = save_dir("custom_gradient")
    tf.saved_model.save(CustomGrad(), str(d), options=tf.saved_model.SaveOptions(
        experimental_custom_gradients=True))
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "call_custom_grad", [enc(np.float32(2.0))]),
             record_call(loaded, "call_custom_grad", [arr(4)])]
    write("custom_gradient", loaded, calls)


def record_custom_gradient_captures():
    """Custom gradients whose gradient function takes tensors of the forward (TF's
    captured_tensor objects), the function's argument and variables, and custom gradients
    over variables: the module of ``tests/saved_model/tf_check_cases.py``'s case of the same
    name (one source, saved by TF here and by tapeflow there)."""
    sys.path.insert(0, str(OUT.parent.parent.parent))
    from tests.saved_model.tf_check_cases import CASES
    ns = {"tf": tf}
    exec(CASES["custom_gradient_captures"], ns)
    m = ns["root"]
    d = save_dir("custom_gradient_captures")
    tf.saved_model.save(m, str(d), signatures={"serving_default": m.softplus})
    loaded = tf.saved_model.load(str(d))
    calls = [record_call(loaded, "softplus", [enc(np.array([-3.0, 0.0, 2.5, 20.0],
                                                            "float32"))]),
             record_call(loaded, "softplus", [arr(5)]),
             record_call(loaded, "poly", [enc(np.array([1.0, 2.0, -0.5], "float32"))]),
             record_call(loaded, "scaled", [arr(2, 3)]),
             record_call(loaded, "signatures.serving_default", [], {"x": arr(3)}),
             record_call(loaded, "any_rank", [enc(np.float32(2.0))]),
             record_call(loaded, "any_rank", [arr(2, 2)]),
             record_call(loaded, "recomputed", [arr(2, 3)], persistent=False)]
    write("custom_gradient_captures", loaded, calls)


class RaggedSparseOps(tf.Module):
    """Functions of dense tensors that build a RaggedTensor / SparseTensor inside: the kernels
    TF's graph uses there (Assert under If, Where, UnsortedSegmentSum, SparseReduceSum)."""

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  tf.TensorSpec([None], tf.int64)])
    def ragged_rows(self, values, lengths):
        rt = tf.RaggedTensor.from_row_lengths(values, lengths)
        return {"sums": tf.reduce_sum(rt, axis=1), "squares": tf.reduce_sum(rt * rt, axis=1),
                "splits": rt.row_splits}

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def sparse_rows(self, x):
        sp = tf.sparse.from_dense(x)
        return tf.sparse.reduce_sum(sp, axis=1), sp.indices


def record_ragged_sparse_ops():
    d = save_dir("ragged_sparse_ops")
    tf.saved_model.save(RaggedSparseOps(), str(d))
    loaded = tf.saved_model.load(str(d))
    lengths = enc(np.array([2, 0, 3, 1], "int64"))
    calls = [record_call(loaded, "ragged_rows", [arr(6), lengths]),
             record_call(loaded, "sparse_rows", [enc(np.array(
                 [[1.5, 0, 0, -2], [0, 0, 0, 0], [0.5, 3, 0, 1]], "float32"))], grads=False)]
    errors = {}
    for name, args in (("negative_length", [arr(3), enc(np.array([2, -1, 2], "int64"))]),
                       ("lengths_past_values", [arr(3), enc(np.array([2, 2], "int64"))])):
        try:
            loaded.ragged_rows(*dec(args))
            errors[name] = None
        except Exception as e:  # noqa: BLE001 - the class TF raises is the fact recorded
            errors[name] = {"args": args, "class": type(e).__name__,
                            "message": str(e).splitlines()[0][:300]}
    write("ragged_sparse_ops", loaded, calls, {"errors": errors})


RECORDERS = {"module": record_module, "guide_module": record_guide_module,
             "keras_mlp": record_keras_mlp, "keras_cnn": record_keras_cnn,
             "keras_rnn": record_keras_rnn, "keras_layers": record_keras_layers,
             "loop_branch": record_loop_branch, "custom_gradient": record_custom_gradient,
             "ragged_sparse_ops": record_ragged_sparse_ops,
             "custom_gradient_captures": record_custom_gradient_captures}


def main():
    """Record every fixture, or those named on the command line."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[1:] or RECORDERS:
        RECORDERS[name]()


if __name__ == "__main__":
    main()
