"""Where stratpol caches plans, feature pools and teacher data: $STRATPOL_CACHE, else ~/.cache/stratpol."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The cache folder; every cache under it is keyed by content hash, so sharing it is safe."""
    return Path(os.environ.get("STRATPOL_CACHE", Path.home() / ".cache" / "stratpol"))
