"""``python -m tapeflow.saved_model``: see ``cli.py``."""
import sys

from .cli import main

sys.exit(main())
