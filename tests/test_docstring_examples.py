"""Every ``>>>`` example in tapeflow's docstrings (engine, Keras, data) runs as shown.

The op library's own examples are run one by one in test_op_docs.py.
"""
import doctest
import importlib
import pkgutil

import pytest

import tapeflow

SKIP = ("tapeflow.ops.",)


def _modules():
    for info in pkgutil.walk_packages(tapeflow.__path__, "tapeflow."):
        if not info.name.startswith(SKIP):
            yield info.name


def _tests():
    finder = doctest.DocTestFinder()
    out = []
    for name in sorted(_modules()):
        module = importlib.import_module(name)
        for test in finder.find(module, name):
            if test.examples and test.name.startswith(name):
                out.append(pytest.param(test, id=test.name))
    return out


TESTS = _tests()


def test_the_engine_and_keras_have_runnable_examples():
    assert len(TESTS) >= 10


@pytest.mark.parametrize("test", TESTS)
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.failed == 0, f"{test.name}: {result.failed} example(s) failed"
