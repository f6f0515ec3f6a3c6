"""Keep the C++ libraries quiet: their prints go to file descriptors, not to sys.stdout."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import sys
import tempfile
from collections.abc import Iterator

_libc = ctypes.CDLL(None)


@contextlib.contextmanager
def silenced_stdout() -> Iterator[None]:
    """Send everything written to file descriptor 1 inside the block to /dev/null."""
    sys.stdout.flush()
    _libc.fflush(None)
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    try:
        yield
    finally:
        _libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def _captured(descriptor: int) -> Iterator[list[str]]:
    """Collect everything written to `descriptor` inside the block; the yielded list holds the
    text once the block has ended."""
    captured: list[str] = []
    with tempfile.TemporaryFile(mode="w+b") as sink:
        sys.stdout.flush()
        sys.stderr.flush()
        _libc.fflush(None)
        saved = os.dup(descriptor)
        os.dup2(sink.fileno(), descriptor)
        try:
            yield captured
        finally:
            _libc.fflush(None)
            os.dup2(saved, descriptor)
            os.close(saved)
            sink.seek(0)
            captured.append(sink.read().decode(errors="replace"))


def captured_stdout() -> contextlib.AbstractContextManager[list[str]]:
    """Collect everything written to file descriptor 1 inside the block."""
    return _captured(1)


def captured_stderr() -> contextlib.AbstractContextManager[list[str]]:
    """Collect everything written to file descriptor 2 inside the block."""
    return _captured(2)


def _close_stderr() -> None:
    sys.stderr.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)


def silence_interpreter_exit() -> None:
    """Drop what nanobind prints about leaked objects while the interpreter shuts down.

    pymimir's Python subclasses of C++ interfaces (our search-limit hooks) make nanobind list
    hundreds of "leaked function" lines at exit; they are harmless. atexit handlers run before
    that check, so closing stderr there hides them and nothing else.
    """
    atexit.register(_close_stderr)
