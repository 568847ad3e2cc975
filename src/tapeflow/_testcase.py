"""``tf.test.TestCase`` and ``tf.test.main``: unittest with TF's array assertions, eager only.

``evaluate`` turns tensors (in any nest) into NumPy values; ``session``/``cached_session``
are context managers yielding None (there are no sessions in eager TF 2 either).
"""
import collections.abc as _abc
import contextlib
import re
import tempfile
import unittest

import numpy as np

from . import nest as _nest
from ._core import errors as _errors
from ._core.tensor import is_tensor

__all__ = ["TestCase", "main"]


def _value(x):
    if is_tensor(x):
        return x.numpy()
    return x


def _nd(x):
    x = _value(x)
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.array(x)
    except ValueError:
        return np.array(x, dtype=object)


_LOW_PRECISION = {np.dtype(np.float16): (1e-3, 1e-3)}


class _Session:
    """What ``session()`` yields under eager execution: ``run`` evaluates."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, feed_dict=None):
        return self._case.evaluate(fetches)


class TestCase(unittest.TestCase):
    """``tf.test.TestCase``: ``unittest.TestCase`` plus TF's assertions on tensors and
    array-likes (``assertAllClose`` recursing into dicts, lists and tuples with rtol=atol=1e-6,
    ``assertAllEqual``, ``assertAllInRange``...), ``evaluate`` and ``get_temp_dir``."""

    def setUp(self):
        super().setUp()
        self._tmp = None

    # ------------------------------------------------------------------ values
    def evaluate(self, tensors):
        """``tensors`` (a tensor, Variable, a callable returning them, or a nest of them) as
        NumPy values; None stays None.

        Raises:
            ValueError: ``"Unsupported type 'int'."`` for a leaf that is not a tensor (TF's).
        """
        if tensors is None:
            return None
        return _nest.map_structure(self._eval_one, tensors)

    def _eval_one(self, t):
        if t is None:
            return None
        if callable(t) and not hasattr(t, "numpy"):
            return self.evaluate(t())
        numpy = getattr(t, "numpy", None)
        if callable(numpy):
            return numpy()
        raise ValueError(f"Unsupported type {type(t).__name__!r}.")

    @contextlib.contextmanager
    def session(self, graph=None, config=None, target=None):
        """A stand-in session (eager): its ``run(fetches)`` is ``evaluate``."""
        yield _Session(self)

    cached_session = session

    def get_temp_dir(self):
        """A temporary directory for this test (created once per test)."""
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp()
        return self._tmp

    # ------------------------------------------------------------------ closeness
    def _close_arrays(self, a, b, rtol, atol, msg):
        a, b = _nd(a), _nd(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}.")
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=msg or "")

    def _close(self, a, b, rtol, atol, path, msg):
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        pstr = "".join(f"[{p}]" for p in path)
        if isinstance(a, _abc.Mapping) != isinstance(b, _abc.Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{pstr} vs b{pstr}. {msg or ''}")
        if isinstance(a, _abc.Mapping):
            self.assertEqual(set(a), set(b), f"mismatched keys: a{pstr} vs b{pstr}")
            for k in a:
                self._close(a[k], b[k], rtol, atol, path + [k], msg)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            try:
                self._close_arrays(a, b, rtol, atol, msg)
                return
            except (ValueError, TypeError):
                pass
            self.assertEqual(len(a), len(b), f"Length of a{pstr} differs from b{pstr}")
            for i, (x, y) in enumerate(zip(a, b)):
                self._close(x, y, rtol, atol, path + [i], msg)
            return
        self._close_arrays(a, b, rtol, atol, msg)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Every element of ``a`` within ``atol + rtol * |b|`` of ``b`` (NaN equals NaN);
        nests of dicts, lists and tuples compared leaf by leaf.

        Raises:
            AssertionError: a value or shape differs. ValueError: a dict against a non-dict.
        """
        self._close(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6,  # noqa: N802
                                      float_rtol=1e-6, float_atol=1e-6, half_rtol=1e-3,
                                      half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """``assertAllClose`` with the tolerance widened for float32/float16 values."""
        a_nd, b_nd = _nd(a), _nd(b)
        dtypes = {a_nd.dtype, b_nd.dtype}
        if np.dtype(np.float32) in dtypes or np.dtype(np.complex64) in dtypes:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if np.dtype(np.float16) in dtypes:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Raises AssertionError when ``assertAllClose(a, b)`` would pass."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements.")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Each pair of elements within ``err``."""
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """``|f1 - f2| <= err``."""
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err,
                        f"{f1:f} != {f2:f} +/- {err:f}{' (' + msg + ')' if msg else ''}")

    # ------------------------------------------------------------------ equality and bounds
    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Same shape and equal elements (strings compared as bytes as TF holds them)."""
        a, b = _nd(a), _nd(b)
        if a.dtype.kind == "U":
            a = np.char.encode(a)
        if b.dtype.kind == "U":
            b = np.char.encode(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}. {msg or ''}")
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        """Raises AssertionError when ``assertAllEqual(a, b)`` would pass."""
        try:
            self.assertAllEqual(a, b, msg)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are equal at all elements.")

    def _all(self, a, pred, what):
        a = _nd(a)
        if not np.all(pred(a)):
            raise AssertionError(f"{a} is not {what}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        """Every element ``> comparison_target``."""
        self._all(a, lambda v: v > comparison_target, f"> {comparison_target}")

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        """Every element ``< comparison_target``."""
        self._all(a, lambda v: v < comparison_target, f"< {comparison_target}")

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        """Every element ``>= comparison_target``."""
        self._all(a, lambda v: v >= comparison_target, f">= {comparison_target}")

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        """Every element ``<= comparison_target``."""
        self._all(a, lambda v: v <= comparison_target, f"<= {comparison_target}")

    def assertAllInRange(self, target, lower_bound, upper_bound,  # noqa: N802
                         open_lower_bound=False, open_upper_bound=False):
        """Every element in the (half-)open or closed range; NaN fails."""
        t = _nd(target)
        lo = t > lower_bound if open_lower_bound else t >= lower_bound
        hi = t < upper_bound if open_upper_bound else t <= upper_bound
        if not np.all(lo & hi):
            raise AssertionError(f"{t} is not in the range {lower_bound}..{upper_bound}")

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Every element is a member of ``expected_set``."""
        t = _nd(target).ravel()
        missing = set(t.tolist()) - set(np.asarray(list(expected_set)).tolist())
        if missing:
            raise AssertionError(f"{sorted(missing)} not in {expected_set}")

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """A NumPy array and a tensor of one shape."""
        if not isinstance(input_a, np.ndarray):
            raise TypeError("input_a must be a np.ndarray.")
        self.assertEqual(list(input_a.shape), list(input_b.shape), msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """Every leaf of ``target`` has NumPy dtype ``expected_dtype``."""
        for t in _nest.flatten(target):
            self.assertEqual(_nd(t).dtype, np.dtype(expected_dtype))

    # ------------------------------------------------------------------ exceptions
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """A context expecting ``exception_type`` whose text matches a regex (or which
        satisfies a predicate)."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                return re.search(expected_err_re_or_predicate, str(e)) is not None

        @contextlib.contextmanager
        def ctx():
            try:
                yield
            except exception_type as e:
                if not predicate(e):
                    raise AssertionError(
                        f"Exception of type {type(e)}: {e}") from e
            else:
                self.fail(exception_type.__name__ + " not raised")
        return ctx()

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """A context expecting a ``tf.errors.OpError`` matching the regex or predicate."""
        return self.assertRaisesWithPredicateMatch(_errors.OpError,
                                                   expected_err_re_or_predicate)

    # ------------------------------------------------------------------ absl's extras
    def assertLen(self, container, expected_len, msg=None):  # noqa: N802
        """``len(container) == expected_len``."""
        self.assertEqual(len(container), expected_len, msg)

    def assertEmpty(self, container, msg=None):  # noqa: N802
        """``container`` has no elements."""
        self.assertEqual(len(container), 0, msg)

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        """``container`` has elements."""
        self.assertNotEqual(len(container), 0, msg)

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        """``actual`` starts with ``expected_start``."""
        self.assertTrue(actual.startswith(expected_start), msg)

    def assertItemsEqual(self, first, second, msg=None):  # noqa: N802
        """The same elements with the same counts, any order."""
        self.assertCountEqual(first, second, msg)


def main(argv=None):
    """Run the tests of ``__main__`` (``tf.test.main``): ``unittest.main`` over ``argv``."""
    return unittest.main(argv=argv)
