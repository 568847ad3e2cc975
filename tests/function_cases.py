"""``tf.function`` behaviours as small programs over a ``tf`` module, run by TensorFlow 2.21
(tools/record_tf_fixtures_function.py writes tests/fixtures/function/cases.json) and by
tapeflow (tests/test_function.py compares). Each case returns JSON-able values: outputs,
trace counts, what Python side effects ran, error classes and texts.
"""
import collections
import math

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _v(t):
    if t is None:
        return None
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": a.tolist()}


def _err(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class and text are the result
        lines = [ln.strip() for ln in str(exc).split("\n") if ln.strip()]
        last = lines[-1] if lines else ""
        # TensorFlow's AutoGraph wraps trace-time errors: "in user code: ... Class: text".
        prefix = type(exc).__name__ + ": "
        return {"class": type(exc).__name__, "first": lines[0] if lines else "",
                "text": last[len(prefix):] if last.startswith(prefix) else last}
    return None


@case
def literal_keys(tf):
    traced = []

    @tf.function
    def f(x):
        traced.append(repr(x))
        return x + 1

    out = [_v(f(2)), _v(f(2.0)), _v(f(True)), _v(f(1)), _v(f(float("nan"))),
           _v(f(float("nan"))), _v(f("a" if False else 3))]
    return {"out": out, "count": f.experimental_get_tracing_count(), "traced": traced}


@case
def tensors_and_arrays(tf):
    n = []

    @tf.function
    def f(x):
        n.append(1)
        return x * 2

    out = [_v(f(tf.constant([1.0, 2.0]))), _v(f(np.array([3.0, 4.0], np.float32))),
           _v(f(tf.constant([1.0, 2.0, 3.0]))), _v(f(tf.constant([1, 2]))),
           _v(f(np.array([5.0, 6.0], np.float64)))]
    return {"out": out, "count": f.experimental_get_tracing_count(), "python_runs": len(n)}


@case
def variables_by_spec(tf):
    @tf.function
    def f(v, w):
        return v + w

    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    out = [_v(f(a, b)), _v(f(b, c)), _v(f(a, a)), _v(f(c, c)), _v(f(a, tf.Variable(5.0)))]
    d = tf.Variable([1.0, 2.0])
    out.append(_v(f(d, d)))
    return {"out": out, "count": f.experimental_get_tracing_count()}


Point = collections.namedtuple("Point", ["x", "y"])


@case
def containers(tf):
    @tf.function
    def f(s):
        return tf.add_n(tf.nest.flatten(s))

    one, two = tf.constant(1.0), tf.constant(2.0)
    out = [_v(f([one, two])), _v(f([two, one])), _v(f((one, two))), _v(f({"a": one, "b": two})),
           _v(f({"b": one, "a": two})), _v(f(Point(one, two))), _v(f([one, two, one]))]
    return {"out": out, "count": f.experimental_get_tracing_count()}


@case
def objects_by_identity(tf):
    class Scale:
        def __init__(self, k):
            self.k = k

    @tf.function
    def f(obj, x):
        return x * obj.k

    s1, s2 = Scale(2.0), Scale(3.0)
    x = tf.constant(1.0)
    out = [_v(f(s1, x)), _v(f(s1, x)), _v(f(s2, x))]
    s1.k = 10.0  # baked into the trace: the same object does not retrace
    out.append(_v(f(s1, x)))
    return {"out": out, "count": f.experimental_get_tracing_count()}


@case
def python_side_effects_once(tf):
    log = []

    @tf.function
    def f(x):
        log.append("traced")
        print_count = len(log)
        return x + print_count

    x = tf.constant(1)
    out = [_v(f(x)), _v(f(x)), _v(f(x))]
    return {"out": out, "log": log, "count": f.experimental_get_tracing_count()}


@case
def reduce_retracing_shapes(tf):
    seen = []

    @tf.function(reduce_retracing=True)
    def f(x):
        seen.append(x.shape.as_list() if x.shape.rank is not None else None)
        return tf.reduce_sum(x)

    out = [_v(f(tf.ones([n]))) for n in (2, 3, 4, 5)]
    out.append(_v(f(tf.ones([2, 2]))))
    out.append(_v(f(tf.ones([3, 3]))))
    return {"out": out, "seen": seen, "count": f.experimental_get_tracing_count()}


@case
def relax_shapes_old_name(tf):
    @tf.function(experimental_relax_shapes=True)
    def f(x):
        return x * 2.0

    out = [_v(f(tf.ones([n]))) for n in (1, 2, 3)]
    return {"out": out, "count": f.experimental_get_tracing_count()}


@case
def input_signature(tf):
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        seen.append(x.shape.as_list())
        return x * 2.0

    out = [_v(f(tf.constant([1.0, 2.0]))), _v(f([1.0, 2.0, 3.0])),
           _v(f(np.array([4.0], np.float32)))]
    err = _err(lambda: f(tf.constant([1, 2])))
    err2 = _err(lambda: f(tf.constant([[1.0]])))
    return {"out": out, "seen": seen, "count": f.experimental_get_tracing_count(),
            "int32": err, "rank": err2, "spec": repr(f.input_signature)}


@case
def lazy_variable_creation(tf):
    class Model:
        def __init__(self):
            self.v = None
            self.traces = 0

        @tf.function
        def __call__(self, x):
            self.traces += 1
            if self.v is None:
                self.v = tf.Variable(2.0)
            return self.v * x

    m = Model()
    out = [_v(m(tf.constant(1.0))), _v(m(tf.constant(3.0)))]
    return {"out": out, "python_runs": m.traces,
            "count": m.__call__.experimental_get_tracing_count()}


@case
def variable_every_call(tf):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v + x

    return {"first": _err(lambda: f(tf.constant(1.0))),
            "again": _err(lambda: f(tf.constant(1.0)))}


@case
def variable_on_non_first_call(tf):
    @tf.function
    def f(x, make):
        if make:
            tf.Variable(1.0)
        return x + 1.0

    out = _v(f(tf.constant(1.0), False))
    return {"out": out, "err": _err(lambda: f(tf.constant(1.0), True))}


@case
def assign_then_read(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        before = v.read_value()
        v.assign_add(x)
        after = v.read_value()
        v.assign(v * 2.0)
        return before, after, v.read_value()

    out = [[_v(t) for t in f(tf.constant(1.0))], [_v(t) for t in f(tf.constant(2.0))]]
    return {"out": out, "v": _v(v), "count": f.experimental_get_tracing_count()}


@case
def course_assign_pattern(tf):
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    out = [_v(f(tf.constant(1.0), tf.constant(2.0))), _v(f(tf.constant(1.0), tf.constant(2.0)))]
    return {"out": out, "a": _v(a), "b": _v(b)}


@case
def return_values(tf):
    @tf.function
    def three(x):
        return 3

    @tf.function
    def none(x):
        return None

    @tf.function
    def scalar_float(x):
        return 2.0 * 3.0

    v = tf.Variable([1.0, 2.0])

    @tf.function
    def var(x):
        return v

    @tf.function
    def nested(x):
        return {"b": x, "a": [x * 2, (x, None)]}

    @tf.function
    def bad(x):
        return object()

    n = nested(tf.constant(1.0))
    return {"three": _v(three(tf.constant(1))), "none": none(1),
            "float": _v(scalar_float(tf.constant(1))), "var": _v(var(1)),
            "var_type": type(var(1)).__name__ in ("EagerTensor", "Tensor"),
            "nested_keys": sorted(n), "nested_a": [_v(n["a"][0]), _v(n["a"][1][0]),
                                                   n["a"][1][1]],
            "bad": _err(lambda: bad(1))["class"]}


@case
def outer_tape_through_call(tf):
    w = tf.Variable(3.0, name="w")

    @tf.function
    def f(x):
        return w * x * x

    x = tf.constant(2.0)
    f(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    gx, gw = tape.gradient(y, [x, w])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
    gg = t2.gradient(g, x)
    return {"y": _v(y), "gx": _v(gx), "gw": _v(gw), "gg": _v(gg),
            "watched": [v.name for v in tape.watched_variables()],
            "count": f.experimental_get_tracing_count()}


@case
def tape_inside_function(tf):
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def grads(x):
        with tf.GradientTape(persistent=True) as t2:
            with tf.GradientTape(persistent=True) as t1:
                t1.watch(x)
                y = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
                z = tf.reduce_sum(x * x)
            g = t1.gradient(y, x)
            gw = t1.gradient(y, w)
            unconnected = t1.gradient(z, w, unconnected_gradients=tf.UnconnectedGradients.ZERO)
            s = tf.reduce_sum(g)
        h = t2.gradient(s, x)
        j = t1.jacobian(tf.matmul(x, w), x)
        return g, gw, unconnected, h, j

    x = tf.constant([[0.5, -0.3]])
    a = [_v(t) for t in grads(x)]
    b = [_v(t) for t in grads(tf.constant([[0.1, 0.2]]))]
    return {"first": a, "second": b, "count": grads.experimental_get_tracing_count()}


@case
def numpy_inside(tf):
    @tf.function
    def f(x):
        return x.numpy()

    return {"err": _err(lambda: f(tf.constant(1.0)))}


@case
def run_functions_eagerly(tf):
    log = []

    @tf.function
    def f(x):
        log.append(1)
        return x

    tf.config.run_functions_eagerly(True)
    try:
        flag = tf.config.functions_run_eagerly()
        f(tf.constant(1))
        f(tf.constant(1))
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(1))
    f(tf.constant(1))
    return {"flag": flag, "runs": len(log), "after": tf.config.functions_run_eagerly()}


@case
def concrete_function(tf):
    @tf.function
    def f(x):
        return x + 1.0

    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    out = _v(cf(tf.ones([2, 3])))
    cf2 = f.get_concrete_function(tf.constant([1.0, 2.0]))
    return {"out": out, "sig": repr(cf.structured_input_signature),
            "outputs": repr(cf.structured_outputs) if False else str(cf.structured_outputs),
            "count": f.experimental_get_tracing_count(),
            "out2": _v(cf2(tf.constant([3.0, 4.0]))),
            "ops": [op.type for op in cf.graph.get_operations()],
            "name": f.__name__, "pyfn": f.python_function.__name__}


@case
def method_per_instance(tf):
    class Counter:
        def __init__(self, k):
            self.k = k

        @tf.function
        def scale(self, x):
            return x * self.k

    a, b = Counter(2.0), Counter(5.0)
    x = tf.constant(1.0)
    out = [_v(a.scale(x)), _v(b.scale(x)), _v(a.scale(x))]
    return {"out": out, "a": a.scale.experimental_get_tracing_count(),
            "b": b.scale.experimental_get_tracing_count()}


@case
def trace_time_error_class(tf):
    @tf.function
    def f(x):
        raise KeyError("boom")

    @tf.function
    def g(x):
        return tf.matmul(x, x)

    return {"key": _err(lambda: f(tf.constant(1.0)))["class"],
            "matmul": _err(lambda: g(tf.ones([2, 3])))["class"]}


@case
def nested_functions(tf):
    log = []

    @tf.function
    def inner(x):
        log.append("inner")
        return x * 2.0

    @tf.function
    def outer(x):
        log.append("outer")
        return inner(x) + 1.0

    out = [_v(outer(tf.constant(1.0))), _v(outer(tf.constant(2.0))), _v(inner(tf.constant(3.0)))]
    return {"out": out, "log": log, "outer": outer.experimental_get_tracing_count(),
            "inner": inner.experimental_get_tracing_count()}


@case
def random_fresh_each_call(tf):
    @tf.function
    def f():
        return tf.random.uniform([3])

    a, b = f().numpy(), f().numpy()
    return {"differ": bool(np.any(a != b)), "count": f.experimental_get_tracing_count()}


@case
def nan_literal(tf):
    @tf.function
    def f(x, y):
        return x + 1.0

    f(tf.constant(1.0), float("nan"))
    f(tf.constant(1.0), float("nan"))
    f(tf.constant(1.0), math.inf)
    return {"count": f.experimental_get_tracing_count()}


def _both(tf, fn):
    """``fn`` eagerly and under ``tf.function``, with its trace-time Python log."""
    log = []
    eager = fn(log)
    log_eager = list(log)
    log.clear()
    traced = tf.function(fn)
    return eager, log_eager, traced, log


@case
def cond_values_and_traces(tf):
    log = []

    def f(x):
        def t():
            log.append("true")
            return x * 2.0

        def e():
            log.append("false")
            return x - 1.0
        return tf.cond(x > 0, t, e)

    g = tf.function(f)
    out = [_v(g(tf.constant(3.0))), _v(g(tf.constant(-3.0))), _v(g(tf.constant(5.0)))]
    trace_log = list(log)
    log.clear()
    eager = [_v(f(tf.constant(3.0))), _v(f(tf.constant(-3.0)))]
    x = tf.constant(-2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    return {"out": out, "trace_log": trace_log, "eager": eager, "eager_log": log,
            "count": g.experimental_get_tracing_count(), "grad": _v(tape.gradient(y, x))}


@case
def cond_structure_mismatch(tf):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)

    err = _err(lambda: f(tf.constant(1.0)))
    return {"err": err["class"] in ("ValueError", "TypeError", "AssertionError")}


@case
def while_loop_values(tf):
    log = []

    @tf.function
    def f(n):
        def body(i, s):
            log.append("body")
            return i + 1, s + tf.cast(i, tf.float32)
        return tf.while_loop(lambda i, s: i < n, body, (tf.constant(0), tf.constant(0.0)))

    out = [[_v(t) for t in f(tf.constant(5))], [_v(t) for t in f(tf.constant(0))],
           [_v(t) for t in f(tf.constant(10))]]
    eager = [_v(t) for t in tf.while_loop(lambda i: i < 3, lambda i: [i + 2], [tf.constant(0)])]
    m = [_v(t) for t in tf.while_loop(lambda i: i < 100, lambda i: [i + 1], [0],
                                      maximum_iterations=7)]
    single = _err(lambda: tf.while_loop(lambda i: i < 5, lambda i: i + 2, tf.constant(1)))
    return {"out": out, "log": log, "eager": eager, "max": m, "single": single,
            "count": f.experimental_get_tracing_count()}


@case
def while_loop_gradient(tf):
    x = tf.constant(1.5)

    def power(x):
        return tf.while_loop(lambda i, p: i < 3, lambda i, p: (i + 1, p * x),
                             (tf.constant(0), tf.constant(1.0)))[1]

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = power(x)
    g_eager = tape.gradient(y, x)
    f = tf.function(power)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = f(x)
    return {"y": _v(y), "g": _v(g_eager), "y_fn": _v(y2), "g_fn": _v(tape.gradient(y2, x))}


@case
def while_loop_assigns_variable(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f(n):
        def body(i):
            v.assign(v * 2.0)
            return (i + 1,)
        tf.while_loop(lambda i: i < n, body, (tf.constant(0),))
        return v.read_value()

    return {"out": [_v(f(tf.constant(3))), _v(f(tf.constant(2)))], "v": _v(v)}


@case
def switch_case_and_case(tf):
    @tf.function
    def f(i):
        return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20),
                                  lambda: tf.constant(30)])

    x = tf.constant(3)

    def pick(x):
        return tf.case([(x < 2, lambda: tf.constant(-1)), (x < 5, lambda: tf.constant(0))],
                       default=lambda: tf.constant(1))

    return {"switch": [_v(f(tf.constant(i))) for i in (0, 2, 7, -1)],
            "case": [_v(pick(tf.constant(i))) for i in (1, 3, 9)],
            "case_fn": [_v(tf.function(pick)(tf.constant(i))) for i in (1, 3, 9)],
            "eager_switch": _v(tf.switch_case(x - 2, [lambda: x, lambda: x * 2]))}


@case
def map_scan_fold(tf):
    elems = tf.constant([1.0, 2.0, 3.0, 4.0])
    out = {
        "map": _v(tf.map_fn(lambda e: e * e, elems)),
        "map_struct": [_v(t) for t in tf.map_fn(lambda e: (e[0], e[1] * 2), (elems, elems))],
        "scan": _v(tf.scan(lambda a, e: a + e, elems)),
        "scan_init": _v(tf.scan(lambda a, e: a * e, elems, initializer=tf.constant(1.0))),
        "scan_rev": _v(tf.scan(lambda a, e: a + e, elems, reverse=True)),
        "foldl": _v(tf.foldl(lambda a, e: a - e, elems)),
        "foldr": _v(tf.foldr(lambda a, e: a - e, elems)),
        "foldl_init": _v(tf.foldl(lambda a, e: a + e, elems, initializer=tf.constant(10.0))),
    }
    f = tf.function(lambda e: tf.map_fn(lambda x: x * 3.0, e))
    out["map_fn_in_function"] = _v(f(elems))
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.map_fn(lambda e: e * e * e, x))
    out["map_grad"] = _v(tape.gradient(y, x))
    return out


@case
def tensor_array(tf):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, 1.0)
    ta = ta.write(1, 2.0)
    ta = ta.write(2, 3.0)
    out = {"stack": _v(ta.stack()), "read": _v(ta.read(1)), "size": _v(ta.size())}
    dyn = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in range(4):
        dyn = dyn.write(i, i * i)
    out["dynamic"] = _v(dyn.stack())
    out["oob"] = _err(lambda: tf.TensorArray(tf.float32, size=1).write(3, 1.0))
    u = tf.TensorArray(tf.float32, size=2).unstack(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    out["unstack_read"] = _v(u.read(1))

    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()
    out["in_function"] = [_v(squares(tf.constant(4))), _v(squares(tf.constant(2)))]
    return out


@case
def py_and_numpy_function(tf):
    calls = []

    def double(x):
        calls.append(1)
        return x * 2

    @tf.function
    def f(x):
        a = tf.py_function(double, [x], tf.float32)
        b = tf.numpy_function(lambda v: (v + 1).astype("float32"), [x], tf.float32)
        return a + b

    out = [_v(f(tf.constant(1.0))), _v(f(tf.constant(2.0))), _v(f(tf.constant(3.0)))]
    return {"out": out, "calls": len(calls), "count": f.experimental_get_tracing_count(),
            "eager": _v(tf.py_function(double, [tf.constant(5.0)], tf.float32))}


@case
def distributed_step_traced_once(tf):
    # the default devices (one CPU here); tests/test_distribute.py runs it on two replicas
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(2.0)
    ds = tf.data.Dataset.from_tensor_slices(tf.range(16.0)).batch(4)

    @tf.function
    def step(x):
        per = strategy.run(lambda b: tf.reduce_sum(b * w), args=(x,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per, axis=None)

    out = [_v(step(b)) for b in strategy.experimental_distribute_dataset(ds)]
    return {"out": out, "count": step.experimental_get_tracing_count()}


@case
def assign_result_of_a_variable_argument(tf):
    @tf.function
    def f(v, x):
        u = v.assign(x)
        return u * 2.0

    a, b = tf.Variable(1.0), tf.Variable(5.0)
    out = [_v(f(a, tf.constant(3.0))), _v(f(b, tf.constant(4.0)))]
    return {"out": out, "a": _v(a), "b": _v(b), "count": f.experimental_get_tracing_count()}


def _batch(n):
    x = (np.arange(n * 3, dtype=np.float32).reshape(n, 3) - 4.0) / 10.0
    y = (np.arange(n) % 2).astype(np.int32)
    return x, y


def _train_step_case(tf, **options):
    # A train step with Python side effects (a list.append and a print) called with batch
    # sizes 4, 7, 1, 4: traced once under an input_signature (twice with reduce_retracing:
    # the exact first shape, then the generalised one), the side effects only while tracing.
    import contextlib
    import io

    w = tf.Variable(np.array([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2]], np.float32))
    b = tf.Variable(np.array([0.1, -0.1], np.float32))
    traced = []

    @tf.function(**options)
    def step(x, y):
        traced.append(1)
        print("tracing step", x.shape)
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=logits))
            loss = loss + 0.01 * tf.reduce_mean(tf.reduce_sum(tf.square(logits), axis=1))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        return loss, gw, gb

    out = []
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for n in (4, 7, 1, 4):
            out.append([_v(t) for t in step(*_batch(n))])
    return {"out": out, "w": _v(w), "b": _v(b), "python_runs": len(traced),
            "printed": printed.getvalue().splitlines(),
            "count": step.experimental_get_tracing_count()}


@case
def input_signature_train_step_any_batch(tf):
    return _train_step_case(tf, input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                                 tf.TensorSpec([None], tf.int32)])


@case
def reduce_retracing_train_step_any_batch(tf):
    return _train_step_case(tf, reduce_retracing=True)


@case
def dynamic_shape_arithmetic(tf):
    # tf.shape / tf.size are ops: under a [None] signature they hold each call's sizes.
    traced = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        traced.append(x.shape.as_list())
        n = tf.shape(x)[0]
        mean = tf.reduce_sum(x) / tf.cast(n, tf.float32)
        col = tf.reshape(x, [n, 1])
        filled = tf.fill([n, 2], 0.5) + tf.zeros(tf.shape(col)) + tf.ones_like(col)
        return mean, n * 2 + 1, tf.size(x), tf.shape(col), tf.reduce_sum(filled, axis=1)

    # (traced at 5: tapeflow takes a program holding an integer equal to a traced size,
    # here the literals 1 and 2, as not shape-generic and runs the Python body again)
    out = [[_v(t) for t in f(np.arange(n, dtype=np.float32) + 1.0)] for n in (5, 2, 3)]
    return {"out": out, "traced": traced, "count": f.experimental_get_tracing_count()}


@case
def keras_style_loss_any_batch(tf):
    # softmax + log + one_hot + reduce_mean (a categorical cross-entropy written out) and
    # Keras' own losses, with their gradients, under an input_signature.
    w = tf.Variable(np.array([[0.2, -0.1, 0.3], [0.0, 0.4, -0.2], [0.1, 0.1, 0.1]],
                             np.float32))
    sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    mse = tf.keras.losses.MeanSquaredError()
    traced = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def f(x, y):
        traced.append(1)
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w)
            p = tf.nn.softmax(logits)
            onehot = tf.one_hot(y, 3)
            manual = -tf.reduce_mean(tf.reduce_sum(onehot * tf.math.log(p), axis=1))
            keras = sparse(y, logits) + mse(onehot, p)
            total = manual + keras
        return manual, keras, tape.gradient(total, w)

    out = [[_v(t) for t in f(*_batch(n))] for n in (4, 7, 1, 4)]
    return {"out": out, "python_runs": len(traced), "count": f.experimental_get_tracing_count()}
