"""The domain folders travel with a non-editable install as package data."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_package_data_covers_every_domain_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["stratpol"]
    assert (ROOT / "src" / "stratpol" / "domains").resolve() == (ROOT / "domains").resolve()
    files = [p for p in (ROOT / "domains").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert files
    for path in files:
        relative = "domains/" + path.relative_to(ROOT / "domains").as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) and relative.count("/") == pattern.count("/")
                   for pattern in patterns), relative
