"""A call in a forked child: its result, its exception, a deadline, a child that dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from stratpol.child_process import ChildDied, call_in_child, in_forked_workers


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
