"""What several commands print the same way: a JSON document, a table row by row, a policy."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable


def print_json(data: object) -> None:
    """One JSON document on stdout (the --json output of a command)."""
    print(json.dumps(data, indent=1, default=str))


def printed_rows(render: Callable[[list], str]) -> Callable[[object], None]:
    """Print a benchmark table's header now and return a callback that prints each row as it
    arrives (a long benchmark shows what it has done, and a cut-off run keeps it)."""
    header = render([])
    print(header, flush=True)
    skip = len(header.splitlines())
    return lambda row: print("\n".join(render([row]).splitlines()[skip:]), flush=True)


def save_policy(path: str | None, policy, vocabulary, comment: str = "") -> None:
    """With --out, the policy in both formats (the readable one headed by the `comment` lines);
    what dlplan's format cannot hold, said on stderr."""
    from stratpol.policy.dlplan_format import write_policy_files

    if path and (skipped := write_policy_files(path, policy, vocabulary.factory, comment)):
        print(f"# {skipped}", file=sys.stderr)
