"""The command-line reference (docs/cli.md), generated from the parsers so that it cannot drift:
every command's usage and options as `stratpol COMMAND --help` prints them.

    python -m stratpol.cli.reference > docs/cli.md
"""

from __future__ import annotations

import argparse
import os

from stratpol.cli import build_parser

WIDTH = 100  # columns of the help text, whatever the terminal's


def command_reference() -> str:
    """docs/cli.md: an index of the commands, then each command's --help."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)  # argparse wraps at the terminal's width
    try:
        parser = build_parser()
        commands = _subcommands(parser)
        lines = ["# Command line", "",
                 "Every command and option of `stratpol`, as `stratpol COMMAND --help` prints them. This page is",
                 "generated from the parsers (`python -m stratpol.cli.reference > docs/cli.md`), and a test checks",
                 "that it is current. Conventions shared by all commands (exit codes, `--json`, files written",
                 "whole, progress on a terminal) are in [design.md](design.md).", "",
                 "| command | what it does |", "|---|---|"]
        for name, (help_text, _) in commands.items():
            lines.append(f"| [`{name}`](#stratpol-{name}) | {help_text} |")
        lines += ["", "```", parser.format_help().rstrip(), "```"]
        for name, (_, subparser) in commands.items():
            lines += ["", f"## stratpol {name}", "", "```", subparser.format_help().rstrip(), "```"]
        return "\n".join(lines) + "\n"
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """name -> (one-line help, parser) of each command, in the order `stratpol --help` lists them."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in action._choices_actions}
    return {name: (helps.get(name, ""), subparser) for name, subparser in action.choices.items()}


if __name__ == "__main__":
    print(command_reference(), end="")
