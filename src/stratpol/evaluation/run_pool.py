"""Tasks made in worker processes that live as long as the pool, taken back in any order.

A scaling evaluation's runs take from a second to minutes, so runs made in fixed batches leave a
worker idle until the batch's longest run ends. A `RunPool` keeps its workers busy instead: tasks
wait in a queue, each free worker takes the next, and `wait` hands back whichever finishes first.
With one job the tasks run in this process, one at a time when a result is waited for, so nothing
runs that no one asks for.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from collections import deque
from collections.abc import Callable

# the thread pools a worker's libraries may start (torch's OpenMP, numpy's BLAS), as joblib limits them
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def worker_threads(jobs: int) -> dict[str, str]:
    """Each worker's share of the cores (a variable set here already is kept), so that `jobs`
    workers do not start a thread per core each."""
    share = str(max((os.cpu_count() or 1) // jobs, 1))
    return {name: os.environ.get(name, share) for name in THREAD_VARIABLES}


def _set_environment(variables: dict[str, str]) -> None:
    os.environ.update(variables)  # before a task's unpickling imports torch


class RunPool:
    """Tasks in `jobs` worker processes (one job: in this process); each result goes to `on_result`.
    A worker is handed a task only when it is free, so a task nobody waits for any more can be
    forgotten before it begins (`drop_queued`)."""

    def __init__(self, jobs: int, on_result: Callable[[object], None]) -> None:
        self.on_result = on_result
        self.jobs = jobs
        # spawned, not forked: the parent may hold threads (torch's, this pool's own)
        self._pool = multiprocessing.get_context("spawn").Pool(
            jobs, initializer=_set_environment, initargs=(worker_threads(jobs),)) if jobs > 1 else None
        self._running = 0
        self._finished: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()  # (failed, result)
        self._queued: deque[tuple[Callable, tuple]] = deque()  # tasks no worker has begun

    def submit(self, task: Callable, *args: object) -> None:
        self._queued.append((task, args))
        self._hand_out()

    def wait(self) -> None:
        """Until a submitted task has finished and its result went to `on_result` (one job: the oldest
        task runs now). ValueError when no task is waiting; a task's exception is raised here."""
        if self._pool is None:
            if not self._queued:
                raise ValueError("no task to wait for")
            task, args = self._queued.popleft()
            self.on_result(task(*args))
            return
        if not self._running:
            raise ValueError("no task to wait for")
        self._hand_on(self._finished.get())

    def take_finished(self) -> None:
        """Hand on the results of the tasks that have finished, without waiting."""
        while self._pool is not None and not self._finished.empty():
            self._hand_on(self._finished.get())

    def drop_queued(self) -> None:
        """Forget the tasks no worker has begun; the begun ones finish, their results taken in a later
        `wait`."""
        self._queued.clear()

    def close(self) -> None:
        """Stop the workers, the tasks still running too (their results are lost)."""
        self._queued.clear()
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._running = 0

    def _hand_on(self, finished: tuple[bool, object]) -> None:
        self._running -= 1
        self._hand_out()  # the freed worker begins its next task before the result is looked at
        failed, result = finished
        if failed:
            raise result  # type: ignore[misc]
        self.on_result(result)

    def _hand_out(self) -> None:
        while self._pool is not None and self._queued and self._running < self.jobs:
            task, args = self._queued.popleft()
            self._pool.apply_async(task, args, callback=lambda result: self._finished.put((False, result)),
                                   error_callback=lambda error: self._finished.put((True, error)))
            self._running += 1

    def __enter__(self) -> RunPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
