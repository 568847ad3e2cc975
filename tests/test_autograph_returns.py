"""AutoGraph's lowering of ``return`` and loop ``else`` (function/autograph_returns.py):
tapeflow-side properties TensorFlow cannot record - calls that take another exit replay the
same program (no guard, no variant, the Python body does not run again), the converted
source, Python loops stay unrolled. Values, errors and trace counts against TF 2.21 are in
function_cases.py."""
import os

import pytest

import tapeflow as tf
from function_cases import _loop_else_fns

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
    assert not any(s[0] in ("while", "switch") for s in program.steps)
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
