"""Append-only logs of records (JSON lines): one writer and one reader for every run log.

A run appends its record as soon as it ends, so an interrupted evaluation resumes from the log;
a line cut short by the interrupt is skipped when the log is read back.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def append_record(path: Path, record: object) -> None:
    """Append one dataclass record as a JSON line (after a line an interrupt cut short, on a line of its own)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as file:
        cut = file.tell() > 0 and (file.seek(-1, 2), file.read(1))[1] != b"\n"
        file.write((b"\n" if cut else b"") + json.dumps(asdict(record)).encode() + b"\n")


def read_records(path: Path, kind: type[T]) -> list[T]:
    """The records of `kind` in `path`, in the order they were appended ([] when there is no log)."""
    if not path.is_file():
        return []
    names = {f.name for f in fields(kind)}
    records = []
    for line in path.read_text().splitlines():
        try:
            data = json.loads(line)
        except ValueError:  # empty, or the last line of a run killed while writing it
            continue
        records.append(kind(**{key: value for key, value in data.items() if key in names}))
    return records
