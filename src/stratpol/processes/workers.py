"""Worker processes: numbered calls in forked workers (`in_forked_workers`), and a `RunPool` of
fresh worker processes for tasks that come one by one, as a scaling evaluation's runs. Every worker
leaves an interrupt to this process, which stops it, and one that dies without an answer is a
ChildDied here. A single call under limits is `stratpol.processes.limits`' business."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

# loky's start method (joblib vendors loky): a fresh interpreter, as spawn, that does not run the
# caller's main module again (a script without an `if __name__ == "__main__"` guard works too)
from joblib.externals.loky.backend import get_context

from stratpol.errors import InputError
from stratpol.processes.limits import ChildDied

T = TypeVar("T")

# what a Dask worker needs to be started with so that its tasks may start worker processes
DASK_WORKERS_WITH_CHILDREN = "DASK_DISTRIBUTED__WORKER__DAEMON=False"


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


def _serve(connection: Connection, function: Callable[[Any], Any]) -> None:
    """A worker's loop: a question in (a number, a task), function(question) or the exception it
    raised out, until the parent closes the pipe. An interrupt is left to the parent, which stops
    the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            question = connection.recv()
        except EOFError:
            return
        try:
            answer = (True, function(question))
        except Exception as error:  # raised again in the parent
            answer = (False, error)
        connection.send(answer)


# the thread pools a worker's libraries may start (torch's OpenMP, numpy's BLAS), as joblib limits them
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def worker_threads(jobs: int) -> dict[str, str]:
    """Each of `jobs` workers' share of the cores (a variable set here already is kept), so that the
    workers do not start a thread per core each."""
    share = str(max((os.cpu_count() or 1) // jobs, 1))
    return {name: os.environ.get(name, share) for name in THREAD_VARIABLES}


@dataclass(frozen=True)
class _Task:
    """A function and its arguments for a RunPool worker; `retried`: a worker died at it once."""

    function: Callable
    args: tuple
    retried: bool = False


class RunPool:
    """Tasks (a function and its arguments, pickled) in `jobs` worker processes that live as long as
    the pool; each free worker is handed the next task, and `wait` passes on whichever result comes
    first to `on_result`. Unlike `in_forked_workers`, tasks need not be known in advance, and the
    workers are not forked (the parent may hold torch's threads). A task no worker has begun can be
    forgotten (`drop_queued`). A worker that dies at a task (killed when memory ran out) is replaced
    and the task given to another once; a second death is a ChildDied. With one job the tasks run in
    this process, the oldest when waited for, so nothing runs that no one asks for."""

    def __init__(self, jobs: int, on_result: Callable[[Any], None]) -> None:
        self.on_result = on_result
        self._queued: deque[_Task] = deque()  # tasks no worker has begun
        self._workers: dict[Connection, multiprocessing.process.BaseProcess] = {}
        self._idle: list[Connection] = []
        self._begun: dict[Connection, _Task] = {}  # the busy workers: the task each was handed
        self._jobs = jobs
        if jobs > 1:
            if multiprocessing.current_process().daemon:
                raise InputError(f"{jobs} jobs need worker processes, and a daemonic process (a Dask worker's) "
                                 f"may not start any: start the Dask workers with {DASK_WORKERS_WITH_CHILDREN}, "
                                 f"or use one job")
            for _ in range(jobs):
                self._start_worker()

    def _start_worker(self) -> None:
        context = get_context("loky")
        here, there = context.Pipe()
        worker = context.Process(target=_serve_tasks, args=(there, worker_threads(self._jobs)), daemon=True)
        worker.start()
        there.close()
        self._workers[here] = worker
        self._idle.append(here)

    def submit(self, task: Callable, *args: Any) -> None:
        self._queued.append(_Task(task, args))
        self._hand_out()

    def wait(self) -> None:
        """Until a submitted task has finished and its result went to `on_result` (one job: the oldest
        task runs now). ValueError when no task is waiting; a task's exception is raised here, and
        ChildDied when a task's second worker died without an answer too (after the first, the task
        goes to a new worker, and this waits on)."""
        if not self._workers:
            if not self._queued:
                raise ValueError("no task to wait for")
            task = self._queued.popleft()
            self.on_result(task.function(*task.args))
            return
        if not self._begun:
            raise ValueError("no task to wait for")
        while not self._hand_on(wait(list(self._begun))[0]):
            pass

    def take_finished(self) -> None:
        """Pass on the results of the tasks that have finished, without waiting."""
        for connection in wait(list(self._begun), timeout=0) if self._begun else []:
            self._hand_on(connection)  # a task given to a new worker finishes in a later call

    def drop_queued(self) -> None:
        """Forget the tasks no worker has begun; the begun ones finish, their results passed on in a
        later `wait`."""
        self._queued.clear()

    def close(self) -> None:
        """Stop the workers, those still at a task too (its result is lost)."""
        self._queued.clear()
        for worker in self._workers.values():
            worker.terminate()  # before anything else: a stopped worker writes no half answer
        for connection, worker in self._workers.items():
            worker.join()
            connection.close()
        self._workers, self._idle, self._begun = {}, [], {}

    def _hand_on(self, connection: Connection) -> bool:
        """Pass on the answer of the worker at `connection`; False where the worker had died and its
        task went to a new one."""
        try:
            ok, answer = connection.recv()
        except EOFError:
            return self._replace_dead(connection)
        self._begun.pop(connection)
        self._idle.append(connection)
        self._hand_out()  # the freed worker begins its next task before the result is looked at
        if not ok:
            raise answer
        self.on_result(answer)
        return True

    def _replace_dead(self, connection: Connection) -> bool:
        worker, task = self._workers.pop(connection), self._begun.pop(connection)
        worker.join()
        connection.close()
        self._start_worker()
        if task.retried:
            raise ChildDied(worker.exitcode, "a worker process (twice for the same task)")
        self._queued.appendleft(replace(task, retried=True))
        self._hand_out()
        return False

    def _hand_out(self) -> None:
        while self._idle and self._queued:
            connection = self._idle.pop()
            task = self._queued.popleft()
            connection.send((task.function, task.args))  # pickled here: a task that cannot be is an error here
            self._begun[connection] = task

    def __enter__(self) -> RunPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _serve_tasks(connection: Connection, variables: dict[str, str]) -> None:
    """A RunPool worker: its share of the threads set before a task's unpickling imports torch, then
    (function, arguments) in, the result out."""
    os.environ.update(variables)
    _serve(connection, _call)


def _call(task: tuple[Callable, tuple]) -> Any:
    function, args = task
    return function(*args)


def can_fork_here() -> bool:
    """Whether a child can be forked and helps: signals reach only the main thread, and a daemonic
    process (a Dask worker's) may not have children."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon \
        and threading.current_thread() is threading.main_thread()
