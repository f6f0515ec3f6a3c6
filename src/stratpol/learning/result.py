"""What a WRAPPER run gives back: the learned policy with its statistics, or why it stopped."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from stratpol.features import PoolGeneration
from stratpol.learning.settings import NamedSettings
from stratpol.policy import Policy
from stratpol.policy.text import format_policy, format_rule
from stratpol.termination import StratificationResult, lowest_stratification
from stratpol.verification import Verification


class LearningFailure(Exception):
    """The learner could not produce a policy; the message says why (as Table 2 of the paper).
    `statistics` holds what the learner had counted when it stopped, `last_policy` the last policy
    GENEX found (certified, not verified on all training instances), for a look at where it went."""

    statistics: LearningStatistics | None = None
    last_policy: Policy | None = None
    attempts: tuple[PortfolioAttempt, ...] = ()  # where a portfolio was tried: each entry and why it failed


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
    left_out: dict[str, str] = field(default_factory=dict)  # training file -> why it gives no example
    states: int = 0  # |S|: states seen (plan states and states added by repairs)
    pool: int = 0
    pool_generation: PoolGeneration = field(default_factory=PoolGeneration)
    pool_extensions: int = 0  # generations of an incremental pool (0: one pool on every plan state)
    strategy: str = "S1"
    good: int = 0
    bad: int = 0
    requirements: int = 0
    outer_iterations: int = 0
    inner_iterations: int = 0
    last_subset: int = 0  # |Q'|
    last_inner: int = 0  # Inner*
    teacher_calls: int = 0
    renamed: int = 0  # instances left out as renamings of others (their verdicts are those of the others)
    undecided: int = 0  # states the teacher could neither plan from nor prove dead ends: steps into them avoided
    synthesised: list[str] = field(default_factory=list)  # features synthesis added to the pool, in order
    # each synthesised feature's requirement, in words ("Edge, in p03.pddl: (drive ...), a repair")
    synthesised_for: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def add_time(self, phase: str, started: float) -> None:
        self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - started

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def describe_left_out(self) -> str:
        """The files left out, grouped by why: `p07.pddl, p09.pddl: unsolvable for the teacher`."""
        files: dict[str, list[str]] = {}
        for name, reason in self.left_out.items():
            files.setdefault(reason, []).append(name)
        return "; ".join(f"{', '.join(names)}: {reason}" for reason, names in files.items())

    def describe(self) -> str:
        """Two comment lines: the counts of Table 1, then the seconds per phase."""
        left_out = f" ({len(self.left_out)} left out: {self.describe_left_out()})" if self.left_out else ""
        left_out += f" ({self.renamed} renamings of these left out)" if self.renamed else ""
        undecided = f"; {self.undecided} undecided states avoided" if self.undecided else ""
        undecided += f"; {len(self.synthesised)} features synthesised" if self.synthesised else ""
        phases = ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in self.seconds.items())
        n = self.pool_extensions
        extended = f", {n} generation{'s' if n != 1 else ''} as files joined Q'" if n else ""
        return (f"# {self.instances} instances{left_out}, {self.states:,} states, pool {self.pool:,} features "
                f"({self.pool_generation.describe()}{extended}), strategy {self.strategy}, {self.outer_iterations} outer / "
                f"{self.inner_iterations} inner iterations; last: |Q'| = {self.last_subset}, inner* = "
                f"{self.last_inner}, |X+| = {self.good}, |X-| = {self.bad}, |H| = {self.requirements}; "
                f"{self.teacher_calls} teacher calls{undecided}\n# time: {phases}, total {self.total_seconds:.2f} s")


@dataclass(frozen=True)
class PortfolioAttempt:
    """One settings entry the learner tried: its name, how it ended ("learned", or why it did not),
    its seconds, and those of each of its phases."""

    settings: str
    outcome: str
    seconds: float
    phases: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class WrapperResult:
    """The learned policy, its termination certificate (the smallest k up to 2), the statistics, and
    its verification on every training instance; where a portfolio was tried, the attempts before
    and including the one that learned."""

    policy: Policy
    statistics: LearningStatistics
    verifications: tuple[Verification, ...]
    order: tuple[str, ...]  # training instances in WRAPPER's order (by teacher plan length)
    settings: NamedSettings | None = None  # the settings that learned it (set by the portfolio)
    attempts: tuple[PortfolioAttempt, ...] = ()
    certificate: StratificationResult = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "certificate", lowest_stratification(self.policy))

    def describe_verification(self) -> str:
        """How the policy was judged on the training files: verified on every policy-reachable
        state, or (where there were too many) tested by runs; renamings and files left out."""
        tested = [v for v in self.verifications if v.runs]
        extra = f"; {self.statistics.renamed} more are renamings of them" if self.statistics.renamed else ""
        if self.statistics.left_out:
            extra += f"; {len(self.statistics.left_out)} left out ({self.statistics.describe_left_out()})"
        if not tested:
            return f"verified on all {len(self.verifications)} training instances{extra}"
        runs = sorted({v.runs for v in tested})
        return (f"verified on {len(self.verifications) - len(tested)} training instances and tested by "
                f"{'/'.join(map(str, runs))} runs on {len(tested)} with too many states to verify "
                f"({', '.join(v.instance for v in tested)}){extra}")

    def to_json(self) -> dict:
        """The policy (readable text, features, rules), its termination certificate, the statistics."""
        return {"domain": self.policy.domain, "policy": format_policy(self.policy),
                "features": [{"name": f.name, "kind": f.kind.value, "description": f.description}
                             for f in self.policy.features],
                "rules": [format_rule(self.policy, rule) for rule in self.policy.rules],
                "termination": self.certificate.describe(),
                "statistics": dataclasses.asdict(self.statistics),
                "verifications": [v.to_json() for v in self.verifications], "order": list(self.order),
                "settings": None if self.settings is None else {"name": self.settings.name,
                                                                "description": self.settings.settings.describe()},
                "attempts": [dataclasses.asdict(a) for a in self.attempts]}
