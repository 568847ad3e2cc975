"""``tf.function`` behaviours as small programs over a ``tf`` module, run by TensorFlow 2.21
(tools/record_function.py writes tests/fixtures/function/cases.json) and by
tapeflow (tests/function/test_semantics.py compares). Each case returns JSON-able values: outputs,
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
def relaxed_output_shapes(tf):
    """A concrete function's output shapes: dims that follow an unknown input dim are None
    (a reshape to [-1], a fill sized by tf.shape), the others known (a sum over the batch);
    a size made from an input's value is None too. Printed as TF prints them, inside a
    tuple (repr) and alone (str)."""
    spec = tf.TensorSpec([None, 4], tf.float32)
    f = tf.function(lambda a: (a * 2, tf.reshape(a, [-1]), tf.reduce_sum(a, 0),
                               tf.fill([tf.shape(a)[0]], 1.0), tf.matmul(a, tf.ones([4, 2]))),
                    input_signature=[spec])
    cf = f.get_concrete_function()
    g = tf.function(lambda i: tf.fill([i], i), input_signature=[tf.TensorSpec([], tf.int64)])
    h = tf.function(lambda a: tf.transpose(a)[:, :3])
    ch = h.get_concrete_function(tf.TensorSpec([None, None], tf.float32))
    return {"outputs": repr(cf.structured_outputs), "flat": repr(cf.outputs),
            "one": str(cf.structured_outputs[1]),
            "value_sized": str(g.get_concrete_function().structured_outputs),
            "two_unknown": str(ch.structured_outputs),
            "run": _v(cf(tf.ones([3, 4]))[1])}


@case
def concrete_function_runs_nothing(tf):
    """get_concrete_function builds the graph without running it: no variable write, no
    tf.print output, no draw; the first real call runs it."""
    import contextlib
    import io
    v = tf.Variable(0)

    @tf.function
    def f(x):
        v.assign_add(1)
        tf.print("hello", x)
        return x + v

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        f.get_concrete_function(tf.TensorSpec([], tf.int32))
        after_concrete = int(v.numpy())
        out = int(f(tf.constant(5)).numpy())
    return {"after_concrete": after_concrete, "out": out, "v": int(v.numpy()),
            "count": f.experimental_get_tracing_count()}


@case
def varargs_names(tf):
    """*args parameters trace as args_0, args_1, ... (the printed symbolic tensors and the
    signature), after the named ones."""
    seen = []

    @tf.function
    def f(a, *rest):
        seen.append([str(a), [repr(r) for r in rest]])
        return a

    f(tf.constant(1), tf.constant(2), tf.constant(3))

    @tf.function
    def g(*args):
        return args[0]

    sig = g.get_concrete_function(tf.constant(1.0), tf.constant(2)).pretty_printed_signature()
    return {"seen": seen, "sig": sig}


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
    # the default devices (one CPU here); tests/distribute/test_one_process.py: two replicas
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


# ---------------------------------------------------------------- AutoGraph: returns, loop else
def _err_has(fn, phrase):
    """The class of the error ``fn()`` raises, and whether its message contains ``phrase``."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class and text are the result
        return [type(exc).__name__, phrase in str(exc)]
    return None


def _first_line(e):
    """The AutoGraph error's own line (after TF's "in user code:" frames)."""
    if e is None:
        return None
    return {"class": e["class"], "first": e["first"], "text": e["text"]}


@case
def return_in_tensor_for_first_iteration(tf):
    # TF 2.21: a return inside a tensor loop makes the loop stop after the iteration that
    # returns; retval_ gets a placeholder from a staged iteration (the body is traced twice)
    # and the loop must run at least once (an Assert at run time).
    log = []

    @tf.function
    def f(x, n):
        log.append("trace")
        for i in tf.range(n):
            log.append("body")
            y = x * tf.cast(i + 1, tf.float32)
            return y * 2.0
        log.append("after")
        return x

    out = [_v(f(tf.constant(3.0), tf.constant(4))), _v(f(tf.constant(5.0), tf.constant(1)))]
    zero = _err_has(lambda: f(tf.constant(5.0), tf.constant(0)),
                    "loop must iterate at least once to initialize the function return value")
    return {"out": out, "log": log, "count": f.experimental_get_tracing_count(), "zero": zero}


@case
def return_in_tensor_while(tf):
    log = []

    @tf.function
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            log.append("body")
            s += i * i
            i += 2
            return s + i * 10
        return -i

    out = [_v(f(tf.constant(5))), _v(f(tf.constant(1)))]
    zero = _err(lambda: f(tf.constant(0)))
    return {"out": out, "log": log, "count": f.experimental_get_tracing_count(),
            "zero": zero["class"]}


@case
def return_in_tensor_loop_conditional_raises(tf):
    # TF 2.21 cannot place a return under a tensor condition inside a tensor loop.
    @tf.function
    def find(x, t):
        for i in tf.range(tf.shape(x)[0]):
            if x[i] > t:
                return i
        return -1

    @tf.function
    def find_while(x, t):
        i = tf.constant(0)
        while i < tf.shape(x)[0]:
            if x[i] > t:
                return x[i]
            i += 1
        return t

    @tf.function
    def bare(n):
        for _ in tf.range(n):
            return
        return 1

    @tf.function
    def text(n):
        for _ in tf.range(n):
            return "a"
        return "b"

    @tf.function
    def static_flag(n, flag):
        for i in tf.range(n):
            if flag:
                return i
        return -1

    @tf.function
    def python_over_tensor_loop(x):
        for k in range(2):
            for j in tf.range(3):
                return x + tf.cast(j, tf.float32) + k
        return x

    x = tf.constant([1.0, 5.0, 3.0])
    py_false = _err(lambda: static_flag(tf.constant(3), False))
    py_over = _err_has(lambda: python_over_tensor_loop(tf.constant(1.0)),
                       "break and return statements which depend on a TF condition are not "
                       "supported in Python for loops")
    return {"for": _first_line(_err(lambda: find(x, tf.constant(2.0)))),
            "while": _first_line(_err(lambda: find_while(x, tf.constant(2.0)))),
            "bare_return": _first_line(_err(lambda: bare(tf.constant(2)))),
            "string": _first_line(_err(lambda: text(tf.constant(2)))),
            "static_true": _v(static_flag(tf.constant(3), True)),
            "static_false": [py_false["class"], py_false["text"].split("; got")[0]],
            "python_loop_over_tensor_loop": py_over}


@case
def early_return_straight_code(tf):
    log = []

    @tf.function
    def f(x):
        log.append("trace")
        if x > 0:
            log.append("positive branch")
            return x * x
        y = x * 3.0
        log.append("rest")
        return y + 1.0

    out = [_v(f(tf.constant(2.0))), _v(f(tf.constant(-2.0))), _v(f(tf.constant(0.5)))]
    grads = []
    for v in (3.0, -3.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        grads.append(_v(tape.gradient(y, x)))

    @tf.function
    def inside(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        return t.gradient(y, x)

    return {"out": out, "log": log, "count": f.experimental_get_tracing_count(),
            "grads": grads, "inside": [_v(inside(tf.constant(2.0))),
                                       _v(inside(tf.constant(-2.0)))]}


@case
def early_return_errors(tf):
    @tf.function
    def dtypes(x):
        if x > 0:
            return 1
        return x * 3.0

    @tf.function
    def none_path(x):
        if x > 0:
            return
        return x * 3.0

    @tf.function
    def structure(x):
        if x > 0:
            return x, x
        return x * 3.0

    @tf.function
    def one_branch(x):
        if x > 0:
            return x

    @tf.function
    def in_python_loop(x):
        for k in range(3):
            if x[k] > 2.0:
                return k
        return -1

    x = tf.constant(2.0)
    return {"dtypes": _first_line(_err(lambda: dtypes(x))),
            "none": _first_line(_err(lambda: none_path(x))),
            "structure": _err_has(lambda: structure(x), "'retval_' must have the same nested "
                                  "structure in the main and else branches:"),
            "one_branch": _first_line(_err(lambda: one_branch(x))),
            "python_loop_tensor_condition": _first_line(
                _err(lambda: in_python_loop(tf.constant([1.0, 5.0, 3.0]))))}


@case
def returns_in_python_and_nested_loops(tf):
    log = []

    @tf.function
    def py(x, k):
        for j in [1, 2, 3]:
            log.append(j)
            if j == k:
                return x * j
        return x

    @tf.function
    def nested(x, n):
        for i in tf.range(n):
            for j in tf.range(n):
                return x + tf.cast(i * 10 + j, tf.float32)
        return x

    @tf.function
    def pair(x, n):
        for i in tf.range(n):
            return x, i
        return x, -1

    out = {"py": [_v(py(tf.constant(5.0), 2)), _v(py(tf.constant(5.0), 7))], "log": log,
           "nested": _v(nested(tf.constant(1.0), tf.constant(3))),
           "pair": [_v(t) for t in pair(tf.constant(1.0), tf.constant(3))]}
    return out


@case
def loop_return_gradient(tf):
    @tf.function
    def first_pow(x, n):
        p = tf.constant(1.0)
        for _ in tf.range(n):
            p = p * x * x
            return p * 2.0
        return p

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = first_pow(x, tf.constant(4))

    @tf.function
    def inside(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = first_pow(x, tf.constant(2))
        return t.gradient(y, x)

    return {"y": _v(y), "grad": _v(tape.gradient(y, x)), "inside": _v(inside(x))}


@case
def loop_temporaries_stay_local(tf):
    # A variable first assigned inside a tensor loop or branch and not read after it is
    # local to the body (TF's liveness), not a loop variable that must exist before.
    @tf.function
    def f(x, n):
        s = tf.constant(0.0)
        for i in tf.range(n):
            y = x * tf.cast(i, tf.float32)
            s += y
        if s > 10.0:
            t = s * 2.0
            s = t - 1.0
        return s

    return {"out": [_v(f(tf.constant(2.0), tf.constant(4))),
                    _v(f(tf.constant(1.0), tf.constant(3)))],
            "count": f.experimental_get_tracing_count()}


def _loop_else_fns(log):
    def for_else(x, t):
        s = x[0] * 0.0
        for v in x:
            log.append("for body")
            if v > t:
                break
            s += v
        else:
            log.append("for else")
            s = s * 100.0
        log.append("after")
        return s

    def while_else(n, k):
        i = n * 0
        acc = n * 0
        while i < n:
            if i == k:
                break
            acc += i
            i += 1
        else:
            acc = -acc
        return acc, i

    def return_in_else(x, n):
        s = x
        i = n * 0
        while i < n:
            i += 1
            if i > 2:
                break
            s += 1.0
        else:
            return s * 100.0
        return s

    return for_else, while_else, return_in_else


# case name -> {key of ours: key of TensorFlow's answer it must equal}: behaviours TF 2.21's
# tf.function refuses, where tapeflow's traced result must equal TF's eager one
BEYOND_TF = {"loop_else": {"traced": "eager"}}


@case
def loop_else(tf):
    # TF 2.21's AutoGraph refuses for/else and while/else ("for/else statement not yet
    # supported": the function runs unconverted, and a tensor loop then raises
    # OperatorNotAllowedInGraphError). tapeflow converts them (a break flag; the else clause
    # runs under `if not flag`): its traced results must equal TF's eager ones.
    log = []
    for_else, while_else, return_in_else = _loop_else_fns(log)
    x = tf.constant([1.0, 5.0, 3.0])
    calls = [(for_else, (x, tf.constant(2.0))), (for_else, (x, tf.constant(20.0))),
             (while_else, (tf.constant(5), tf.constant(3))),
             (while_else, (tf.constant(5), tf.constant(30))),
             (return_in_else, (tf.constant(1.0), tf.constant(5))),
             (return_in_else, (tf.constant(1.0), tf.constant(1)))]

    def results(fn, args):
        try:
            r = fn(*args)
        except Exception as exc:  # noqa: BLE001 - TF's error is the recorded answer
            return {"class": type(exc).__name__}
        return [_v(t) for t in r] if isinstance(r, tuple) else _v(r)

    eager = [results(fn, args) for fn, args in calls]
    eager_log = list(log)
    compiled = {fn: tf.function(fn) for fn in (for_else, while_else, return_in_else)}
    traced = [results(compiled[fn], args) for fn, args in calls]
    return {"eager": eager, "eager_log": eager_log, "traced": traced}


@case
def loop_defines_variable(tf):
    # A variable first assigned in a tensor loop and read after it: TF stages one iteration
    # for its placeholder and checks at run time that the loop ran.
    @tf.function
    def last(n):
        for i in tf.range(n):
            v = i * 2
            w = tf.cast(i, tf.float32)
        return v, w

    @tf.function
    def none_before(n):
        v = None
        for i in tf.range(n):
            v = i * 3
        return v

    @tf.function
    def read_first(n):
        for _ in tf.range(n):
            v = v + 1  # noqa: F821 - undefined before the loop, on purpose
        return v

    @tf.function
    def dataset_none(ds):
        v = None
        for x in ds:
            v = x
        return v

    return {"out": [_v(t) for t in last(tf.constant(3))], "none": _v(none_before(tf.constant(2))),
            "zero": _err_has(lambda: last(tf.constant(0)),
                             "loop must iterate at least once to initialize v, w"),
            "undefined": _err_has(lambda: read_first(tf.constant(2)),
                                  "'v' must be defined before the loop"),
            "dataset_none": _first_line(_err(lambda: dataset_none(tf.data.Dataset.range(3)))),
            "count": last.experimental_get_tracing_count()}


@case
def loop_target_read_after_loop(tf):
    @tf.function
    def py(x):
        n = 0
        for i in range(3):  # noqa: B007 - read after the loop
            n += 1
        return x + i + n

    @tf.function
    def tensor(x, m):
        n = 0
        for i in tf.range(m):  # noqa: B007 - read after the loop
            n += 1
        return x + i + n

    return {"py": _v(py(tf.constant(1))), "tensor": [_v(tensor(tf.constant(1), tf.constant(3))),
                                                     _v(tensor(tf.constant(1), tf.constant(5)))],
            "tensor_zero": _err_has(lambda: tensor(tf.constant(1), tf.constant(0)),
                                    "loop must iterate at least once to initialize")}
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


@case
def relaxed_sizes_read_at_run_time(tf):
    # Ops whose sizes a relaxed trace must read at each call: tf.range of a tf.shape,
    # bincount, boolean_mask, meshgrid, and the gradients of tile, diag_part, band_part and
    # set_diag spread back over the input's shape.
    traced = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def f(x, y):
        traced.append([x.shape.as_list(), y.shape.as_list()])
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = tf.range(tf.shape(x)[0])
            t = tf.tile(x, [2, 1])
            sq = tf.matmul(x, x, transpose_a=True)
            gram = tf.matmul(x, x, transpose_b=True)
            d = tf.linalg.diag_part(gram)
            b = tf.linalg.band_part(x, 1, 0)
            s = tf.linalg.set_diag(gram, d * d)
            loss = (tf.reduce_sum(t * t) + tf.reduce_sum(d) + tf.reduce_sum(b * b) +
                    tf.reduce_sum(s * gram) + tf.reduce_sum(tf.linalg.diag(d) * 0.5) +
                    tf.reduce_sum(sq))
        g = tape.gradient(loss, x)
        gx, gy = tf.meshgrid(tf.range(tf.shape(x)[0]), tf.range(3))
        return (r, tf.math.bincount(y + r), tf.boolean_mask(x, y > 0), gx + gy, loss, g)

    out = [[_v(t) for t in f(*_batch(n))] for n in (4, 6, 5)]
    return {"out": out, "traced": traced, "count": f.experimental_get_tracing_count()}


@case
def relaxed_same_padding(tf):
    # SAME padding read at each call: a program traced with None height, width and filter
    # sizes, called at odd and even sizes (the padding changes) and other filter sizes;
    # conv2d stride 2, max_pool stride 2, avg_pool, depthwise_conv2d, their gradients.
    traced = []

    def body(x, w, d):
        traced.append([x.shape.as_list(), w.shape.as_list()])
        with tf.GradientTape() as tape:
            tape.watch([x, w, d])
            y = tf.nn.conv2d(x, w, 2, "SAME")
            p = tf.nn.max_pool2d(y, 3, 2, "SAME")
            a = tf.nn.avg_pool2d(y, 2, 2, "SAME")
            z = tf.nn.depthwise_conv2d(x, d, [1, 2, 2, 1], "SAME")
            loss = (tf.reduce_sum(p * p) + tf.reduce_sum(tf.sin(a)) +
                    tf.reduce_sum(z * tf.cos(z)))
        return [p, a, z] + tape.gradient(loss, [x, w, d])

    sig = tf.function(body, input_signature=[tf.TensorSpec([1, None, None, 2], tf.float32),
                                             tf.TensorSpec([None, None, 2, 3], tf.float32),
                                             tf.TensorSpec([None, None, 2, 2], tf.float32)])
    relaxed = tf.function(body, reduce_retracing=True)

    def inputs(n, k):
        x = np.sin(np.arange(n * (n + 1) * 2, dtype=np.float32)).reshape(1, n, n + 1, 2)
        w = np.cos(np.arange(k * (k + 1) * 6, dtype=np.float32)).reshape(k, k + 1, 2, 3)
        d = np.cos(np.arange((k + 1) * k * 4, dtype=np.float32) / 3).reshape(k + 1, k, 2, 2)
        return x, w, d

    calls = [(7, 3), (8, 3), (9, 2), (6, 4)]
    out = [[_v(t) for t in sig(*inputs(n, k))] for n, k in calls]
    out_relaxed = [[_v(t) for t in relaxed(*inputs(n, 2))] for n in (5, 6, 7)]
    return {"out": out, "out_relaxed": out_relaxed, "traced": traced,
            "count": sig.experimental_get_tracing_count(),
            "count_relaxed": relaxed.experimental_get_tracing_count()}


# ---------------------------------------------------------------- graph-mode semantics (issue 22)
def _raised_line(fn):
    """The class and first line of what ``fn()`` raises (TensorFlow's later lines name its
    own frames and graph ids)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class and text are the result
        return {"class": type(exc).__name__, "line": str(exc).split("\n")[0]}
    return None


@case
def leaked_graph_tensor(tf):
    leak = []

    @tf.function
    def f(x):
        y = x + 1
        leak.append(y)
        leak.append(tf.reduce_sum(y * y))
        return y * 2

    out = _v(f(tf.constant([1.0, 2.0])))
    t, s = leak

    @tf.function
    def g():
        return t * 3

    return {"out": out, "repr": [repr(t), repr(s)], "str": [str(t), str(s)],
            "class": type(t).__name__, "shape": t.shape.as_list(), "dtype": t.dtype.name,
            "name": t.name, "is_tensor": [isinstance(t, tf.Tensor), tf.is_tensor(t)],
            "numpy": _raised_line(lambda: t.numpy()), "eager": _raised_line(lambda: t + 1),
            "op": _raised_line(lambda: tf.reduce_sum(t)),
            "captured": _raised_line(g), "len": _raised_line(lambda: len(t)),
            "bool": _raised_line(lambda: bool(s)),
            "array": _raised_line(lambda: np.asarray(t)),
            "again": _v(f(tf.constant([3.0, 4.0])))}


@case
def unknown_rank_printed(tf):
    seen = []

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        # (an op's output under a relaxed signature prints its traced shape in tapeflow:
        # no static shape inference; left out)
        seen.append([str(x), repr(x), f"{x}"])
        return x * 2

    out = _v(f(tf.constant([1.0, 2.0])))
    return {"out": out, "seen": seen}


@case
def dead_failing_op_pruned(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    v = tf.Variable([0.0])
    runs = []

    @tf.function
    def unused(x):
        runs.append(1)
        tf.gather(x, [5])
        a = tf.gather(x, [7]) * 2.0   # a failing chain, unused too
        del a
        return x + 1

    @tf.function
    def returned(x):
        return tf.gather(x, [5]) + 1.0

    @tf.function
    def printed(x):
        tf.print(tf.gather(x, [5]))
        return x

    @tf.function
    def assigned(x):
        v.assign(tf.gather(x, [5]))
        return x

    @tf.function
    def predicate(x):
        a = tf.gather(x, [5])
        if tf.reduce_sum(a) > 0:
            return x
        return x * 2

    @tf.function
    def in_branch(x):
        b = tf.gather(x, [5]) * 2.0
        if tf.reduce_sum(x) > 0:
            c = x
        else:
            c = b
        return c

    @tf.function
    def reshape_unused(x):
        tf.reshape(x, [2, 2])   # a static shape error: TensorFlow raises while tracing
        return x

    def err(fn):
        # TensorFlow's run-time error names its graph node on a last line of its own: the
        # message is the last line before it
        try:
            fn(x)
        except Exception as exc:  # noqa: BLE001 - the class and message are the result
            lines = [ln for ln in str(exc).split("\n") if ln.strip()
                     and not ln.strip().startswith("[[")]
            return {"cls": type(exc).__name__, "msg": lines[-1].split(" [Op:")[0]}
        return None

    return {"unused": [_v(unused(x)), _v(unused(x * 2)), len(runs),
                       unused.experimental_get_tracing_count()],
            "returned": err(returned), "printed": err(printed), "assigned": err(assigned),
            "predicate": err(predicate), "in_branch": err(in_branch),
            "reshape_unused": _err(lambda: reshape_unused(x))["class"],
            "v": _v(v)}


@case
def concrete_reuse_counts(tf):
    traced = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        traced.append(1)
        return x * 2

    counts = [f.experimental_get_tracing_count()]
    out = [_v(f(tf.constant([1.0, 2.0]))), _v(f(tf.constant([1.0, 2.0, 3.0])))]
    counts.append(f.experimental_get_tracing_count())
    c = f.get_concrete_function()
    c2 = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    c3 = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    counts += [f.experimental_get_tracing_count(), len(traced), c is c2, c is c3]

    @tf.function
    def g(x):
        return x + 1

    gc = []
    for step in ([1.0, 2.0], tf.TensorSpec([None], tf.float32), [1.0, 2.0, 3.0],
                 tf.TensorSpec(None, tf.float32), [[1.0]], tf.TensorSpec([5], tf.float32),
                 [1.0, 2.0, 3.0, 4.0]):
        if isinstance(step, tf.TensorSpec):
            g.get_concrete_function(step)
        else:
            out.append(_v(g(tf.constant(step))))
        gc.append(g.experimental_get_tracing_count())

    h = tf.function(lambda x: x * 3)
    hc = []
    h.get_concrete_function(tf.TensorSpec(None, tf.float32))
    hc.append(h.experimental_get_tracing_count())
    h.get_concrete_function(tf.TensorSpec([None], tf.float32))
    hc.append(h.experimental_get_tracing_count())
    out += [_v(h(tf.constant([1.0, 2.0]))), _v(h(tf.constant(1.0)))]
    hc.append(h.experimental_get_tracing_count())
    return {"out": out, "counts": counts, "g": gc, "h": hc}


@case
def autograph_graph_rules(tf):
    """The AutoGraph guide's programs TensorFlow refuses, and the ones it runs."""
    @tf.function
    def list_in_loop(n):
        lst = []
        for i in tf.range(n):
            lst.append(i)
        return lst

    @tf.function
    def dtype_change(n):
        x = tf.constant(0)
        for _i in tf.range(n):
            x = tf.cast(x, tf.float32)
        return x

    @tf.function
    def shape_change(n):
        x = tf.constant([0])
        for i in tf.range(n):
            x = tf.concat([x, [i]], 0)
        return x

    @tf.function
    def py_while_tf_break(x):
        while True:
            if tf.equal(x, 0):
                break
            x -= 1
        return x

    @tf.function
    def type_change_while(x):
        i = 0
        while i < 10:
            i = tf.constant(1)
        return i

    @tf.function
    def for_rows(t):
        s = tf.constant(0)
        for row in t:
            s += tf.reduce_sum(row)
        return s

    @tf.function
    def break_continue(n):
        s = 0
        for i in tf.range(n):
            if i > 3:
                break
            if i % 2 == 0:
                continue
            s += i
        return s

    @tf.function
    def nested(x):
        if x > 0:
            if x > 5:
                y = x * 2
            else:
                y = x * 3
        else:
            y = -x
        return y

    @tf.function
    def packed_in_loop(n):
        x = tf.zeros([2], tf.int32)
        for i in tf.range(n):
            x = x + tf.convert_to_tensor([i, 2 * i])
        return x

    def err(fn, *a):
        e = _err(lambda: fn(*a))
        return e and {"cls": e["class"], "msg": e["text"].strip()}

    v = tf.Variable([1.0, 2.0])
    return {"list_in_loop": _raised_line(lambda: list_in_loop(tf.constant(3))),
            "dtype_change": err(dtype_change, tf.constant(3)),
            "shape_change": err(shape_change, tf.constant(3)),
            "py_while_tf_break": err(py_while_tf_break, tf.constant(5)),
            "type_change_while": err(type_change_while, tf.constant(5)),
            "for_rows": _v(for_rows(tf.constant([[1, 2], [3, 4]]))),
            "break_continue": _v(break_continue(tf.constant(10))),
            "nested": [_v(nested(tf.constant(k))) for k in (3, 7, -2)],
            "packed_in_loop": [_v(packed_in_loop(tf.constant(k))) for k in (0, 3)],
            "len_variable": _raised_line(lambda: len(v)),
            "len_scalar_variable": _raised_line(lambda: len(tf.Variable(3.0))),
            "true_plus_true": True + True,
            "logical": [_v(tf.constant(True) & tf.constant(False)),
                        _v(True & tf.constant(False)),
                        _v(tf.constant([True, False]) & [True, True]),
                        _v(tf.constant(True) | False), _v(tf.constant(True) ^ True),
                        _v(~tf.constant(True)), _v(tf.constant(6) & tf.constant(3))]}


@case
def print_nested_structures(tf):
    import os
    import tempfile

    x = tf.constant(2)
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    out = "file://" + path

    @tf.function
    def f(x):
        tf.print({"k": x}, [x + 1, "t"], output_stream=out)
        return x

    tf.print(["a", x], output_stream=out)
    tf.print({"b": 1, "a": [x, tf.constant([1.0, 2.5])]}, output_stream=out)
    tf.print(("a", 1.5, x), "z", [x], output_stream=out)
    tf.print({"k": tf.constant("s")}, tf.constant(["p", "q"]), output_stream=out)
    tf.print([[x, x], (x,)], [], {}, (), output_stream=out)
    tf.print([tf.zeros([7])], summarize=2, output_stream=out)
    f(x)
    f(tf.constant(5))
    with open(path) as fh:
        text = fh.read()
    os.remove(path)
    return {"lines": text.split("\n")}


@case
def custom_trace_type(tf):
    """The function guide's ``__tf_tracing_type__`` cell, and tf.types.experimental's
    classes as isinstance checks."""
    E = tf.types.experimental
    traced = []

    @tf.function
    def get_mixed_flavor(fruit_a, fruit_b):
        traced.append(1)
        return fruit_a.flavor + fruit_b.flavor

    class FruitTraceType(E.TraceType):
        def __init__(self, fruit):
            self.fruit_type = type(fruit)
            self.fruit_value = fruit

        def is_subtype_of(self, other):
            return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

        def most_specific_common_supertype(self, others):
            return self if all(self == other for other in others) else None

        def placeholder_value(self, placeholder_context=None):
            return self.fruit_value

        def __eq__(self, other):
            return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

        def __hash__(self):
            return hash(self.fruit_type)

    class FruitWithTraceType:
        def __tf_tracing_type__(self, context):
            return FruitTraceType(self)

    class Apple(FruitWithTraceType):
        flavor = tf.constant([1, 2])

    class Mango(FruitWithTraceType):
        flavor = tf.constant([3, 4])

    out = [_v(get_mixed_flavor(Apple(), Mango())), _v(get_mixed_flavor(Apple(), Mango())),
           _v(get_mixed_flavor(Mango(), Apple()))]

    class Incomplete(E.TraceType):
        def is_subtype_of(self, other):
            return False

    f = tf.function(lambda x: x * 2)
    c = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    return {"out": out, "traced": len(traced),
            "count": get_mixed_flavor.experimental_get_tracing_count(),
            "isinstance": [isinstance(f, E.GenericFunction), isinstance(f, E.PolymorphicFunction),
                           isinstance(c, E.ConcreteFunction), isinstance(f, E.Callable),
                           isinstance(c, E.Callable), isinstance(c, E.GenericFunction),
                           isinstance(Apple(), E.SupportsTracingProtocol),
                           isinstance(c.function_type, E.FunctionType),
                           isinstance(c.inference_fn, E.AtomicFunction)],
            "function_type": str(c.function_type),
            "atomic": _v(c.inference_fn(tf.constant([1.0, 2.0]))),
            "abstract": _err(lambda: Incomplete())["class"]}
