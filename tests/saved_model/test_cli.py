"""``python -m tapeflow.saved_model show/run`` against TF 2.21's ``saved_model_cli`` output on
TF-written fixtures (``tests/fixtures/saved_model/cli.json``, recorded by
``tools/record_saved_model_cli.py``)."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from tapeflow.saved_model import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REC = json.load(open(os.path.join(ROOT, "tests", "fixtures", "saved_model", "cli.json")))
OPS = re.compile(r"^(The MetaGraph with tag set .* contains the following ops: )\{(.*)\}$", re.M)


def _ops_as_set(text):
    """TF prints the op set as a Python set (order varies by run): compare as sets."""
    found = {}

    def repl(m):
        found[m.group(1)] = {s.strip().strip("'") for s in m.group(2).split(",")}
        return m.group(1) + "{...}"
    return OPS.sub(repl, text), found


def _ours(args):
    a = args.split(" ")
    cmd = a[0]
    opts = {a[i].lstrip("-"): a[i + 1] if i + 1 < len(a) and not a[i + 1].startswith("--")
            else True for i in range(1, len(a)) if a[i].startswith("--")}
    opts["dir"] = os.path.join(ROOT, opts["dir"])
    if cmd == "show":
        return cli.show(opts["dir"], opts.get("tag_set"), opts.get("signature_def"),
                        bool(opts.get("all")))
    return cli.run(opts["dir"], opts["tag_set"], opts["signature_def"], opts["input_exprs"])


@pytest.mark.parametrize("args", [k for k in REC if k.startswith("show")])
def test_show_prints_what_saved_model_cli_prints(args):
    ours, our_ops = _ops_as_set(_ours(args))
    theirs, their_ops = _ops_as_set(REC[args])
    assert ours == theirs
    assert our_ops == their_ops


def _results(text):
    out, key, buf = {}, None, []
    for line in text.splitlines():
        m = re.match(r"Result for output key (.*):$", line)
        if m:
            if key is not None:
                out[key] = buf
            key, buf = m.group(1), []
        elif line.strip():
            buf.append(line)
    if key is not None:
        out[key] = buf
    return {k: np.array([float(x) for x in re.findall(r"-?\d+\.?\d*(?:e[-+]?\d+)?",
                                                        " ".join(v))]) for k, v in out.items()}


@pytest.mark.parametrize("args", [k for k in REC if k.startswith("run")])
def test_run_gives_saved_model_cli_results(args):
    ours, theirs = _ours(args), REC[args]
    assert re.findall(r"Result for output key .*:", ours) == \
        re.findall(r"Result for output key .*:", theirs)
    a, b = _results(ours), _results(theirs)
    assert a.keys() == b.keys()
    for k in a:   # float32 results: TF's and ours may differ in the last place
        np.testing.assert_allclose(a[k], b[k], rtol=1e-6)


def test_run_exact_text_on_the_serving_default():
    args = next(k for k in REC if k.startswith("run") and "serving_default" in k)
    assert _ours(args) == REC[args]


def test_module_entry_point_and_errors():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    d = "tests/fixtures/saved_model/module"
    done = subprocess.run([sys.executable, "-m", "tapeflow.saved_model", "show", "--dir", d],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert done.stdout == REC[f"show --dir {d}"]
    with pytest.raises(ValueError, match='Could not find signature "nope"'):
        cli.show(os.path.join(ROOT, d), "serve", "nope")
    with pytest.raises(ValueError, match='"z" is not a valid input key'):
        cli.run(os.path.join(ROOT, d), "serve", "serving_default", "z=[1.0]")
    with pytest.raises(RuntimeError, match="could not be found"):
        cli.show(os.path.join(ROOT, d), "train")
