"""docs/cli.md is the parsers' own help, so that it cannot drift from the options."""

from __future__ import annotations

from pathlib import Path

from stratpol.cli.reference import command_reference

ROOT = Path(__file__).resolve().parents[1]


def test_docs_cli_md_is_current():
    assert (ROOT / "docs" / "cli.md").read_text() == command_reference(), \
        "docs/cli.md is out of date: python -m stratpol.cli.reference > docs/cli.md"


def test_every_command_and_option_is_in_it():
    text = command_reference()
    for command in ("plan", "learn", "verify", "run", "evaluate", "train-gnn", "experiment", "bench"):
        assert f"\n## stratpol {command}\n" in text
    for option in ("--instances", "--strategy", "--max-states", "--tie-break", "--epsilon", "--retry-unsolved"):
        assert option in text
