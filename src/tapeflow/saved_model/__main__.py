"""``python -m tapeflow.saved_model``: see ``cli.py``."""
import sys

from .cli import main

if __name__ == "__main__":   # importing the module (doctest collection) runs nothing
    sys.exit(main())
