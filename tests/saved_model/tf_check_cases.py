"""Modules tapeflow saves and TensorFlow 2.21 loads (``tools/record_saved_model_tf_check.py``
records TF's verdict, ``tests/saved_model/test_save.py`` checks tapeflow still writes the
same ``saved_model.pb`` and computes TF's numbers).

Each case is source run with ``tf`` bound (TF's guides' modules: intro_to_modules, basics,
plus signatures, dict outputs, an assign-only method, a branch and a loop). It defines
``root`` (the object saved), optionally ``signatures``, and ``CALLS``: ``(attribute path,
args)`` pairs, ``args`` a list of nested Python values (float lists become float32 tensors,
int lists int32, unless given as ``("int32", value)``/``("float32", value)`` pairs, as
``("py", value)`` to pass the Python value itself, or ``("linspace", shape)`` for a float32
ramp from -1 to 1), run in order after loading. ``SERVE``
(optional): ``saved_model_cli run --input_exprs`` for ``serving_default`` (TF 1's Session
loader, as TF Serving loads it). ``GRADS``
lists the calls (by index) whose summed output is differentiated with respect to the
root's trainable variables, ``INPUT_GRADS`` (optional) those differentiated with respect
to their float inputs. ``OPTIONS``: the ``SaveOptions`` of the save. A path
``signatures/<key>`` calls a signature by keyword (``args`` a dict).
"""

CASES = {
    # intro_to_modules: traced on Python lists (two traces), random weights (seeded)
    "sequential_module": '''
tf.random.set_seed(42)
class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
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

root = MySequentialModule(name="the_model")
root([[2.0, 2.0, 2.0]])
root([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
CALLS = [("__call__", [("py", [[2.0, 2.0, 2.0]])]),
         ("__call__", [("py", [[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])])]
GRADS = [0]
''',
    # basics: an int32 variable and an int32 trace
    "basics_multiply": '''
class MyModule(tf.Module):
    def __init__(self, value):
        self.weight = tf.Variable(value)

    @tf.function
    def multiply(self, x):
        return x * self.weight

root = MyModule(3)
root.multiply(tf.constant([1, 2, 3]))
CALLS = [("multiply", [("int32", [1, 2, 3])])]
GRADS = []
''',
    # the guide's Dense with an input_signature: serving_default by default
    "dense_signature": '''
class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.reshape(tf.range(in_features * out_features, dtype=tf.float32)
                                        / 10.0, [in_features, out_features]), name="w")
        self.b = tf.Variable(tf.constant([0.5, -4.0]), name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)

root = Dense(3, 2)
SERVE = "x=[[1.0,2.0,3.0],[-1.0,0.5,2.0]]"
CALLS = [("__call__", [[[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]]),
         ("__call__", [[[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [3.0, 3.0, -3.0]]]),
         ("signatures/serving_default", {"x": [[0.5, 1.0, 1.5]]})]
GRADS = [0]
''',
    # signatures dict, dict outputs, an assign-only method, a non-trainable int variable
    "signatures_dict": '''
class Multi(tf.Module):
    def __init__(self):
        self.v = tf.Variable([1.5, -2.0], name="v")
        self.count = tf.Variable(0, trainable=False, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="features")])
    def predict(self, x):
        return {"scaled": x * self.v, "total": tf.reduce_sum(tf.square(x * self.v), axis=1)}

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def bump(self, n):
        self.count.assign_add(n)

    @tf.function(input_signature=[])
    def read_count(self):
        return self.count.read_value()

root = Multi()
signatures = {"predict": root.predict, "serving_default": root.predict}
SERVE = "features=[[1.0,2.0],[3.0,-1.0]]"
CALLS = [("predict", [[[1.0, 2.0], [3.0, -1.0]]]),
         ("bump", [("int32", 5)]),
         ("bump", [("int32", 2)]),
         ("read_count", []),
         ("signatures/predict", {"features": [[2.0, 2.0]]})]
GRADS = [0]
''',
    # a tensor branch and a loop (tf.cond, tf.while_loop) with a captured variable
    "cond_and_loop": '''
class Flow(tf.Module):
    def __init__(self):
        self.scale = tf.Variable(1.5, name="scale")

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32)])
    def run(self, x, n):
        y = tf.cond(x > 0.0, lambda: x * self.scale, lambda: -x)
        i = tf.constant(0)
        while i < n:
            y = y * 1.5 + 1.0
            i += 1
        return y

root = Flow()
SERVE = "x=2.0;n=3"
CALLS = [("run", [2.0, ("int32", 3)]), ("run", [-1.0, ("int32", 0)]),
         ("run", [0.5, ("int32", 5)]),
         ("signatures/serving_default", {"x": 3.0, "n": ("int32", 2)})]
GRADS = [0, 2]
''',
    # tf.linalg.expm (advanced_autodiff-style matrix function): tapeflow's replays of TF's
    # kernels inside it (MatMulEigen, MatrixSolve's Eigen LU) are written as TF's MatMul and
    # MatrixSolve
    "linalg_expm": '''
class Expm(tf.Module):
    def __init__(self):
        self.scale = tf.Variable(tf.constant(0.7, tf.float64), name="scale")

    @tf.function(input_signature=[tf.TensorSpec([3, 3], tf.float64)])
    def run(self, x):
        return tf.linalg.expm(x * self.scale)

root = Expm()
CALLS = [("run", [("float64", [[0.5, 0.1, 0.0], [0.2, -0.3, 0.4], [0.0, 1.0, 0.1]])]),
         ("run", [("float64", [[4.0, -2.0, 1.0], [3.0, 0.5, -1.0], [2.0, 2.0, 6.0]])])]
GRADS = [0, 1]
INPUT_GRADS = [0]
''',
    # Keras models with an explicit serving signature (an MLP and a small CNN: Conv2D SAME
    # and strided VALID, MaxPool, Flatten, Dense, Softmax), traced on a None batch
    "keras_mlp": '''
tf.keras.utils.set_random_seed(3)
root = tf.keras.Sequential([tf.keras.Input((4,)),
                            tf.keras.layers.Dense(8, activation="relu", name="d1"),
                            tf.keras.layers.Dense(3, activation="tanh", name="d2"),
                            tf.keras.layers.Dense(2, name="d3")], name="mlp")
signatures = tf.function(lambda inputs: root(inputs),
                         input_signature=[tf.TensorSpec([None, 4], tf.float32, name="inputs")])
SERVE = "inputs=[[1.0,-2.0,0.5,3.0]]"
CALLS = [("signatures/serving_default", {"inputs": [[1.0, -2.0, 0.5, 3.0],
                                                    [0.0, 1.0, 2.0, -1.0]]})]
GRADS = [0]
''',
    "keras_cnn": '''
tf.keras.utils.set_random_seed(5)
root = tf.keras.Sequential([
    tf.keras.Input((8, 8, 2)),
    tf.keras.layers.Conv2D(3, 3, padding="same", activation="relu", name="c1"),
    tf.keras.layers.MaxPooling2D(name="p1"),
    tf.keras.layers.Conv2D(2, 3, strides=2, padding="valid", name="c2"),
    tf.keras.layers.Flatten(name="f"), tf.keras.layers.Dense(2, name="d"),
    tf.keras.layers.Softmax(name="s")], name="cnn")
# weighted: the plain sum of softmax rows is 1 (no gradient to check)
signatures = tf.function(lambda inputs: root(inputs) * tf.constant([1.0, 3.0]),
                         input_signature=[tf.TensorSpec([None, 8, 8, 2], tf.float32,
                                                        name="inputs")])
CALLS = [("signatures/serving_default", {"inputs": ("linspace", [3, 8, 8, 2])})]
GRADS = [0]
''',
    # advanced_autodiff's save cell: a tf.custom_gradient saved with its gradient (TF's
    # IdentityN + registered gradient function), on an input of unknown rank and inside a
    # function of a variable
    "custom_gradient": '''
@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward

class Clipped(tf.Module):
    def __init__(self):
        self.w = tf.Variable([1.0, -2.0, 0.5], name="w")

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def call_custom_grad(self, x):
        return clip_gradients(x)

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def scaled(self, x):
        return clip_gradients(x * self.w) * 3.0

root = Clipped()
OPTIONS = tf.saved_model.SaveOptions(experimental_custom_gradients=True)
CALLS = [("call_custom_grad", [[3.0, 4.0]]), ("call_custom_grad", [[[1.0, 0.1], [0.1, 0.1]]]),
         ("call_custom_grad", [2.0]), ("scaled", [[[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]]])]
GRADS = [3]
INPUT_GRADS = [0, 1, 2, 3]
''',
    # the tf.custom_gradient docs' examples whose gradient function captures, saved in TF's
    # layout: log1pexp's takes the forward's exp(x) (a captured_tensor), linear_poly's reads
    # a variable and the argument; a custom gradient over variables (grad_fn(...,
    # variables=...), an IdentityN/ReadVariableOp input per variable); tf.recompute_grad.
    # tools/record_saved_model.py saves this module with TF (the fixture of the same name)
    "custom_gradient_captures": '''
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad

class Captures(tf.Module):
    def __init__(self):
        self.weights = tf.Variable([0.5, -1.5], name="weights")
        self.scale = tf.Variable([2.0, 3.0, -1.0], name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    def softplus(self, x):
        return log1pexp(x) * 2.0

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32, name="x")])
    def any_rank(self, x):
        return log1pexp(x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    def poly(self, x):
        weights = self.weights

        @tf.custom_gradient
        def linear_poly(x):
            poly = weights[1] * x + weights[0]

            def grad_fn(dpoly, variables):
                grad_xs = dpoly * weights[1]
                dy_dw = dpoly * tf.stack([x ** 1, x ** 0])
                return grad_xs, [tf.reduce_sum(tf.reshape(dy_dw, [2, -1]), axis=1)]
            return poly, grad_fn
        return linear_poly(x)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def scaled(self, x):
        @tf.custom_gradient
        def scale_rows(x):
            y = x * self.scale
            t = tf.tanh(y)

            def grad(dy, variables=None):
                # deliberately not the true gradient: the numbers come from this function
                return dy * (1 - t * t) * 0.5, [tf.reduce_sum(dy * x * t, axis=0) * 10.0]
            return t, grad
        return scale_rows(x)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def recomputed(self, x):
        # its gradient function differentiates the recomputed forward (TanhGrad...)
        return tf.recompute_grad(lambda a: tf.tanh(a * self.scale))(x)

root = Captures()
signatures = root.softplus
CALLS = [("softplus", [[-3.0, 0.0, 2.5, 20.0]]), ("poly", [[1.0, 2.0, -0.5]]),
         ("scaled", [[[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]]]),
         ("signatures/serving_default", {"x": [0.5, -1.0, 3.0]}),
         ("any_rank", [2.0]), ("any_rank", [[[0.0, 3.0], [-1.0, 1.0]]]),
         ("recomputed", [[[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]]])]
GRADS = [1, 2, 6]
INPUT_GRADS = [0, 1, 2, 3, 4, 5, 6]
SERVE = "x=[0.5,-1.0,3.0]"
''',
    # random_numbers's "Saving generators" cell: draws of a tf.random.Generator saved as
    # TF writes them (RngReadAndSkip on the state variable, StatelessRandom*V2); TF's loaded
    # functions draw TF's numbers and move the saved state
    "generator_draws": '''
class Draws(tf.Module):
    def __init__(self):
        self.g = tf.random.Generator.from_seed(7)

    @tf.function
    def normal(self):
        return self.g.normal([2, 3])

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def mixed(self, scale):
        return (self.g.uniform([2], minval=-1.0, maxval=2.0) * scale,
                self.g.truncated_normal([3], dtype=tf.float64),
                self.g.uniform([4], minval=3, maxval=50, dtype=tf.int32),
                self.g.uniform_full_int([2], dtype=tf.int64))

    @tf.function
    def state(self):
        return self.g.state

root = Draws()
root.normal()
root.state()
CALLS = [("state", []), ("normal", []), ("mixed", [[1.0, -2.0]]), ("state", []),
         ("normal", []), ("state", [])]
GRADS = []
''',
    # the ragged_tensor guide's CustomModule: traced for a RaggedTensorSpec (TF's graph takes
    # the flat values and the row splits; the output's partition is the input's)
    "ragged_guide_grow": '''
class CustomModule(tf.Module):
    def __init__(self, variable_value):
        super(CustomModule, self).__init__()
        self.v = tf.Variable(variable_value)

    @tf.function
    def grow(self, x):
        return x * self.v

root = CustomModule(100.0)
root.grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32))
CALLS = [("grow", [("ragged", "float32", [[1.0, 4.0, 3.0], [2.0]])]),
         ("grow", [("ragged", "float32", [[1.5], [], [2.0, -5.0], [0.25]])])]
GRADS = [0, 1]
''',
    # ragged rank 2, a ragged and a dense argument, dict and tuple outputs mixing ragged
    # and dense results, a RaggedTensor's .values (the inner partition) returned
    "ragged_mixed": '''
class Mixed(tf.Module):
    def __init__(self):
        self.scale = tf.Variable(2.0)
        self.bias = tf.Variable([0.5, -1.0, 2.0])

    @tf.function
    def two(self, x, y):
        return {"a": x * self.scale + 1.0, "b": tf.reduce_sum(y + self.bias),
                "c": x.flat_values * 3.0}

    @tf.function
    def deep(self, x):
        return tf.math.exp(x) * self.scale, x.values

root = Mixed()
root.two.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.float32),
                               tf.TensorSpec([None, 3], tf.float32))
root.deep.get_concrete_function(tf.RaggedTensorSpec([None, None, None], tf.float32,
                                                    ragged_rank=2))
CALLS = [("two", [("ragged", "float32", [[1.0, 4.0, 3.0], [2.0]]), [[1.0, 2.0, 3.0]]]),
         ("two", [("ragged", "float32", [[], [0.5, 1.5]]),
                  [[1.0, 2.0, 3.0], [0.0, -1.0, 2.5]]]),
         ("deep", [("ragged", "float32", [[[0.1, 0.2], [0.3]], [[-0.4]], []])])]
GRADS = [0, 1, 2]
''',
    # an input_signature of a RaggedTensorSpec: serving_default takes the components
    # (x, x_1) by keyword and returns the RaggedTensor (TF's signature_def: a composite
    # output over two components)
    "ragged_signature": '''
class Scale(tf.Module):
    def __init__(self):
        self.v = tf.Variable(-1.5)

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def __call__(self, x):
        return tf.math.tanh(x) * self.v

root = Scale()
CALLS = [("__call__", [("ragged", "float32", [[0.5, -1.0], [], [2.0]])]),
         ("signatures/serving_default", {"x": ("float32", [0.25, 1.0, -3.0]),
                                         "x_1": ("int64", [0, 1, 1, 3])})]
GRADS = [0, 1]
''',
    # SparseTensorSpec traces: TF's graph takes indices (x), values (x_1) and dense shape
    # (x_2); a SparseTensor output returns the input's indices and dense shape
    "sparse_traces": '''
class Sparse(tf.Module):
    def __init__(self):
        self.v = tf.Variable(1.5)

    @tf.function
    def scaled(self, x):
        return tf.sparse.map_values(tf.multiply, x, self.v)

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    def __call__(self, x):
        return {"sq": tf.sparse.map_values(tf.square, x), "vals": x.values + self.v}

root = Sparse()
root.scaled.get_concrete_function(tf.SparseTensorSpec([None, None], tf.float32))
CALLS = [("scaled", [("sparse", [[1.5, 0, 0, -2], [0, 0, 0, 0], [0.5, 3, 0, 1]])]),
         ("scaled", [("sparse", [[0, 2.0], [4.0, 0]])]),
         ("__call__", [("sparse", [[0, 0, 0, 1.0], [2.0, 0, 0, 0]])]),
         ("signatures/serving_default", {"x": ("int64", [[0, 1], [1, 3]]),
                                         "x_1": ("float32", [2.0, -3.0]),
                                         "x_2": ("int64", [3, 4])})]
GRADS = []
''',
}


def run_case(name, tf, directory):
    """Run case ``name`` with module ``tf`` from a file in ``directory``: its namespace."""
    import os
    import runpy
    path = os.path.join(directory, f"tf_check_case_{name}.py")
    with open(path, "w") as fh:
        fh.write(CASES[name])
    return runpy.run_path(path, init_globals={"tf": tf})


def to_args(tf, args):
    """The call arguments of a CALLS entry as ``tf`` values."""
    def one(a):
        if isinstance(a, tuple) and a[0] == "py":
            return a[1]
        if isinstance(a, tuple) and a[0] == "sparse":
            return tf.sparse.from_dense(tf.constant(a[1], dtype=tf.float32))
        if isinstance(a, tuple) and a[0] == "ragged":
            return tf.ragged.constant(a[2], dtype=getattr(tf, a[1]))
        if isinstance(a, tuple) and a[0] == "linspace":
            import numpy as np
            n = int(np.prod(a[1]))
            return tf.constant(np.linspace(-1.0, 1.0, n).reshape(a[1]).astype(np.float32))
        if isinstance(a, tuple):
            return tf.constant(a[1], dtype=getattr(tf, a[0]))
        return tf.constant(a, dtype=tf.float32)
    if isinstance(args, dict):
        return {k: one(v) for k, v in args.items()}
    return [one(a) for a in args]


def call(tf, obj, path, args, sigs=None, watch=None):
    """Call ``path`` of ``obj`` with the CALLS ``args``; the flat outputs as NumPy lists
    (a dict output in key order), and the outputs themselves. ``sigs``: a live object's
    signatures (``{key: (ConcreteFunction, input names)}``); ``watch``: a tape that watches
    the float inputs (listed in ``watch.inputs``)."""
    values = to_args(tf, args)
    if watch is not None:
        flat = values.values() if isinstance(values, dict) else values
        watch.inputs = [v for v in flat if getattr(v, "dtype", None) == tf.float32]
        for v in watch.inputs:
            watch.watch(v)
    if path.startswith("signatures/") and sigs is not None:
        fn, names = sigs[path.split("/", 1)[1]]
        if None in names:
            # a RaggedTensorSpec input: the signature takes its components by keyword (in
            # the CALLS dict's order), the live function the RaggedTensor
            it = iter(values.values())
            args = []
            for spec in names_specs(fn):
                if isinstance(spec, tf.SparseTensorSpec):
                    args.append(tf.SparseTensor(next(it), next(it), next(it)))
                    continue
                n = getattr(spec, "ragged_rank", 0)
                first = next(it)
                args.append(tf.RaggedTensor.from_nested_row_splits(
                    first, [next(it) for _ in range(n)]) if n else first)
            out = fn(*args)
        else:
            out = fn(*[values[n] for n in names])
    elif path.startswith("signatures/"):
        out = obj.signatures[path.split("/", 1)[1]](**values)
    else:
        fn = obj
        for part in path.split("/"):
            fn = getattr(fn, part)
        out = fn(*values)
    return flat_numbers(tf, out), out


def names_specs(fn):
    """The flat input specs of a live concrete function (a RaggedTensorSpec as one)."""
    from tapeflow._core import nest
    return nest.flatten(fn.structured_input_signature)


def flat_numbers(tf, out):
    if out is None:
        return []
    if isinstance(out, dict):
        return [x for k in sorted(out) for x in flat_numbers(tf, out[k])]
    if isinstance(out, (list, tuple)):
        return [x for o in out for x in flat_numbers(tf, o)]
    if hasattr(out, "read_value"):
        out = out.read_value()
    if hasattr(out, "row_splits") and hasattr(out, "to_list"):   # a RaggedTensor
        return [out.to_list()]
    if hasattr(out, "indices") and hasattr(out, "dense_shape"):   # a SparseTensor
        return [out.indices.numpy().tolist(), out.values.numpy().tolist(),
                out.dense_shape.numpy().tolist()]
    return [out.numpy().tolist()]


def variable_paths(tf, root):
    """Attribute paths (``("dense_1", "w")``) of the root's trainable variables, in the order
    the saved object graph reaches them."""
    from tapeflow.saved_model import objects
    return [list(n.path) for n in objects.walk(root)
            if n.kind == "variable" and n.obj.trainable]


def resolve(obj, path):
    """The object at ``path``: attributes, list items, else (a tapeflow object whose saved
    layout is not its attributes: Keras) its checkpoint children."""
    for part in path:
        if isinstance(obj, (list, tuple)) or (hasattr(obj, "__getitem__") and
                                              part.isdigit() and not hasattr(obj, part)):
            obj = obj[int(part)]
        elif hasattr(obj, part):
            obj = getattr(obj, part)
        else:
            from tapeflow.checkpoint import tracking
            obj = dict(tracking.children(obj))[part]
    return obj


def run_calls(tf, root, ns, var_paths, sigs=None):
    """``(outputs per call, gradients per GRADS call)``: each gradient the list of d(sum of
    the call's outputs)/d(variable) per variable path (None where unconnected)."""
    outs, grads = [], []
    variables = [resolve(root, p) for p in var_paths]
    for k, (path, args) in enumerate(ns["CALLS"]):
        if k in ns.get("GRADS", ()):
            with tf.GradientTape() as tape:
                nums, out = call(tf, root, path, args, sigs)
                flat = [o for o in tf.nest.flatten(out) if o is not None]
                total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float32)) for o in flat])
            g = tape.gradient(total, variables)
            grads.append([None if x is None else x.numpy().tolist() for x in g])
        if k in ns.get("INPUT_GRADS", ()):
            # d(sum of the outputs)/d(each float input)
            with tf.GradientTape() as tape:
                nums, out = call(tf, root, path, args, sigs, watch=tape)
                flat = [o for o in tf.nest.flatten(out) if o is not None]
                total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float32)) for o in flat])
            g = tape.gradient(total, tape.inputs)
            grads.append([None if x is None else x.numpy().tolist() for x in g])
        elif k not in ns.get("INPUT_GRADS", ()):
            nums, _ = call(tf, root, path, args, sigs)
        outs.append(nums)
    return outs, grads


def tapeflow_side(name, directory, export_dir, resave_dir=None):
    """Save case ``name`` with tapeflow into ``export_dir``, then run its calls on the live
    object: ``{"sha256", "outputs", "grads", "var_paths"}``; with ``resave_dir``, also load
    the export with tapeflow, save the loaded object again (``resave_sha256``) and run the
    calls on the loaded object (``loaded_outputs``, ``loaded_grads``)."""
    import hashlib
    import os

    import tapeflow as tf
    ns = run_case(name, tf, directory)
    root = ns["root"]
    tf.saved_model.save(root, export_dir, signatures=ns.get("signatures"),
                        options=ns.get("OPTIONS"))
    with open(os.path.join(export_dir, "saved_model.pb"), "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    paths = variable_paths(tf, root)
    import importlib

    from tapeflow._core import nest
    _save = importlib.import_module("tapeflow.saved_model.save")
    sigs = {k: (c, [getattr(s, "name", None) for s in nest.flatten(c.structured_input_signature)])
            for k, c in _save._signatures(root, ns.get("signatures")).items()}
    outs, grads = run_calls(tf, root, ns, paths, sigs)
    out = {"sha256": digest, "outputs": outs, "grads": grads, "var_paths": paths}
    if resave_dir is not None:
        # tapeflow loads its own export and saves the loaded object again
        loaded = tf.saved_model.load(export_dir)
        tf.saved_model.save(loaded, resave_dir)
        with open(os.path.join(resave_dir, "saved_model.pb"), "rb") as fh:
            out["resave_sha256"] = hashlib.sha256(fh.read()).hexdigest()
        out["loaded_outputs"], out["loaded_grads"] = run_calls(tf, loaded, ns, paths)
    return out
