"""The `stratpol` command: parse arguments, call the library, render its results."""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from stratpol import __version__
from stratpol.processes.limits import ChildDied
from stratpol.errors import InputError
from stratpol.parameters import at_least, option_type, positive, within
from stratpol.progress import Progress
from stratpol.processes.limits import TIME_LIMIT_CLOCKS

if TYPE_CHECKING:
    from stratpol.experiment import ExperimentConfig


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


# `stratpol plan` exit codes, as Fast Downward's driver has them
PLAN_EXIT_CODES = {"solved": 0, "unsolvable": 11, "failed": 12, "limit reached": 23, "invalid plan": 32}


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
        _print_json({"instance": instance.name, **result.to_json(), "valid": None if check is None else check.valid,
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


def _print_json(data: object) -> None:
    """One JSON document on stdout (the --json output of a command)."""
    import json

    print(json.dumps(data, indent=1, default=str))


def _validate(args: argparse.Namespace) -> int:
    from stratpol.planning import Domain
    from stratpol.planning.plans import read_plan, validate_plan

    instance = Domain(args.domain).load_instance(args.problem)
    check = validate_plan(instance, read_plan(args.plan))
    print(f"{args.plan}: {check.describe()}")
    return 0 if check.valid else 1


def _domains(args: argparse.Namespace) -> int:
    from stratpol.generation import domain_folder, domain_names
    from stratpol.generation.size_csp import smallest_size

    rows = []
    for name in domain_names():
        model = domain_folder(name).size_model
        rows.append((name, str(smallest_size(model)), model.formula()))
    width = max(len(r[0]) for r in rows)
    print(f"{'domain':<{width}}  smallest  size model")
    for name, smallest, formula in rows:
        print(f"{name:<{width}}  {smallest:>8}  {formula}")
    return 0


_positive = option_type(int, at_least(1))
_seconds = option_type(float, positive)
_width = option_type(int, within(0, 3, True, True))  # a width bound of IW: IW(3) is already cubic in the atoms


def _size_range(text: str) -> range:
    try:
        low, _, high = text.partition(":")
        sizes = range(int(low), int(high or low) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size or a range A:B: {text!r}") from None
    if not sizes:
        raise argparse.ArgumentTypeError(f"empty size range: {text!r}")
    return sizes


def _generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.atomic import write_text_atomically
    from stratpol.generation import domain_folder
    from stratpol.generation.sampling import sample_instances
    from stratpol.generation.size_csp import size_exists

    folder = domain_folder(args.domain)
    possible = [n for n in args.size if size_exists(folder.size_model, n)]
    if not possible:
        sizes = f"size {args.size.start}" if len(args.size) == 1 else f"sizes {args.size.start}..{args.size[-1]}"
        raise InputError(f"domain {folder.name} has no instance of {sizes} ({folder.size_model.formula()})")
    skipped = [n for n in args.size if n not in possible]
    if skipped:
        print(f"stratpol: no {folder.name} instance has {', '.join(map(str, skipped))} objects; skipped",
              file=sys.stderr)
    out = Path(args.out)
    for n in possible:
        for index, generated in enumerate(sample_instances(folder, n, args.count, args.seed), start=1):
            path = out / f"{folder.name}-n{n:03d}-{index:02d}.pddl"
            write_text_atomically(path, generated.text)
            print(path)
    return 0


def _domain(name_or_path: str):
    """A domain by registry name or by the path of its PDDL file."""
    from pathlib import Path

    from stratpol.generation import domain_folder
    from stratpol.planning import Domain

    return Domain(name_or_path) if name_or_path.endswith(".pddl") or Path(name_or_path).is_file() \
        else domain_folder(name_or_path).domain


def _load_policy(path: str, vocabulary):
    from stratpol.policy.files import read_policy_file

    return read_policy_file(path, vocabulary.factory)


def _verify(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.features.policy_evaluator import PolicyEvaluator

    domain = _domain(args.domain)
    vocabulary = Vocabulary(domain)
    policy = _load_policy(args.policy, vocabulary)
    try:
        evaluator = PolicyEvaluator(policy, vocabulary)
    except ValueError as error:
        raise InputError(str(error), args.policy) from None
    verdicts = []
    with Progress() as progress:
        for solved, line, data in _verdicts(args, domain, evaluator, progress):
            verdicts.append((solved, data))
            if not args.json:
                print(line, flush=True)
    solved = sum(solved for solved, _ in verdicts)
    if args.json:
        _print_json({"policy": args.policy, "domain": domain.name, "solved": solved, "instances": len(verdicts),
                     "verifications": [data for _, data in verdicts]})
    else:
        print(f"{solved}/{len(args.instances)} instances solved")
    return 0 if solved == len(args.instances) else 1


def _verdicts(args: argparse.Namespace, domain, evaluator, progress: Progress) -> Iterator[tuple[bool, str, dict]]:
    """Per instance file of `args`, in order: solved, the verdict's line and its JSON; with
    --jobs J > 1, J files are verified at once in forked processes; with --distinct-instances, a
    file that is a renaming of an earlier one gets that one's verdict."""
    from stratpol.processes.workers import can_fork_here, in_forked_workers
    from stratpol.planning.isomorphism import first_renamings
    from stratpol.progress import finish_status, report_status

    files = args.instances
    if args.distinct_instances:  # each file read once: the forked verifiers inherit them
        loaded = [domain.load_instance(path) for path in files]
        firsts = first_renamings(loaded, progress)
    else:
        loaded, firsts = None, list(range(len(files)))
    distinct = [number for number, first in enumerate(firsts) if first == number]

    def verdict(number: int, report: Callable[[str], None] = lambda message: None) -> tuple[bool, str, dict]:
        instance = loaded[number] if loaded is not None else domain.load_instance(files[number])
        return _verify_instance(args, evaluator, instance, report)

    forked = args.jobs > 1 and len(distinct) > 1 and can_fork_here()
    if not forked:
        verdicts = (verdict(number, progress) for number in distinct)
    else:
        verdicts = in_forked_workers(lambda n: verdict(distinct[n]), len(distinct), args.jobs)
    known: dict[int, tuple[bool, str, dict]] = {}
    try:
        for number, first in enumerate(firsts):
            if first == number:
                if forked:
                    report_status(progress, "verification", len(known) + 1, len(distinct))
                known[number] = next(verdicts)
                yield known[number]
                continue
            solved, _, data = known[first]
            name = os.path.basename(files[number])
            yield solved, f"{name}: {'solved' if solved else 'not solved'}, as {data['instance']} (a renaming of it)", \
                {**data, "instance": name, "renaming_of": data["instance"]}
    finally:
        verdicts.close()
        if forked:
            finish_status(progress, "verification")


def _verify_instance(args: argparse.Namespace, evaluator, instance,
                     progress: Callable[[str], None] = lambda message: None) -> tuple[bool, str, dict]:
    """The verdict of the policy on one problem: solved, its line and its JSON."""
    from stratpol.planning.symmetry import canonical_key
    from stratpol.verification import verify

    canonical = canonical_key(instance) if args.symmetry else None
    result = verify(instance, evaluator.on(instance).compatible_successors, max_states=args.max_states,
                    canonical=canonical, progress=progress)
    return result.solved, result.describe(), result.to_json()


def _training_instances(args: argparse.Namespace, domain):
    """The instances given with --instances, or the domain generator's default training set."""
    from stratpol.generation import domain_folder
    from stratpol.learning.training import default_training_texts, problem_files

    if args.instances:
        return [domain.load_instance(f) for f in problem_files(args.instances)]
    return [domain.instance_from_text(text) for text in default_training_texts(domain_folder(args.domain), args.seed)]


def _learning_domain(args: argparse.Namespace):
    """The domain to learn and its settings name: with --instances, a domain.pddl in that folder
    or up to two folders above it (the layout of IPC and gp2024 sets) is the one the problems
    were written for, and its folder and the folder above name the settings ("ipc2023/spanner",
    else "spanner"); otherwise the registry's domain."""
    from pathlib import Path

    from stratpol.learning.training import domain_file_near
    from stratpol.planning import Domain

    if args.domain.endswith(".pddl") or Path(args.domain).is_file():
        domain = Domain(args.domain)
        folder = domain.path.resolve().parent
        return domain, f"{folder.parent.name}/{folder.name}"
    near = domain_file_near(args.instances) if args.instances else None
    return (Domain(near) if near is not None else _domain(args.domain)), args.domain


def _learn(args: argparse.Namespace) -> int:
    from stratpol.cache import cache_root
    from stratpol.features import Vocabulary, load_grammar
    from stratpol.learning.result import LearningFailure, LearningInterrupted
    from stratpol.learning.settings import learning_settings
    from stratpol.learning.wrapper import learn_with_settings
    from stratpol.parameters import from_options
    from stratpol.planning.planners import planner_chain
    from stratpol.policy.dlplan_format import write_policy_files
    from stratpol.policy.text import format_policy

    domain, name = _learning_domain(args)
    settings = from_options(learning_settings(name), args)  # the options given override the domain's entry
    planner_chain(settings.teacher)  # an unknown planner or grammar fails here, before any work
    load_grammar(settings.grammar)
    instances = _training_instances(args, domain)
    vocabulary = Vocabulary(domain)
    print(f"# {name}: {settings.describe()}", file=sys.stderr)
    try:
        with Progress() as progress:
            result = learn_with_settings(instances, vocabulary, settings, cache_root(), seed=args.seed,
                                         time_limit=args.time_limit, pool_time_limit=args.pool_time_limit,
                                         checkpoint=args.checkpoint, progress=progress)
    except LearningInterrupted as interrupted:
        _print_last_policy(interrupted.last_policy)
        raise  # main() says "interrupted"
    except LearningFailure as failure:
        _print_last_policy(failure.last_policy)
        print(f"stratpol: learning failed: {failure}", file=sys.stderr)
        return 1
    if args.json:
        _print_json({"settings": settings.describe(), **result.to_json()})
    else:
        print(format_policy(result.policy), end="")
        _print_certificate(result.policy)
        print()
        print(result.statistics.describe())
        renamed = result.statistics.renamed
        print(f"# verified on all {len(result.verifications)} training instances"
              + (f"; {renamed} more are renamings of them" if renamed else ""))
    if args.out and (skipped := write_policy_files(args.out, result.policy, vocabulary.factory)):
        print(f"# {skipped}", file=sys.stderr)
    return 0


def _print_last_policy(policy) -> None:
    """The last policy GENEX found, on stderr, for a look at where a stopped learner went."""
    if policy is not None:
        from stratpol.policy.text import format_policy

        print("# the last policy GENEX found (certified, not verified on all training instances):", file=sys.stderr)
        print(format_policy(policy), end="", file=sys.stderr)


def _print_certificate(policy) -> None:
    """The termination certificate of a policy (the smallest k up to 2), as a comment line."""
    from stratpol.termination import lowest_stratification

    print(f"# termination: {lowest_stratification(policy).describe()}")


def _rename(args: argparse.Namespace) -> int:
    from stratpol.features import Vocabulary
    from stratpol.features.policy_evaluator import PolicyEvaluator
    from stratpol.policy.dlplan_format import write_policy_files
    from stratpol.policy.files import read_policy_file
    from stratpol.policy.renaming import rename_predicates
    from stratpol.policy.text import format_policy

    domain = _domain(args.domain)
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
    if args.out and (skipped := write_policy_files(args.out, policy, vocabulary.factory)):
        print(f"# {skipped}", file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.policy.files import is_dlplan_text, read_policy_file
    from stratpol.policy.text import format_rule
    from stratpol.termination import sieve, stratification_certificate

    path = Path(args.policy)
    factory = None
    if args.domain is not None:  # dlplan's format needs the domain's vocabulary to read its features
        from stratpol.features import Vocabulary

        factory = Vocabulary(_domain(args.domain)).factory
    elif path.is_file() and is_dlplan_text(path.read_text()):
        raise InputError("a policy in dlplan's format is read with its domain's vocabulary: give --domain", path)
    policy = read_policy_file(path, factory)
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


def _run(args: argparse.Namespace) -> int:
    from stratpol.evaluation import RulePolicy, run
    from stratpol.evaluation.goal_progress import goal_progress
    from stratpol.evaluation.runner import file_step_bound
    from stratpol.features import Vocabulary
    from stratpol.planning.plans import format_plan, write_plan

    domain = _domain(args.domain)
    vocabulary = Vocabulary(domain)
    try:
        policy = RulePolicy(_load_policy(args.policy, vocabulary), vocabulary, args.tie_break, args.seed)
    except ValueError as error:
        raise InputError(str(error), args.policy) from None
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


def _accepts(args: argparse.Namespace) -> int:
    from stratpol.cache import cache_root
    from stratpol.evaluation import RulePolicy
    from stratpol.evaluation.explanation import format_changes, plan_acceptance
    from stratpol.features import Vocabulary
    from stratpol.learning.teacher import Teacher

    domain = _domain(args.domain)
    vocabulary = Vocabulary(domain)
    try:
        policy = RulePolicy(_load_policy(args.policy, vocabulary), vocabulary)
    except ValueError as error:
        raise InputError(str(error), args.policy) from None
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
        vocabulary = Vocabulary(folder.domain)
        try:
            policy = RulePolicy(_load_policy(args.policy, vocabulary), vocabulary, args.tie_break, args.seed,
                                name=Path(args.policy).stem)
        except ValueError as error:
            raise InputError(str(error), args.policy) from None
    out = Path(args.out)
    source = f"planner {args.planner}" if args.planner is not None else model_hash(Path(args.policy))
    if isinstance(policy, RulePolicy):
        source = policy.source(source)
    with Progress() as progress:
        result = scaling_evaluation(policy, folder, settings, out, source=source, force=args.force, progress=progress)
    plot_scaling([result], out / "scaling.png", tau=args.tau)
    print(f"{result.describe()}; tables and plot in {out}")
    return 0


def _train_gnn(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.cache import cache_root
    from stratpol.generation import domain_folder
    from stratpol.method_settings import GNNTraining
    from neural.policies import pick_device, set_cpu_threads
    from neural.train import train_on_generated
    from stratpol.parameters import from_options

    folder = domain_folder(args.domain)
    pick_device(args.device)  # a missing CUDA device fails here, before any work
    set_cpu_threads(args.threads)
    config = from_options(GNNTraining(), args)
    out = Path(args.out)
    with Progress() as progress:
        report = train_on_generated(folder.name, config, out, args.sizes, cache_root() / "teacher",
                                    force=args.force, progress=progress)
    print(f"{report.describe(folder.name)}; checkpoint in {out}")
    return 0


def _train_wl(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.generation import domain_folder
    from stratpol.method_settings import WLTraining
    from neural.wl import train_wl
    from neural.wl.splits import Split
    from stratpol.parameters import from_options

    folder = domain_folder(args.domain)
    validation = Split(tuple(args.validation_sizes), args.per_size or 1) if args.validation_sizes else None
    with Progress() as progress:
        report = train_wl(folder.name, from_options(WLTraining(), args), Path(args.out),
                          sizes=list(args.sizes) if args.sizes else None, validation=validation, progress=progress)
    print(report.describe())
    return 0


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


def _experiment(args: argparse.Namespace) -> int:
    from stratpol.experiment import load_config, run_experiment
    from stratpol.experiment.grid import WorkerDied, cells

    if args.json and not args.status:
        raise InputError("--json goes with --status")
    config = load_config(args.config, out=args.out)
    if args.device:
        config = config.training_on(args.device)
    if args.evaluation_jobs:
        config = dataclasses.replace(config, evaluation_jobs=args.evaluation_jobs)
    if args.status:
        return _experiment_status(config, args.json, args.domains, args.methods)
    if args.prune:
        from stratpol.experiment.grid import prune_replaced_evaluations

        removed = prune_replaced_evaluations(config, args.domains, args.methods)
        print(f"removed {len(removed)} evaluation folders that finished cells no longer use (from {config.out})")
        return 0
    if args.report:
        if args.domains or args.methods:
            raise InputError("--report writes the tables of every finished cell: it takes no --domains or --methods")
        from stratpol.experiment import write_grid_tables
        from stratpol.experiment.grid import finished_rows

        write_grid_tables(config)
        print((config.out / "summary.md").read_text(), end="")
        print(f"{len(finished_rows(config))} of {len(cells(config))} cells finished; tables and plots in {config.out}")
        return 0
    if config.gnn.training.device != "cpu":  # no CUDA here: one line now, not a failed training per cell
        from neural.policies import pick_device

        pick_device(config.gnn.training.device)
    try:
        if args.train_only:
            return _experiment_training(config, args.jobs, args.cluster, args.domains, args.methods)
        with Progress() as progress:
            result = run_experiment(config, jobs=args.jobs, cluster=args.cluster, progress=progress,
                                    domains=args.domains, methods=args.methods)
    except WorkerDied as error:
        print(f"stratpol: error: {error}", file=sys.stderr)
        return 1
    print((config.out / "summary.md").read_text(), end="")
    grid = result.grid
    print(f"{len(grid.rows)} of {len(cells(config))} cells finished ({len(grid.computed)} run now, "
          f"{len(grid.reused)} before); tables and plots in {config.out}")
    return 0


def _experiment_training(config: ExperimentConfig, jobs: int | None, cluster: str | None,
                         domains: list[str] | None, methods: list[str] | None) -> int:
    from stratpol.experiment.grid import train_grid

    if cluster:
        raise InputError("--train-only runs on this machine: it takes no --cluster")
    with Progress() as progress:
        trained = train_grid(config, jobs, domains, methods, progress)
    failed = [artifact for artifact in trained if artifact.seconds is None]
    for artifact in trained:
        print(f"{artifact.cell.id}: {artifact.outcome} ({artifact.folder.relative_to(config.out)})")
    print(f"{len(trained) - len(failed)} of {len(trained)} models trained in {config.out / 'artifacts'}; "
          f"run the grid without --train-only to evaluate them")
    return 1 if failed else 0


def _experiment_status(config: ExperimentConfig, json_output: bool = False,
                       domains: list[str] | None = None, methods: list[str] | None = None) -> int:
    from collections import Counter

    from stratpol.experiment.grid import CellState, grid_status

    statuses = grid_status(config, domains, methods)
    if json_output:
        _print_json({"config": str(config.path), "out": str(config.out),
                     "cells": [{"cell": s.cell.id, "domain": s.cell.domain, "method": s.cell.method,
                                "seed": s.cell.seed, "state": s.state.value, "detail": s.detail} for s in statuses]})
        return 0
    width = max(len(s.cell.id) for s in statuses)
    for status in statuses:
        print(f"{status.cell.id:<{width}}  {status.state.value:<10}  {status.detail}".rstrip())
    counts = Counter(s.state for s in statuses)
    print(", ".join(f"{counts[state]} {state.value}" for state in CellState if counts[state])
          + f" (results in {config.out})")
    return 0


def _bench(args: argparse.Namespace) -> int:
    with Progress() as progress:
        return _bench_suite(args, progress)


def _bench_suite(args: argparse.Namespace, progress: Progress) -> int:
    from pathlib import Path

    from stratpol import bench

    if args.suite == "ipc2023":
        return _bench_ipc2023(args, progress)
    time_limit = args.time_limit or 60.0
    if args.suite == "planning":
        print(bench.render_planning_benchmark(bench.planning_benchmark(time_limit, progress)))
        return 0
    if args.suite == "neural":
        from neural.policies import set_cpu_threads
        from neural.timing import decision_times, render_decision_times

        set_cpu_threads(args.threads)
        for name in args.domains or ["blocksworld", "gripper", "logistics"]:
            rows = decision_times(name, range(10, args.max_size + 1, 10), device=args.device, progress=progress)
            print(render_decision_times(name, rows), flush=True)
        return 0
    root = Path(args.benchmarks or "../shared/benchmarks/gp2024")
    if not root.is_dir():
        raise InputError("benchmark folder not found", root)
    if args.suite == "learning":
        names = args.domains or bench.TABLE1
        unknown = [n for n in names if not (root / n / "domain.pddl").is_file()]
        if unknown:
            raise InputError(f"no training set for {', '.join(unknown)}", root)
        bench.learning_benchmark(root, names, time_limit, args.learn_time_limit, args.jobs, progress,
                                 _printed_rows(bench.render_learning_benchmark),
                                 policies=Path(args.policies) if args.policies else None)
        return 0
    files = bench.saved_policy_files(Path(args.policies or "experiments/results/policies/gp2024"), root,
                                     args.domains or ())
    if args.suite == "testing":
        bench.testing_benchmark(files, root, time_limit, progress,
                                _printed_rows(bench.render_test_benchmark))
    else:
        bench.execution_benchmark(files, root, tuple(args.sizes), time_limit, progress,
                                  _printed_rows(bench.render_execution_benchmark))
    return 0


def _bench_ipc2023(args: argparse.Namespace, progress: Progress) -> int:
    """Methods on the IPC 2023 test problems; prints the coverage table and writes its files."""
    from pathlib import Path

    from stratpol.ipc2023.anchors import DOMAINS
    from stratpol.ipc2023.report import render_coverage, render_q_paper, render_unsolved, write_coverage
    from stratpol.ipc2023.runs import Limits, ipc2023_benchmark, published_problems, table_scope

    root = Path(args.benchmarks or "../shared/benchmarks/ipc2023")
    if not root.is_dir():
        raise InputError("benchmark folder not found", root)
    domains = args.domains or [d for d in DOMAINS if (root / d).is_dir()]
    if not domains:
        raise InputError(f"none of the IPC 2023 domains ({', '.join(DOMAINS)}) has a folder here", root)
    limits = Limits(args.time_limit or Limits.seconds, args.memory_limit, args.planner_time_limit, args.clock)
    out = Path(args.out)
    policies = Path(args.policies or "experiments/results/policies/ipc2023")
    if not args.report:
        ipc2023_benchmark(root, out, domains, args.levels, args.methods, policies, limits, args.jobs, progress,
                          models=_grid_models(args, domains, args.methods, restore=progress),
                          retry_unsolved=args.retry_unsolved)
    domains, levels, methods = table_scope(root, out, domains, args.levels, args.methods, args.grid is not None,
                                           limits)
    records = ipc2023_benchmark(root, out, domains, levels, methods, policies, limits, run=False,
                                models=_grid_models(args, domains, methods))
    methods = [m for m in methods if m in args.methods or any(r.method == m for r in records)]
    problems = published_problems(root, domains, levels)
    stem = limits.table_stem
    write_coverage(records, problems, methods, limits.describe(), out, stem)
    print(render_coverage(records, problems, methods, limits.describe()))
    for beside in (render_q_paper(records, problems, methods), render_unsolved(records, problems, methods)):
        if beside:
            print(beside)
    print(f"records, plans, {stem}.csv, {stem}.json and {stem}.png in {out}")
    return 0


def _ipc_method(name: str) -> str:
    """A method `bench ipc2023` runs: its own three, or a neural method of the experiment grids."""
    from stratpol.ipc2023.runs import METHODS
    from stratpol.methods import MethodKind, method

    if name in METHODS:
        return name
    entry = method(name)
    if entry is None or entry.kind not in (MethodKind.GNN, MethodKind.WL):
        raise argparse.ArgumentTypeError(f"{name!r} is not rules, sketch, lama-first or a neural method "
                                         f"(gnn-v, gnn-q-heu@fixed-loss, wl-xgb-delta, ...)")
    return name


def _grid_models(args: argparse.Namespace, domains: Sequence[str], methods: Sequence[str],
                 restore: Callable[[str], None] | None = None) -> dict:
    """(method, domain) -> the model folder `--grid`'s first seed trained, for the neural `methods`;
    with `restore` (a progress callback), the models of finished cells missing here are trained again."""
    from pathlib import Path

    from stratpol.ipc2023.runs import METHODS

    neural = [m for m in methods if m not in METHODS]
    if not neural:
        if args.grid is not None:
            raise InputError("--grid names the models of neural methods, and --methods has none (gnn-v, ...)")
        return {}
    if args.grid is None:
        raise InputError(f"--methods {neural[0]} runs a model an experiment grid trained: name it with --grid CONFIG")
    from stratpol.experiment import load_config
    from stratpol.experiment.cells import trained_models
    from stratpol.experiment.grid import restore_trained_models

    config = load_config(Path(args.grid))
    if restore is not None:
        restore_trained_models(config, domains, neural, restore)
    return trained_models(config, neural, domains)


def _printed_rows(render: Callable[[list], str]) -> Callable[[object], None]:
    """Print a benchmark table's header now and return a callback that prints each row as it
    arrives (a long benchmark shows what it has done, and a cut-off run keeps it)."""
    header = render([])
    print(header, flush=True)
    skip = len(header.splitlines())
    return lambda row: print("\n".join(render([row]).splitlines()[skip:]), flush=True)


def build_parser() -> argparse.ArgumentParser:
    from stratpol.evaluation.protocol import TIE_BREAKS, ScalingSettings
    from stratpol.learning.settings import PAPER_SETTINGS, LearningSettings
    from stratpol.method_settings import GNNTraining, WLTraining
    from stratpol.parameters import add_options
    from stratpol.planning.planners import PLANNERS

    parser = _Parser(prog="stratpol", description="Learn and evaluate general policies for classical planning.")
    parser.add_argument("--version", action="version", version=f"stratpol {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    plan = commands.add_parser("plan", help="solve one instance with a planner and print the plan")
    plan.add_argument("domain", help="PDDL domain file")
    plan.add_argument("problem", help="PDDL problem file")
    plan.add_argument("--planner", default="siw", metavar="NAME",
                      help=f"one of {', '.join(PLANNERS)} (default: siw)")
    plan.add_argument("--time-limit", type=_seconds, default=300.0, metavar="S", help="seconds (default: 300)")
    plan.add_argument("--out", metavar="FILE", help="also write the plan as an IPC plan file")
    plan.add_argument("--json", action="store_true", help="print the result as JSON")
    plan.set_defaults(run=_plan)

    validate = commands.add_parser("validate", help="check a plan by executing it")
    validate.add_argument("domain", help="PDDL domain file")
    validate.add_argument("problem", help="PDDL problem file")
    validate.add_argument("plan", help="IPC plan file")
    validate.set_defaults(run=_validate)

    domains = commands.add_parser("domains", help="list the domains with their size model and smallest size")
    domains.set_defaults(run=_domains)

    generate = commands.add_parser("generate", help="write instances with exactly N objects")
    generate.add_argument("domain", help="domain name (see `stratpol domains`)")
    generate.add_argument("--size", type=_size_range, required=True, metavar="N|A:B",
                          help="number of objects, or a range of them")
    generate.add_argument("--count", type=_positive, default=1, metavar="K", help="instances per size (default: 1)")
    generate.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    generate.add_argument("--out", required=True, metavar="DIR", help="output folder")
    generate.set_defaults(run=_generate)

    check = commands.add_parser("check", help="termination: k-stratification certificate, and SIEVE")
    check.add_argument("policy", help="policy file (readable or dlplan format)")
    check.add_argument("--domain", help="domain name or domain.pddl (needed for dlplan's format)")
    check.add_argument("--k", type=_positive, default=1, help="features a rank may depend on (default: 1)")
    check.set_defaults(run=_check)

    rename = commands.add_parser("rename", help="carry a policy to another spelling of its domain by renaming "
                                                "predicates (gp2024's spanner says useable, IPC 2023's usable)")
    rename.add_argument("policy", help="policy file (readable format)")
    rename.add_argument("--domain", required=True, help="the target domain: name or domain.pddl; every feature must "
                                                        "read in its vocabulary")
    rename.add_argument("--predicate", nargs="+", default=[], metavar="OLD=NEW", help="predicates to rename")
    rename.add_argument("--out", metavar="FILE", help="save the policy (FILE, and FILE.dlplan in dlplan's format)")
    rename.set_defaults(run=_rename)

    verify = commands.add_parser("verify", help="check that a rule policy solves instances (all its choices)")
    verify.add_argument("policy", help="policy file (readable or dlplan format)")
    verify.add_argument("--domain", required=True, help="domain name or domain.pddl")
    verify.add_argument("instances", nargs="+", metavar="INSTANCE", help="PDDL problem files")
    verify.add_argument("--max-states", type=_positive, default=1_000_000, metavar="N",
                        help="give up beyond N policy-reachable states (default: 1,000,000)")
    verify.add_argument("--symmetry", action="store_true",
                        help="explore one state per renaming of interchangeable objects (objects, or blocks of "
                             "them such as hiking's couples with their persons, that swap without changing "
                             "the static atoms or the goal): same verdicts, fewer states")
    verify.add_argument("--distinct-instances", action="store_true",
                        help="verify one file per class of files that are renamings of each other (the same "
                             "objects, initial state and goal up to the objects' names); the others get its "
                             "verdict")
    verify.add_argument("--jobs", type=_positive, default=1, metavar="J",
                        help="verify J problem files at once, in forked processes (default: 1)")
    verify.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    verify.set_defaults(run=_verify)

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
    learn.add_argument("--time-limit", type=_seconds, metavar="S",
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

    run = commands.add_parser("run", help="follow a rule policy on one instance and print the plan")
    run.add_argument("policy", help="policy file (readable or dlplan format)")
    run.add_argument("--domain", required=True, help="domain name or domain.pddl")
    run.add_argument("problem", help="PDDL problem file")
    run.add_argument("--tie-break", choices=TIE_BREAKS, default="random",
                     help="among several compatible successors: by action name, at random (seeded; the "
                          "default), or of the earliest rule that accepts one (rule-order)")
    run.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the tie-break (default: 0)")
    run.add_argument("--step-bound", type=_positive, metavar="N", help="give up after N steps (default: 10 * objects + 100)")
    run.add_argument("--sketch-width", type=_width, default=0, metavar="K",
                     help="follow the policy as a sketch: where it has no compatible successor, IW(1..K) looks "
                          "for a state it accepts, as the GENEX paper's Table 3 does with K = 2 (default: 0, off)")
    run.add_argument("--out", metavar="FILE", help="also write the plan as an IPC plan file")
    run.add_argument("--explain", action="store_true",
                     help="on a failed run, print the features in the last state and what each applicable action "
                          "would change in them, with whether a rule accepts it")
    run.set_defaults(run=_run)

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

    train_gnn = commands.add_parser("train-gnn", help="train an R-GNN value or Q-value policy on optimal plans")
    train_gnn.add_argument("domain", help="domain name (training instances come from its generator)")
    add_options(train_gnn, GNNTraining())  # --value, --epochs, --layers, ... (stratpol.method_settings)
    train_gnn.add_argument("--sizes", type=_size_range, metavar="A:B",
                           help="training sizes (default: the 12 smallest sizes of the domain)")
    train_gnn.add_argument("--threads", type=_positive, default=1, metavar="T",
                           help="torch CPU threads; small graphs run fastest on one (default: 1)")
    train_gnn.add_argument("--out", required=True, metavar="DIR", help="checkpoint folder (gnn.json, model.pt)")
    train_gnn.add_argument("--force", action="store_true",
                           help="replace a model trained with other settings in the checkpoint folder")
    train_gnn.set_defaults(run=_train_gnn)

    train_wl = commands.add_parser("train-wl", help="train a WL transition model (XGBoost or LSTM) on optimal plans")
    train_wl.add_argument("domain", help="domain name (training instances come from its generator)")
    add_options(train_wl, WLTraining())  # --model, --mode, --iterations, ... (stratpol.method_settings)
    train_wl.add_argument("--sizes", type=_size_range, metavar="A:B",
                          help="training sizes (default: the paper's Table 1 sizes, or the 5 smallest)")
    train_wl.add_argument("--validation-sizes", type=_size_range, metavar="A:B",
                          help="sizes of the validation instances (early stopping, model selection)")
    train_wl.add_argument("--out", required=True, metavar="DIR", help="model folder (wl-model.json, features, weights)")
    train_wl.set_defaults(run=_train_wl)

    plot = commands.add_parser("plot", help="plot several scaling evaluations in one figure")
    plot.add_argument("folders", nargs="+", metavar="DIR", help="output folders of stratpol evaluate")
    plot.add_argument("--out", required=True, metavar="FILE",
                      help="the figure, in the format of its suffix: png, pdf or svg")
    plot.set_defaults(run=_plot)

    experiment = commands.add_parser("experiment", help="run a grid of methods x domains x seeds from a config "
                                                        "(resumable) and write comparison tables and plots")
    experiment.add_argument("config", help="experiment config (experiments/<name>.toml)")
    experiment.add_argument("--jobs", type=_positive, metavar="J",
                            help="cells in parallel on this machine (default: the config's jobs, or 1)")
    experiment.add_argument("--evaluation-jobs", type=_positive, metavar="J",
                            help="parallel runs within each cell's evaluation (scaling and IPC runs), e.g. for the "
                                 "last long cells; the results are the same (default: the config's "
                                 "evaluation_jobs, or 1)")
    experiment.add_argument("--cluster", metavar="ADDRESS",
                            help="Dask scheduler (tcp://host:8786) to run the cells on instead (default: the config's)")
    experiment.add_argument("--out", metavar="DIR", help="results folder (default: the config's out, or "
                                                         "results/<name> beside the config)")
    experiment.add_argument("--domains", nargs="+", metavar="DOMAIN",
                            help="run (or, with --status or --prune, show or prune) only the cells of these of the "
                                 "config's domains")
    experiment.add_argument("--methods", nargs="+", metavar="METHOD",
                            help="run (or show or prune) only the cells of these of the config's methods; the "
                                 "tables always hold every finished cell")
    instead = experiment.add_mutually_exclusive_group()  # each does one thing instead of running the grid
    instead.add_argument("--status", action="store_true",
                         help="print where each cell stands (finished, evaluating, trained, to run); run nothing")
    instead.add_argument("--report", action="store_true",
                         help="run nothing; write the tables and plots of the cells finished so far (while the "
                              "grid runs elsewhere too)")
    instead.add_argument("--prune", action="store_true",
                         help="run nothing; remove the evaluation folders of finished cells that their current "
                              "evaluation replaced (older settings or artifacts)")
    instead.add_argument("--train-only", action="store_true",
                         help="train the models of the unfinished cells and evaluate nothing: train on a larger "
                              "machine, copy the results folder's artifacts/ back, and the grid run here evaluates "
                              "them (with --device cuda, the R-GNNs train on the GPU)")
    experiment.add_argument("--device", choices=["auto", "cpu", "cuda"],
                            help="where this run trains the grid's R-GNNs (default: the config's [gnn] device, "
                                 "cpu); not a training setting: models trained on a GPU are the cells' models "
                                 "wherever the grid runs next")
    experiment.add_argument("--json", action="store_true", help="with --status: print it as JSON")
    experiment.set_defaults(run=_experiment)

    bench = commands.add_parser("bench", help="measure speeds, and learned policies on the published sets")
    bench.add_argument("suite", choices=["planning", "learning", "testing", "execution", "neural", "ipc2023"],
                       help="planner speeds, learning on the KR 2025 sets (Table 1), saved policies on their "
                            "test sets (Table 3), learned policies' run speed, V against Q time per decision, "
                            "or rule policies and LAMA-first on the IPC 2023 learning track's test problems")
    bench.add_argument("--time-limit", type=_seconds, metavar="S",
                       help="per planner run, or per test run of a learned policy (default: 60; ipc2023: "
                            "the competition's 1,800)")
    bench.add_argument("--planner-time-limit", type=_seconds, metavar="S",
                       help="ipc2023: LAMA-first's per-problem limit where it is to be shorter than --time-limit "
                            "(the table names both)")
    bench.add_argument("--clock", choices=TIME_LIMIT_CLOCKS, default="wall",
                       help="ipc2023: what the time limits count: wall-clock seconds (default, the "
                            "competition's) or the CPU seconds of a problem's run and the planner it starts, "
                            "which other work on the machine does not eat into (its own table)")
    bench.add_argument("--memory-limit", type=_positive, default=8192, metavar="MB",
                       help="ipc2023: address space of the process running one problem (default: the "
                            "competition's 8,192)")
    bench.add_argument("--levels", nargs="+", choices=["easy", "medium", "hard"], default=["easy", "medium", "hard"],
                       help="ipc2023: which test levels (default: all three)")
    bench.add_argument("--methods", nargs="+", metavar="METHOD", type=_ipc_method,
                       default=["rules", "sketch", "lama-first"],
                       help="ipc2023: the rule policy alone, followed as a sketch (IW(k), k <= 2, where no "
                            "successor is compatible), LAMA-first (default: these three), and the neural "
                            "methods an experiment grid trained (gnn-v, gnn-q-heu, wl-xgb-delta, ...; with --grid)")
    bench.add_argument("--grid", metavar="CONFIG",
                       help="ipc2023: the experiment config whose trained models the neural methods run (its "
                            "first seed; a domain whose cell has not finished training is left out, and a finished cell's model "
                            "that is not here, as on a fresh checkout, is trained again first)")
    bench.add_argument("--report", action="store_true",
                       help="ipc2023: run nothing; the table and its files from the records there are (runs not "
                            "recorded show as not run)")
    bench.add_argument("--out", default="experiments/results/ipc2023", metavar="DIR",
                       help="ipc2023: records.jsonl (resumed from), plans/, coverage.csv/.json/.png "
                            "(default: experiments/results/ipc2023)")
    bench.add_argument("--sizes", type=_positive, nargs="+", default=[50, 200, 1000], metavar="N",
                       help="execution: generated instances of about these numbers of objects (default: 50 200 1000)")
    bench.add_argument("--benchmarks", metavar="DIR",
                       help="learning, testing, execution and ipc2023: folder of <domain>/{domain.pddl,training,"
                            "testing} (default: ../shared/benchmarks/gp2024; ipc2023: ../shared/benchmarks/ipc2023)")
    bench.add_argument("--domains", nargs="*", metavar="NAME",
                       help="learning, testing and execution: which domains (default: the 20 of the paper's "
                            "Table 1 / every saved policy); neural: default blocksworld gripper logistics; "
                            "ipc2023: default all ten")
    bench.add_argument("--max-size", type=_positive, default=50, metavar="N",
                       help="neural: sizes 10, 20, ... up to N (default: 50)")
    bench.add_argument("--device", default="auto", help="neural: auto, cpu or cuda (default: auto)")
    bench.add_argument("--threads", type=_positive, default=1, metavar="T", help="neural: torch CPU threads (default: 1)")
    bench.add_argument("--learn-time-limit", type=_seconds, metavar="S",
                       help="learning: seconds per domain, feature pool included (default: none)")
    bench.add_argument("--jobs", type=_positive, default=1, metavar="J",
                       help="learning: domains learned in parallel processes; ipc2023: problems run at once, "
                            "each in a process of its own (default: 1)")
    bench.add_argument("--policies", metavar="DIR",
                       help="learning: save each learned policy as DIR/<domain>.policy (and .policy.dlplan); "
                            "testing and execution: the policies to run (default: "
                            "experiments/results/policies/gp2024); ipc2023: DIR/<domain>.policy (default: "
                            "experiments/results/policies/ipc2023)")
    bench.add_argument("--retry-unsolved", action="store_true",
                       help="ipc2023: run again the problems recorded unsolved under the same setting (after a "
                            "faster release, or on a less loaded machine); the new record replaces the old")
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from stratpol.planning.quiet import silence_interpreter_exit

    silence_interpreter_exit()
    parser = build_parser()
    args = parser.parse_args(argv)
    # `kill PID` (and a batch system's time limit) stops a run like Ctrl-C does, so that worker
    # processes are stopped with it instead of running on orphaned
    on_term = signal.signal(signal.SIGTERM, _interrupt) if threading.current_thread() is threading.main_thread() else None
    try:
        return args.run(args)
    except InputError as error:
        print(f"stratpol: error: {error}", file=sys.stderr)
        return 2
    except ChildDied as died:  # e.g. dlplan's generator killed when memory ran out: one line, not a traceback
        print(f"stratpol: {died}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stratpol: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`stratpol ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
