"""RunPool: tasks in worker processes kept busy, results taken back as they finish."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from stratpol.evaluation.run_pool import RunPool, worker_threads


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


def test_a_tasks_error_is_raised_where_it_is_waited_for():
    with RunPool(2, lambda result: None) as pool:
        pool.submit(_fail, "broken draw")
        with pytest.raises(ValueError, match="broken draw"):
            pool.wait()


def test_closing_stops_the_workers_of_tasks_still_running(tmp_path):
    pool = RunPool(2, lambda result: None)
    workers = list(pool._workers)
    pool.submit(_until, tmp_path / "never")
    pool.close()  # an interrupted evaluation: no worker runs on orphaned
    assert not any(worker.is_alive() for worker in workers)
