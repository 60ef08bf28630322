"""Puts this folder on ``sys.path`` (after each folder's own), so every test imports the suite-wide helpers
``needs`` (what a test requires from the machine), ``services`` (Redis, PostgreSQL) and ``serving`` (free
ports and the server process harness) by name, under ``--import-mode=importlib``."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.append(HERE)
