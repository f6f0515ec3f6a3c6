"""Files that appear whole or not at all: caches and outputs survive an interrupt."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`.

    The file gets the permissions of any file the user creates (mkstemp's own are 0600, which
    would hide results in a shared folder from the user's group)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as file:
            file.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
