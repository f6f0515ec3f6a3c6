"""Planning one problem: `stratpol plan` and `stratpol validate`."""

from __future__ import annotations

import argparse

from stratpol.cli import options
from stratpol.cli.output import print_json

# `stratpol plan` exit codes, as Fast Downward's driver has them
PLAN_EXIT_CODES = {"solved": 0, "unsolvable": 11, "failed": 12, "limit reached": 23, "invalid plan": 32}


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_plan(commands)
    _add_validate(commands)


def _add_plan(commands: argparse._SubParsersAction) -> None:
    from stratpol.planning.planners import PLANNERS

    plan = commands.add_parser("plan", help="solve one instance with a planner and print the plan")
    plan.add_argument("domain", help="PDDL domain file")
    plan.add_argument("problem", help="PDDL problem file")
    plan.add_argument("--planner", default="siw", metavar="NAME",
                      help=f"one of {', '.join(PLANNERS)} (default: siw)")
    plan.add_argument("--time-limit", type=options.seconds, default=300.0, metavar="S", help="seconds (default: 300)")
    plan.add_argument("--out", metavar="FILE", help="also write the plan as an IPC plan file")
    plan.add_argument("--json", action="store_true", help="print the result as JSON")
    plan.set_defaults(run=_plan)


def _plan(args: argparse.Namespace) -> int:
    from stratpol.planning import Domain
    from stratpol.planning.planners import planner
    from stratpol.planning.plans import format_plan, validate_plan, write_plan

    solve = planner(args.planner)
    domain = Domain(args.domain)
    instance = domain.load_instance(args.problem)
    result = solve(instance, time_limit=args.time_limit)
    check = validate_plan(instance, result.plan) if result.solved else None
    outcome = result.status.value if check is None or check.valid else "invalid plan"
    if args.json:
        print_json({"instance": instance.name, **result.to_json(), "valid": None if check is None else check.valid,
                     "outcome": outcome, "exit_code": PLAN_EXIT_CODES[outcome]})
    else:
        summary = f"{result.planner}: {result.status.value}"
        if result.expanded is not None:
            summary += f", {result.expanded:,} expanded"
        summary += f", {result.time:.3f} s"
        if check is None:
            print(f"; {instance.name}: no plan. {summary}")
        else:
            print(format_plan(result.plan, result.cost), end="")
            print(f"; {instance.name}: {len(result.plan)} steps, cost {result.cost:g}. {summary}. "
                  f"Plan {check.describe()}")
    if args.out and check is not None:
        write_plan(args.out, result.plan, result.cost)
    return PLAN_EXIT_CODES[outcome]


def _add_validate(commands: argparse._SubParsersAction) -> None:
    validate = commands.add_parser("validate", help="check a plan by executing it")
    validate.add_argument("domain", help="PDDL domain file")
    validate.add_argument("problem", help="PDDL problem file")
    validate.add_argument("plan", help="IPC plan file")
    validate.set_defaults(run=_validate)


def _validate(args: argparse.Namespace) -> int:
    from stratpol.planning import Domain
    from stratpol.planning.plans import read_plan, validate_plan

    instance = Domain(args.domain).load_instance(args.problem)
    check = validate_plan(instance, read_plan(args.plan))
    print(f"{args.plan}: {check.describe()}")
    return 0 if check.valid else 1
