"""``python -m pokerroom`` is the same as the ``pokerroom`` command."""

import sys

from pokerroom.cli import main

sys.exit(main())
