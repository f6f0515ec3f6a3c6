"""Work in child processes: a call in a forked child (its result, its exception, a deadline, a child
that dies), forked workers, and a RunPool of workers kept busy."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from stratpol.processes.limits import ChildDied, call_in_child
from stratpol.processes.workers import RunPool, in_forked_workers, worker_threads
from stratpol.errors import InputError


def test_the_result_and_the_exception_of_the_child_come_back():
    assert call_in_child(sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        call_in_child(divmod, 1, 0)


def test_a_child_past_its_deadline_is_killed_and_a_dead_child_is_one_error():
    started = time.perf_counter()
    with pytest.raises(TimeoutError):
        call_in_child(time.sleep, 30, timeout=0.2)
    assert time.perf_counter() - started < 20  # killed, not waited for
    with pytest.raises(ChildDied) as died:
        call_in_child(_killed)
    assert died.value.exit_code == -signal.SIGKILL


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the system kills a process out of memory


def test_forked_workers_return_in_order_what_the_function_computes_in_them():
    squares = list(in_forked_workers(lambda n: (n * n, os.getpid()), 20, jobs=2))
    assert [square for square, _ in squares] == [n * n for n in range(20)]
    assert os.getpid() not in {pid for _, pid in squares}  # computed in the workers, not here
    before = set(multiprocessing.active_children())  # other tests may leave pools of their own
    early = in_forked_workers(lambda n: n, 1000, jobs=2)
    assert next(early) == 0
    assert set(multiprocessing.active_children()) - before  # the workers at work
    early.close()  # the workers still at work end with it
    assert not set(multiprocessing.active_children()) - before


def test_a_forked_worker_that_dies_or_raises_is_an_error_here_not_a_wait_without_end():
    def dies_at_three(number: int) -> int:
        if number == 3:
            _killed()
        return number

    started = time.perf_counter()
    with pytest.raises(ChildDied) as died:
        list(in_forked_workers(dies_at_three, 10, jobs=2))
    assert died.value.exit_code == -signal.SIGKILL
    assert time.perf_counter() - started < 20
    with pytest.raises(ZeroDivisionError):
        list(in_forked_workers(lambda n: 1 // (n - 5), 10, jobs=2))
    assert list(in_forked_workers(lambda n: n, 1, jobs=4)) == [0]  # no more workers than numbers
    assert list(in_forked_workers(lambda n: n, 0, jobs=2)) == []


def _pause(name: str, seconds: float) -> tuple[str, int]:
    time.sleep(seconds)
    return name, os.getpid()


def test_with_one_job_a_task_runs_in_this_process_only_when_waited_for():
    results = []
    with RunPool(1, results.append) as pool:
        pool.submit(_pause, "first", 0)
        pool.submit(_pause, "second", 0)
        assert results == []  # nothing ran yet
        pool.wait()
        assert results == [("first", os.getpid())]
        pool.drop_queued()  # the second was never asked for: it never runs
        with pytest.raises(ValueError, match="no task to wait for"):
            pool.wait()
    assert results == [("first", os.getpid())]


def _until(marker: Path) -> tuple[str, int]:
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return "long", os.getpid()


def test_a_long_task_holds_up_one_worker_and_the_others_go_on(tmp_path):
    results = []
    with RunPool(2, results.append) as pool:
        pool.submit(_until, tmp_path / "go")  # runs until the four short tasks are back
        for number in range(4):
            pool.submit(_pause, f"short {number}", 0.0)
        while len(results) < 4:
            pool.wait()
        assert [name for name, _ in results] == [f"short {number}" for number in range(4)]
        assert len({pid for _, pid in results}) == 1 and results[0][1] != os.getpid()  # the other worker
        pool.drop_queued()
        (tmp_path / "go").touch()
        pool.wait()  # a begun task still finishes, and its result is handed on
    assert [name for name, _ in results][-1] == "long"


def test_each_worker_gets_its_share_of_the_cores(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert worker_threads(2)["OMP_NUM_THREADS"] == "4" and worker_threads(16)["MKL_NUM_THREADS"] == "1"
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # chosen by the caller: kept
    assert worker_threads(2)["OMP_NUM_THREADS"] == "1"


def _fail(message: str) -> None:
    raise ValueError(message)


def test_a_tasks_error_is_raised_where_it_is_waited_for_and_a_dead_worker_is_one_error():
    with RunPool(2, lambda result: None) as pool:
        pool.submit(_fail, "broken draw")
        with pytest.raises(ValueError, match="broken draw"):
            pool.wait()
        pool.submit(os._exit, 3)  # as a worker the system kills when memory runs out, at every try
        with pytest.raises(ChildDied, match=r"a worker process \(twice for the same task\) ended without a result "
                                            r"\(exit code 3"):
            pool.wait()


def _die_once(marker: Path) -> str:
    if not marker.exists():
        marker.touch()
        os._exit(9)  # as the system kills a worker when memory runs out
    return "done"


def test_a_task_whose_worker_died_goes_to_a_new_worker_once(tmp_path):
    results = []
    with RunPool(2, results.append) as pool:
        workers = set(pool._workers.values())
        pool.submit(_die_once, tmp_path / "died")
        pool.submit(_pause, "beside", 0.0)
        pool.wait()
        pool.wait()
        assert len(results) == 2 and "done" in results and any(result[0] == "beside" for result in results)
        assert len(pool._workers) == 2 and set(pool._workers.values()) != workers  # the dead one replaced


def test_closing_stops_the_workers_of_tasks_still_running(tmp_path):
    pool = RunPool(2, lambda result: None)
    workers = list(pool._workers.values())
    pool.submit(_until, tmp_path / "never")
    pool.close()  # an interrupted evaluation: no worker runs on orphaned
    assert not any(worker.is_alive() for worker in workers)


def _pool_in_a_daemonic_process(answers) -> None:
    try:
        RunPool(2, lambda result: None)
    except InputError as error:
        answers.put(str(error))


def test_a_daemonic_process_asking_for_workers_gets_one_clear_error():
    # a Dask worker is a daemonic process, and Python forbids it children (an AssertionError deep in
    # multiprocessing); the error says how to start workers that may have them
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_pool_in_a_daemonic_process, args=(answers,), daemon=True)
    child.start()
    child.join()
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in answers.get(timeout=10)
