"""The ``irrepro`` command: one sub-command per module in :mod:`irrepro.commands`.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
A command line naming a command builds only that command's parser; ``irrepro --help`` and a line
naming none build them all. So command modules import only light modules at their top and the
libraries they need (pandas, trec_eval, scipy, ...) inside ``run``.

The program is short-lived: it runs Python's cyclic garbage collector less often and freezes what
is left at its end (:data:`GC_THRESHOLDS`); a host process calling :func:`main` keeps its own.

Exit status and messages, from the one handler in :func:`main`:

=====  ==========================================================================================
0      done
1      the command ran and reports a problem it found (``data verify``: a missing or bad file); or
       it ran out of memory (``error: out of memory``); or an internal error -- a bug: a short
       message says so and asks for a report
2      the user's mistake: a bad option value (refused when the options are parsed), a missing,
       unreadable or malformed file, an undefined measure. One line on stderr,
       ``irrepro COMMAND: error: ...``, naming the option or the file (and line) and the problem
130    interrupted (Ctrl-C): no message
=====  ==========================================================================================

No traceback is shown unless ``--debug`` is given or ``IRREPRO_DEBUG`` is set (to anything but
``0`` or the empty string); then every error propagates with its traceback. Warnings print as one
line, ``irrepro COMMAND: warning: ...``.

Ctrl-C raises ``KeyboardInterrupt`` as usual, so that ``finally`` blocks run (a file being written
is removed). Some C code swallows it (pandas' parser reading a pipe or FIFO goes on reading), so
in the ``irrepro`` program (``main()`` without arguments) the first Ctrl-C also arms a timer that
ends the process with status 130 after ``INTERRUPT_GRACE_SECONDS``; a second Ctrl-C ends it at once.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import threading
import warnings

from irrepro.version import __version__

__all__ = ["COMMAND_MODULES", "DEBUG_VARIABLE", "REPORT_URL", "INTERRUPT_GRACE_SECONDS", "GC_THRESHOLDS", "build_parser", "main"]

COMMAND_MODULES = ("data", "evaluate", "compare", "report", "routing", "reproduce", "metadata", "deteriorate")
DEBUG_VARIABLE = "IRREPRO_DEBUG"
REPORT_URL = "the irrepro repository's issue tracker"
INTERRUPT_GRACE_SECONDS = 2.0
#: The cyclic garbage collector's thresholds in the ``irrepro`` program (mypy's): a command is short
#: and keeps most of what it allocates (pandas' modules, the runs), so Python's default (a collection
#: every 700 container objects, each older generation every 10th) walks the same objects again and
#: again: about 5% of ``irrepro compare``'s CPU time (``benchmarks/perf/reproducibility.py``).
#: Garbage without cycles is freed at once as ever; cycles are collected, only less often. When the
#: command is done, what is left is frozen (:func:`gc.freeze`): the collections Python runs at exit
#: would walk every object once more (about 0.1 s of ``irrepro compare``) to free memory that the
#: operating system takes back anyway.
GC_THRESHOLDS = (200_000, 30, 30)


class _Parser(argparse.ArgumentParser):
    """argparse with errors as one line (no usage block) and exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _commands(module_names=COMMAND_MODULES):
    for module_name in module_names:
        try:
            yield importlib.import_module(f"irrepro.commands.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"irrepro.commands.{module_name}":
                raise  # a real missing dependency, not a command that is not written yet


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the ``irrepro`` command line: its global options and one subcommand per module of :mod:`irrepro.commands`.

    Parameters
    ----------
    command : str, optional
        A command's name: only its subcommand is built (as :func:`main` does for a command line
        that names one, so that starting one command imports no other command's module); any
        other value builds them all.

    Returns
    -------
    argparse.ArgumentParser
        The parser.
    """
    parser = _Parser(prog="irrepro", description="Reproducibility in IR evaluation: data, evaluation, measures, papers.")
    parser.add_argument("--version", action="version", version=f"irrepro {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help=f"show the traceback of any error (as does setting {DEBUG_VARIABLE}=1)"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _commands((command,) if command in COMMAND_MODULES else COMMAND_MODULES):
        sub = subparsers.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(handler=module.run)
    return parser


def _named_command(argv: list[str]) -> str | None:
    """The command a command line names: its first argument that is not an option (the global
    options take no value)."""
    return next((argument for argument in argv if not argument.startswith("-")), None)


def _debugging(argv: list[str]) -> bool:
    return "--debug" in argv or os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def _warn_in_one_line(prefix: str):
    def show(message, category, filename, lineno, file=None, line=None):
        print(f"{prefix}: warning: {message}", file=sys.stderr if file is None else file)

    return show


class _Interrupts:
    """The SIGINT handler of the ``irrepro`` program (see the module docstring)."""

    def __init__(self):
        self.timer: threading.Timer | None = None

    def __call__(self, signum, frame):
        if self.timer is not None:
            os._exit(130)
        self.timer = threading.Timer(INTERRUPT_GRACE_SECONDS, os._exit, args=(130,))
        self.timer.daemon = True
        self.timer.start()
        raise KeyboardInterrupt

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def install(self):
        """Install in the main thread when SIGINT is handled the default way; returns the old handler."""
        if threading.current_thread() is not threading.main_thread():
            return None
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return None
        return signal.signal(signal.SIGINT, self)


def _silence_stdout() -> None:
    """After a closed pipe (``irrepro evaluate ... | head``), send what is left to /dev/null, so
    that flushing at exit does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    # Only the program (argv from the command line) takes over Ctrl-C, never a host process
    # (a test, a notebook) that calls main() with its own arguments.
    """Run the ``irrepro`` command line.

    An error prints one line: exit status 2 for the user's mistakes, 1 for running out of memory
    and internal errors; ``--debug`` (or the environment variable ``DEBUG_VARIABLE`` names) shows
    the traceback instead. Ctrl-C gives exit status 130; only the program (``argv`` not given)
    installs its own SIGINT handler and sets the garbage collector's :data:`GC_THRESHOLDS` (and
    freezes what is left at the end), never a host process that calls ``main`` with arguments.

    Parameters
    ----------
    argv : list of str, optional
        The arguments; default: ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status.
    """
    program = argv is None  # the irrepro program, not a host process calling main(argv)
    interrupts = _Interrupts() if program else None
    previous = interrupts.install() if interrupts is not None else None
    if program:
        gc.set_threshold(*GC_THRESHOLDS)
    try:
        status = _main(sys.argv[1:] if program else list(argv))
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if interrupts is not None:
            interrupts.cancel()
        if program:
            gc.freeze()
    if interrupts is not None and interrupts.timer is not None:
        return 130  # a Ctrl-C that C code swallowed still means the command was interrupted
    return status


def _main(argv: list[str]) -> int:
    prefix = "irrepro"
    try:
        args = build_parser(_named_command(argv)).parse_args(argv)
        prefix = f"irrepro {args.command}"
        with warnings.catch_warnings():
            warnings.showwarning = _warn_in_one_line(prefix)
            return args.handler(args)
    except SystemExit as done:  # --help, --version and argparse's errors
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
    except KeyboardInterrupt:
        if _debugging(argv):
            raise
        return 130
    except BrokenPipeError:
        # The reader went away (`irrepro evaluate ... | head`): not an error of ours.
        _silence_stdout()
        return 0
    except Exception as error:
        if _debugging(argv):
            raise
        return _report(prefix, error)


def _report(prefix: str, error: Exception) -> int:
    """One line for a user's mistake (exit 2); out of memory and internal errors exit 1."""
    from irrepro.commands._common import describe_os_error

    if isinstance(error, MemoryError):
        print(f"{prefix}: error: out of memory (the inputs need more memory than this machine has)", file=sys.stderr)
        return 1
    if isinstance(error, OSError):
        print(f"{prefix}: error: {describe_os_error(error)}", file=sys.stderr)
        return 2
    if isinstance(error, (ValueError, RuntimeError)) and not isinstance(error, (NotImplementedError, RecursionError)):
        # bad inputs (malformed files, bad arguments), missing data, undefined measures
        message = " ".join(str(error).split()) or type(error).__name__
        print(f"{prefix}: error: {message}", file=sys.stderr)
        return 2
    print(
        f"{prefix}: internal error: {type(error).__name__}: {error}\n"
        f"{prefix}: this is a bug in irrepro {__version__}; please report it with the command line to "
        f"{REPORT_URL} ({DEBUG_VARIABLE}=1 shows the traceback)",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
