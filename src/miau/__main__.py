"""``python -m miau`` runs the ``miau`` command."""

import sys

from miau.cli import main

sys.exit(main())
