"""The `stratpol` command: parse arguments, call the library, render its results. Each command
group is a module that declares its options beside its handler (`add_commands`)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence

from stratpol import __version__
from stratpol.cli import bench, evaluation, experiment, instances, learning, neural, planning, policies
from stratpol.errors import InputError
from stratpol.processes.limits import ChildDied

# in the order `stratpol --help` lists their commands
COMMAND_GROUPS = (planning, instances, learning, policies, evaluation, neural, experiment, bench)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stratpol", description="Learn and evaluate general policies for classical planning.")
    parser.add_argument("--version", action="version", version=f"stratpol {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for group in COMMAND_GROUPS:
        group.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command in this process; its exit code."""
    from stratpol.planning.quiet import silence_interpreter_exit

    silence_interpreter_exit()
    parser = build_parser()
    args = parser.parse_args(argv)
    # `kill PID` (and a batch system's time limit) stops a run like Ctrl-C does, so that worker
    # processes are stopped with it instead of running on orphaned
    on_term = signal.signal(signal.SIGTERM, _interrupt) if threading.current_thread() is threading.main_thread() else None
    try:
        return args.run(args)
    except InputError as error:
        print(f"stratpol: error: {error}", file=sys.stderr)
        return 2
    except ChildDied as died:  # e.g. dlplan's generator killed when memory ran out: one line, not a traceback
        print(f"stratpol: {died}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        _say_interrupted()
        return 130
    except BrokenPipeError:  # the reader went away (`stratpol ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)


def console_main() -> int:
    """The `stratpol` program: `main` in a supervised child, so that Ctrl-C and SIGTERM stop any
    command within a second or two, even one inside a long call into the engine."""
    from stratpol.processes.supervisor import run_supervised
    from stratpol.processes.workers import can_fork_here

    if not can_fork_here():
        return main()
    return run_supervised(main, _say_interrupted)


def _say_interrupted() -> None:
    print("stratpol: interrupted", file=sys.stderr)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
