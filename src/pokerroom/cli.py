"""The ``pokerroom`` command line: one sub-command per tool, each registered by its own module.

Each module in :data:`COMMAND_MODULES` exposes ``register(subparsers)`` which adds its sub-parser and sets
``func`` (a callable taking the parsed namespace and returning an exit code). Keeping the registration in
the owning module means the CLI never has to know a layer's options.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES: tuple[str, ...] = (
    "pokerroom.serve",  # pokerroom serve (the composition root)
    "pokerroom.tools.odds_cli",  # pokerroom odds
    "pokerroom.tools.simulate_cli",  # pokerroom simulate
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokerroom",
        description="A private poker room for friends: seven modes, Korean betting, virtual chips only.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    result = func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
