"""A command run in a forked child that this process supervises, so that Ctrl-C or a batch
system's SIGTERM stops it within a second or two even while it is inside a long C++ call
(pymimir's grounding of a large problem, dlplan's generator) that holds off Python's handlers.

On an interrupt the supervisor passes SIGTERM on to the child, which stops as after Ctrl-C (its
finally blocks run, its workers are stopped, its message is printed) as soon as it is back in
Python. A child that has not ended within `GRACE_SECONDS` is killed with what it started, and
the supervisor says "interrupted" for it.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable

import psutil

GRACE_SECONDS = 1.5
INTERRUPTED = 130  # the exit code of a command stopped by an interrupt, as a shell reports SIGINT
_POLL_SECONDS = 0.1


def run_supervised(command: Callable[[], int], interrupted: Callable[[], None]) -> int:
    """`command()` in a forked child; its exit code. `interrupted()` is called here (to print the
    command's message) when the child had to be killed after an interrupt."""
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child == 0:
        os._exit(_child(command))
    stopping_since: list[float] = []

    def interrupt(signum: int, frame: object) -> None:
        if not stopping_since:
            stopping_since.append(time.monotonic())
            _signal(child, signal.SIGTERM)

    previous = {number: signal.signal(number, interrupt) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        while True:
            ended, status = os.waitpid(child, os.WNOHANG)
            if ended:
                if stopping_since and os.WIFSIGNALED(status):  # the SIGTERM passed on ended it, unhandled
                    interrupted()
                    return INTERRUPTED
                code = os.waitstatus_to_exitcode(status)
                return code if code >= 0 else 128 - code  # killed by signal N: 128 + N, as a shell says
            if stopping_since and time.monotonic() - stopping_since[0] > GRACE_SECONDS:
                _kill_tree(child)
                os.waitpid(child, 0)
                interrupted()
                return INTERRUPTED
            select.select([], [], [], _POLL_SECONDS)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _child(command: Callable[[], int]) -> int:
    """The command's exit code, its output flushed (os._exit does not flush)."""
    code = 1
    try:
        # Ctrl-C reaches the whole foreground process group: the supervisor answers it, with a
        # SIGTERM here, so that one interrupt is not seen twice
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        code = command()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a reader gone away: nothing more to say to it
                pass
    return code


def _kill_tree(pid: int) -> None:
    """SIGKILL for `pid` and every process it started (workers, planners in sessions of their own)."""
    try:
        command = psutil.Process(pid)
        victims = [command, *command.children(recursive=True)]
    except psutil.NoSuchProcess:  # ended meanwhile: the wait reaps it
        return
    for process in victims:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass
