"""Make the shared helpers of this folder importable by name (tests/support_modules.py)."""

from pathlib import Path

from support_modules import register

register(Path(__file__).with_name("replay_support.py"))
