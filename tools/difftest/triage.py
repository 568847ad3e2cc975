"""Group the differences no ``known.py`` entry explains into proposed entries.

    PYTHONPATH=src python -m tools.difftest.triage [--write] [op ...]

Replays the recorded fixtures under tapeflow (``tests/differential/replay.py``), and for
the differences ``known.py`` does not explain prints one ``K(...)`` entry per (op, class of
case): the class is the first of empty / string / bool / complex / nonfinite / mixed dtypes /
extreme ints / ints / float16 the case has, or ``any``; the kind is read off the check and
the message (see ``known.KINDS``). ``--write`` appends them to ``known.py``'s table and drops
the entries reported stale. Read and correct the reasons it writes before committing.
"""
import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

ORDER = ("empty", "string", "bool", "complex", "nonfinite", "mixed", "int_extremes", "int",
         "f16")
KIND_ORDER = ("silent acceptance", "error class", "rejects valid input", "empty tensors",
              "wrong gradient", "tf lacks gradient", "numerics", "dtype", "tf wrong",
              "machine-dependent")


def case_class(known, case):
    for name in ORDER:
        if known.PREDICATES[name](case):
            return name
    return "any"


def kind_of(check, msg, cls):
    if check == "error":
        if msg.startswith("raised nothing"):
            return "silent acceptance"
        if msg.endswith("TF nothing"):
            return "empty tensors" if cls == "empty" else "rejects valid input"
        return "error class"
    if cls == "empty" and check in ("value", "dtype", "shape"):
        return "empty tensors"
    if check in ("grad", "grad2", "fwd"):
        if re.search(r"TF raised \w+", msg):
            return "tf lacks gradient"
        return "wrong gradient"
    if check == "value":
        return "numerics"
    return "dtype"


def reason_of(op, checks, cls, kind, examples):
    """A one-line cause read off the first difference (an example case key at the end)."""
    check, msg, key = examples[0]
    where = {"any": "", "empty": " on size-0 inputs", "string": " on strings",
             "bool": " on bools", "complex": " on complex inputs",
             "nonfinite": " with nan/inf/overflowing inputs", "mixed": " with mixed dtypes",
             "int_extremes": " on extreme ints", "int": " on ints",
             "f16": " in float16"}[cls]
    m = re.match(r"raised (\w+), TF (\w+)", msg)
    if kind == "silent acceptance":
        text = f"computes{where} where TF raises {msg.split('TF ')[-1]}"
    elif kind == "rejects valid input":
        text = f"raises {m.group(1) if m else '?'}{where} where TF computes"
    elif kind == "error class":
        text = f"raises {m.group(1)} where TF raises {m.group(2)}{where}" if m else msg
    elif kind == "empty tensors":
        text = f"size-0 inputs: {check} {msg}"
    elif kind == "tf lacks gradient":
        tf_err = re.search(r"TF raised (\w+)", msg).group(1)
        text = f"TF raises {tf_err} computing the {check}{where}; tapeflow computes it"
    elif kind == "wrong gradient":
        if "None, TF a value" in msg:
            text = f"{check} is None{where} where TF gives a value (zeros)"
        elif "a value, TF None" in msg:
            text = f"{check} is a value{where} where TF gives None"
        elif re.search(r"raised \w+, TF", msg):
            text = f"{check} raises{where} where TF computes: {msg}"
        elif "nan at different" in msg or "inf at different" in msg:
            text = f"{check}: nan/inf differ{where}"
        else:
            text = f"{check} values differ{where}"
    elif kind == "numerics":
        if "nan at different" in msg or "inf at different" in msg:
            text = f"nan/inf differ{where}"
        else:
            text = f"values differ{where}"
    else:
        text = f"{check} differs{where}: {msg}"
    return f"{text} [{key}: {msg[:70]}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("ops", nargs="*")
    a = ap.parse_args()
    import tapeflow as tf
    from tests.differential import known, replay
    from tools.difftest import run
    ops = a.ops or replay.fixture_ops()
    groups = collections.defaultdict(list)
    stale = []
    totals = collections.Counter()
    known_kinds = collections.Counter()
    known_ops = collections.defaultdict(set)
    for op in ops:
        data = replay.load(op)
        rep = replay.replay(tf, op, data["seed"], data["cases"])
        totals["cases"] += rep.cases
        totals["checks"] += rep.checks
        totals["known"] += len(rep.known)
        totals["unexpected"] += len(rep.unexpected)
        stale.extend(rep.stale)
        for _, _, _, e in rep.known:
            known_kinds[e.kind] += 1
            known_ops[e.kind].add(op)
        for c, check, msg in rep.unexpected:
            cls = "empty" if known.has_empty(c) else "other"
            groups[(op, kind_of(check, msg, cls))].append((check, msg, c))
    lines = []
    for (op, kind), ex in sorted(groups.items()):
        checks = tuple(sorted({e[0] for e in ex}, key=run.CHECKS.index))
        cls = next((name for name in ORDER
                    if all(known.PREDICATES[name](c) for _, _, c in ex)), "any")
        check, msg, c = ex[0]
        reason = reason_of(op, checks, cls, kind, [(check, msg, c.key)])
        parts = [reason[k:k + 84] for k in range(0, len(reason), 84)] or [""]
        body = "\n      ".join(repr(x) for x in parts)
        lines.append(f"    K({op!r}, {','.join(checks)!r}, {cls!r}, {kind!r},\n"
                     f"      {body}),")
    print("\n".join(lines))
    print(f"# {totals['cases']} cases, {totals['checks']} checks, {totals['known']} known "
          f"differences, {totals['unexpected']} unexplained in {len(groups)} groups, "
          f"{len(stale)} stale entries", file=sys.stderr)
    entry_kinds = collections.Counter(e.kind for e in known.KNOWN if e.op in ops)
    print("# known.py by kind: kind | entries | differences | ops", file=sys.stderr)
    for kind in KIND_ORDER:
        print(f"#   {kind} | {entry_kinds[kind]} | {known_kinds[kind]} | "
              f"{len(known_ops[kind])}", file=sys.stderr)
    if a.write:
        path = os.path.join(ROOT, "tests", "differential", "known.py")
        text = open(path).read()
        head, _, tail = text.partition("KNOWN = [\n")
        body, _, rest = tail.partition("\n]\n")
        keep = []
        stale_keys = {(e.op, e.checks, e.when_name) for e in stale}
        for entry in re.findall(r"    K\(.*?\),\n(?=    K\(|$)", body + "\n", re.S):
            m = re.match(r"    K\('([^']*)', '([^']*)', '([^']*)'", entry)
            if m and (m.group(1), tuple(m.group(2).split(",")), m.group(3)) in stale_keys:
                continue
            keep.append(entry.rstrip("\n"))
        new = "\n".join(keep + lines)
        with open(path, "w") as f:
            f.write(head + "KNOWN = [\n" + new + "\n]\n" + rest)


if __name__ == "__main__":
    main()
