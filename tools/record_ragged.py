"""Record TensorFlow 2.21's answers to the ragged and sparse cases (``tests/ops/ragged_cases``)
into ``tests/fixtures/ragged/cases.json``; run under the TensorFlow venv:

    TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_ragged.py
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def describe(out):
    """A JSON description of a case's result: its printed form and, for values, the class
    name, so a replay compares exactly what a program would print."""
    if isinstance(out, list):
        return {"kind": "list", "items": [describe(o) for o in out]}
    if isinstance(out, str):
        return {"kind": "text", "text": out}
    text = repr(out)
    if " at 0x" in text:   # an object's default repr: its address is no answer
        return {"kind": type(out).__name__, "text": str(out)}
    return {"kind": type(out).__name__, "text": str(out), "repr": text}


def run(tf, code):
    scope = {"tf": tf}
    try:
        exec(code, scope)  # noqa: S102 - the recorded cases
    except Exception as exc:  # noqa: BLE001 - an error is a recorded answer
        return {"kind": "error", "type": type(exc).__name__, "text": str(exc)}
    return describe(scope["out"])


def main():
    import tensorflow as tf

    from tests.ops.ragged_cases import CASES
    out = {name: run(tf, code) for name, code in CASES.items()}
    path = ROOT / "tests" / "fixtures" / "ragged" / "cases.json"
    path.write_text(json.dumps({"tf_version": tf.__version__, "cases": out}, indent=1,
                               sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
