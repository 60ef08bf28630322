"""The ``pokerroom`` command line: one sub-command per tool, each registered by its own module.

Each module in :data:`COMMANDS` exposes ``register(subparsers)`` which adds its sub-parser and sets ``func``
(a callable taking the parsed namespace and returning an exit code). Keeping the registration in the owning
module means the CLI never has to know a layer's options.

Only the module of the command being run is imported (all of them for the help that lists them, or for a
command that is none of them, so the error names the choices): the tools' modules (rich, the simulator, the
odds) cost every ``pokerroom serve`` start about 0.1 s of CPU it never used.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: sub-command -> the module that registers it
COMMANDS: dict[str, str] = {
    "serve": "pokerroom.serve",  # the composition root
    "odds": "pokerroom.tools.odds_cli",
    "simulate": "pokerroom.tools.simulate_cli",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (default: every command's): its command's module alone when it names one."""
    parser = argparse.ArgumentParser(
        prog="pokerroom",
        description="A private poker room for friends: seven modes, Korean betting, virtual chips only.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    own = COMMANDS.get(argv[0]) if argv else None
    for name in [own] if own else COMMANDS.values():
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    result = func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
