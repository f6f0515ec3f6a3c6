"""`stratpol learn`: a policy learned by GENEX and WRAPPER, printed with its certificate."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import TYPE_CHECKING

from stratpol.cli import options
from stratpol.cli.output import print_json, save_policy
from stratpol.progress import Progress

if TYPE_CHECKING:
    from stratpol.learning.settings import NamedSettings


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_learn(commands)


def _add_learn(commands: argparse._SubParsersAction) -> None:
    from stratpol.learning.settings import PAPER_SETTINGS, LearningSettings
    from stratpol.parameters import add_options

    learn = commands.add_parser("learn", help="learn a general rule policy for a domain (GENEX + WRAPPER)")
    learn.add_argument("domain", help="domain name (see `stratpol domains`) or domain.pddl")
    learn.add_argument("--instances", nargs="+", metavar="PATH",
                       help="training problems: PDDL files, or folders of them (default: generated small instances)")
    levers = [f.name for f in dataclasses.fields(LearningSettings) if f.name not in PAPER_SETTINGS]
    paper = learn.add_argument_group("the GENEX paper's settings, and verification's limit",
                                     "an option left out keeps the domain's entry in "
                                     "learning_settings.toml; a domain without one is learned by the "
                                     "portfolio there, its entries tried in turn, and an option given "
                                     "applies to each entry")
    add_options(paper, LearningSettings(), exclude=levers, aliases={"teacher": "--planner"}, unset=True)
    beyond = learn.add_argument_group("beyond the paper", "each off by default, or as the domain's entry sets it; "
                                      "experiments/README.md names the domain that needs each")
    add_options(beyond, LearningSettings(), exclude=PAPER_SETTINGS, unset=True)
    learn.add_argument("--time-limit", type=options.seconds, metavar="S",
                       help="seconds for the whole learning run; the pool gets what is left of them (default: none)")
    learn.add_argument("--pool-time-limit", type=int, metavar="S",
                       help="seconds for generating the feature pool (default: the grammar's, 14,400)")
    learn.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    learn.add_argument("--settings", metavar="FILE", dest="settings_file",
                       help="a settings file in the format of learning_settings.toml, read instead of it")
    learn.add_argument("--out", metavar="FILE",
                       help="save the policy (FILE, and FILE.dlplan in dlplan's format) and its learning record "
                            "(D.learned.json for FILE D.policy: command, settings, files, time by phase)")
    learn.add_argument("--checkpoint", metavar="FILE",
                       help="keep WRAPPER's strategy, Q' and kept repairs in FILE after each outer iteration, "
                            "and start from there where FILE holds this run's")
    learn.add_argument("--json", action="store_true", help="print the policy, certificate and statistics as JSON")
    learn.set_defaults(run=_learn)


def _learn(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.learner import learn, learning_domain, learning_task
    from stratpol.learning.result import LearningFailure, LearningInterrupted
    from stratpol.learning.settings import learning_configuration

    domain, name = learning_domain(args.domain, args.instances)
    configuration = _with_options(learning_configuration(name, args.settings_file), args)
    task = learning_task(domain, args.instances, configuration, args.seed)
    if len(configuration) == 1:
        print(f"# {name}: {configuration[0].settings.describe()}", file=sys.stderr)
    else:
        print(f"# {name}: the portfolio, {len(configuration)} entries in turn "
              f"({', '.join(e.name for e in configuration)})", file=sys.stderr)
    try:
        with Progress() as progress:
            result = learn(task, seed=args.seed, time_limit=args.time_limit, pool_time_limit=args.pool_time_limit,
                           checkpoint=args.checkpoint, progress=progress)
    except LearningInterrupted as interrupted:
        _print_last_policy(interrupted.last_policy)
        raise  # main() says "interrupted"
    except LearningFailure as failure:
        _print_last_policy(failure.last_policy)
        if args.out:
            _save_failure(args, failure, domain)
        print(f"stratpol: learning failed: {failure}", file=sys.stderr)
        return 1
    if args.json:
        print_json(result.to_json())
    else:
        print(_format_learned(result))
    if args.out:
        _save(args, result, Vocabulary(domain), domain.path)
    return 0


def _with_options(configuration: tuple[NamedSettings, ...], args: argparse.Namespace) -> tuple[NamedSettings, ...]:
    """Each entry of `configuration` with the options given (an option left out changes nothing);
    entries the options make equal to an earlier one are dropped."""
    from stratpol.learning.settings import NamedSettings
    from stratpol.parameters import from_options

    entries: list[NamedSettings] = []
    for entry in configuration:
        settings = from_options(entry.settings, args)
        if all(settings != kept.settings for kept in entries):
            entries.append(NamedSettings(entry.name, settings))
    return tuple(entries)


def _format_learned(result) -> str:
    from stratpol.policy.text import format_policy

    lines = [format_policy(result.policy).rstrip("\n"), f"# termination: {result.certificate.describe()}", "",
             result.statistics.describe()]
    if result.settings is not None:
        tried = "".join(f"; {a.settings} failed after {a.seconds:,.0f} s: {a.outcome}" for a in result.attempts[:-1])
        lines.append(f"# learned with the settings {result.settings.name} ({result.settings.settings.describe()})"
                     f"{tried}")
    lines.append(f"# {result.describe_verification()}")
    return "\n".join(lines)


def _save(args: argparse.Namespace, result, vocabulary, domain_file) -> None:
    """The policy in both formats, headed by a line on how it was learned, and its record beside it."""
    from stratpol.learning.record import learning_record, record_path, summary_line, write_learning_record

    record = learning_record(result, _command(), None if domain_file is None else str(domain_file))
    save_policy(args.out, result.policy, vocabulary, comment=summary_line(record))
    write_learning_record(record_path(args.out), record)


def _save_failure(args: argparse.Namespace, failure, domain) -> None:
    """The record of a run that learned nothing (`"learned": false`), and no policy file: a policy
    saved by an earlier run at --out is moved aside as FILE.earlier, not left as if this run's."""
    from pathlib import Path

    from stratpol.learning.record import failure_record, record_path, write_learning_record

    for stale in (Path(args.out), Path(f"{args.out}.dlplan")):
        if stale.is_file():
            stale.replace(stale.with_name(stale.name + ".earlier"))
    domain_file = None if domain.path is None else str(domain.path)
    write_learning_record(record_path(args.out), failure_record(failure, domain.name, _command(), domain_file))


def _command() -> str:
    import shlex

    return shlex.join(["stratpol", *sys.argv[1:]])


def _print_last_policy(policy) -> None:
    """The last policy GENEX found, on stderr, for a look at where a stopped learner went."""
    if policy is not None:
        from stratpol.policy.text import format_policy

        print("# the last policy GENEX found (certified, not verified on all training instances):", file=sys.stderr)
        print(format_policy(policy), end="", file=sys.stderr)
