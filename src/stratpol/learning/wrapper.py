"""WRAPPER (Algorithm 2): GENEX inside a loop that repairs the policy on training instances.

The inner loop solves a subset Q' of the training instances: GENEX on the current good and bad
transitions, then verification on Q'; a state where the policy is not closed gets the teacher's
next transition as a good one, a reached dead end makes the last transition a bad one
(`repairs`). The outer loop tests the policy on all of Q (`training_verification`) and picks the
next Q' with strategy S1, then S2 when S1 is exhausted (instances ordered by teacher plan length,
longest first). Beyond the paper, each off by default (`LearningSettings`): the strategy "grow"
adds each failing instance to Q' for good, the shortest plans may come first, one instance per
class of renamings may stand for the class, and GENEX may rank features lexicographically.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.features import FeaturePool, Grammar, Vocabulary, load_grammar
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.learning.checkpoint import (
    WrapperCheckpoint,
    kept_repairs,
    read_checkpoint,
    resume,
    run_identity,
    write_checkpoint,
)
from stratpol.learning.examples import Example, SubsetProblem, subset_problem, teacher_plans
from stratpol.learning.genex import GenexFailure, genex, lexicographic_genex
from stratpol.learning.genex_policy import genex_policy
from stratpol.learning.hitting_set import Requirement
from stratpol.learning.repairs import Repair, repair
from stratpol.learning.result import (
    LearningFailure,
    LearningInterrupted,
    LearningStatistics,
    LearningTimeout,
    WrapperResult,
)
from stratpol.learning.rows import FeatureRows
from stratpol.learning.settings import LearningSettings
from stratpol.learning.synthesis import SYNTHESIS_ROUNDS, Synthesis, TeacherPlans, synthesise
from stratpol.learning.teacher import Teacher
from stratpol.learning.training_pool import IncrementalPool, training_pool
from stratpol.learning.training_verification import TrainingVerifier, verify_on_q
from stratpol.planning import Instance
from stratpol.planning.isomorphism import first_renamings
from stratpol.policy import Policy
from stratpol.progress import report_status

__all__ = ["learn_policy", "learn_with_settings", "next_subset"]


def learn_policy(instances: Sequence[Instance], vocabulary: Vocabulary, settings: LearningSettings, teacher: Teacher,
                 seed: int = 0, cache_dir: Path | None = None, time_limit: float | None = None,
                 pool_time_limit: int | None = None, checkpoint: Path | None = None, simplify: bool = True,
                 progress: Callable[[str], None] = lambda message: None,
                 pool_deadline: float | None = None) -> WrapperResult:
    """Algorithm 2 on the training instances `instances`, as `settings` say (their `teacher` name is
    not read: `teacher` gives the plans). `time_limit` bounds the whole run (LearningTimeout past
    it): the pool gets the grammar's time limit (or `pool_time_limit`) or what is left of this
    one (or, where given, of the clock time `pool_deadline`: a portfolio's entries share their
    cached pools, which no entry's share of the time should cut), and a pool cut by a limit is
    reported in the statistics. `checkpoint`: a file WRAPPER
    writes its strategy and Q' to after each outer iteration; read before any work, it is where a
    run with the same settings starts (`stratpol.learning.checkpoint`). `simplify` off keeps the
    projected policies as GENEX's choice makes them."""
    grammar = load_grammar(settings.grammar)
    if pool_time_limit is not None:
        grammar = dataclasses.replace(grammar, time_limit=pool_time_limit)
    statistics = LearningStatistics(strategy=settings.strategy)
    saved = None if checkpoint is None else read_checkpoint(checkpoint)
    verifier = TrainingVerifier(settings.verify_states, settings.dead_ends, settings.symmetry,
                                runs=settings.verify_runs, seed=seed)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    run = _Run(settings, vocabulary, teacher, verifier, seed, simplify, statistics, progress, deadline,
               deadline if pool_deadline is None else pool_deadline)
    try:
        examples, rows = _examples(instances, grammar, run, cache_dir)
        identity = run_identity(settings, vocabulary.domain.name, [e.instance.source_name for e in examples],
                                grammar.name, len(rows.pool), teacher.planner_name, seed)
        subset = [0] if saved is None else resume(saved, identity, checkpoint, examples, rows, statistics, progress)
        return _outer_loop(examples, rows, subset, run, identity, checkpoint)
    except LearningFailure as failure:
        statistics.teacher_calls = teacher.calls
        failure.statistics, failure.last_policy = statistics, run.last_policy
        raise
    except KeyboardInterrupt:
        interrupted = LearningInterrupted()
        interrupted.last_policy = run.last_policy
        raise interrupted from None


def learn_with_settings(instances: Sequence[Instance], vocabulary: Vocabulary, settings: LearningSettings,
                        cache: Path | None = None, seed: int = 0, time_limit: float | None = None,
                        pool_time_limit: int | None = None, checkpoint: Path | None = None,
                        progress: Callable[[str], None] = lambda message: None,
                        pool_deadline: float | None = None) -> WrapperResult:
    """`learn_policy` with the settings' teacher, its plans and the pools cached under `cache`
    (`plans/`, `pools/`)."""
    teacher = Teacher(settings.teacher, settings.teacher_time_limit, None if cache is None else cache / "plans")
    return learn_policy(instances, vocabulary, settings, teacher, seed=seed,
                        cache_dir=None if cache is None else cache / "pools", time_limit=time_limit,
                        pool_time_limit=pool_time_limit, checkpoint=checkpoint, progress=progress,
                        pool_deadline=pool_deadline)


@dataclass
class _Run:
    """What every step of one WRAPPER run reads: the choices fixed at its start, the statistics it
    counts into, where it reports progress, and the last policy GENEX found."""

    settings: LearningSettings
    vocabulary: Vocabulary
    teacher: Teacher
    verifier: TrainingVerifier
    seed: int
    simplify: bool
    statistics: LearningStatistics
    progress: Callable[[str], None]
    deadline: float | None = None
    pool_deadline: float | None = None
    last_policy: Policy | None = None
    incremental: IncrementalPool | None = None  # with settings.incremental_pool
    last_failing: str | None = None  # the first training file the last policy tested on Q failed on
    plans: TeacherPlans | None = None  # every file's teacher plan, for synthesis (made at its first call)


def _examples(instances: Sequence[Instance], grammar: Grammar, run: _Run,
              cache_dir: Path | None) -> tuple[list[Example], FeatureRows]:
    """The examples in WRAPPER's order and the rows of the pool generated on their plans."""
    settings, statistics, progress = run.settings, run.statistics, run.progress
    # plans are cached and shared by the portfolio's entries, so they get the run's clock, as the pool does
    plans = teacher_plans(instances, run.teacher, statistics, progress, run.pool_deadline)
    started = time.perf_counter()
    bridges = [run.vocabulary.bridge(instance) for instance, _ in plans]
    if settings.incremental_pool:  # generated on Q' when the outer loop starts (IncrementalPool.extend)
        pool = FeaturePool([])
        run.incremental = IncrementalPool(run.vocabulary, grammar, run.pool_deadline, cache_dir, statistics, progress)
    else:
        pool = training_pool(run.vocabulary, [(bridge, states) for bridge, (_, states) in zip(bridges, plans)],
                             grammar, run.pool_deadline, cache_dir, progress)
        statistics.pool_generation = pool.generation
    order = list(range(len(plans)))
    if settings.instance_order == "shortest":  # after the pool, so that it is the same pool in either order
        order.sort(key=lambda i: (len(plans[i][1]), plans[i][0].source_name))
    if settings.distinct_instances:  # after the order, so that each class keeps its first instance in it
        firsts = first_renamings([plans[i][0] for i in order], progress)
        kept = [order[number] for number, first in enumerate(firsts) if first == number]
        statistics.renamed = len(order) - len(kept)
        order = kept
    rows = FeatureRows(pool)
    examples = []
    for number, i in enumerate(order):
        (instance, states), bridge = plans[i], bridges[i]
        examples.append(Example(instance, bridge, [rows.row(number, bridge, s) for s in states]))
        examples[-1].restart()
    statistics.instances = len(examples)
    statistics.add_time("pool", started)
    if run.incremental is None:
        statistics.pool = len(pool)
        progress(f"feature pool: {len(pool):,} features ({pool.generation.describe()})")
    if statistics.renamed:
        progress(f"renamed instances: {statistics.renamed} are renamings of others, WRAPPER works on the other "
                 f"{len(examples)}")
    return examples, rows


def _outer_loop(examples: list[Example], rows: FeatureRows, subset: list[int], run: _Run,
                identity: dict[str, object], checkpoint: Path | None) -> WrapperResult:
    """Outer iterations from Q' = `subset` until a policy solves every example (at most |Q| for S1
    and |Q|^2 more for S2, as the paper bounds them)."""
    statistics, progress = run.statistics, run.progress
    while statistics.outer_iterations < len(examples) + len(examples) ** 2:
        statistics.outer_iterations += 1
        if not run.settings.keep_repairs:
            for example in examples:
                example.restart()
        try:
            policy = _inner_loop(examples, subset, rows, run)
        except LearningFailure as failure:
            if statistics.strategy != "S1" or isinstance(failure, LearningTimeout):
                raise
            progress(f"strategy S1 failed ({failure}); switching to S2")
            statistics.strategy, subset = "S2", [0]
            continue
        started = time.perf_counter()
        verifications, failing = verify_on_q(run.verifier, [e.instance for e in examples],
                                             PolicyEvaluator(policy, run.vocabulary), run.settings.grow_by, progress)
        statistics.add_time("verification", started)
        if not failing:
            statistics.states = len(rows.entries)
            statistics.teacher_calls = run.teacher.calls
            return WrapperResult(dataclasses.replace(policy, domain=run.vocabulary.domain.name), statistics,
                                 tuple(verifications), tuple(e.instance.name for e in examples))
        run.last_failing = examples[failing[0]].instance.source_name
        for number in failing:
            check = verifications[number]
            progress(f"outer {statistics.outer_iterations}: policy fails on {examples[number].instance.source_name}: "
                     f"{check.failure.value} after {len(check.witness) - 1} steps")
        subset = next_subset(statistics.strategy, subset, failing, len(examples))
        if subset is None:
            if statistics.strategy != "S1":
                break
            progress("strategy S1 exhausted; switching to S2")
            statistics.strategy, subset = "S2", [0]
        if checkpoint is not None:
            kept = kept_repairs(examples, rows) if run.settings.keep_repairs else ()
            write_checkpoint(checkpoint, WrapperCheckpoint(identity, statistics.strategy, tuple(subset),
                                                           statistics.outer_iterations, statistics.inner_iterations,
                                                           kept))
    raise LearningFailure("no more training subsets: the policies found do not solve all training instances")


def next_subset(strategy: str, subset: list[int], failing: list[int], count: int) -> list[int] | None:
    """Q' after the test on Q found the instances `failing` unsolved (of `count`, in WRAPPER's
    order). S1: a single instance, the first failing one if beyond the current, else the next one.
    S2: add the first failing instance if it comes before the furthest, else restart from it.
    grow: add the failing instances (None where all are in Q' already: nothing to add)."""
    furthest, first = max(subset), failing[0]
    if strategy == "S1":
        following = first if first > furthest else furthest + 1
        return [following] if following < count else None
    if strategy == "grow":
        return None if set(failing) <= set(subset) else sorted(set(subset) | set(failing))
    return sorted(set(subset) | {first}) if first < furthest else [first]


def _inner_loop(examples: list[Example], subset: list[int], rows: FeatureRows, run: _Run) -> Policy:
    """GENEX and repairs until the policy solves the instances in `subset`."""
    statistics, progress = run.statistics, run.progress
    lexicographic = run.settings.ranking == "lexicographic"
    statistics.last_subset, statistics.last_inner = len(subset), 0
    if run.incremental is not None:
        run.incremental.extend(examples, subset, rows)
    rounds = 0  # of synthesis, for this Q'
    while True:
        if run.deadline is not None and time.perf_counter() > run.deadline:
            raise LearningTimeout(f"time limit reached {_where(examples, subset, run)}")
        statistics.inner_iterations += 1
        statistics.last_inner += 1
        started = time.perf_counter()
        q = subset_problem(examples, subset, rows)
        statistics.states = len(rows.entries)
        statistics.good, statistics.bad, statistics.requirements = (len(q.examples.good), len(q.examples.bad),
                                                                    q.problem.size)
        statistics.add_time("preprocessing", started)
        started = time.perf_counter()
        result = (lexicographic_genex if lexicographic else genex)(q.examples, q.problem, seed=run.seed)
        statistics.add_time("genex", started)
        if isinstance(result, GenexFailure) and run.incremental is not None and \
                run.incremental.extend(examples, subset, rows, touched=True):
            continue  # the pool now on every state GENEX read: the features it lacked may be there
        searched = None
        if isinstance(result, GenexFailure) and run.settings.synthesis and rounds < SYNTHESIS_ROUNDS:
            rounds += 1
            searched = _synthesise(result, q, examples, rows, run)
            if searched.features:
                continue
        if isinstance(result, GenexFailure):
            failure = _in_rows(result, q)
            found = "" if searched is None else f"; {searched.describe()}"
            raise LearningFailure(f"GENEX: {failure.describe()}{_first_transition(failure, examples, rows)}{found}")
        started = time.perf_counter()  # "simplification": the projected policy, its certificate and simplification
        policy = genex_policy(q.examples, result, lexicographic, run.simplify,
                             keep_raise_conditions=run.settings.keep_raise_conditions)
        run.last_policy = dataclasses.replace(policy, domain=run.vocabulary.domain.name)
        statistics.add_time("simplification", started)
        progress(f"inner {statistics.inner_iterations}: {len(policy.features)} features, {len(policy.rules)} rules, "
                 f"|Q'| = {len(subset)}, |X+| = {statistics.good}, |X-| = {statistics.bad}, "
                 f"pruned pool {len(q.columns):,}")
        report_status(progress, "inner iterations", statistics.inner_iterations, None,
                      f"outer {statistics.outer_iterations} ({statistics.strategy}, |Q'| = {len(subset)}), "
                      f"{len(policy.features)} features, {len(policy.rules)} rules")

        started = time.perf_counter()
        evaluator = PolicyEvaluator(policy, run.vocabulary)
        repaired = False
        for number in subset:
            check = run.verifier.verify(examples[number].instance, evaluator)
            if not check.solved:
                repaired = True
                made = repair(examples[number], number, check, rows, run.teacher, run.settings.verify_states)
                if made is Repair.UNDECIDED:
                    statistics.undecided += 1
                    progress(f"{examples[number].instance.source_name}: the teacher could neither plan from a state "
                             f"nor prove it a dead end; the step into it is avoided")
        statistics.add_time("verification", started)
        if not repaired:
            return policy


def _synthesise(failure: GenexFailure, q: SubsetProblem, examples: list[Example], rows: FeatureRows,
                run: _Run) -> Synthesis:
    """Synthesis for GENEX's `failure` on Q' (`q`); the features found join the rows' pool."""
    started = time.perf_counter()
    states = [bridge.state(state) for bridge, state in (rows.entries[r] for r in q.rows)]
    if run.plans is None:
        run.plans = TeacherPlans.of([[rows.entries[r] for r in example.plan] for example in examples])
    found = synthesise(failure, q.examples, states, rows.pool, run.vocabulary, run.plans, run.deadline)
    if found.features:
        rows.add_features(found.features)
        named = _in_rows(failure, q)
        first = named.pending[0][0].value + _first_transition(named, examples, rows)
        for feature in found.features:
            run.statistics.synthesised.append(feature.description)
            run.statistics.synthesised_for[feature.description] = first
    run.statistics.add_time("synthesis", started)
    run.progress(found.describe())
    return found


def _in_rows(failure: GenexFailure, q: SubsetProblem) -> GenexFailure:
    """GENEX's failure on Q' with its requirements named by the learner's rows, not the sub-table's."""
    return GenexFailure(tuple((kind, tuple(q.rows[r] for r in sources)) for kind, sources in failure.pending))


def _where(examples: list[Example], subset: list[int], run: _Run) -> str:
    """Where learning stands, for a run stopped by its time limit: the iterations, Q', the last
    policy and the file it failed on."""
    statistics = run.statistics
    where = (f"in outer iteration {statistics.outer_iterations} ({statistics.strategy}, {len(subset)} of "
             f"{len(examples)} files in Q', up to {examples[max(subset)].instance.source_name}), after "
             f"{statistics.inner_iterations} inner iterations")
    if run.last_policy is not None:
        where += f", the last policy {len(run.last_policy.features)} features and {len(run.last_policy.rules)} rules"
    if run.last_failing is not None:
        where += f", the last test on every file failed on {run.last_failing}"
    return where


def _first_transition(failure: GenexFailure, examples: list[Example], rows: FeatureRows) -> str:
    """The first pending requirement's transitions in words, and whose they are: for Edge `, in
    p03.pddl: (drive truck1 depot1 market1), step 2 of the plan` or `..., a repair` (the teacher's
    step from a state the policy walked into); for Deadend the bad step and the good step that no
    eligible feature tells apart from it."""
    kind, rows_of = failure.pending[0]
    if kind is Requirement.EDGE:
        return ", in " + _transition_in_words(rows_of[:2], examples, rows)
    if kind is Requirement.DEADEND:
        return (f": the bad step, in {_transition_in_words(rows_of[:2], examples, rows)}, looks like the good "
                f"step, in {_transition_in_words(rows_of[2:], examples, rows)}")
    return ""


def _transition_in_words(pair: tuple[int, ...], examples: list[Example], rows: FeatureRows) -> str:
    source, target = rows.entries[pair[0]][1], rows.entries[pair[1]][1]
    example = examples[rows.numbers[pair[0]]]
    actions = [str(s.action) for s in example.instance.successors(source) if s.state == target]
    steps = list(zip(example.plan, example.plan[1:]))
    if tuple(pair) in steps:
        whose = f", step {steps.index(tuple(pair)) + 1} of the plan"
    elif tuple(pair) in map(tuple, example.bad):
        whose = ""  # the policy's step, into a dead end or a state the teacher left undecided
    else:
        whose = ", a repair"
    return f"{example.instance.source_name}: {actions[0] if actions else 'no action'}{whose}"
