"""Policy files: `stratpol check`, `rename`, `verify`, `run` and `accepts`."""

from __future__ import annotations

import argparse

from stratpol.cli import options
from stratpol.cli.output import print_json, save_policy
from stratpol.errors import InputError
from stratpol.generation import find_domain
from stratpol.progress import Progress


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_check(commands)
    _add_rename(commands)
    _add_verify(commands)
    _add_run(commands)
    _add_accepts(commands)


def _add_check(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser("check", help="termination: k-stratification certificate, and SIEVE")
    check.add_argument("policy", help="policy file (readable or dlplan format)")
    check.add_argument("--domain", help="domain name or domain.pddl (needed for dlplan's format)")
    check.add_argument("--k", type=options.positive_int, default=1, help="features a rank may depend on (default: 1)")
    check.set_defaults(run=_check)


def _check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.api import read_policy
    from stratpol.policy.files import is_dlplan_text
    from stratpol.policy.text import format_rule
    from stratpol.termination import sieve, stratification_certificate

    path = Path(args.policy)
    if args.domain is None and path.is_file() and is_dlplan_text(path.read_text()):
        raise InputError("a policy in dlplan's format is read with its domain's vocabulary: give --domain", path)
    policy = read_policy(path, args.domain)  # dlplan's format needs the domain's vocabulary to read its features
    result = stratification_certificate(policy, k=args.k)
    print(f"{path}: {result.describe()}")
    if result.stratified:
        for rule in policy.rules:
            print(f"  {format_rule(policy, rule)}   changes {result.certificate.changes[rule]}")
    try:
        verdict = sieve(policy)
    except ValueError as too_large:  # the policy graph has 2^features nodes
        print(f"SIEVE: not run ({too_large})")
    else:
        print(f"SIEVE: {'terminating' if verdict.terminating else 'not terminating'}")
        for valuation, rule in verdict.cycle:
            shown = " ".join(f"{n}={int(v)}" for n, v in valuation.items())
            print(f"  [{shown}] {format_rule(policy, rule)}")
    return 0 if result.stratified else 1


def _add_rename(commands: argparse._SubParsersAction) -> None:
    rename = commands.add_parser("rename", help="carry a policy to another spelling of its domain by renaming "
                                                "predicates (gp2024's spanner says useable, IPC 2023's usable)")
    rename.add_argument("policy", help="policy file (readable format)")
    rename.add_argument("--domain", required=True, help="the target domain: name or domain.pddl; every feature must "
                                                        "read in its vocabulary")
    rename.add_argument("--predicate", nargs="+", default=[], metavar="OLD=NEW", help="predicates to rename")
    rename.add_argument("--out", metavar="FILE", help="save the policy (FILE, and FILE.dlplan in dlplan's format)")
    rename.set_defaults(run=_rename)


def _rename(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.features.policy_evaluator import PolicyEvaluator
    from stratpol.policy.files import read_policy_file
    from stratpol.policy.renaming import rename_predicates
    from stratpol.policy.text import format_policy

    domain = find_domain(args.domain)
    vocabulary = Vocabulary(domain)
    renaming = {}
    for pair in args.predicate:
        old, _, new = pair.partition("=")
        if not old or not new:
            raise InputError(f"--predicate {pair}: write OLD=NEW")
        renaming[old] = new
    policy = rename_predicates(read_policy_file(args.policy), renaming, domain.name)
    try:  # every feature must read in the target domain's vocabulary
        PolicyEvaluator(policy, vocabulary)
    except ValueError as error:
        raise InputError(f"{error} (after renaming)", args.policy) from None
    print(format_policy(policy), end="")
    save_policy(args.out, policy, vocabulary)
    return 0


def _add_verify(commands: argparse._SubParsersAction) -> None:
    verify = commands.add_parser("verify", help="check that a rule policy solves instances (all its choices)")
    verify.add_argument("policy", help="policy file (readable or dlplan format)")
    verify.add_argument("--domain", required=True, help="domain name or domain.pddl")
    verify.add_argument("instances", nargs="+", metavar="INSTANCE", help="PDDL problem files")
    verify.add_argument("--max-states", type=options.positive_int, default=1_000_000, metavar="N",
                        help="give up beyond N policy-reachable states (default: 1,000,000)")
    verify.add_argument("--symmetry", action="store_true",
                        help="explore one state per renaming of interchangeable objects (objects, or blocks of "
                             "them such as hiking's couples with their persons, that swap without changing "
                             "the static atoms or the goal): same verdicts, fewer states")
    verify.add_argument("--distinct-instances", action="store_true",
                        help="verify one file per class of files that are renamings of each other (the same "
                             "objects, initial state and goal up to the objects' names); the others get its "
                             "verdict")
    verify.add_argument("--jobs", type=options.positive_int, default=1, metavar="J",
                        help="verify J problem files at once, in forked processes (default: 1)")
    verify.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    verify.set_defaults(run=_verify)


def _verify(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.features.policy_evaluator import PolicyEvaluator
    from stratpol.file_verification import verify_files

    domain = find_domain(args.domain)
    vocabulary = Vocabulary(domain)
    policy = options.read_policy(args.policy, vocabulary)
    try:
        evaluator = PolicyEvaluator(policy, vocabulary)
    except ValueError as error:
        raise InputError(str(error), args.policy) from None
    verdicts = []
    with Progress() as progress:
        for verdict in verify_files(evaluator, domain, args.instances, args.max_states, args.symmetry,
                                    args.distinct_instances, args.jobs, progress):
            verdicts.append(verdict)
            if not args.json:
                print(verdict.line, flush=True)
    solved = sum(verdict.solved for verdict in verdicts)
    if args.json:
        print_json({"policy": args.policy, "domain": domain.name, "solved": solved, "instances": len(verdicts),
                    "verifications": [verdict.data for verdict in verdicts]})
    else:
        print(f"{solved}/{len(args.instances)} instances solved")
    return 0 if solved == len(args.instances) else 1


def _add_run(commands: argparse._SubParsersAction) -> None:
    from stratpol.evaluation.protocol import TIE_BREAKS

    run = commands.add_parser("run", help="follow a rule policy on one instance and print the plan")
    run.add_argument("policy", help="policy file (readable or dlplan format)")
    run.add_argument("--domain", required=True, help="domain name or domain.pddl")
    run.add_argument("problem", help="PDDL problem file")
    run.add_argument("--tie-break", choices=TIE_BREAKS, default="random",
                     help="among several compatible successors: by action name, at random (seeded; the "
                          "default), or of the earliest rule that accepts one (rule-order)")
    run.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the tie-break (default: 0)")
    run.add_argument("--step-bound", type=options.positive_int, metavar="N", help="give up after N steps (default: 10 * objects + 100)")
    run.add_argument("--sketch-width", type=options.sketch_width, default=0, metavar="K",
                     help="follow the policy as a sketch: where it has no compatible successor, IW(1..K) looks "
                          "for a state it accepts, as the GENEX paper's Table 3 does with K = 2 (default: 0, off)")
    run.add_argument("--out", metavar="FILE", help="also write the plan as an IPC plan file")
    run.add_argument("--explain", action="store_true",
                     help="on a failed run, print the features in the last state and what each applicable action "
                          "would change in them, with whether a rule accepts it")
    run.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from stratpol.evaluation import run
    from stratpol.evaluation.goal_progress import goal_progress
    from stratpol.evaluation.runner import file_step_bound
    from stratpol.features import Vocabulary
    from stratpol.planning.plans import format_plan, write_plan

    domain = find_domain(args.domain)
    policy = options.rule_policy(args.policy, Vocabulary(domain), args.tie_break, args.seed)
    instance = domain.load_instance(args.problem)
    bound = args.step_bound if args.step_bound is not None else file_step_bound(instance)
    outcome = run(policy, instance, bound, sketch_width=args.sketch_width)
    # as a sketch: how far the policy alone got, and the IW(k) searches it needed
    width = f", effective width {outcome.max_width} (mean {outcome.mean_width:.2f})" if args.sketch_width else ""
    if not outcome.solved:  # the steps it took, as comments: where it went, and no plan file to mistake
        print("".join(f"; {action}\n" for action in outcome.plan), end="")
        steps = f"{outcome.steps} step" + ("" if outcome.steps == 1 else "s")
        reached = goal_progress(instance, outcome.plan)
        print(f"; {instance.name}: not solved ({outcome.failure.value} after {steps}{width}; "
              f"{reached.most_met} of {reached.goals} goal literals met, first at step {reached.most_met_at})")
        if args.explain:
            from stratpol.evaluation.explanation import explain_state, format_explanation
            from stratpol.planning.plans import validate_plan

            last = validate_plan(instance, outcome.plan).final_state  # the run's plan, replayed
            print(format_explanation(explain_state(policy, instance, last)), end="")
        return 1
    print(format_plan(outcome.plan, outcome.cost), end="")
    print(f"; {instance.name}: solved in {outcome.steps} steps, {outcome.seconds:.3f} s{width}")
    if args.out:
        write_plan(args.out, outcome.plan, outcome.cost)
    return 0


def _add_accepts(commands: argparse._SubParsersAction) -> None:
    accepts = commands.add_parser("accepts", help="which steps of a planner's plans a rule policy accepts (and what "
                                                  "the others change): features and rankings tried before learning")
    accepts.add_argument("policy", help="policy file (readable or dlplan format)")
    accepts.add_argument("--domain", required=True, help="domain name or domain.pddl")
    accepts.add_argument("instances", nargs="+", metavar="INSTANCE", help="PDDL problem files")
    accepts.add_argument("--planner", default="astar-lmcut", metavar="NAME",
                         help="the planner whose plans are judged, as a learning entry's teacher (default: "
                              "astar-lmcut); plans are kept in the learner's plan cache")
    accepts.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                         help="per plan (default: 60)")
    accepts.set_defaults(run=_accepts)


def _accepts(args: argparse.Namespace) -> int:
    from stratpol.cache import cache_root
    from stratpol.evaluation.explanation import format_changes, plan_acceptance
    from stratpol.features import Vocabulary
    from stratpol.learning.teacher import Teacher

    domain = find_domain(args.domain)
    policy = options.rule_policy(args.policy, Vocabulary(domain))
    # the learner's plan cache: plans a learning run asked for are not asked again, nor the reverse
    teacher = Teacher(args.planner, time_limit=args.time_limit, cache_dir=cache_root() / "plans")
    steps = accepted = whole = 0  # whole: the files whose every step is accepted
    for path in args.instances:
        instance = domain.load_instance(path)
        advice = teacher.advise(instance)
        if not advice.states:
            print(f"{path}: no plan from {args.planner} ({advice.verdict.value})")
            continue
        judged = plan_acceptance(policy, instance, advice.states, advice.actions)
        rejected = judged.rejected
        print(f"{path}: {len(judged.steps) - len(rejected)} of {len(judged.steps)} steps accepted")
        for number, step in rejected:
            print(f"  step {number} {step.action}: {format_changes(step, judged.booleans)}")
        steps += len(judged.steps)
        accepted += len(judged.steps) - len(rejected)
        whole += not rejected
    if len(args.instances) > 1:
        print(f"all: {accepted} of {steps} steps accepted; {whole} of {len(args.instances)} files whole")
    return 0 if whole == len(args.instances) else 1
