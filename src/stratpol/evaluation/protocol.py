"""The scaling protocol's parameters (Gros et al., 2025), declared once: a light module, so that the
command line builds its options from them without loading the planning engine."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from stratpol.parameters import ParameterError, at_least, parameter, positive, validate, within
from stratpol.provenance import Provenance
from stratpol.processes.limits import TIME_LIMIT_CLOCKS

# how a rule policy picks among several compatible successors (evaluation.policies.RulePolicy)
TIE_BREAKS = ("first", "random", "rule-order")


@dataclass(frozen=True)
class ScalingSettings:
    """`stratpol evaluate` makes its options from these fields, and experiment configs read their
    `[evaluation]` table with them (grids start from `GRID_PROTOCOL`)."""

    epsilon: float = parameter(0.05, "half-width of the interval on coverage each size runs until",
                               within(0, 1), "E")
    kappa: float = parameter(0.1, "1 - confidence of that interval", within(0, 1), "K")
    tau: float = parameter(0.3, "coverage below which a size counts as failed", within(0, 1, True, True), "T")
    zeta: int = parameter(2, "failed sizes in a row before stopping", at_least(1), "Z")
    plan_length_bound: int = parameter(100, "L: a size n runs with step bound L + n", at_least(1), "L")
    max_size: int = parameter(200, "largest size", at_least(1), "N")
    max_runs_per_size: int = parameter(1000, "runs of one size at most", at_least(1), "R")
    seconds_per_size: float | None = parameter(None, "time budget per size, in seconds", positive, "S")
    min_runs_per_size: int = parameter(1, "runs of a size before its time budget may end it", at_least(1), "M")
    # what a size's time budget counts: seconds on the clock since the size began, or the CPU seconds
    # its runs took (their processes' threads and planner subprocesses), which other work on the
    # machine does not eat into, so that the runs a size gets, and with them Scale, do not depend on
    # what else was running
    budget_clock: str = parameter("wall", "what the time budget counts: wall-clock seconds, or the CPU seconds of "
                                  "the size's runs (unaffected by other work on the machine)", choices=TIME_LIMIT_CLOCKS)
    forbid_revisits: bool = parameter(False, "a run fails when it returns to a state it visited")
    seed: int = parameter(0, "random seed of the instance draws and tie-breaks", None, "S")
    jobs: int = parameter(1, "parallel runs", at_least(1), "J")
    runs_together: int = parameter(1, "runs of a size that a network policy decides together, one forward pass a "
                                      "step for all (1: each run alone)", at_least(1), "R")

    def __post_init__(self) -> None:
        validate(self)
        if self.seconds_per_size is None:  # both only shape a time budget: without one they would do nothing
            if self.budget_clock != "wall":
                raise ParameterError("budget_clock", f"{self.budget_clock!r} needs a time budget (seconds_per_size)")
            if self.min_runs_per_size > 1:
                raise ParameterError("min_runs_per_size", "needs a time budget (seconds_per_size); without one a "
                                     "size runs until its interval is narrow enough or max_runs_per_size")

    def provenance(self, source: str, domain: str) -> Provenance:
        """The fingerprint of an evaluation of `source` (a policy's content hash, or a planner's name)
        with these settings: a larger max_size extends it, and the jobs do not change its runs."""
        settings = {key: value for key, value in asdict(self).items()
                    if key not in ADDED_LATER or value != ADDED_LATER[key]}
        return Provenance("scaling evaluation", source, domain, settings, free=("max_size", "jobs"))


# Settings added after evaluations were recorded, with their defaults: a provenance leaves one out at
# its default (the value those evaluations ran with), so that their fingerprints stay and they resume
ADDED_LATER = {"runs_together": 1, "budget_clock": "wall"}


# A run depends on the policy, the domain and these: evaluations that agree on them draw the same
# instances and run them alike (runs decided together score in other matrix shapes than alone, so a
# near tie may part). The other settings (jobs aside) are the stop rule, how many runs
# an evaluation takes: a changed stop rule can start from the runs made under another.
DRAW_SETTINGS = ("seed", "plan_length_bound", "forbid_revisits", "runs_together")
STOP_RULE = tuple(f.name for f in fields(ScalingSettings) if f.name not in (*DRAW_SETTINGS, "jobs"))

# Experiment grids run many cells: a coarser interval, sizes up to 50 and 30 s per size by default
GRID_PROTOCOL = ScalingSettings(epsilon=0.1, max_size=50, seconds_per_size=30.0)
