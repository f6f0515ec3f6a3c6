"""A call in a forked child process: long C++ calls (dlplan's generator, one step of a huge
instance) hold off Python's signal handlers and keep their memory in the heap, so where it
matters they run in a child that an interrupt or a deadline can kill and whose memory goes back
to the system when it ends."""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class ChildDied(RuntimeError):
    """The child ended without sending a result (killed, as by the system when memory runs out,
    or crashed inside a library)."""

    def __init__(self, exit_code: int | None, what: str = "the child process") -> None:
        super().__init__(f"{what} ended without a result (exit code {exit_code}; -9 is a kill, as by the system "
                         f"when memory runs out)")
        self.exit_code = exit_code


def in_forked_workers(function: Callable[[int], T], count: int, jobs: int) -> Iterator[T]:
    """function(0), ..., function(count - 1), computed `jobs` at a time by forked workers and
    yielded in order. The workers inherit `function` and what it reads (nothing is pickled on the
    way in; the results come back pickled), leave an interrupt to this process, and end when the
    iteration does (closing it early ends those still at work). One such iteration at a time."""
    global _FORKED_FUNCTION
    _FORKED_FUNCTION = function
    try:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_quiet_worker) as pool:
            yield from pool.imap(_call_forked, range(count))
    finally:
        _FORKED_FUNCTION = None


_FORKED_FUNCTION: Callable[[int], Any] | None = None  # what the workers of in_forked_workers call


def _call_forked(number: int) -> Any:
    return _FORKED_FUNCTION(number)


def _quiet_worker() -> None:
    """A forked worker leaves an interrupt to its parent, whose pool ends it with SIGTERM: that
    ends it at once, without the parent's handler and its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def can_fork_here() -> bool:
    """Whether a child can be forked and helps: signals reach only the main thread, and a daemonic
    process (a Dask worker's) may not have children."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon \
        and threading.current_thread() is threading.main_thread()


def call_in_child(function: Callable[..., Any], *arguments: Any, timeout: float | None = None) -> Any:
    """`function(*arguments)` in a forked child (nothing is pickled on the way in; the result, or
    the exception it raised, comes back through a pipe). The child is killed when this process is
    interrupted, and TimeoutError is raised when it has not answered within `timeout` seconds."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_send, args=(sender, function, arguments), daemon=True)
    child.start()
    sender.close()
    try:
        if timeout is not None and not receiver.poll(timeout):
            raise TimeoutError(f"no answer within {timeout:g} s")
        ok, result = receiver.recv()
    except EOFError:
        child.join()
        raise ChildDied(child.exitcode) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()
    if not ok:
        raise result
    return result


def _send(sender, function: Callable[..., Any], arguments: tuple) -> None:
    try:
        result = (True, function(*arguments))
    except Exception as error:  # raised again in the parent
        result = (False, error)
    sender.send(result)
    sender.close()
