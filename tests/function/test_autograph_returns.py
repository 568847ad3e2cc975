"""AutoGraph's lowering of ``return`` and loop ``else`` (function/autograph_returns.py):
tapeflow-side properties TensorFlow cannot record - calls that take another exit replay the
same program (no guard, no variant, the Python body does not run again), the converted
source, Python loops stay unrolled. Values, errors and trace counts against TF 2.21 are in
function/cases.py."""
import os

import pytest

import tapeflow as tf
from tapeflow.function.ir import Switch, While
from tests.function.cases import _loop_else_fns

# Under the soundness run every replay also runs the Python body eagerly: the values are
# checked there too, the counts of Python runs only here.
VALIDATING = os.environ.get("TAPEFLOW_VALIDATE_FUNCTIONS", "") not in ("", "0", "false")


def _ran_once(runs):
    assert VALIDATING or len(runs) == 1, runs


def _no_variant(f):
    assert "0 extra variant(s)" in f.experimental_trace_report()


def test_early_return_exits_replay_one_program():
    runs = []

    @tf.function
    def f(x):
        runs.append(1)
        if x > 0:
            return x * x
        y = x * 3.0
        return y + 1.0

    assert float(f(tf.constant(2.0))) == 4.0
    assert float(f(tf.constant(-2.0))) == -5.0   # the other exit: same program
    assert float(f(tf.constant(0.5))) == 0.25
    _ran_once(runs)
    assert f.experimental_get_tracing_count() == 1
    _no_variant(f)
    assert f.get_concrete_function(tf.constant(1.0)).program.n_guards == 0


def test_return_in_tensor_loop_replays_without_guards():
    runs = []

    @tf.function
    def f(x, n):
        runs.append(1)
        for i in tf.range(n):
            return x * tf.cast(i + 1, tf.float32)
        return x

    assert float(f(tf.constant(3.0), tf.constant(4))) == 3.0
    assert float(f(tf.constant(3.0), tf.constant(1))) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once"):
        f(tf.constant(3.0), tf.constant(0))   # TensorFlow's Assert, at run time
    _ran_once(runs)
    _no_variant(f)
    assert f.get_concrete_function(tf.constant(1.0), tf.constant(2)).program.n_guards == 0


@pytest.mark.parametrize("which", ["for", "while"])
def test_loop_else_paths_replay_one_program(which):
    log = []
    for_else, while_else, _ = _loop_else_fns(log)
    if which == "for":
        f = tf.function(for_else)
        x = tf.constant([1.0, 5.0, 3.0])
        assert float(f(x, tf.constant(2.0))) == 1.0        # break taken: no else
        assert float(f(x, tf.constant(20.0))) == 900.0     # no break: the else clause ran
        # traced once: the body, the else clause (a tf.cond branch) and the rest print once
        assert VALIDATING or log == ["for body", "for else", "after"]
        args = (x, tf.constant(2.0))
    else:
        f = tf.function(while_else)
        assert [int(t) for t in f(tf.constant(5), tf.constant(3))] == [3, 3]
        assert [int(t) for t in f(tf.constant(5), tf.constant(30))] == [-10, 5]
        args = (tf.constant(5), tf.constant(3))
    assert f.experimental_get_tracing_count() == 1
    _no_variant(f)
    assert f.get_concrete_function(*args).program.n_guards == 0


def test_to_code_shows_the_lowering():
    @tf.function
    def f(x, n):
        for i in tf.range(n):
            if i > 2:
                break
            return x
        else:
            x = x + 1.0
        return x

    code = tf.autograph.to_code(f.python_function)
    assert "do_return = False" in code and "retval_ = ag__.UndefinedReturnValue()" in code
    assert "ret='do_return'" in code and "__ag_brk_" in code
    assert "return ag__.ret(retval_)" in code
    assert "ag__.if_stmt(ag__.not_(do_return)" in code


def test_python_loop_with_return_stays_unrolled():
    log = []

    @tf.function
    def f(x, k):
        for j in [1, 2, 3]:
            log.append(j)
            if j == k:
                return x * j
        return x

    assert float(f(tf.constant(5.0), 2)) == 10.0
    assert VALIDATING or log == [1, 2]    # Python iterations, stopped by the return
    program = f.get_concrete_function(tf.constant(5.0), 2).program
    assert not any(isinstance(s, (While, Switch)) for s in program.steps)
    assert program.n_guards == 0


def test_loop_temporaries_are_not_loop_variables():
    @tf.function
    def f(x, n):
        s = tf.constant(0.0)
        i = tf.constant(0)
        while i < n:
            y = x * tf.cast(i, tf.float32)   # first assigned in the body, never read after
            s += y
            i += 1
        return s

    assert float(f(tf.constant(2.0), tf.constant(4))) == 12.0
    assert float(f(tf.constant(1.0), tf.constant(0))) == 0.0


# Python-valued control flow: the converted function must compute what Python computes.
def _try_return(x):
    out = []
    for i in range(5):
        try:
            if i == 3:
                return x + i
            out.append(i)
        finally:
            out.append(-1)
    return x + len(out)


def _while_true(x):
    i = 0
    while True:
        i += 1
        if i > 4:
            break
        with tf.name_scope("s"):
            if i == 2:
                continue
        x = x + i
    return x


def _nested_return(x):
    for i in range(3):
        for j in range(3):
            if i * j == 2:
                return x * 100 + i * 10 + j
    return x


def _else_clauses(x):
    acc = 0
    for i in range(4):
        if i % 2:
            continue
        acc += i
    else:
        acc += 100
    k = 0
    while k < 10:
        k += 3
        if k == 6:
            break
    else:
        return x - 1
    return x + acc + k


def _helper_returns(x):
    def helper(v):
        for i in range(10):
            if i == v:
                return i * 2
        return -1
    return x + helper(3) + helper(20)


def _items_and_target(x):
    total = 0
    for k, v in {"a": 1, "b": 2}.items():
        if k == "b":
            total += v * 10
            break
        total += v
    for i in range(3):  # noqa: B007 - read after the loop
        total += 1
    return x + total + i


def _jump_in_try(x):
    s = 0
    for k in range(6):
        if k > 3:
            break
        try:
            if k == 2:
                break
        except ValueError:
            pass
        s += k
    else:
        s += 100
    return x + s


@pytest.mark.parametrize("fn", [_try_return, _while_true, _nested_return, _else_clauses,
                                _helper_returns, _items_and_target, _jump_in_try],
                         ids=lambda f: f.__name__)
def test_python_control_flow_converts_to_python_semantics(fn):
    x = tf.constant(1)
    assert int(tf.function(fn)(x)) == int(fn(x))


SCALE = 2.0
COUNTER = 0


def test_converted_functions_use_the_live_module_globals():
    global SCALE

    @tf.function
    def f(x):
        global COUNTER
        COUNTER += 1          # Python side effect: once per trace
        if x > 0:             # converted: the function runs through AutoGraph
            y = x * SCALE
        else:
            y = -x
        return y

    assert float(f(tf.constant(3.0))) == 6.0 and COUNTER == 1
    SCALE = 5.0               # rebinding a global: the next trace reads the new value
    try:
        assert float(f(tf.constant([3.0]))[0]) == 15.0 and COUNTER == 2
    finally:
        SCALE = 2.0


def _doubled(x):
    return x * 2.0


class _SameName(tf.Module):
    @tf.function
    def _doubled(self, x):
        return _doubled(x)   # the module's function, not this method (TF 2.21: 6.0)


def test_converted_method_calls_the_global_function_of_its_own_name():
    assert float(_SameName()._doubled(tf.constant(3.0))) == 6.0
    assert tf.autograph.to_code(_SameName._doubled).startswith("def _doubled(self, x):")
