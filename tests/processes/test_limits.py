"""Calls under a competition's limits: each ends as returned, time limit, memory limit or error."""

from __future__ import annotations

import os
import signal
import time

from stratpol.processes.limits import MEMORY_LIMIT, RETURNED, TIME_LIMIT, run_under_limits


def _call(index: int):
    if index == 0:
        return "answer"
    if index == 1:
        time.sleep(60)
    if index == 2:
        return bytearray(2 * 1024**3)  # past the 1 GiB limit
    if index == 3:
        raise ValueError("bad input\nsecond line")
    return "x" * 5_000_000  # more than a pipe holds at once


def test_each_call_ends_in_its_own_way_under_the_limits():
    started = time.monotonic()
    outcomes = {o.index: o for o in run_under_limits(_call, 5, time_limit=0.5, memory_limit_mb=1024, jobs=2)}
    assert time.monotonic() - started < 30
    assert (outcomes[0].ended, outcomes[0].value) == (RETURNED, "answer")
    assert outcomes[1].ended == TIME_LIMIT and outcomes[1].value is None and outcomes[1].seconds >= 0.5
    assert outcomes[2].ended == MEMORY_LIMIT
    assert outcomes[3].ended == "error: ValueError: bad input"
    assert outcomes[4].ended == RETURNED and len(outcomes[4].value) == 5_000_000
    assert all(o.peak_mb > 0 for o in outcomes.values())


def _cpu_call(index: int):
    if index == 0:
        time.sleep(1.5)  # wall-clock seconds that cost no CPU
        return "slept"
    started = time.process_time()
    while index == 1 or time.process_time() - started < 0.8:  # 1: spins until stopped
        pass
    return "spun"


def test_on_the_cpu_clock_a_call_is_stopped_by_the_cpu_seconds_it_used():
    outcomes = {o.index: o for o in run_under_limits(_cpu_call, 3, time_limit=0.5, jobs=3, clock="cpu")}
    assert (outcomes[0].ended, outcomes[0].value) == (RETURNED, "slept") and outcomes[0].seconds > 1.5
    assert outcomes[1].ended == TIME_LIMIT and outcomes[1].cpu_seconds >= 0.5  # the kernel's CPU-time limit
    assert (outcomes[2].ended, outcomes[2].value) == (TIME_LIMIT, "spun")  # it answered past the limit
    walled = {o.index: o.ended for o in run_under_limits(_cpu_call, 1, time_limit=0.5)}
    assert walled == {0: TIME_LIMIT}


def _xcpu(index: int) -> None:
    os.kill(os.getpid(), signal.SIGXCPU)  # as the kernel signals a process at its CPU-time limit


def test_on_the_cpu_clock_the_kernels_cpu_time_signal_is_the_time_limit_whatever_the_usage_reads():
    # a rovers run ended so at 59.8 CPU seconds of a 60 s limit: a time limit, not a crash
    assert [o.ended for o in run_under_limits(_xcpu, 1, time_limit=60, clock="cpu")] == [TIME_LIMIT]
    assert [o.ended for o in run_under_limits(_xcpu, 1, time_limit=60)] == [f"killed by signal {signal.SIGXCPU}"]


def test_outcomes_come_as_the_children_end():
    order = [o.index for o in run_under_limits(lambda i: time.sleep(0.6 - 0.3 * i), 2, 10, jobs=2)]
    assert order == [1, 0]


def test_closing_the_iteration_stops_the_children_still_at_work():
    before = _children()  # other tests' worker processes may live on
    outcomes = run_under_limits(lambda i: time.sleep(60 if i else 0), 2, 120, jobs=2)
    first = next(outcomes)
    assert first.index == 0
    sleeping = _children() - before
    outcomes.close()
    assert sleeping and not _children() & sleeping


def _children() -> set[int]:
    import os
    from pathlib import Path

    pid = os.getpid()
    found = set()
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(status.parent.name))
    return found
