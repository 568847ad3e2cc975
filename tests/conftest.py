"""Under TAPEFLOW_VALIDATE_FUNCTIONS=1 (CI's soundness run) every replay of a tf.function is
checked against an eager run of its Python body. The tests of TensorFlow's tracing semantics
(Python side effects only while tracing, values baked at trace time) are exactly where the
two must differ, so that run leaves them out; every other test runs."""
import os

_SEMANTICS = ("test_function.py", "test_function_programs.py")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("TAPEFLOW_VALIDATE_FUNCTIONS", "") in ("", "0", "false"):
        return
    import pytest
    skip = pytest.mark.skip(reason="tracing semantics differ from eager by design")
    for item in items:
        if item.fspath.basename in _SEMANTICS:
            item.add_marker(skip)
