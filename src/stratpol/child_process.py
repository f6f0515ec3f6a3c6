"""A call in a forked child process: long C++ calls (dlplan's generator, one step of a huge
instance) hold off Python's signal handlers and keep their memory in the heap, so where it
matters they run in a child that an interrupt or a deadline can kill and whose memory goes back
to the system when it ends."""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
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
    iteration does (closing it early ends those still at work). A worker that dies without an
    answer (killed, or crashed in a library) is a ChildDied here, never a wait without end: each
    worker has a pipe of its own and no helper thread of a pool stands between."""
    context = multiprocessing.get_context("fork")
    workers: dict[Connection, multiprocessing.process.BaseProcess] = {}
    try:
        for _ in range(min(jobs, count)):
            here, there = context.Pipe()
            worker = context.Process(target=_serve, args=(there, function), daemon=True)
            worker.start()
            there.close()
            workers[here] = worker
        asked: dict[Connection, int] = {}  # what each busy worker computes
        answers: dict[int, T] = {}
        following = 0  # the next number to ask for
        for connection in workers:
            if following < count:
                connection.send(following)
                asked[connection], following = following, following + 1
        for wanted in range(count):
            while wanted not in answers:
                for connection in wait(list(asked)):
                    try:
                        ok, answer = connection.recv()
                    except EOFError:
                        workers[connection].join()
                        raise ChildDied(workers[connection].exitcode, "a forked worker") from None
                    if not ok:
                        raise answer
                    answers[asked.pop(connection)] = answer
                    if following < count:
                        connection.send(following)
                        asked[connection], following = following, following + 1
            yield answers.pop(wanted)
    finally:
        for connection, worker in workers.items():
            if worker.is_alive():
                worker.kill()
            worker.join()
            connection.close()


def _serve(connection: Connection, function: Callable[[int], Any]) -> None:
    """A forked worker's loop: a number in, function(number) or the exception it raised out, until
    the parent closes the pipe. An interrupt is left to the parent, which kills the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            number = connection.recv()
        except EOFError:
            return
        try:
            answer = (True, function(number))
        except Exception as error:  # raised again in the parent
            answer = (False, error)
        connection.send(answer)


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
