"""Per-domain learning settings: the GENEX paper's published flags, as data (`learning_settings.toml`).

`stratpol learn DOMAIN` and `stratpol bench learning` read the entry of DOMAIN, so that a run on
the published training set reproduces the published run without extra flags.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

from stratpol.errors import InputError
from stratpol.parameters import ParameterError, at_least, from_mapping, parameter, validate, within

STRATEGIES = ("S1", "S2", "grow")
INSTANCE_ORDERS = ("longest", "shortest")
RANKINGS = ("chains", "lexicographic")
VERIFY_STATES = 200_000  # policy-reachable states of one training instance that verification explores


@dataclass(frozen=True)
class LearningSettings:
    """How WRAPPER learns one domain: the fields of `learning_settings.toml`'s entries, of a grid's
    `[rules]` table, and the options of `stratpol learn` that override a domain's entry."""

    grammar: str = parameter("default", "feature grammar: a name in feature_grammars/ or a path", None, "NAME")
    teacher: str = parameter("lapkt-siw+bfws", "planner for example plans and repairs; a+b asks b where a finds "
                             "no plan", None, "P")
    strategy: str = parameter("S1", "S1, then S2 when S1 fails (the paper), S2 from the start, or grow: each "
                              "failing instance joins Q' for good", choices=STRATEGIES)
    grow_by: int = parameter(1, "with strategy grow: how many failing instances each outer iteration adds to Q', "
                             "the first ones WRAPPER's test on Q finds in order (1: one at a time)", at_least(1), "N")
    keep_repairs: bool = parameter(False, "keep the transitions repairs add (a teacher's step where a policy is not "
                                   "closed, a step into a dead end) from one outer iteration to the next; off: each "
                                   "outer iteration starts again from the example plans, as in the paper")
    dead_ends: bool = parameter(False, "find the first dead end a policy walks into in verification, so that a "
                                "repair marks the transition into it as bad")
    pool_states: int | None = parameter(None, "generate the feature pool on the plans of every k-th instance (by "
                                        "plan length), about this many states; none: on every plan state, as in "
                                        "the paper", at_least(1), "N")
    pool_reachable: int | None = parameter(None, "also generate the pool on up to this many states the training "
                                           "instances reach breadth-first from their initial states, one per "
                                           "class of renamed states (for small finite training sets); none: "
                                           "plan states only, as in the paper", at_least(1), "N")
    refresh_pool: bool = parameter(False, "where GENEX fails, generate the pool again on its states and the "
                                   "states the failing call read (the plans, repairs and detours of Q'), and "
                                   "run GENEX again when that gives more features")
    edge_teacher: str | None = parameter(None, "planner asked for another plan from a state whose teacher "
                                         "transition no pool feature can order (an Edge requirement); none: "
                                         "learning fails there, as in the paper", None, "P")
    edge_alternatives: int = parameter(0, "where the Edge teacher takes the same step, try up to this many other "
                                       "first steps from the state, each followed by the Edge teacher's plan, "
                                       "and keep the shortest", at_least(0), "K")
    avoid_edges: bool = parameter(False, "where an Edge requirement is a repair's transition (the teacher's step "
                                  "from a state the policy walked into), make the policy's step into that state a "
                                  "bad transition instead, so that the policy keeps out of it")
    repairs: int = parameter(1, "how many states where a policy is not closed one verification of a training "
                             "instance gathers before GENEX runs again, each repaired with the teacher's step "
                             "(1: the first, as in the paper)", at_least(1), "N")
    ordered_repairs: int | None = parameter(None, "repair a state where a policy is not closed with the step that "
                                            "the last policy's features order best (none moving against its "
                                            "direction on the good transitions, one moving along it) among the "
                                            "teacher's step and those whose teacher plan is at most SLACK steps "
                                            "longer than the teacher's plan from the state (and Edge replanning "
                                            "tries first the detours whose first step a feature orders); none: "
                                            "the teacher's step, as in the paper", at_least(0), "SLACK")
    k: int = parameter(1, "the k of the k-stratification GENEX certifies: 1 (the paper) or 2 (a feature may also "
                       "be monotone given two chosen features)", within(1, 2, True, True), "K")
    ranking: str = parameter("chains", "which features GENEX may choose: those a chain of features makes monotone "
                             "(the paper), or lexicographic: one after another, each monotone over the good "
                             "transitions no feature chosen before it changes (or given one of those), as "
                             "the termination checker ranks them", choices=RANKINGS)
    verify_states: int = parameter(VERIFY_STATES, "the most policy-reachable states verification explores on one "
                                   "training instance; past it learning stops", at_least(1), "N")
    verify_jobs: int = parameter(1, "training instances verified at once, in forked processes, when WRAPPER "
                                 "tests a policy on all of them (the first failure in order decides, as with "
                                 "one)", at_least(1), "J")
    probe_states: int | None = parameter(None, "when WRAPPER tests a policy on all training instances, first "
                                         "verify each up to this many states; a failure found so decides, so "
                                         "that no instance is verified in full before a later one fails within a "
                                         "few steps; none: in order only, as in the paper", at_least(1), "N")
    symmetry: bool = parameter(False, "verify one state per renaming of interchangeable objects (objects, or "
                               "blocks of them, that swap without changing the static atoms or the goal): "
                               "same verdicts, fewer states")
    distinct_instances: bool = parameter(False, "learn and verify on one training instance per class of instances "
                                         "that are renamings of each other (the same objects, initial state and "
                                         "goal up to the objects' names): the copies get their class's verdicts")
    instance_order: str = parameter("longest", "the order of the training instances for S1, S2 and verification: "
                                    "longest teacher plan first (the paper) or shortest first",
                                    choices=INSTANCE_ORDERS)

    def __post_init__(self) -> None:
        validate(self)
        if self.grow_by > 1 and self.strategy != "grow":
            raise ParameterError("grow_by", f"more than one failing instance joins Q' with strategy grow only, "
                                 f"not {self.strategy}")
        if self.ranking == "lexicographic" and self.k != 1:
            raise ParameterError("k", "a lexicographic ranking gives each feature its own rank, certified "
                                      "1-stratified; k belongs to GENEX's chains")

    def describe(self) -> str:
        extras = f", up to {self.grow_by} failing instances added to Q' at a time" if self.grow_by > 1 else ""
        extras += ", repairs kept across outer iterations" if self.keep_repairs else ""
        extras += f", Edge replanning with {self.edge_teacher}" if self.edge_teacher else ""
        extras += f" or up to {self.edge_alternatives} other first steps" if self.edge_teacher and \
            self.edge_alternatives else ""
        extras += ", Edge states avoided" if self.avoid_edges else ""
        extras += f", up to {self.repairs} repairs per instance and verification" if self.repairs > 1 else ""
        extras += f", repairs ordered by the policy's features (slack {self.ordered_repairs})" \
            if self.ordered_repairs is not None else ""
        extras += f", pool on about {self.pool_states:,} plan states" if self.pool_states else ""
        extras += f", pool also on up to {self.pool_reachable:,} reachable states" if self.pool_reachable else ""
        extras += ", pool generated again where GENEX fails" if self.refresh_pool else ""
        extras += ", shortest plans first" if self.instance_order == "shortest" else ""
        extras += f", GENEX chains for k = {self.k}" if self.k != 1 else ""
        extras += ", features ranked lexicographically" if self.ranking == "lexicographic" else ""
        extras += f", verification up to {self.verify_states:,} states" if self.verify_states != VERIFY_STATES else ""
        extras += f", probes of {self.probe_states:,} states on Q" if self.probe_states else ""
        extras += ", verification over renamings" if self.symmetry else ""
        extras += ", one instance per class of renamed instances" if self.distinct_instances else ""
        extras += f", {self.verify_jobs} verifications at once" if self.verify_jobs > 1 else ""
        return (f"grammar {self.grammar}, teacher {self.teacher}, strategy {self.strategy}, "
                f"dead-end tests {'on' if self.dead_ends else 'off'}{extras}")


def settings_path() -> Path:
    # src/stratpol/learning_settings.toml links to the top-level file; a wheel carries a copy
    return Path(__file__).resolve().parents[1] / "learning_settings.toml"


def learning_settings(domain: str, path: Path | None = None) -> LearningSettings:
    """The settings of `domain`: its entry in the settings file over the file's defaults."""
    path = settings_path() if path is None else Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError("learning settings file not found", path) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", path) from None
    unknown = set(data) - {"default", "domains"}
    if unknown:
        raise InputError(f"unknown tables {sorted(unknown)} (known: default, domains)", path)
    settings = _apply(LearningSettings(), data.get("default", {}), path, "default")
    return _apply(settings, data.get("domains", {}).get(domain, {}), path, f"domains.{domain}")


def _apply(settings: LearningSettings, table: dict, path: Path, where: str) -> LearningSettings:
    fields = [f.name for f in dataclasses.fields(LearningSettings)]
    unknown = set(table) - set(fields)
    if unknown:
        raise InputError(f"[{where}]: unknown keys {sorted(unknown)} (known: {', '.join(fields)})", path)
    try:
        return from_mapping(settings, table)
    except ParameterError as error:
        raise InputError(f"[{where}]: {error}", path) from None
