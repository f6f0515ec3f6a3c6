"""The one error type for a user's mistake: the CLI prints it as one line and exits with 2."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A mistake in what the user gave us (a file, a name, an argument), not a bug."""

    def __init__(self, message: str, path: str | Path | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.message = message
        super().__init__(f"{self.path}: {message}" if self.path is not None else message)
