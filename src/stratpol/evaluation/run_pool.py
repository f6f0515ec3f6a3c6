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
import pickle
import queue
import signal
import traceback
from collections import deque
from collections.abc import Callable

# loky's (vendored by joblib) start method: a fresh interpreter, as spawn, that does not run the
# caller's main module again (a script without an `if __name__ == "__main__"` guard works too)
from joblib.externals.loky.backend import get_context

# the thread pools a worker's libraries may start (torch's OpenMP, numpy's BLAS), as joblib limits them
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def worker_threads(jobs: int) -> dict[str, str]:
    """Each worker's share of the cores (a variable set here already is kept), so that `jobs`
    workers do not start a thread per core each."""
    share = str(max((os.cpu_count() or 1) // jobs, 1))
    return {name: os.environ.get(name, share) for name in THREAD_VARIABLES}


def _worker(tasks: multiprocessing.Queue, results: multiprocessing.Queue, variables: dict[str, str]) -> None:
    """A worker's life: take a task, put its result (or its error), until told to stop (None)."""
    os.environ.update(variables)  # before a task's unpickling imports torch
    # Ctrl-C reaches the whole process group: the parent alone handles it, and stops the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while (task := tasks.get()) is not None:
        function, args = pickle.loads(task)
        try:
            results.put((False, function(*args)))
        except Exception as error:  # handed to the parent, raised where it waits
            try:
                pickle.dumps(error)
            except Exception:
                error = RuntimeError("".join(traceback.format_exception(error)))
            results.put((True, error))


class RunPool:
    """Tasks in `jobs` worker processes (one job: in this process); each result goes to `on_result`.
    A worker is handed a task only when it is free, so a task nobody waits for any more can be
    forgotten before it begins (`drop_queued`)."""

    def __init__(self, jobs: int, on_result: Callable[[object], None]) -> None:
        self.on_result = on_result
        self.jobs = jobs
        self._queued: deque[tuple[Callable, tuple]] = deque()  # tasks no worker has begun
        self._running = 0
        self._workers: list[multiprocessing.Process] = []
        if jobs > 1:
            # not forked: the parent may hold threads (torch's)
            context = get_context("loky")
            self._tasks, self._results = context.Queue(), context.Queue()
            self._workers = [context.Process(target=_worker, args=(self._tasks, self._results, worker_threads(jobs)),
                                             daemon=True) for _ in range(jobs)]
            for worker in self._workers:
                worker.start()

    def submit(self, task: Callable, *args: object) -> None:
        self._queued.append((task, args))
        self._hand_out()

    def wait(self) -> None:
        """Until a submitted task has finished and its result went to `on_result` (one job: the oldest
        task runs now). ValueError when no task is waiting; a task's exception is raised here, and
        RuntimeError when a worker died."""
        if not self._workers:
            if not self._queued:
                raise ValueError("no task to wait for")
            task, args = self._queued.popleft()
            self.on_result(task(*args))
            return
        if not self._running:
            raise ValueError("no task to wait for")
        while True:
            try:
                finished = self._results.get(timeout=1.0)
                break
            except queue.Empty:
                dead = [w for w in self._workers if not w.is_alive()]
                if dead:
                    raise RuntimeError(f"a worker process died (exit code {dead[0].exitcode})") from None
        self._hand_on(finished)

    def take_finished(self) -> None:
        """Hand on the results of the tasks that have finished, without waiting."""
        while self._running:
            try:
                finished = self._results.get_nowait()
            except queue.Empty:
                return
            self._hand_on(finished)

    def drop_queued(self) -> None:
        """Forget the tasks no worker has begun; the begun ones finish, their results taken in a later
        `wait`."""
        self._queued.clear()

    def close(self) -> None:
        """Stop the workers, the tasks still running too (their results are lost)."""
        self._queued.clear()
        for worker in self._workers:
            worker.terminate()  # before anything else: a stopped worker writes no half result
        for worker in self._workers:
            worker.join()
        self._workers, self._running = [], 0

    def _hand_on(self, finished: tuple[bool, object]) -> None:
        self._running -= 1
        self._hand_out()  # the freed worker begins its next task before the result is looked at
        failed, result = finished
        if failed:
            raise result  # type: ignore[misc]
        self.on_result(result)

    def _hand_out(self) -> None:
        while self._workers and self._queued and self._running < self.jobs:
            self._tasks.put(pickle.dumps(self._queued.popleft()))  # here, so that a pickling error is raised here
            self._running += 1

    def __enter__(self) -> RunPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
