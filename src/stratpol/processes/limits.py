"""Children under time and memory limits: a call in a forked child (`run_under_limits`,
`call_in_child`) or a program in a subprocess (`run_command`). A long C++ call (dlplan's generator,
pymimir's grounding, one step of a huge instance) holds off Python's signal handlers and keeps its
memory in the heap; in a child, an interrupt or a deadline can kill it, and its memory goes back to
the system when it ends.

`run_under_limits` runs calls under a competition's limits: each in a forked child of its own, with
a memory limit on its address space and a deadline, and its peak memory as the kernel measured it. The deadline
counts wall-clock seconds (the competition's) or the child's CPU seconds, which other work on the
machine does not eat into (a planner the child starts keeps to its own CPU limit; the child's
answer counts the planner's seconds too).

The IPC gives a planner one core, 30 minutes and 8 GiB per problem; `stratpol bench ipc2023`
gives every method's run the same, enforced on the process that runs it rather than trusted to
the method. A child inherits what the parent loaded (a policy, a domain), so nothing is pickled on
the way in; the answer comes back pickled through a pipe.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

# what a time limit may count: wall-clock seconds, or the CPU seconds of the process that runs
TIME_LIMIT_CLOCKS = ("wall", "cpu")
RETURNED = "returned"
TIME_LIMIT = "time limit"
MEMORY_LIMIT = "memory limit"
_RAISED = "raised"  # call_in_child's answer: the exception the call raised, to be raised again here
_KILL_GRACE_SECONDS = 2.0  # past the deadline before the child is killed: it may be writing its answer
# on the CPU clock, the wall-clock seconds per second of the limit after which a child is killed all
# the same: one that waits without using CPU (a planner stopped, a pipe) still ends
WALL_BACKSTOP_FACTOR = 10


class ChildDied(RuntimeError):
    """The child ended without sending a result (killed, as by the system when memory runs out,
    or crashed inside a library)."""

    def __init__(self, exit_code: int | None, what: str = "the child process") -> None:
        super().__init__(f"{what} ended without a result (exit code {exit_code}; -9 is a kill, as by the system "
                         f"when memory runs out)")
        self.exit_code = exit_code


def require_clock(clock: str) -> None:
    """ValueError, one line, for a clock that is not one of TIME_LIMIT_CLOCKS."""
    if clock not in TIME_LIMIT_CLOCKS:
        raise ValueError(f"clock {clock!r}: one of {', '.join(TIME_LIMIT_CLOCKS)}")


def wall_clock_limit(time_limit: float, clock: str) -> float:
    """The wall-clock seconds after which a call limited to `time_limit` seconds of `clock` is
    stopped: the limit itself, or on the CPU clock the backstop of WALL_BACKSTOP_FACTOR times it."""
    require_clock(clock)
    return time_limit if clock == "wall" else WALL_BACKSTOP_FACTOR * time_limit


@dataclass(frozen=True)
class LimitedOutcome:
    """How one call ended: RETURNED with its `value`, TIME_LIMIT, MEMORY_LIMIT (a MemoryError
    in the child), or what else ended it ("error: ...", "killed by signal 6"). A call that answered
    past its time limit is TIME_LIMIT with that answer as `value`: not a result, but what it says
    of how far the call got."""

    index: int
    ended: str
    value: Any
    seconds: float  # wall clock, from the fork to the end
    peak_mb: float  # peak resident memory of the child and of the children it waited for
    cpu_seconds: float  # CPU seconds of the child and of the children it waited for


def run_under_limits(function: Callable[[int], Any], count: int, time_limit: float,
                     memory_limit_mb: int | None = None, jobs: int = 1, clock: str = "wall"
                     ) -> Iterator[LimitedOutcome]:
    """function(0), ..., function(count - 1), each in a forked child with `memory_limit_mb` of
    address space, stopped `time_limit` seconds of `clock` after it started ("wall", or "cpu": the
    kernel's CPU-time limit stops it, and WALL_BACKSTOP_FACTOR times the limit on the wall clock);
    `jobs` children at a time, each outcome yielded as its child ends. Closing the iteration early
    (an interrupt) kills the children still at work."""
    wall_limit = wall_clock_limit(time_limit, clock)
    cpu_limit = None if clock == "wall" else time_limit
    running: dict[int, _Child] = {}  # by the read end of its pipe
    following = 0
    try:
        while following < count or running:
            while following < count and len(running) < jobs:
                child = _start(function, following, memory_limit_mb, cpu_limit)
                running[child.pipe] = child
                following += 1
            now = time.monotonic()
            wait = max(0.0, min(c.started + wall_limit + _KILL_GRACE_SECONDS - now for c in running.values()))
            ready, _, _ = select.select(list(running), [], [], wait)
            for pipe in ready:
                chunk = os.read(pipe, 1 << 16)
                if chunk:
                    running[pipe].answer.append(chunk)
                else:
                    yield running.pop(pipe).finish(time_limit, clock)
            now = time.monotonic()
            for pipe in [p for p, c in running.items() if now > c.started + wall_limit + _KILL_GRACE_SECONDS]:
                yield running.pop(pipe).finish(time_limit, clock, killed=True)
    finally:
        for child in running.values():
            child.finish(time_limit, clock, killed=True)


@dataclass
class _Child:
    index: int
    pid: int
    pipe: int
    started: float
    answer: list[bytes]

    def finish(self, time_limit: float, clock: str, killed: bool = False) -> LimitedOutcome:
        """Reap the child, stopped first when `killed` (its peak memory comes with it), and read
        what it answered: past `time_limit` on `clock` is TIME_LIMIT, whatever it answered."""
        status, usage = _stop(self.pid) if killed else os.wait4(self.pid, 0)[1:]
        os.close(self.pipe)
        seconds = time.monotonic() - self.started
        peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
        cpu_seconds = usage.ru_utime + usage.ru_stime
        if killed:
            return LimitedOutcome(self.index, TIME_LIMIT, None, seconds, peak_mb, cpu_seconds)
        signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        if clock == "cpu" and (signal_number == signal.SIGXCPU
                               or signal_number == signal.SIGKILL and cpu_seconds >= time_limit):
            # the kernel's CPU-time limit: SIGXCPU at its soft end (the kernel's count of CPU time may
            # reach it while the child's usage reads a little less), SIGKILL at its hard end
            return LimitedOutcome(self.index, TIME_LIMIT, None, seconds, peak_mb, cpu_seconds)
        if not self.answer:
            ended = f"killed by signal {signal_number}" if signal_number else f"exit code {os.WEXITSTATUS(status)}"
            return LimitedOutcome(self.index, ended, None, seconds, peak_mb, cpu_seconds)
        ended, value = pickle.loads(b"".join(self.answer))
        if ended == RETURNED and (seconds if clock == "wall" else cpu_seconds) > time_limit:
            ended = TIME_LIMIT  # its answer stays, for what it says of the call (LimitedOutcome)
        return LimitedOutcome(self.index, ended, value, seconds, peak_mb, cpu_seconds)


def _start(function: Callable[[int], Any], index: int, memory_limit_mb: int | None,
           cpu_limit: float | None, raises: bool = False) -> _Child:
    """Fork a child that answers (how it ended, value) for function(index) through a pipe; with
    `raises`, an exception comes back whole, to be raised again in the parent."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the parent's code
        status = 0
        try:
            os.close(reader)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is the parent's, which stops us
            signal.signal(signal.SIGTERM, _exit_on_term)
            if memory_limit_mb is not None:
                limit = memory_limit_mb * 1024 * 1024
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            if cpu_limit is not None:  # SIGXCPU at the soft limit, SIGKILL a second later
                seconds = math.ceil(cpu_limit) + 1  # whole seconds; answering costs little CPU
                resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU would dump a core
            try:
                answer = (RETURNED, function(index))
            except Exception as error:  # the child's end, told to the parent whole or in one line
                if raises:
                    answer = (_RAISED, error)
                else:
                    answer = (MEMORY_LIMIT, None) if isinstance(error, MemoryError) else (_error_line(error), None)
            with os.fdopen(writer, "wb") as out:
                out.write(_pickled(answer))
        except BaseException:  # a SIGTERM's SystemExit, or an answer that would not pickle: whatever it
            status = 1  # is, the child ends here and never returns into the parent's loop
        finally:
            for stream in (sys.stdout, sys.stderr):  # what the call printed, before os._exit drops it
                try:
                    stream.flush()
                except Exception:
                    pass
            os._exit(status)
    os.close(writer)
    return _Child(index, pid, reader, time.monotonic(), [])


def _error_line(error: Exception) -> str:
    return f"error: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


def _pickled(answer: tuple[str, Any]) -> bytes:
    """The answer pickled; an exception that does not pickle goes as a RuntimeError with its line."""
    try:
        return pickle.dumps(answer)
    except Exception:
        if answer[0] != _RAISED:
            raise
        return pickle.dumps((_RAISED, RuntimeError(_error_line(answer[1]))))


def _exit_on_term(signum: int, frame: object) -> None:
    # unwinds the child's stack, so that a planner it started is killed by its own cleanup
    raise SystemExit(1)


def _stop(pid: int) -> tuple[int, resource.struct_rusage]:
    """SIGTERM, then SIGKILL where the child has not ended within a second (a long call in a
    library holds off the Python handler); its exit status and resource usage."""
    _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        ended, status, usage = os.wait4(pid, os.WNOHANG)
        if ended:
            return status, usage
        time.sleep(0.05)
    _signal(pid, signal.SIGKILL)
    return os.wait4(pid, 0)[1:]


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:  # ended already; the wait reaps it
        pass


def call_in_child(function: Callable[..., Any], *arguments: Any, timeout: float | None = None,
                  memory_limit_mb: int | None = None) -> Any:
    """`function(*arguments)` in a forked child (nothing is pickled on the way in; the result, or
    the exception it raised, comes back pickled). The child is killed when this process is
    interrupted; TimeoutError when it has not answered within `timeout` wall-clock seconds, and
    ChildDied when it ended without an answer."""
    child = _start(lambda index: function(*arguments), 0, memory_limit_mb, None, raises=True)
    deadline = None if timeout is None else child.started + timeout
    killed = True
    try:
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([child.pipe], [], [], wait)[0]:
                raise TimeoutError(f"no answer within {timeout:g} s")
            chunk = os.read(child.pipe, 1 << 16)
            if not chunk:
                break
            child.answer.append(chunk)
        killed = False
    finally:
        if killed:
            _stop(child.pid)
            os.close(child.pipe)
    status = os.wait4(child.pid, 0)[1]
    os.close(child.pipe)
    if not child.answer:
        raise ChildDied(-os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
    ended, value = pickle.loads(b"".join(child.answer))
    if ended == _RAISED:
        raise value
    return value


@dataclass(frozen=True)
class CommandResult:
    """How a program run by `run_command` ended: its exit code (None: killed at the wall-clock
    limit) and its output, stdout and stderr together."""

    code: int | None
    output: str


def run_command(command: list[str], cwd: str, wall_limit: float | None, input_text: str | None = None,
                memory_limit_mb: int | None = None) -> CommandResult:
    """Run `command` in its own session; kill its whole process group at the wall limit, on an
    interrupt or on an error here.

    A memory limit is set on the child with prlimit before it gets its input: unlike a
    preexec_fn this is safe with threads, and the child reads stdin before allocating anything big.
    """
    process = subprocess.Popen(
        command, cwd=cwd, stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        if memory_limit_mb is not None:
            limit = memory_limit_mb * 1024 * 1024
            try:
                resource.prlimit(process.pid, resource.RLIMIT_AS, (limit, limit))
            except ProcessLookupError:  # it exited already; its output says why
                pass
        try:
            output, _ = process.communicate(None if input_text is None else input_text.encode(), timeout=wall_limit)
        except subprocess.TimeoutExpired:
            _kill_group(process.pid)
            output, _ = process.communicate()
            return CommandResult(None, output.decode(errors="replace"))
        return CommandResult(process.returncode, output.decode(errors="replace"))
    finally:
        if process.poll() is None:
            _kill_group(process.pid)
            process.wait()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
