"""The TF 2.21 / Keras 3 names real code uses (TF's guides and tutorials, keras-io's guides and
examples; ``tests/fixtures/api_gaps_names.txt``, from ``../shared/api_gaps.md``) resolve under
tapeflow. ``tests/fixtures/api_gaps_missing.txt`` lists those that do not yet; it only
shrinks: a listed name that now resolves fails until ``tools/api_gaps.py --write`` drops it.
Behaviour is checked by each area's own tests against recorded TF values, not here."""
from pathlib import Path

import pytest

import tapeflow as tf

FIXTURES = Path(__file__).parent / "fixtures"


def _names(file):
    return [line.split()[0] for line in (FIXTURES / file).read_text().splitlines()
            if line.strip() and not line.startswith("#")]


NAMES = _names("api_gaps_names.txt")
STILL_MISSING = set(_names("api_gaps_missing.txt"))


def resolves(name):
    obj = tf
    try:
        for part in name.split(".")[1:]:
            obj = getattr(obj, part)
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("name", NAMES)
def test_name_resolves(name):
    if name in STILL_MISSING:
        assert not resolves(name), f"{name} resolves now: run tools/api_gaps.py --write"
    else:
        assert resolves(name), f"tf has no {name[3:]}"


def test_missing_list_only_names_in_the_fixture():
    assert STILL_MISSING <= set(NAMES)
