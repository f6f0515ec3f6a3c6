"""The two kinds of features: Boolean (a truth value) and numerical (a count)."""

from __future__ import annotations

import enum


class Kind(enum.Enum):
    BOOLEAN = "boolean"
    NUMERICAL = "numerical"
