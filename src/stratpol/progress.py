"""Progress of long work: a live display on a terminal (rich), plain lines in a log.

Library functions take `progress: Callable[[str], None]` for what is finished (one line each)
and call `report_status` for where a stage stands now (runs within a size, inner iterations,
cells done). `Progress` shows both: on a terminal the lines scroll above one live bar per stage;
in a log (stderr not a terminal: CI, batch jobs) it prints the lines and, at most every
`interval` seconds, a stage's status as a line, so that long silent stretches leave a trace.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress, TaskID


class Progress:
    """Where long work tells how far it is; a context manager that ends the live display on exit."""

    def __init__(self, stream: TextIO | None = None, live: bool | None = None, interval: float = 30.0,
                 indent: str = "  ") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.interval = interval
        self.indent = indent
        self._display: RichProgress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._last_line: dict[str, float] = {}

    def __enter__(self) -> Progress:
        if self.live:  # rich only here: a log, and `stratpol plan`, never import it
            from rich.console import Console
            from rich.progress import BarColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

            console = Console(file=self.stream, highlight=False)
            self._display = RichProgress(TextColumn("{task.description}"), BarColumn(bar_width=30),
                                         TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
                                         TextColumn("{task.fields[detail]}"), console=console, transient=True,
                                         redirect_stdout=False)  # results go to stdout, progress to stderr
            self._display.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._display is not None:
            self._display.stop()
            self._display = None
        self._tasks.clear()

    def __call__(self, line: str) -> None:
        self.line(line)

    def line(self, text: str) -> None:
        """Something finished: printed (above the live bars on a terminal)."""
        if self._display is not None:
            self._display.console.print(f"{self.indent}{text}", markup=False, highlight=False)
        else:
            print(f"{self.indent}{text}", file=self.stream, flush=True)

    def status(self, stage: str, completed: float, total: float | None = None, detail: str = "") -> None:
        """Where `stage` stands: `completed` of `total` (None: no known end) and a short detail."""
        counts = _count(completed) if total is None else f"{_count(completed)}/{_count(total)}"
        if self._display is None:
            now = time.monotonic()
            if now - self._last_line.setdefault(stage, now) >= self.interval:
                self._last_line[stage] = now
                self.line(f"{stage}: {counts}{', ' + detail if detail else ''}")
            return
        if stage not in self._tasks:
            self._tasks[stage] = self._display.add_task(stage, total=total, counts=counts, detail=detail)
        self._display.update(self._tasks[stage], completed=completed, total=total, counts=counts, detail=detail)

    def finish(self, stage: str) -> None:
        """The stage is over: its bar goes away."""
        self._last_line.pop(stage, None)
        task = self._tasks.pop(stage, None)
        if task is not None and self._display is not None:
            self._display.remove_task(task)


def _count(value: float) -> str:
    """A count as people read it: 85,042 rather than 85042, 1,000,000 rather than 1e+06."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def report_status(progress: Callable[[str], None], stage: str, completed: float, total: float | None = None,
                  detail: str = "") -> None:
    """Tell `progress` where a stage stands, if it shows stages (a plain line callback does not)."""
    if isinstance(progress, Progress):
        progress.status(stage, completed, total, detail)


def finish_status(progress: Callable[[str], None], stage: str) -> None:
    if isinstance(progress, Progress):
        progress.finish(stage)
