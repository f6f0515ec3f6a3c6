"""A policy file in either format: stratpol's readable one, or dlplan's `(:policy ...)`."""

from __future__ import annotations

from pathlib import Path

from stratpol.errors import InputError
from stratpol.policy.dlplan_format import parse_dlplan
from stratpol.policy.rules import Policy
from stratpol.policy.text import parse_policy


def is_dlplan_text(text: str) -> bool:
    return text.lstrip().startswith("(:policy")


def read_policy_file(path: str | Path, factory: object | None = None) -> Policy:
    """The policy in `path`; dlplan's format is read with `factory` (the SyntacticElementFactory of
    the domain's vocabulary), which its features need. Every mistake is one InputError line."""
    file = Path(path)
    if not file.is_file():
        raise InputError("policy file not found", file)
    text = file.read_text()
    if not is_dlplan_text(text):
        return parse_policy(text, file)
    if factory is None:
        raise InputError("a policy in dlplan's format is read with its domain's vocabulary: name the domain", file)
    try:
        return parse_dlplan(text, factory)
    except ValueError as error:
        raise InputError(str(error).splitlines()[0], file) from None
