"""Record what TensorFlow 2.21 prints for each program of tests/compat/programs.

Run from the repository root (the programs say ``import tensorflow as tf``):
    python tools/record_compat.py [--python /work/tfvenv/bin/python] [NAME ...]
Writes tests/compat/programs/<name>.tf-2.21.out (standard output only). A program that
fails under TensorFlow stops the recording: the reference must be a clean run.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "compat"))
import compare  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default="/work/tfvenv/bin/python",
                        help="an interpreter with TensorFlow 2.21 installed")
    parser.add_argument("names", nargs="*", help="only programs whose name contains one")
    args = parser.parse_args()
    for program in compare.programs(args.names):
        proc = compare.run(program, python=args.python, shim=False)
        if proc.returncode != 0:
            sys.exit(f"{program.name} failed under TensorFlow:\n{proc.stderr[-2000:]}")
        out = program.with_suffix(".tf-2.21.out")
        out.write_text(proc.stdout)
        print(f"wrote {out.relative_to(Path.cwd())} ({len(proc.stdout.splitlines())} lines)")


if __name__ == "__main__":
    main()
