"""A learned policy's learning record (`D.learned.json` beside `D.policy`): how it was learned, in
a form a table can be made from: the command, the settings that learned it (and those tried
before), the grammar and whether it lists features, the training files verified, tested by runs
or left out (and why), the policy's size, certificate and SIEVE's verdict, the seconds of each
phase over the whole run (every entry tried), and the pool's generation. A run that learns nothing leaves a record
too, `"learned": false` with the reason, and no policy."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.features import load_grammar
from stratpol.learning.result import LearningFailure, PortfolioAttempt, WrapperResult
from stratpol.policy import Policy
from stratpol.termination import sieve

RECORD_SUFFIX = ".learned.json"


def record_path(policy_path: str | Path) -> Path:
    """Where the record of the policy saved at `policy_path` goes: `D.policy` -> `D.learned.json`."""
    policy_path = Path(policy_path)
    stem = policy_path.name.removesuffix(".policy")
    return policy_path.with_name(stem + RECORD_SUFFIX)


def learning_record(result: WrapperResult, command: str, domain_file: str | None) -> dict:
    """The record of `result`, learned by `command` (through `learn`, which names its settings)."""
    chosen = result.settings
    if chosen is None:
        raise ValueError("a result of learn() names the settings that learned it; this one does not")
    grammar = load_grammar(chosen.settings.grammar)
    verified = [v.instance for v in result.verifications if not v.runs]
    tested = {v.instance: v.runs for v in result.verifications if v.runs}
    statistics = result.statistics
    return {
        "learned": True,
        "command": command,
        "domain": result.policy.domain,
        "domain_file": domain_file,
        "settings": {"name": chosen.name, "description": chosen.settings.describe(),
                     "values": dataclasses.asdict(chosen.settings)},
        "attempts": [dataclasses.asdict(a) for a in result.attempts],
        "grammar": {"name": grammar.name, "complexity_limit": grammar.complexity_limit,
                    "listed_features": len(grammar.features)},
        "files": {"verified": verified, "tested_by_runs": tested, "left_out": dict(statistics.left_out),
                  "renamings": statistics.renamed},
        "undecided_states": statistics.undecided,  # the teacher decided neither way: steps into them avoided
        "synthesised_features": list(statistics.synthesised),  # found beyond the pool (--synthesis)
        "synthesised_for": dict(statistics.synthesised_for),  # the requirement each was found for
        "policy": {"features": len(result.policy.features), "rules": len(result.policy.rules),
                   "termination": result.certificate.describe(), "sieve": sieve_verdict(result.policy)},
        "seconds": _phase_seconds(result.attempts),
        "total_seconds": round(sum(a.seconds for a in result.attempts), 2),
        "pool": {"features": statistics.pool, "generation": statistics.pool_generation.describe(),
                 "generation_seconds": round(statistics.pool_generation.seconds, 2)},
    }


def sieve_verdict(policy: Policy) -> str:
    """SIEVE's verdict on `policy` (the exact structural test), or why it was not run (its graph
    has 2^features nodes)."""
    try:
        return "terminating" if sieve(policy).terminating else "not terminating"
    except ValueError as too_large:
        return f"not run ({too_large})"


def failure_record(failure: LearningFailure, domain: str, command: str, domain_file: str | None) -> dict:
    """The record of a run that learned no policy: why (each settings entry's reason where a
    portfolio was tried), the files left out and the seconds of each phase over the whole run."""
    statistics = failure.statistics
    return {
        "learned": False,
        "command": command,
        "domain": domain,
        "domain_file": domain_file,
        "failure": str(failure),
        "attempts": [dataclasses.asdict(a) for a in failure.attempts],
        "files": {"left_out": {} if statistics is None else dict(statistics.left_out)},
        "undecided_states": 0 if statistics is None else statistics.undecided,
        "seconds": _phase_seconds(failure.attempts),
        "total_seconds": round(sum(a.seconds for a in failure.attempts), 2),
    }


def _phase_seconds(attempts: Sequence[PortfolioAttempt]) -> dict[str, float]:
    """The seconds of each phase over every entry tried (the whole run)."""
    phases: dict[str, float] = {}
    for attempt in attempts:
        for phase, seconds in attempt.phases.items():
            phases[phase] = phases.get(phase, 0.0) + seconds
    return {phase: round(seconds, 2) for phase, seconds in phases.items()}


def summary_line(record: dict) -> str:
    """One comment line for the head of the policy file: its command and what it was judged on."""
    files = record["files"]
    tested = files["tested_by_runs"]
    runs = "/".join(str(r) for r in sorted(set(tested.values())))
    parts = [f"{len(files['verified'])} training files verified"]
    if tested:
        parts.append(f"{len(tested)} tested by {runs} runs")
    if files["left_out"]:
        parts.append(f"{len(files['left_out'])} left out")
    seconds = record["total_seconds"]
    return (f"# learned by `{record['command']}` with the settings {record['settings']['name']}: "
            f"{', '.join(parts)}; {seconds:,.0f} s")


def write_learning_record(path: str | Path, record: dict) -> None:
    write_text_atomically(Path(path), json.dumps(record, indent=1) + "\n")


REQUIRED = {True: ("command", "settings", "attempts", "files", "policy", "seconds", "total_seconds"),
            False: ("command", "failure", "attempts", "files", "seconds", "total_seconds")}


def read_learning_record(path: str | Path) -> dict:
    """The record at `path`; ValueError where it is not JSON or lacks a key a record has."""
    record = json.loads(Path(path).read_text())
    if not isinstance(record, dict) or not isinstance(record.get("learned"), bool):
        raise ValueError("no \"learned\": true or false")
    missing = [key for key in REQUIRED[record["learned"]] if key not in record]
    if missing:
        raise ValueError(f"no {', '.join(missing)}")
    return record
