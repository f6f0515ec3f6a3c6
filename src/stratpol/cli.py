"""The `stratpol` command: parse arguments, call the library, render its results."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from stratpol.errors import InputError


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _plan(args: argparse.Namespace) -> int:
    from stratpol.planning import Domain
    from stratpol.planning.planners import planner
    from stratpol.planning.plans import format_plan, validate_plan, write_plan

    solve = planner(args.planner)
    domain = Domain(args.domain)
    instance = domain.load_instance(args.problem)
    result = solve(instance, time_limit=args.time_limit)
    summary = f"{result.planner}: {result.status.value}"
    if result.expanded is not None:
        summary += f", {result.expanded:,} expanded"
    summary += f", {result.time:.3f} s"
    if not result.solved:
        print(f"; {instance.name}: no plan. {summary}")
        return 1
    check = validate_plan(instance, result.plan)
    print(format_plan(result.plan, result.cost), end="")
    print(f"; {instance.name}: {len(result.plan)} steps, cost {result.cost:g}. {summary}. Plan {check.describe()}")
    if args.out:
        write_plan(args.out, result.plan, result.cost)
    return 0 if check.valid else 1


def _validate(args: argparse.Namespace) -> int:
    from stratpol.planning import Domain
    from stratpol.planning.plans import read_plan, validate_plan

    instance = Domain(args.domain).load_instance(args.problem)
    check = validate_plan(instance, read_plan(args.plan))
    print(f"{args.plan}: {check.describe()}")
    return 0 if check.valid else 1


def _bench(args: argparse.Namespace) -> int:
    from stratpol.bench import planning_benchmark, render_planning_benchmark

    report = planning_benchmark(time_limit=args.time_limit, progress=lambda line: print(line, file=sys.stderr))
    print(render_planning_benchmark(report))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from stratpol.planning.planners import PLANNERS

    parser = _Parser(prog="stratpol", description="Learn and evaluate general policies for classical planning.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    plan = commands.add_parser("plan", help="solve one instance with a planner and print the plan")
    plan.add_argument("domain", help="PDDL domain file")
    plan.add_argument("problem", help="PDDL problem file")
    plan.add_argument("--planner", default="siw", metavar="NAME",
                      help=f"one of {', '.join(PLANNERS)} (default: siw)")
    plan.add_argument("--time-limit", type=float, default=300.0, metavar="S", help="seconds (default: 300)")
    plan.add_argument("--out", metavar="FILE", help="also write the plan as an IPC plan file")
    plan.set_defaults(run=_plan)

    validate = commands.add_parser("validate", help="check a plan by executing it")
    validate.add_argument("domain", help="PDDL domain file")
    validate.add_argument("problem", help="PDDL problem file")
    validate.add_argument("plan", help="IPC plan file")
    validate.set_defaults(run=_validate)

    bench = commands.add_parser("bench", help="measure speeds")
    bench.add_argument("suite", choices=["planning"], help="what to measure")
    bench.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="per planner run (default: 60)")
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from stratpol.planning.quiet import silence_interpreter_exit

    silence_interpreter_exit()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except InputError as error:
        print(f"stratpol: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stratpol: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
