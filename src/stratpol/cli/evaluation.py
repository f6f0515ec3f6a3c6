"""Scaling evaluation: `stratpol evaluate` and `stratpol plot`."""

from __future__ import annotations

import argparse

from stratpol.cli import options
from stratpol.errors import InputError
from stratpol.progress import Progress


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_evaluate(commands)
    _add_plot(commands)


def _add_evaluate(commands: argparse._SubParsersAction) -> None:
    from stratpol.evaluation.protocol import TIE_BREAKS, ScalingSettings
    from stratpol.parameters import add_options

    evaluate = commands.add_parser("evaluate", help="scaling evaluation with confidence bounds per size")
    evaluate.add_argument("policy", nargs="?",
                          help="policy file, or a trained model's folder (or use --planner for the baseline)")
    evaluate.add_argument("--planner", metavar="NAME", help="evaluate a planner as the policy (e.g. lama-first)")
    evaluate.add_argument("--domain", required=True, help="domain name (instances come from its generator)")
    evaluate.add_argument("--tie-break", choices=TIE_BREAKS, default="random",
                          help="a rule policy's choice among compatible successors (as `stratpol run`'s)")
    add_options(evaluate, ScalingSettings())  # the protocol: --epsilon, --kappa, --max-size, ...
    evaluate.add_argument("--out", required=True, metavar="DIR",
                          help="output folder (resumed if this policy and these settings began it)")
    evaluate.add_argument("--force", action="store_true",
                          help="start afresh where the output folder holds another evaluation")
    evaluate.set_defaults(run=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.evaluation import PlannerPolicy, RulePolicy
    from stratpol.evaluation.plots import plot_scaling
    from stratpol.evaluation.protocol import ScalingSettings
    from stratpol.evaluation.scaling import scaling_evaluation
    from stratpol.features import Vocabulary
    from stratpol.generation import domain_folder
    from stratpol.parameters import from_options
    from stratpol.provenance import model_hash

    if (args.policy is None) == (args.planner is None):
        raise InputError("give either a policy file or --planner NAME")
    if args.tie_break != "random" and (args.planner is not None or Path(args.policy).is_dir()):
        raise InputError("--tie-break is a rule policy's choice among compatible successors; a planner or a "
                         "trained model chooses its own")
    settings = from_options(ScalingSettings(), args)  # options that do not go together fail before any loading
    folder = domain_folder(args.domain)
    if args.planner is not None:
        from stratpol.planning.planners import planner

        planner(args.planner)
        policy = PlannerPolicy(args.planner)
    elif Path(args.policy).is_dir():
        from stratpol.methods import load_trained

        policy = load_trained(Path(args.policy), args.domain)
    else:
        policy = options.rule_policy(args.policy, Vocabulary(folder.domain), args.tie_break, args.seed,
                                     name=Path(args.policy).stem)
    out = Path(args.out)
    source = f"planner {args.planner}" if args.planner is not None else model_hash(Path(args.policy))
    if isinstance(policy, RulePolicy):
        source = policy.source(source)
    with Progress() as progress:
        result = scaling_evaluation(policy, folder, settings, out, source=source, force=args.force, progress=progress)
    plot_scaling([result], out / "scaling.png", tau=args.tau)
    print(f"{result.describe()}; tables and plot in {out}")
    return 0


def _add_plot(commands: argparse._SubParsersAction) -> None:
    plot = commands.add_parser("plot", help="plot several scaling evaluations in one figure")
    plot.add_argument("folders", nargs="+", metavar="DIR", help="output folders of stratpol evaluate")
    plot.add_argument("--out", required=True, metavar="FILE",
                      help="the figure, in the format of its suffix: png, pdf or svg")
    plot.set_defaults(run=_plot)


def _plot(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.evaluation.plots import figure_format, plot_scaling
    from stratpol.evaluation.scaling import read_result

    figure_format(Path(args.out))  # an unsupported suffix fails before any folder is read
    results = []
    for folder in args.folders:
        if not (Path(folder) / "scaling.json").is_file():
            raise InputError("no scaling.json here (run stratpol evaluate first)", folder)
        results.append(read_result(Path(folder)))
    plot_scaling(results, Path(args.out))
    print(args.out)
    return 0
