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
from stratpol.parameters import ParameterError, at_least, from_mapping, parameter, positive, validate

STRATEGIES = ("S1", "S2", "grow")
INSTANCE_ORDERS = ("longest", "shortest")
RANKINGS = ("chains", "lexicographic")
VERIFY_STATES = 200_000  # policy-reachable states of one training instance that verification explores
VERIFY_RUNS = 50  # runs that test a training instance with more policy-reachable states than that


@dataclass(frozen=True)
class LearningSettings:
    """How WRAPPER learns one domain: the fields of `learning_settings.toml`'s entries, of a grid's
    `[rules]` table, and the options of `stratpol learn` that override a domain's entry. The
    paper's settings come first (`PAPER_SETTINGS`); each later one is off by default and named in
    experiments/README.md with the domain that needs it, but `verify_runs`, which acts only where
    the paper's learner stops."""

    grammar: str = parameter("default", "feature grammar: a name in feature_grammars/ or a path", None, "NAME")
    teacher: str = parameter("lapkt-siw+bfws", "planner for example plans and repairs; a+b asks b where a finds "
                             "no plan", None, "P")
    teacher_time_limit: float = parameter(60.0, "seconds each planner of the teacher gets for one plan or repair; "
                                          "past it the next planner is asked (a slower optimal teacher on the "
                                          "largest training files)", positive, "S")
    strategy: str = parameter("S1", "S1, then S2 when S1 fails (the paper), S2 from the start, or grow: each "
                              "failing instance joins Q' for good (with --instance-order shortest, where S2 keeps "
                              "dropping the small instances)", choices=STRATEGIES)
    dead_ends: bool = parameter(False, "find the first dead end a policy walks into in verification, so that a "
                                "repair marks the transition into it as bad (domains with dead ends)")
    verify_states: int = parameter(VERIFY_STATES, "the most policy-reachable states verification explores on one "
                                   "training instance; past it the instance is tested by runs (--verify-runs), or "
                                   "with none learning stops (the paper)", at_least(1), "N")
    verify_runs: int = parameter(VERIFY_RUNS, "seeded runs with random tie-breaks that test a training instance "
                                 "where verification passes --verify-states, each failing run repaired as a "
                                 "verification's witness; 0: learning stops there, as the paper's learner",
                                 at_least(0), "N")
    ranking: str = parameter("chains", "chains: features a chain makes monotone (the paper); lexicographic: each "
                             "feature monotone over the good transitions no earlier one changes, as the checker "
                             "ranks (where a feature is monotone only once those above it are settled)",
                             choices=RANKINGS)
    grow_by: int = parameter(1, "with strategy grow: failing instances added to Q' per outer iteration, the first "
                             "ones the test on Q finds (where each outer iteration repeats the repairs of the one "
                             "before)", at_least(1), "N")
    keep_repairs: bool = parameter(False, "keep the transitions repairs add from one outer iteration to the next "
                                   "instead of starting each from the plans (where each outer iteration repeats "
                                   "the repairs of the one before)")
    incremental_pool: bool = parameter(False, "generate the feature pool on the plan states of the files in Q' "
                                       "only, and again on more as files join Q' or GENEX finds no feature, "
                                       "instead of on every plan state up front (training sets whose whole pool "
                                       "takes an hour)")
    synthesis: bool = parameter(False, "where GENEX finds no eligible feature for a requirement, search "
                                "refinements of the pool's concepts and roles for features that meet it, add "
                                "them to the pool and run GENEX again (domains whose features lie above the "
                                "pool's complexity bound)")
    instance_order: str = parameter("longest", "longest teacher plan first (the paper), or shortest first, so that "
                                    "the first policies are learned where there is little to memorise",
                                    choices=INSTANCE_ORDERS)
    keep_raise_conditions: bool = parameter(False, "simplification keeps a rule's condition on a numerical feature "
                                            "the rule raises: a rule learned only from steps that raise n from 0 "
                                            "keeps n = 0 (a package picked up only when none is loaded)")
    symmetry: bool = parameter(False, "verify one state per renaming of interchangeable objects: same verdicts, "
                               "fewer states (instances with many interchangeable objects)")
    distinct_instances: bool = parameter(False, "learn and verify on one training instance per class of renamings "
                                         "of each other; the copies get their class's verdicts (training sets "
                                         "with many copies)")

    def __post_init__(self) -> None:
        validate(self)
        if self.grow_by > 1 and self.strategy != "grow":
            raise ParameterError("grow_by", f"more than one failing instance joins Q' with strategy grow only, "
                                 f"not {self.strategy}")

    def describe(self) -> str:
        extras = f", up to {self.grow_by} failing instances added to Q' at a time" if self.grow_by > 1 else ""
        extras += ", repairs kept across outer iterations" if self.keep_repairs else ""
        extras += ", shortest plans first" if self.instance_order == "shortest" else ""
        extras += ", incremental pool" if self.incremental_pool else ""
        extras += ", feature synthesis" if self.synthesis else ""
        extras += f", teacher time limit {self.teacher_time_limit:g} s" if self.teacher_time_limit != 60 else ""
        extras += ", features ranked lexicographically" if self.ranking == "lexicographic" else ""
        extras += f", verification up to {self.verify_states:,} states" if self.verify_states != VERIFY_STATES else ""
        extras += f", {self.verify_runs} test runs past it" if self.verify_runs != VERIFY_RUNS else ""
        extras += ", conditions on raised features kept" if self.keep_raise_conditions else ""
        extras += ", verification over renamings" if self.symmetry else ""
        extras += ", one instance per class of renamed instances" if self.distinct_instances else ""
        return (f"grammar {self.grammar}, teacher {self.teacher}, strategy {self.strategy}, "
                f"dead-end tests {'on' if self.dead_ends else 'off'}{extras}")


PAPER_SETTINGS = ("grammar", "teacher", "strategy", "dead_ends", "verify_states")


def settings_path() -> Path:
    # src/stratpol/learning_settings.toml links to the top-level file; a wheel carries a copy
    return Path(__file__).resolve().parents[1] / "learning_settings.toml"


@dataclass(frozen=True)
class NamedSettings:
    """One way of learning a domain: its settings and the name output and records give them (the
    domain's entry, a portfolio entry, or "given")."""

    name: str
    settings: LearningSettings


def learning_settings(domain: str, path: Path | None = None) -> LearningSettings:
    """The settings of `domain`: its entry in the settings file over the file's defaults. A name
    with a benchmark set ("gp2024/spanner") takes that set's entry where there is one, else the
    entry of the bare domain name (the same domain may be spelt differently in two sets); a domain
    of a portfolio set ("ipc2023/spanner") takes no entry."""
    _, defaults, entry = _defaults_and_entry(domain, path)
    return defaults if entry is None else entry.settings


def learning_configuration(domain: str, path: Path | None = None) -> tuple[NamedSettings, ...]:
    """What `stratpol learn` tries for `domain`, in turn until one learns: the domain's entry alone
    where it has one; the defaults alone for a domain of one of the GENEX paper's sets (the
    portfolio's `paper_sets`, where the paper ran its standard flags); else each entry of the
    portfolio over the defaults (one configuration for every other domain, as the IPC learning
    track runs its learners)."""
    data, defaults, entry = _defaults_and_entry(domain, path)
    if entry is not None:
        return (entry,)
    if _benchmark_set(domain) in data.get("portfolio", {}).get("paper_sets", []):
        return (NamedSettings("default", defaults),)
    named = []
    for number, table in enumerate(data.get("portfolio", {}).get("entries", []), start=1):
        table = dict(table)
        name = table.pop("name", None)
        if not isinstance(name, str) or not name:
            raise InputError(f"[[portfolio.entries]] number {number}: no name", _path(path))
        named.append(NamedSettings(name, _apply(defaults, table, _path(path), f"portfolio entry {name}")))
    return tuple(named) or (NamedSettings("default", defaults),)


def _defaults_and_entry(domain: str, path: Path | None) -> tuple[dict, LearningSettings, NamedSettings | None]:
    """The settings file's data, its defaults, and the entry of `domain` over them (None: none)."""
    data = _read(path)
    defaults = _apply(LearningSettings(), data.get("default", {}), _path(path), "default")
    name = _entry_name(domain, data)
    if name is None:
        return data, defaults, None
    where = f"domains.{name}"
    return data, defaults, NamedSettings(where, _apply(defaults, data["domains"][name], _path(path), where))


def _path(path: Path | None) -> Path:
    return settings_path() if path is None else Path(path)


def _read(path: Path | None) -> dict:
    path = _path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError("learning settings file not found", path) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", path) from None
    unknown = set(data) - {"default", "domains", "portfolio"}
    if unknown:
        raise InputError(f"unknown tables {sorted(unknown)} (known: default, domains, portfolio)", path)
    unknown = set(data.get("portfolio", {})) - {"sets", "paper_sets", "entries"}
    if unknown:
        raise InputError(f"[portfolio]: unknown keys {sorted(unknown)} (known: sets, paper_sets, entries)", path)
    return data


def _entry_name(domain: str, data: dict) -> str | None:
    """The entry of `domain` in the settings file `data`, if it has one."""
    entries = data.get("domains", {})
    if domain in entries:
        return domain
    bare = domain.rpartition("/")[2]
    if _benchmark_set(domain) in data.get("portfolio", {}).get("sets", []):
        return None
    return bare if bare in entries else None


def _benchmark_set(domain: str) -> str:
    """The benchmark set a settings name gives ("ipc2023" of "ipc2023/spanner"; "" for a bare name)."""
    return domain.rpartition("/")[0].rsplit("/", 1)[-1]


def _apply(settings: LearningSettings, table: dict, path: Path, where: str) -> LearningSettings:
    fields = [f.name for f in dataclasses.fields(LearningSettings)]
    unknown = set(table) - set(fields)
    if unknown:
        raise InputError(f"[{where}]: unknown keys {sorted(unknown)} (known: {', '.join(fields)})", path)
    try:
        return from_mapping(settings, table)
    except ParameterError as error:
        raise InputError(f"[{where}]: {error}", path) from None
