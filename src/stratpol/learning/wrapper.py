"""WRAPPER (Algorithm 2): GENEX inside a loop that repairs the policy on training instances.

The inner loop solves a subset Q' of the training instances: GENEX on the current good and bad
transitions, then verification on Q'; a state where the policy is not closed gets the teacher's
next transition as a good one, a reached dead end makes the last transition a bad one. The outer
loop tests the policy on all of Q and picks the next Q' with strategy S1, then S2 when S1 is
exhausted (instances ordered by teacher plan length, longest first, or shortest first if asked);
the strategy "grow" (not the paper's) adds each failing instance to Q'.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from stratpol.child_process import can_fork_here, in_forked_workers
from stratpol.errors import InputError
from stratpol.features import (FeatureTable, Grammar, PoolGeneration, Vocabulary, generate_pool,
                               load_grammar, prune_equivalent)
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.features.vocabulary import InstanceBridge
from stratpol.learning.checkpoint import (ChangedPlan, KeptRepairs, WrapperCheckpoint, check_run,
                                         read_checkpoint, write_checkpoint)
from stratpol.learning.directions import FeatureDirections
from stratpol.learning.genex import GenexFailure, genex, lexicographic_genex
from stratpol.learning.hitting_set import LearningExamples, Requirement, build_problem
from stratpol.learning.projection import choice_certificate, projected_policy, transition_values
from stratpol.learning.settings import INSTANCE_ORDERS, STRATEGIES, VERIFY_STATES, LearningSettings
from stratpol.learning.simplification import simplify_policy
from stratpol.learning.teacher import Teacher
from stratpol.planning import Instance, State
from stratpol.planning.dead_ends import Solvability, is_dead_end
from stratpol.planning.isomorphism import first_renamings
from stratpol.planning.reachable import reachable_states
from stratpol.planning.symmetry import canonical_key
from stratpol.policy import Policy
from stratpol.policy.text import format_policy, format_rule
from stratpol.progress import finish_status, report_status
from stratpol.termination import check_certificate, lowest_stratification, stratification_certificate
from stratpol.verification import Failure, Verification, verify


class LearningFailure(Exception):
    """The learner could not produce a policy; the message says why (as Table 2 of the paper).
    `statistics` holds what the learner had counted when it stopped, `last_policy` the last policy
    GENEX found (certified, not verified on all training instances), for a look at where it went."""

    statistics: LearningStatistics | None = None
    last_policy: Policy | None = None


class LearningTimeout(LearningFailure):
    """The time limit ran out (switching strategies does not help then)."""


class LearningInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped the learner; `last_policy` is the last policy GENEX found, as
    in LearningFailure, so that hours of WRAPPER are not lost with the interrupt."""

    last_policy: Policy | None = None


@dataclass
class LearningStatistics:
    """The columns of the GENEX paper's Table 1; |X+|, |X-|, |H|, |Q'| and Inner* are those of the
    last outer iteration."""

    instances: int = 0  # |Q|: training instances with a usable example plan
    dropped: int = 0  # training instances without a teacher plan
    states: int = 0  # |S|: states seen (plan states and states added by repairs)
    pool: int = 0
    pool_generation: PoolGeneration = field(default_factory=PoolGeneration)
    strategy: str = "S1"
    good: int = 0
    bad: int = 0
    requirements: int = 0
    outer_iterations: int = 0
    inner_iterations: int = 0
    last_subset: int = 0  # |Q'|
    last_inner: int = 0  # Inner*
    teacher_calls: int = 0
    replanned: int = 0  # good transitions of Edge requirements replaced by the Edge teacher's plans
    renamed: int = 0  # instances left out as renamings of others (their verdicts are those of the others)
    avoided: int = 0  # repaired states of Edge requirements the policy was made to keep out of
    refreshed: int = 0  # pools generated again on the states GENEX failed on
    seconds: dict[str, float] = field(default_factory=dict)

    def add_time(self, phase: str, started: float) -> None:
        self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - started

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def describe(self) -> str:
        """Two comment lines: the counts of Table 1, then the seconds per phase."""
        left_out = f" ({self.dropped} without a teacher plan dropped)" if self.dropped else ""
        left_out += f" ({self.renamed} renamings of these left out)" if self.renamed else ""
        replanned = f", {self.replanned} Edge transitions replanned" if self.replanned else ""
        replanned += f", {self.avoided} Edge states avoided" if self.avoided else ""
        replanned += f", pool refreshed {self.refreshed} times" if self.refreshed else ""
        phases = ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in self.seconds.items())
        return (f"# {self.instances} instances{left_out}, {self.states:,} states, pool {self.pool:,} features "
                f"({self.pool_generation.describe()}), strategy {self.strategy}, {self.outer_iterations} outer / "
                f"{self.inner_iterations} inner iterations; last: |Q'| = {self.last_subset}, inner* = "
                f"{self.last_inner}, |X+| = {self.good}, |X-| = {self.bad}, |H| = {self.requirements}; "
                f"{self.teacher_calls} teacher calls{replanned}\n# time: {phases}, total {self.total_seconds:.2f} s")


@dataclass(frozen=True)
class WrapperResult:
    policy: Policy
    statistics: LearningStatistics
    verifications: tuple[Verification, ...]
    order: tuple[str, ...]  # training instances in WRAPPER's order (by teacher plan length)

    def to_json(self) -> dict:
        """The policy (readable text, features, rules), its termination certificate, the statistics."""
        return {"domain": self.policy.domain, "policy": format_policy(self.policy),
                "features": [{"name": f.name, "kind": f.kind.value, "description": f.description}
                             for f in self.policy.features],
                "rules": [format_rule(self.policy, rule) for rule in self.policy.rules],
                "termination": lowest_stratification(self.policy).describe(),
                "statistics": dataclasses.asdict(self.statistics),
                "verifications": [v.to_json() for v in self.verifications], "order": list(self.order)}


class _Rows:
    """Rows of the feature table, one per (instance, state) that learning touched. A row's values
    are computed when a learning problem first reads it, so memory grows with the rows the
    subsets Q' use, not with every plan state of the training set."""

    def __init__(self, pool) -> None:
        self.index: dict[tuple[int, int], int] = {}
        self.entries: list[tuple[InstanceBridge, State]] = []
        self.numbers: list[int] = []  # row -> the number of its instance
        self.replace_pool(pool)

    def replace_pool(self, pool) -> None:
        """Read the rows with `pool` from now on (the rows keep their numbers)."""
        self.pool = list(pool)
        self._slot: dict[int, int] = {}  # row -> its line in _values
        self._values = np.zeros((0, len(self.pool)), dtype=np.int32)  # capacity doubles when full

    def row(self, instance: int, bridge: InstanceBridge, state: State) -> int:
        key = (instance, state.index)
        if key not in self.index:
            self.index[key] = len(self.entries)
            self.entries.append((bridge, state))
            self.numbers.append(instance)
        return self.index[key]

    def step_changes(self, source: int, targets: Sequence[int]) -> np.ndarray:
        """Each pool feature's change across the step from row `source` to each of `targets`
        (one line per target)."""
        return self.table([source, *targets]).changes([(0, i) for i in range(1, len(targets) + 1)])

    def table(self, rows: Sequence[int]) -> FeatureTable:
        """The feature table of `rows`, in that order (its row i is rows[i])."""
        missing = sorted({r for r in rows if r not in self._slot})
        if missing:
            needed = len(self._slot) + len(missing)
            if needed > len(self._values):
                grown = np.empty((max(needed, 2 * len(self._values)), len(self.pool)), dtype=np.int32)
                grown[:len(self._slot)] = self._values[:len(self._slot)]
                self._values = grown
            first = len(self._slot)
            self._values[first:needed] = FeatureTable.evaluate(self.pool, [self.entries[r] for r in missing]).values
            self._slot.update((r, first + i) for i, r in enumerate(missing))
        return FeatureTable(self.pool, self._values[[self._slot[r] for r in rows]])


@dataclass
class _Example:
    """One training instance: its plan, good and bad transitions, relevant states (as rows).

    Each outer iteration starts again from the plan (as the published learner does), so repairs
    made for one Q' do not carry over to the next, unless the run keeps them (`keep_repairs`).
    """

    instance: Instance
    bridge: InstanceBridge
    plan: list[int]
    good: list[tuple[int, int]] = field(default_factory=list)
    bad: list[tuple[int, int]] = field(default_factory=list)
    relevant: list[int] = field(default_factory=list)
    replaced: set[tuple[int, int]] = field(default_factory=set)  # transitions Edge replanning took out
    # a repaired state -> where the policy last stepped into it; facts about the instance, kept across restarts
    entries: dict[int, int] = field(default_factory=dict)

    def restart(self) -> None:
        self.good, self.bad, self.relevant = self._from_plan()

    def repaired(self) -> bool:
        """Whether repairs changed the example since it started again from its plan."""
        return (self.good, self.bad, self.relevant) != self._from_plan()

    def _from_plan(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
        return list(zip(self.plan, self.plan[1:])), [], self.plan[:-1]

    def avoid_state(self, source: int, target: int) -> bool:
        """Take out the repair (source, target) and make the policy's step into `source` a bad
        transition instead; False (and nothing changed) where the transition is the plan's, or
        the step into `source` is unknown, good or bad already."""
        entry = self.entries.get(source)
        if entry is None or (source, target) not in self.good or (entry, source) in self.good \
                or (entry, source) in self.bad or (source, target) in zip(self.plan, self.plan[1:]):
            return False
        self.good.remove((source, target))
        self.bad.append((entry, source))
        return True

    def replace_transition(self, source: int, target: int, path: list[int]) -> bool:
        """Replace the good transition (source, target) by the transitions of `path`, another plan
        from `source`; on the example plan, `path` replaces the plan's rest. False (and nothing
        changed) where `path` takes the same first step, visits a state twice or one before
        `source`, or takes a transition replaced before (replanning cannot go round in circles)."""
        if len(path) < 2 or path[0] != source or path[1] == target or len(set(path)) < len(path):
            return False
        if self.replaced.intersection(zip(path, path[1:])):
            return False
        pairs = list(zip(path, path[1:]))
        if (source, target) in zip(self.plan, self.plan[1:]):
            cut = self.plan.index(source)
            if set(path[1:]) & set(self.plan[:cut + 1]):
                return False
            dropped = set(zip(self.plan[cut:], self.plan[cut + 1:]))
            self.plan = self.plan[:cut] + path
            self.good = [pair for pair in self.good if pair not in dropped]
        else:
            self.good.remove((source, target))
        self.replaced.add((source, target))
        self.good += [pair for pair in pairs if pair not in self.good]
        self.relevant += [r for r in path[:-1] if r not in self.relevant]
        return True


def learn_policy(instances: Sequence[Instance], vocabulary: Vocabulary, grammar: Grammar, teacher: Teacher,
                 seed: int = 0, cache_dir: Path | None = None, max_outer: int | None = None,
                 verify_max_states: int = VERIFY_STATES, time_limit: float | None = None, simplify: bool = True,
                 strategy: str = "S1", dead_ends: bool = False, edge_teacher: Teacher | None = None,
                 edge_alternatives: int = 0, pool_states: int | None = None, instance_order: str = "longest",
                 k: int = 1, symmetry: bool = False, verify_jobs: int = 1, probe_states: int | None = None,
                 checkpoint: Path | None = None, grow_by: int = 1, keep_repairs: bool = False,
                 distinct_instances: bool = False, avoid_edges: bool = False, repairs: int = 1,
                 ordered_repairs: int | None = None, pool_reachable: int | None = None,
                 refresh_pool: bool = False, ranking: str = "chains",
                 progress: Callable[[str], None] = lambda message: None) -> WrapperResult:
    """Algorithm 2 on the training instances `instances`.

    `time_limit` bounds the whole run (LearningTimeout past it): the pool gets the grammar's time
    limit or what is left of this one, and a pool cut by a limit is reported in the statistics.
    `strategy` "S1" runs S1 and then S2 (the paper), "S2" starts with S2, "grow" adds each
    failing instance to Q' and never drops one (Q' grows by one instance per outer iteration, so
    at most |Q| of them; with `grow_by` > 1, by the first that many failing instances the test on
    Q finds, in order). `keep_repairs` keeps the transitions repairs add from one outer iteration
    to the next instead of starting each from the plans. `dead_ends` finds the first dead end a
    policy walks into, whose transition becomes a bad one (the published --deadends). With
    `edge_teacher`, a good transition that no pool feature can order (an Edge requirement) is
    replaced by that planner's plan from the same state, where its plan steps elsewhere, and GENEX
    runs again; without it, or where it takes the same step, learning fails (the paper's Edge).
    `edge_alternatives` > 0: where it takes the same step, up to that many other successors of the
    state are tried, each followed by the Edge teacher's plan from it, and the shortest path is put
    in place of the transition.
    `pool_states` generates the pool on the plans of every k-th instance (longest plan first), about
    that many states, instead of on all plan states: generation time grows with the states.
    `pool_reachable` also generates it on up to that many states the instances reach breadth-first
    from their initial states, one per class of renamed states (`reachable_states`): features
    that agree on the plans but not on the states a policy walks into stay apart.
    `refresh_pool`: where GENEX fails, the pool is generated again on its states and the states
    the failing call read (the plans, repairs and detours of Q'), and GENEX runs again when that
    gives more features.
    `instance_order` "shortest" orders the instances for S1, S2 and verification by teacher plan
    length, shortest first, instead of longest first (the paper), so that the first subsets Q'
    are the smallest instances. `k` = 2 lets GENEX make a feature monotone given two chosen
    features, and the policy is certified 2-stratified where it does. `ranking` "lexicographic"
    runs `lexicographic_genex` instead of GENEX's chains (`k` is then not read). `symmetry`
    verifies one state per renaming of an instance's interchangeable objects
    (`stratpol.planning.symmetry`).
    `verify_jobs` > 1 verifies that many training instances at once in forked processes when the
    policy is tested on all of them (the first failure in order decides, as with one).
    `probe_states` first verifies every instance up to that many states, and a failure found so
    decides: the failing instance may then be a later one than without it.
    `distinct_instances` keeps, of the instances that are renamings of each other
    (`stratpol.planning.isomorphism`), the first in WRAPPER's order: the others get its verdicts.
    `avoid_edges`: where an Edge requirement is a repair's transition (the teacher's step from a
    state the policy walked into) and Edge replanning has nothing else, the policy's step into
    that state becomes a bad transition instead, and repairs step elsewhere from there.
    `repairs` > 1: verification in the inner loop goes on past a state where the policy is not
    closed until it has that many, and each gets the teacher's step (the paper repairs one per
    failing instance and calls GENEX again).
    `ordered_repairs` = SLACK: a repair takes, of the teacher's step and the successors whose
    teacher plan is at most SLACK steps longer than the teacher's plan from the state, the one the
    last policy's features order best (`FeatureDirections`), so that the next GENEX call can keep
    those features; the teacher's step where none is better. None: the teacher's step (the paper).
    With it, Edge replanning with `edge_alternatives` also puts first the paths whose first step
    some pool feature orders (it moves there as on every good transition it moves on).
    `checkpoint`: a file WRAPPER writes its strategy, Q' and the plans Edge replanning changed to
    after each outer iteration; read before any work, it is where a run with the same settings
    starts (`stratpol.learning.checkpoint`).
    """
    if instance_order not in INSTANCE_ORDERS:
        raise ValueError(f"instance_order must be one of {', '.join(INSTANCE_ORDERS)}, not {instance_order!r}")
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    if repairs < 1:
        raise ValueError(f"repairs must be at least 1, not {repairs}")
    if grow_by < 1 or (grow_by > 1 and strategy != "grow"):
        raise ValueError(f"grow_by must be 1, or more with strategy grow, not {grow_by} with {strategy}")
    statistics = LearningStatistics(strategy=strategy)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    edges = None if edge_teacher is None else EdgeReplanning(edge_teacher, edge_alternatives)
    run = _Run(vocabulary, teacher, seed, verify_max_states, deadline, simplify,
               _DeadEnds() if dead_ends else None, edges, k, statistics, progress, symmetry, verify_jobs,
               probe_states, grow_by, keep_repairs, distinct_instances, avoid_edges, repairs, ordered_repairs,
               checkpoint, None if checkpoint is None else read_checkpoint(checkpoint), ranking=ranking)
    try:
        return _wrapper(instances, grammar, run, cache_dir, max_outer, pool_states, pool_reachable, refresh_pool,
                        instance_order)
    except LearningFailure as failure:
        statistics.teacher_calls = teacher.calls
        failure.statistics, failure.last_policy = statistics, run.last_policy
        raise
    except KeyboardInterrupt:
        interrupted = LearningInterrupted()
        interrupted.last_policy = run.last_policy
        raise interrupted from None


@dataclass
class _Run:
    """What every step of one WRAPPER run reads: the choices fixed at its start, the statistics it
    counts into, where it reports progress, and the last policy GENEX found."""

    vocabulary: Vocabulary
    teacher: Teacher
    seed: int
    verify_states: int
    deadline: float | None
    simplify: bool
    dead_ends: _DeadEnds | None
    edges: EdgeReplanning | None
    k: int
    statistics: LearningStatistics
    progress: Callable[[str], None]
    symmetry: bool = False
    jobs: int = 1  # training instances verified at once in WRAPPER's test on Q
    probe_states: int | None = None  # the test on Q verifies every instance up to this many states first
    grow_by: int = 1  # failing instances the test on Q looks for (grow adds them all to Q')
    keep_repairs: bool = False  # the good and bad transitions repairs add stay for the next outer iterations
    distinct_instances: bool = False  # one instance per class of renamings of each other
    avoid_edges: bool = False  # an Edge requirement on a repair makes the policy's step into its state bad
    repairs: int = 1  # states not closed that one verification in the inner loop gathers for repair
    ordered_repairs: int | None = None  # repairs take the step the last policy's features order best, this slack
    checkpoint: Path | None = None  # where WRAPPER keeps its strategy, Q' and changed plans between outer iterations
    resume_from: WrapperCheckpoint | None = None  # what that file held at the start
    last_policy: Policy | None = None
    pool_refresh: PoolRefresh | None = None  # the pool generated again where GENEX fails (None: never)
    ranking: str = "chains"  # GENEX's chains, or lexicographic_genex
    _keys: dict[Instance, Callable[[State], Hashable] | None] = field(default_factory=dict)

    def verify(self, example: _Example, evaluator: PolicyEvaluator, max_states: int | None = None,
               progress: Callable[[str], None] = lambda message: None, open_states: int = 1) -> Verification:
        """Verification of the policy on one example, with dead-end tests and over renamings if asked,
        up to `max_states` states (default: the run's limit), gathering up to `open_states` states
        that are not closed."""
        instance = example.instance
        test = None if self.dead_ends is None else lambda state: self.dead_ends.test(instance, state)
        if self.symmetry and instance not in self._keys:
            self._keys[instance] = canonical_key(instance)
        return verify(instance, evaluator.on(instance).compatible_successors,
                      max_states=self.verify_states if max_states is None else max_states,
                      is_dead_end=test, canonical=self._keys.get(instance), open_states=open_states,
                      progress=progress)


def _wrapper(instances: Sequence[Instance], grammar: Grammar, run: _Run, cache_dir: Path | None,
             max_outer: int | None, pool_states: int | None, pool_reachable: int | None, refresh_pool: bool,
             instance_order: str) -> WrapperResult:
    vocabulary, teacher, statistics, progress, deadline = (run.vocabulary, run.teacher, run.statistics,
                                                           run.progress, run.deadline)
    started = time.perf_counter()
    pending: list[tuple[Instance, tuple[State, ...]]] = []
    for number, instance in enumerate(instances, start=1):
        report_status(progress, "teacher plans", number - 1, len(instances), instance.source_name)
        advice = teacher.advise(instance)
        if advice.verdict is not Solvability.ALIVE:
            statistics.dropped += 1  # as the published learner: no plan, no example
            progress(f"dropped {instance.source_name}: {advice.verdict.value} for the teacher")
            continue
        states = advice.states
        if len(states) < 2 or len(set(states)) < len(states):
            continue  # goal true at the start, or a plan that revisits a state: no example
        pending.append((instance, states))
    finish_status(progress, "teacher plans")
    progress(f"teacher plans: {len(pending)} of {len(instances)} instances give examples")
    if not pending:
        raise LearningFailure("no training instance has a usable example plan")
    # longest plan first; equal lengths by file name (problem names can repeat across files)
    pending.sort(key=lambda item: (-len(item[1]), item[0].source_name))
    statistics.add_time("plans", started)

    started = time.perf_counter()
    bridges = [vocabulary.bridge(instance) for instance, _ in pending]
    on = [(number, s) for number, (_, states) in enumerate(pending) for s in states]  # the pool's states
    if pool_states is not None and len(on) > pool_states:
        step = -(-len(on) // pool_states)
        on = [(number, s) for number, (_, states) in enumerate(pending) if number % step == 0 for s in states]
    if pool_reachable is not None:
        reached = reachable_states([instance for instance, _ in pending], pool_reachable, known=on)
        progress(f"feature pool: {len(reached):,} more states reached from the initial states")
        on += reached
    if deadline is not None:  # the pool gets what is left of the time limit, and says so if it is cut
        left = deadline - time.perf_counter()
        if left <= 0:
            raise LearningTimeout("time limit reached before the feature pool")
        if left < grammar.time_limit:
            grammar = dataclasses.replace(grammar, time_limit=max(1, int(left)))
    progress(f"feature pool: generating on {len(on):,} states (complexity {grammar.complexity_limit})")
    pool_on = [(bridges[number], s) for number, s in on]
    pool = generate_pool(vocabulary, pool_on, grammar, cache_dir=cache_dir, progress=progress)
    statistics.pool_generation = pool.generation
    if refresh_pool:
        run.pool_refresh = PoolRefresh(vocabulary, grammar, pool_on, cache_dir)
    if instance_order == "shortest":  # after the pool, so that it is the same pool in either order
        shortest = sorted(range(len(pending)), key=lambda i: (len(pending[i][1]), pending[i][0].source_name))
        pending, bridges = [pending[i] for i in shortest], [bridges[i] for i in shortest]
    if run.distinct_instances:  # after the order, so that each class keeps its first instance in it
        firsts = first_renamings([instance for instance, _ in pending], progress)
        kept = [number for number, first in enumerate(firsts) if first == number]
        statistics.renamed = len(pending) - len(kept)
        pending, bridges = [pending[i] for i in kept], [bridges[i] for i in kept]
    rows = _Rows(pool)
    examples = []
    for number, ((instance, states), bridge) in enumerate(zip(pending, bridges)):
        examples.append(_Example(instance, bridge, [rows.row(number, bridge, s) for s in states]))
        examples[-1].restart()
    statistics.instances, statistics.pool = len(examples), len(pool)
    statistics.add_time("pool", started)
    progress(f"feature pool: {len(pool):,} features ({pool.generation.describe()})")
    if statistics.renamed:
        progress(f"renamed instances: {statistics.renamed} are renamings of others, WRAPPER works on the other "
                 f"{len(examples)}")

    identity = _identity(run, examples, grammar, instance_order, len(pool))
    subset = _resume(run, identity, examples, rows) or [0]
    outer_limit = max_outer if max_outer is not None else len(examples) + len(examples) ** 2
    while statistics.outer_iterations < outer_limit:
        statistics.outer_iterations += 1
        if not run.keep_repairs:
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
        verifications, failing = _test_on_q(run, examples, PolicyEvaluator(policy, vocabulary))
        statistics.add_time("verification", started)
        if not failing:
            statistics.states = len(rows.entries)
            statistics.teacher_calls = teacher.calls
            return WrapperResult(dataclasses.replace(policy, domain=vocabulary.domain.name), statistics,
                                 tuple(verifications), tuple(e.instance.name for e in examples))
        for number in failing:
            check = verifications[number]
            progress(f"outer {statistics.outer_iterations}: policy fails on {examples[number].instance.source_name}: "
                     f"{check.failure.value} after {len(check.witness) - 1} steps")
        subset = _next_subset(statistics.strategy, subset, failing, len(examples))
        if subset is None:
            if statistics.strategy != "S1":
                break
            progress("strategy S1 exhausted; switching to S2")
            statistics.strategy, subset = "S2", [0]
        if run.checkpoint is not None:
            write_checkpoint(run.checkpoint, _checkpoint(run, identity, subset, examples, rows))
    raise LearningFailure("no more training subsets: the policies found do not solve all training instances")


def _identity(run: _Run, examples: list[_Example], grammar: Grammar, instance_order: str,
              pool: int) -> dict[str, object]:
    """What a checkpoint must match to be this run's: what decides the policies and failures of each
    outer iteration (not the speed-ups, whose verdicts are the same)."""
    return {"domain": run.vocabulary.domain.name, "instances": [e.instance.source_name for e in examples],
            "grammar": grammar.name, "pool": pool, "teacher": run.teacher.planner_name, "seed": run.seed,
            "strategy": run.statistics.strategy,  # the one asked for: this is read before any outer iteration
            "instance_order": instance_order, "k": run.k, "dead_ends": run.dead_ends is not None,
            "verify_states": run.verify_states, "probe_states": run.probe_states,
            "edge_teacher": None if run.edges is None else run.edges.teacher.planner_name,
            "edge_alternatives": None if run.edges is None else run.edges.alternatives,
            # absent where off, as in the checkpoints written before they were options
            **({"grow_by": run.grow_by} if run.grow_by > 1 else {}),
            **({"keep_repairs": True} if run.keep_repairs else {}),
            **({"distinct_instances": True} if run.distinct_instances else {}),
            **({"avoid_edges": True} if run.avoid_edges else {}),
            **({"repairs": run.repairs} if run.repairs > 1 else {}),
            **({"ordered_repairs": run.ordered_repairs} if run.ordered_repairs is not None else {}),
            **({"refresh_pool": True} if run.pool_refresh is not None else {}),
            **({"ranking": run.ranking} if run.ranking != "chains" else {})}


def _checkpoint(run: _Run, identity: dict[str, object], subset: list[int], examples: list[_Example],
                rows: _Rows) -> WrapperCheckpoint:
    """What the next outer iteration starts from: strategy, Q', and the plans Edge replanning changed."""
    def atoms(row: int) -> tuple:
        return tuple(sorted(rows.entries[row][1].atoms))

    def pairs(transitions: list[tuple[int, int]]) -> tuple:
        return tuple((atoms(s), atoms(t)) for s, t in transitions)

    changed = tuple(ChangedPlan(number, tuple(atoms(r) for r in e.plan), pairs(sorted(e.replaced)))
                    for number, e in enumerate(examples) if e.replaced)
    repaired = tuple(KeptRepairs(number, pairs(e.good), pairs(e.bad), tuple(atoms(r) for r in e.relevant),
                                 pairs(sorted((entry, state) for state, entry in e.entries.items())))
                     for number, e in enumerate(examples) if run.keep_repairs and e.repaired())
    statistics = run.statistics
    return WrapperCheckpoint(identity, statistics.strategy, tuple(subset), statistics.outer_iterations,
                             statistics.inner_iterations, statistics.replanned, changed, repaired)


def _resume(run: _Run, identity: dict[str, object], examples: list[_Example], rows: _Rows) -> list[int] | None:
    """Q' from the run's checkpoint, with the strategy, the changed plans and the iteration counts
    restored; None where there is no checkpoint."""
    saved = run.resume_from
    if saved is None:
        return None
    check_run(saved, identity, run.checkpoint)
    count = len(examples)
    if (saved.strategy not in STRATEGIES or not saved.subset or not all(0 <= i < count for i in saved.subset)
            or not all(0 <= c.example < count for c in (*saved.changed_plans, *saved.repairs))):
        raise InputError(f"checkpoint with strategy {saved.strategy!r}, Q' {list(saved.subset)}, changed plans "
                         f"{[c.example for c in saved.changed_plans]} and repairs "
                         f"{[r.example for r in saved.repairs]} does not fit {count} training instances",
                         run.checkpoint)

    def pairs(number: int, transitions: tuple) -> list[tuple[int, int]]:
        return [(_row_of(s, number, examples[number], rows, run.checkpoint),
                 _row_of(t, number, examples[number], rows, run.checkpoint)) for s, t in transitions]

    for changed in saved.changed_plans:
        number, example = changed.example, examples[changed.example]
        example.plan = [_row_of(atoms, number, example, rows, run.checkpoint) for atoms in changed.plan]
        example.replaced = set(pairs(number, changed.replaced))
        example.restart()
    for kept in saved.repairs:  # only a run that keeps repairs writes them
        number, example = kept.example, examples[kept.example]
        example.good, example.bad = pairs(number, kept.good), pairs(number, kept.bad)
        example.relevant = [_row_of(atoms, number, example, rows, run.checkpoint) for atoms in kept.relevant]
        example.entries = {state: entry for entry, state in pairs(number, kept.entered)}
    statistics = run.statistics
    statistics.strategy, statistics.replanned = saved.strategy, saved.replanned
    statistics.outer_iterations, statistics.inner_iterations = saved.outer_iterations, saved.inner_iterations
    run.progress(f"resumed from {run.checkpoint}: outer {saved.outer_iterations} done, {saved.strategy}, "
                 f"|Q'| = {len(saved.subset)}")
    return list(saved.subset)


def _row_of(atoms: tuple, number: int, example: _Example, rows: _Rows, checkpoint: Path) -> int:
    """The row of the state of `example` whose fluent atoms a checkpoint lists."""
    try:
        state = example.instance.state_from_atoms(atoms)
    except InputError as error:
        raise InputError(f"a changed plan of {example.instance.source_name}: {error.message}", checkpoint) from None
    return rows.row(number, example.bridge, state)


def _test_on_q(run: _Run, examples: list[_Example],
               evaluator: PolicyEvaluator) -> tuple[list[Verification], list[int]]:
    """WRAPPER's test on Q: the verifications up to the last failing example found and the failing
    ones' numbers, the first `run.grow_by` in order (none if all pass). With `run.probe_states`,
    every example is first verified up to that many states, and failures found so decide: a policy
    that fails on a large instance within a few steps is not first verified in full on every
    smaller one. The examples the probe leaves undecided are then verified in full, in order."""
    if run.probe_states is None or run.probe_states >= run.verify_states:
        return _verify_in_order(run, examples, evaluator, run.verify_states, "verification on Q")
    probes, failing = _verify_in_order(run, examples, evaluator, run.probe_states, "probe on Q", limit_decides=False)
    if failing:
        return probes, failing
    undecided = [number for number, probe in enumerate(probes) if not probe.solved]
    full, failing = _verify_in_order(run, [examples[n] for n in undecided], evaluator, run.verify_states,
                                     "verification on Q")
    verifications = list(probes)
    for number, verification in zip(undecided, full):
        verifications[number] = verification
    if not failing:
        return verifications, []
    failing = [undecided[f] for f in failing]
    return verifications[:failing[-1] + 1], failing


def _verify_in_order(run: _Run, examples: list[_Example], evaluator: PolicyEvaluator, max_states: int,
                     label: str, limit_decides: bool = True) -> tuple[list[Verification], list[int]]:
    """The examples verified in order, each up to `max_states` states, up to the `run.grow_by`-th
    that fails, and the numbers of those that fail; a state-limit verdict is a failure only if
    `limit_decides`. With `run.jobs` > 1, forked processes verify the examples ahead of the first
    one not yet known; the failures in order decide as with one, and each is verified again here
    for its witness."""
    def decides(solved: bool, failure: Failure | None) -> bool:
        return not solved and (limit_decides or failure is not Failure.LIMIT)

    def verdicts() -> Iterator[Verification]:
        if not (run.jobs > 1 and can_fork_here()):
            for example in examples:
                yield run.verify(example, evaluator, max_states, run.progress)
            return
        def summary(number: int) -> tuple[bool, Failure | None, int, bool]:
            result = run.verify(examples[number], evaluator, max_states)
            return result.solved, result.failure, result.states, result.renamed

        summaries = in_forked_workers(summary, len(examples), run.jobs)
        try:
            for example, (solved, failure, states, renamed) in zip(examples, summaries):
                if decides(solved, failure):  # a witness is made of states, which stay in their process
                    yield run.verify(example, evaluator, max_states)
                else:
                    witness = () if solved else (example.instance.initial_state,)  # undecided: verified again
                    yield Verification(example.instance.source_name, solved, failure, witness, states, renamed)
        finally:
            summaries.close()  # ends the forked verifiers still at work

    found = verdicts()
    verifications: list[Verification] = []
    failing: list[int] = []
    try:
        for number, example in enumerate(examples):
            report_status(run.progress, label, number, len(examples), example.instance.source_name)
            verifications.append(next(found))
            if decides(verifications[-1].solved, verifications[-1].failure):
                failing.append(number)
                if len(failing) == run.grow_by:
                    break
        return verifications, failing
    finally:
        found.close()
        finish_status(run.progress, label)


def learn_with_settings(instances: Sequence[Instance], vocabulary: Vocabulary, settings: LearningSettings,
                        cache: Path | None = None, seed: int = 0, time_limit: float | None = None,
                        pool_time_limit: int | None = None, checkpoint: Path | None = None,
                        progress: Callable[[str], None] = lambda message: None) -> WrapperResult:
    """`learn_policy` with a domain's settings: their grammar and teacher, plans and pools cached
    under `cache` (`plans/`, `pools/`); `pool_time_limit` overrides the grammar's."""
    grammar = load_grammar(settings.grammar)
    if pool_time_limit is not None:
        grammar = dataclasses.replace(grammar, time_limit=pool_time_limit)
    plans = None if cache is None else cache / "plans"
    teacher = Teacher(settings.teacher, cache_dir=plans)
    edge_teacher = None if settings.edge_teacher is None else Teacher(settings.edge_teacher, cache_dir=plans)
    return learn_policy(instances, vocabulary, grammar, teacher, seed=seed,
                        cache_dir=None if cache is None else cache / "pools", time_limit=time_limit,
                        strategy=settings.strategy, dead_ends=settings.dead_ends, edge_teacher=edge_teacher,
                        edge_alternatives=settings.edge_alternatives, instance_order=settings.instance_order,
                        k=settings.k, verify_max_states=settings.verify_states, symmetry=settings.symmetry,
                        verify_jobs=settings.verify_jobs, probe_states=settings.probe_states,
                        pool_states=settings.pool_states, checkpoint=checkpoint, grow_by=settings.grow_by,
                        keep_repairs=settings.keep_repairs, distinct_instances=settings.distinct_instances,
                        avoid_edges=settings.avoid_edges, repairs=settings.repairs,
                        ordered_repairs=settings.ordered_repairs, pool_reachable=settings.pool_reachable,
                        refresh_pool=settings.refresh_pool, ranking=settings.ranking, progress=progress)


@dataclass
class PoolRefresh:
    """How WRAPPER generates the pool again where GENEX fails (`refresh_pool`): on the pool's own
    states `pool_states` and the rows the failing calls read, so that a feature that agreed with a
    simpler one on the pool's states alone can tell apart what GENEX failed on."""

    vocabulary: Vocabulary
    grammar: Grammar
    pool_states: list[tuple[InstanceBridge, State]]
    cache_dir: Path | None = None
    rows_read: set[int] = field(default_factory=set)  # the rows of the failing calls so far
    _known: set[tuple[int, int]] = field(init=False, repr=False)  # (instance, state) of the pool's states

    def __post_init__(self) -> None:
        self._known = {(bridge.index, state.index) for bridge, state in self.pool_states}

    def refreshed(self, rows: _Rows, failed_on: Sequence[int], statistics: LearningStatistics,
                  progress: Callable[[str], None]) -> bool:
        """Whether the pool generated again with the rows `failed_on` has more features than the
        one `rows` read; `rows` read it from now on. Nothing is generated where the failing call
        read no row the last pool was not made on."""
        if set(failed_on) <= self.rows_read:
            return False
        self.rows_read |= set(failed_on)
        more = [rows.entries[r] for r in sorted(self.rows_read)
                if (rows.entries[r][0].index, rows.entries[r][1].index) not in self._known]
        progress(f"feature pool: generating again on {len(self.pool_states) + len(more):,} states, "
                 f"{len(more):,} of them where GENEX failed")
        started = time.perf_counter()
        pool = generate_pool(self.vocabulary, self.pool_states + more, self.grammar, cache_dir=self.cache_dir,
                             progress=progress)
        statistics.add_time("pool", started)
        if len(pool) <= len(rows.pool):  # the same features: the states met tell apart nothing new
            progress(f"feature pool: no more features where GENEX failed ({len(pool):,})")
            return False
        progress(f"feature pool: {len(pool):,} features with the states where GENEX failed "
                 f"({len(pool) - len(rows.pool):+,})")
        rows.replace_pool(pool)
        statistics.pool, statistics.refreshed = len(pool), statistics.refreshed + 1
        return True


class _DeadEnds:
    """The proven dead-end test of the states verification asks about, memoised per state."""

    def __init__(self, time_limit: float = 10.0) -> None:
        self.time_limit = time_limit
        self._known: dict[State, bool] = {}

    def test(self, instance: Instance, state: State) -> bool:
        if state not in self._known:
            self._known[state] = is_dead_end(instance, state, time_limit=self.time_limit)
        return self._known[state]


def _next_subset(strategy: str, subset: list[int], failing: list[int], count: int) -> list[int] | None:
    """S1: a single instance, the first failing one if beyond the current, else the next one.
    S2: add the first failing instance if it comes before the furthest, else restart from it.
    grow: add the failing instances (None where all are in the subset already: nothing to add)."""
    furthest, first = max(subset), failing[0]
    if strategy == "S1":
        following = first if first > furthest else furthest + 1
        return [following] if following < count else None
    if strategy == "grow":
        return None if set(failing) <= set(subset) else sorted(set(subset) | set(failing))
    return sorted(set(subset) | {first}) if first < furthest else [first]


def _inner_loop(examples: list[_Example], subset: list[int], rows: _Rows, run: _Run) -> Policy:
    """GENEX and repairs until the policy solves the instances in `subset`."""
    statistics, progress, deadline = run.statistics, run.progress, run.deadline
    statistics.last_subset, statistics.last_inner = len(subset), 0
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            raise LearningTimeout("time limit reached")
        statistics.inner_iterations += 1
        statistics.last_inner += 1
        started = time.perf_counter()
        chosen = [examples[i] for i in subset]
        good = [pair for e in chosen for pair in e.good]
        bad = [pair for e in chosen for pair in e.bad]
        goal_pairs = [(e.plan[-1], r) for e in chosen for r in e.relevant]
        # the problem reads only the rows of Q': pruning on them keeps the same columns as on all
        # rows (features equal on these rows are T-equivalent, and the first of a group is kept)
        used = sorted({r for pairs in (good, bad, goal_pairs) for pair in pairs for r in pair})
        local = {row: i for i, row in enumerate(used)}
        good, bad, goal_pairs = ([(local[s], local[t]) for s, t in pairs] for pairs in (good, bad, goal_pairs))
        table = rows.table(used)
        statistics.states = len(rows.entries)
        # what GENEX reads, so that a dropped feature never tells apart what its kept twin does not:
        # changes across good and bad transitions, valuations at their sources and at goal pairs
        columns = prune_equivalent(table, np.array(good + bad), [r for pair in goal_pairs for r in pair])
        reduced = LearningExamples.of(table.subset(columns), good, bad, goal_pairs)
        problem = build_problem(reduced)
        statistics.good, statistics.bad, statistics.requirements = len(good), len(bad), problem.size
        statistics.add_time("preprocessing", started)
        started = time.perf_counter()
        lexicographic = run.ranking == "lexicographic"
        result = lexicographic_genex(reduced, problem, seed=run.seed) if lexicographic else \
            genex(reduced, problem, seed=run.seed, k=run.k)
        statistics.add_time("genex", started)
        if isinstance(result, GenexFailure):  # named by the learner's rows, not the sub-table's
            failure = GenexFailure(tuple((kind, tuple(used[r] for r in sources)) for kind, sources in result.pending))
            if run.pool_refresh is not None and run.pool_refresh.refreshed(rows, used, statistics, progress):
                continue
            if run.edges is not None:  # with ordered repairs, detours go by the pool's directions
                directions = None if run.ordered_repairs is None else FeatureDirections.of(reduced, columns)
                if run.edges.replan(failure, examples, rows, statistics, progress, directions):
                    continue
            if run.avoid_edges and _avoid_edge_states(failure, examples, rows, statistics, progress):
                continue
            raise LearningFailure(f"GENEX: {failure.describe()}{_first_transition(failure, examples, rows)}")
        started = time.perf_counter()  # "simplification": the projected policy, its certificate and simplification
        policy = projected_policy(reduced, result.features, result.ranks)
        if lexicographic:  # the order chosen, one feature to a rank: simplification may do the most
            certificate = choice_certificate(reduced, policy, result.features, result.ranks, result.links)
            problems = check_certificate(policy, certificate, result.k)
        else:
            # ranked as Def. 8 is written, which GENEX's chains guarantee: the ranks spread wider
            # than the checker's own, so simplification may make more effects unknown
            certified = stratification_certificate(policy, k=result.k, settled_rules=False)
            certificate, problems = certified.certificate, [] if certified.stratified else [certified.describe()]
        if problems:  # a bug guard
            raise RuntimeError(f"GENEX returned a policy that is not stratified: {problems[0]}")
        if run.simplify:
            policy = simplify_policy(policy, certificate, result.k, transition_values(reduced, policy, bad))
        run.last_policy = dataclasses.replace(policy, domain=run.vocabulary.domain.name)
        order = None if run.ordered_repairs is None else FeatureDirections.of(reduced, columns, result.features)
        statistics.add_time("simplification", started)
        progress(f"inner {statistics.inner_iterations}: {len(policy.features)} features, {len(policy.rules)} rules, "
                 f"|Q'| = {len(subset)}, |X+| = {len(good)}, |X-| = {len(bad)}, pruned pool {len(columns):,}")
        report_status(progress, "inner iterations", statistics.inner_iterations, None,
                      f"outer {statistics.outer_iterations} ({statistics.strategy}, |Q'| = {len(subset)}), "
                      f"{len(policy.features)} features, {len(policy.rules)} rules")

        started = time.perf_counter()
        evaluator = PolicyEvaluator(policy, run.vocabulary)
        repaired = False
        for number in subset:
            example = examples[number]
            check = run.verify(example, evaluator, open_states=run.repairs)
            if check.solved:
                continue
            repaired = True
            _repair(example, number, check, rows, run.teacher, run.verify_states, order, run.ordered_repairs or 0)
        statistics.add_time("verification", started)
        if not repaired:
            return policy


@dataclass(frozen=True)
class EdgeReplanning:
    """How WRAPPER replaces a good transition that no pool feature can order (an Edge requirement):
    by the plan of `teacher` from its source, or, where that plan takes the same step, by the
    shortest of `alternatives` other first steps, each followed by the teacher's plan."""

    teacher: Teacher
    alternatives: int = 0

    def replan(self, failure: GenexFailure, examples: list[_Example], rows: _Rows, statistics: LearningStatistics,
               progress: Callable[[str], None], directions: FeatureDirections | None = None) -> bool:
        """Put another path in place of each pending Edge requirement's transition; whether any
        transition was replaced. With `directions`, paths whose first step a pool feature orders
        come first."""
        edges = [pair for kind, pair in failure.pending if kind is Requirement.EDGE]
        replaced = 0
        for done, (source, target) in enumerate(edges):
            number = rows.numbers[source]
            example = examples[number]
            report_status(progress, "Edge replanning", done, len(edges), example.instance.source_name)
            if (source, target) not in example.good:
                continue  # an earlier replacement of this round dropped it
            replaced += any(example.replace_transition(source, target, path)
                            for path in self._paths(example, number, source, target, rows, directions))
        finish_status(progress, "Edge replanning")
        if replaced:
            statistics.replanned += replaced
            progress(f"Edge: {replaced} teacher transition(s) replaced by {self.teacher.planner_name}'s plans")
        return replaced > 0

    def _paths(self, example: _Example, number: int, source: int, target: int, rows: _Rows,
               directions: FeatureDirections | None = None) -> Iterator[list[int]]:
        """Paths (rows) from `source` to a goal to put in place of (source, target): the teacher's
        plan where it steps elsewhere, else detours through up to `alternatives` other successors,
        shortest first. With `directions`, a plan whose first step no feature orders comes after
        the detours whose first step one does."""
        state = rows.entries[source][1]
        plan = _teacher_path(example, number, state, rows, self.teacher)
        plan = None if plan is None or plan[1] == target else plan

        def ordered(path: list[int]) -> bool:
            return directions is None or directions.orders(rows.step_changes(path[0], path[1:2])[0])

        if plan is not None and ordered(plan):
            yield plan
            return
        if self.alternatives:
            detours = _detours(example, number, state, rows, self.teacher, lambda step: step == target,
                               self.alternatives)
            yield from sorted(detours, key=lambda path: not ordered(path))  # stable: shortest first within
        if plan is not None:
            yield plan


def _teacher_path(example: _Example, number: int, state: State, rows: _Rows, teacher: Teacher) -> list[int] | None:
    """The teacher's plan from `state`, as rows; None where it has none."""
    advice = teacher.advise(example.instance, state)
    if advice.verdict is not Solvability.ALIVE:
        return None
    return [rows.row(number, example.bridge, s) for s in advice.states]


def _detours(example: _Example, number: int, state: State, rows: _Rows, teacher: Teacher,
             excluded: Callable[[int], bool], limit: int | None = None) -> list[list[int]]:
    """Paths (rows) from `state` through one of its other successors (not itself, none `excluded`)
    followed by the teacher's plan from there, up to `limit` of them, shortest first (in the
    order of the successors where equally long)."""
    source = rows.row(number, example.bridge, state)
    detours: list[list[int]] = []
    for successor in example.instance.successors(state):
        if len(detours) == limit:
            break
        step = rows.row(number, example.bridge, successor.state)
        if step == source or excluded(step) or any(detour[1] == step for detour in detours):
            continue
        rest = _teacher_path(example, number, successor.state, rows, teacher)
        if rest is not None:
            detours.append([source, *rest])
    return sorted(detours, key=len)


def _avoid_edge_states(failure: GenexFailure, examples: list[_Example], rows: _Rows,
                       statistics: LearningStatistics, progress: Callable[[str], None]) -> bool:
    """Where an Edge requirement's transition is a repair's (the teacher's step from a state the
    policy walked into), make the policy's step into that state bad instead, so that the policy
    learns to keep out of it; whether any was."""
    # Deadend requirements name four rows (bad and good transition), Edge ones two
    edges = [transition for kind, transition in failure.pending if kind is Requirement.EDGE]
    avoided = 0
    for source, target in edges:
        example = examples[rows.numbers[source]]
        avoided += _separable_entry(example, source, rows) and example.avoid_state(source, target)
    if avoided:
        statistics.avoided += avoided
        progress(f"Edge: {avoided} repaired state(s) to keep out of: the policy's steps into them are bad")
    return avoided > 0


def _separable_entry(example: _Example, source: int, rows: _Rows) -> bool:
    """Whether a policy can keep out of `source` where it entered it: no good transition from that
    state is a twin of the step into `source` (the bad transition would be a Deadend requirement
    no feature hits)."""
    entry = example.entries.get(source)
    return entry is None or not _twin(rows, entry, source, [t for s, t in example.good if s == entry and t != source])


def _like_bad(example: _Example, source: int, target: int, rows: _Rows) -> bool:
    """Whether the transition is bad or a twin of a bad one: a rule policy takes both or neither."""
    bad = [t for s, t in example.bad if s == source]
    return target in bad or _twin(rows, source, target, bad)


def _twin(rows: _Rows, source: int, target: int, others: list[int]) -> bool:
    """Whether a step from `source` to one of `others` changes every pool feature as the step to
    `target` does (symmetric siblings, as picking a ball with one gripper or the other)."""
    if not others:
        return False
    changes = rows.step_changes(source, [target, *others])
    return bool((changes[1:] == changes[0]).all(axis=1).any())


def _step_avoiding(example: _Example, number: int, state: State, rows: _Rows, teacher: Teacher) -> int:
    """The successor of `state` (a row) with the shortest teacher plan among those whose
    transition is not bad (a LearningFailure where none has a plan)."""
    source = rows.row(number, example.bridge, state)
    detours = _detours(example, number, state, rows, teacher, lambda step: _like_bad(example, source, step, rows))
    if not detours:
        raise LearningFailure(f"{example.instance.source_name}: every step the teacher could take from a state "
                              "leads where the policy is to keep out")
    return detours[0][1]


def _first_transition(failure: GenexFailure, examples: list[_Example], rows: _Rows) -> str:
    """The first pending transition in words, and whose it is: `, in p03.pddl: (drive truck1
    depot1 market1), step 2 of the plan` or `..., a repair` (the teacher's step from a state the
    policy walked into)."""
    kind, pair = failure.pending[0]
    if kind is not Requirement.EDGE:
        return ""
    source, target = rows.entries[pair[0]][1], rows.entries[pair[1]][1]
    example = examples[rows.numbers[pair[0]]]
    actions = [str(s.action) for s in example.instance.successors(source) if s.state == target]
    steps = list(zip(example.plan, example.plan[1:]))
    whose = f"step {steps.index(pair) + 1} of the plan" if pair in steps else "a repair"
    return f", in {example.instance.source_name}: {actions[0] if actions else 'no action'}, {whose}"


def _repair(example: _Example, number: int, check: Verification, rows: _Rows, teacher: Teacher,
            max_states: int, order: FeatureDirections | None = None, slack: int = 0) -> None:
    """Add the good or bad transitions that the verification's witnesses ask for (a LearningFailure
    where there is none to add); with `order`, a state not closed gets its best-ordered good step
    among those at most `slack` steps longer than the teacher's."""
    for witness in (check.witness, *check.more):  # the others are states not closed as well
        _repair_witness(example, number, dataclasses.replace(check, witness=witness, more=()), rows, teacher,
                        max_states, order, slack)


def _ordered_step(example: _Example, number: int, state: State, target: int, steps: int, rows: _Rows,
                  teacher: Teacher, order: FeatureDirections) -> int:
    """The successor of `state` (a row) that `order` ranks best among `target` (the teacher's step)
    and the others whose transition is not like a bad one and from which the teacher's plan reaches
    a goal within `steps` steps of `state`; `target` where none ranks better. The teacher is asked
    only about successors that rank better, best first."""
    source = rows.row(number, example.bridge, state)
    successors: dict[int, State] = {}
    for successor in example.instance.successors(state):
        successors.setdefault(rows.row(number, example.bridge, successor.state), successor.state)
    candidates = [row for row in successors if row not in (source, target)
                  and not _like_bad(example, source, row, rows)]
    if not candidates:
        return target
    keys = [order.key(changes) for changes in rows.step_changes(source, [target, *candidates])]
    for index in sorted(range(1, len(keys)), key=lambda i: keys[i]):  # stable: successor order on ties
        if keys[index] >= keys[0]:
            break
        advice = teacher.advise(example.instance, successors[candidates[index - 1]])
        if advice.verdict is Solvability.ALIVE and len(advice.states) <= steps:
            return candidates[index - 1]
    return target


def _repair_witness(example: _Example, number: int, check: Verification, rows: _Rows, teacher: Teacher,
                    max_states: int, order: FeatureDirections | None = None, slack: int = 0) -> None:
    path = [rows.row(number, example.bridge, s) for s in check.witness]
    if check.failure is Failure.NOT_CLOSED:
        state = check.witness[-1]
        advice = teacher.advise(example.instance, state)
        if advice.verdict is Solvability.ALIVE:
            target = rows.row(number, example.bridge, advice.states[1])
            if _like_bad(example, path[-1], target, rows):  # a step (or its twin) the policy is to avoid
                target = _step_avoiding(example, number, state, rows, teacher)
            elif order is not None:
                target = _ordered_step(example, number, state, target, len(advice.states) - 1 + slack, rows,
                                       teacher, order)
            example.good.append((path[-1], target))
            example.relevant.append(path[-1])
            if len(path) > 1:
                example.entries[path[-1]] = path[-2]
            return
        if advice.verdict is Solvability.UNKNOWN:
            raise LearningFailure(f"{example.instance.source_name}: a state could be neither solved nor proven "
                                  "a dead end")
    elif check.failure is Failure.LIMIT:
        renamed = " up to renaming" if check.renamed else ""
        raise LearningFailure(f"{example.instance.source_name}: verification passed {max_states:,} "
                              f"policy-reachable states{renamed} (--verify-states)")
    elif check.failure is not Failure.DEAD_END:
        raise LearningFailure(f"{example.instance.source_name}: verification ended with {check.failure.value}")
    if len(path) < 2:
        raise LearningFailure(f"{example.instance.source_name}: the initial state is a dead end")
    example.bad.append((path[-2], path[-1]))
    example.relevant.extend(r for r in path[:-1] if r not in example.relevant)
