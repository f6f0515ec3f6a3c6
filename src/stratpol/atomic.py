"""Files that appear whole or not at all: caches and outputs survive an interrupt."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` (same suffix) to write in any way; renamed over `path` when
    the block ends without an error, removed when it does not.

    The file gets the permissions of any file the user creates (mkstemp's own are 0600, which
    would hide results in a shared folder from the user's group)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}")
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_text_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`."""
    with atomic_path(path) as temporary:
        temporary.write_text(text)


def write_csv_atomically(path: Path, rows: Iterable[Sequence[object]]) -> None:
    """Rows (the header first) as a CSV file; the csv module quotes cells that hold `,`, `"` or newlines."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    write_text_atomically(path, buffer.getvalue())


def _umask() -> int:
    # the only way to read the umask is to set it; set back at once
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
