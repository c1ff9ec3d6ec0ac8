"""The ``irrepro`` command: one sub-command per module in :mod:`irrepro.commands`.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from irrepro import __version__

COMMAND_MODULES = ("data", "evaluate", "compare", "report", "routing", "reproduce")


def _commands():
    for module_name in COMMAND_MODULES:
        try:
            yield importlib.import_module(f"irrepro.commands.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"irrepro.commands.{module_name}":
                raise  # a real missing dependency, not a command that is not written yet


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irrepro", description="Reproducibility in IR evaluation: data, evaluation, measures, papers."
    )
    parser.add_argument("--version", action="version", version=f"irrepro {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _commands():
        sub = subparsers.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        command.add_arguments(sub)
        sub.set_defaults(handler=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except BrokenPipeError:
        # The reader went away (`irrepro evaluate ... | head`): not an error of ours.
        sys.stderr.close()
        return 0
    except (ValueError, RuntimeError, OSError) as error:
        # Input errors (bad run lines, missing data, undefined measures) end with one clear line.
        print(f"irrepro {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
