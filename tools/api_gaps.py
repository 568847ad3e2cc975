"""How many of the TF 2.21 / Keras 3 names real code uses resolve under tapeflow.

    PYTHONPATH=src python tools/api_gaps.py [--write]

Reads ``tests/fixtures/api_gaps_names.txt`` (name, files using it; from
``../shared/api_gaps.md``), prints the names that do not resolve (by namespace, weighted by
the number of files using them) and with ``--write`` rewrites
``tests/fixtures/api_gaps_missing.txt``, the list ``tests/test_api_gaps.py`` expects to be
missing (it only shrinks).
"""
import collections
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def read_names():
    rows = []
    for line in (FIXTURES / "api_gaps_names.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, count = line.split()
            rows.append((name, int(count)))
    return rows


def resolves(tf, name):
    obj = tf
    try:
        for part in name.split(".")[1:]:
            obj = getattr(obj, part)
    except AttributeError:
        return False
    return True


def main():
    import tapeflow as tf
    rows = read_names()
    missing = [(n, c) for n, c in rows if not resolves(tf, n)]
    by_ns = collections.defaultdict(list)
    for n, c in missing:
        by_ns[".".join(n.split(".")[:3 if n.startswith("tf.keras.") else 2])].append((n, c))
    for ns, items in sorted(by_ns.items(), key=lambda kv: -sum(c for _, c in kv[1])):
        print(f"{ns} ({len(items)}): " + ", ".join(f"{n} {c}" for n, c in items))
    print(f"\n{len(rows) - len(missing)} of {len(rows)} names resolve; {len(missing)} missing "
          f"(uses: {sum(c for _, c in missing)} of {sum(c for _, c in rows)})")
    if "--write" in sys.argv:
        (FIXTURES / "api_gaps_missing.txt").write_text(
            "# names of api_gaps_names.txt that tapeflow does not have yet "
            "(tools/api_gaps.py --write)\n" + "".join(n + "\n" for n, _ in missing))


if __name__ == "__main__":
    main()
