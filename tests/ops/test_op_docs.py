"""The ``>>>`` examples in the op library's docstrings run and print what they show."""
import doctest
import inspect

import pytest

from tapeflow.ops import (
    array_ops,
    clip_ops,
    complex_ops,
    image_ops,
    linalg_ops,
    math_ops,
    nn_conv_ops,
    nn_ops,
    random_ops,
    reduction_ops,
    segment_ops,
    sort_ops,
    special_math_ops,
    state_ops,
    stateful_random_ops,
    stateless_random_ops,
    string_ops,
)
from tapeflow.ops.ragged import ragged_math_ops, ragged_tensor
from tapeflow.ops.sparse import sparse_ops, sparse_tensor

MODULES = (array_ops, linalg_ops, math_ops, reduction_ops, special_math_ops, clip_ops,
           sort_ops, segment_ops, nn_conv_ops, nn_ops, complex_ops, image_ops, random_ops,
           state_ops, stateful_random_ops, stateless_random_ops, string_ops, ragged_math_ops,
           ragged_tensor, sparse_ops, sparse_tensor)


def _documented():
    for module in MODULES:
        for name in sorted(module.__all__):
            fn = getattr(module, name, None)
            if (inspect.isfunction(fn) or inspect.isclass(fn)) and fn.__doc__ \
                    and ">>>" in fn.__doc__ and fn.__module__ == module.__name__:
                yield pytest.param(fn, id=f"{module.__name__.rsplit('.', 1)[1]}.{name}")


EXAMPLES = list(_documented())


def test_the_op_library_has_runnable_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("fn", EXAMPLES)
def test_docstring_example_runs(fn):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(fn, fn.__name__, globs={}):
        result = runner.run(test)
        assert result.failed == 0, f"{fn.__name__}: {result.failed} example(s) failed"
