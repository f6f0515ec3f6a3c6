"""`stratpol learn`: a policy learned by GENEX and WRAPPER, printed with its certificate."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from stratpol.cli import options
from stratpol.cli.output import print_json, save_policy
from stratpol.progress import Progress


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
                                     "learning_settings.toml, else the paper's default")
    add_options(paper, LearningSettings(), exclude=levers, aliases={"teacher": "--planner"}, unset=True)
    beyond = learn.add_argument_group("beyond the paper", "each off by default, or as the domain's entry sets it; "
                                      "experiments/README.md names the domain that needs each")
    add_options(beyond, LearningSettings(), exclude=PAPER_SETTINGS, unset=True)
    learn.add_argument("--time-limit", type=options.seconds, metavar="S",
                       help="seconds for the whole learning run; the pool gets what is left of them (default: none)")
    learn.add_argument("--pool-time-limit", type=int, metavar="S",
                       help="seconds for generating the feature pool (default: the grammar's, 14,400)")
    learn.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    learn.add_argument("--out", metavar="FILE", help="save the policy (FILE, and FILE.dlplan in dlplan's format)")
    learn.add_argument("--checkpoint", metavar="FILE",
                       help="keep WRAPPER's strategy, Q' and kept repairs in FILE after each outer iteration, "
                            "and start from there where FILE holds this run's")
    learn.add_argument("--json", action="store_true", help="print the policy, certificate and statistics as JSON")
    learn.set_defaults(run=_learn)


def _learn(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.learner import learn, learning_domain, learning_task
    from stratpol.learning.result import LearningFailure, LearningInterrupted
    from stratpol.learning.settings import learning_settings
    from stratpol.parameters import from_options
    from stratpol.policy.text import format_policy

    domain, name = learning_domain(args.domain, args.instances)
    settings = from_options(learning_settings(name), args)  # the options given override the domain's entry
    task = learning_task(domain, args.instances, settings, args.seed)
    print(f"# {name}: {settings.describe()}", file=sys.stderr)
    try:
        with Progress() as progress:
            result = learn(task, seed=args.seed, time_limit=args.time_limit, pool_time_limit=args.pool_time_limit,
                           checkpoint=args.checkpoint, progress=progress)
    except LearningInterrupted as interrupted:
        _print_last_policy(interrupted.last_policy)
        raise  # main() says "interrupted"
    except LearningFailure as failure:
        _print_last_policy(failure.last_policy)
        print(f"stratpol: learning failed: {failure}", file=sys.stderr)
        return 1
    if args.json:
        print_json({"settings": settings.describe(), **result.to_json()})
    else:
        print(format_policy(result.policy), end="")
        print(f"# termination: {result.certificate.describe()}")
        print()
        print(result.statistics.describe())
        print(f"# {result.describe_verification()}")
    save_policy(args.out, result.policy, Vocabulary(domain))
    return 0


def _print_last_policy(policy) -> None:
    """The last policy GENEX found, on stderr, for a look at where a stopped learner went."""
    if policy is not None:
        from stratpol.policy.text import format_policy

        print("# the last policy GENEX found (certified, not verified on all training instances):", file=sys.stderr)
        print(format_policy(policy), end="", file=sys.stderr)
