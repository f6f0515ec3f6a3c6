"""Experiment configs: `experiments/<name>.toml` read into dataclasses, every mistake one line naming file and key."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from stratpol.errors import InputError
from stratpol.evaluation.protocol import GRID_PROTOCOL, ScalingSettings
from stratpol.learning.settings import LearningSettings
from stratpol.method_settings import GRID_GNN, GRID_WL, GNNTraining, WLTraining
from stratpol.methods import method, method_names
from stratpol.parameters import ParameterError, from_mapping
from stratpol.provenance import changed_settings

S = TypeVar("S")

@dataclass(frozen=True)
class EvaluationConfig:
    """How a grid judges each cell: the scaling protocol (its `[evaluation]` keys are the protocol's
    field names; seed and jobs come from the cell), and the runs on the IPC 2023 test sets."""

    protocol: ScalingSettings = GRID_PROTOCOL
    max_sizes: dict[str, int] = field(default_factory=dict)  # domain -> its own largest size (the protocol's else)
    ipc_benchmarks: str | None = None  # folder of <domain>/{domain.pddl,testing/<level>/*.pddl}
    ipc_levels: tuple[str, ...] = ("easy",)
    ipc_instances: int = 10  # the first K files of each level
    ipc_time_limit: float = 60.0  # seconds per IPC test run, on the protocol's budget clock

    def protocol_for(self, domain: str) -> ScalingSettings:
        """The scaling protocol of `domain`'s cells: the grid's, with the domain's own largest size."""
        return replace(self.protocol, max_size=self.max_sizes.get(domain, self.protocol.max_size))


GRID_LEARNING = LearningSettings(teacher="siw")  # grids: pymimir's SIW, in process


@dataclass(frozen=True)
class RulesConfig:
    """GENEX + WRAPPER on the generator's default training set: `LearningSettings`' fields (the
    `[rules]` keys), and the seconds of learning before the cell is recorded as failed."""

    learning: LearningSettings = GRID_LEARNING
    time_limit: float | None = 900.0
    # folders of saved policies: a cell takes <domain>.policy (or the one <domain>-*.policy) from the
    # first folder that has one instead of learning, so that a grid evaluates committed policies
    policies: tuple[str, ...] = ()
    learn_missing: bool = False  # a domain with no saved policy is learned (else its cells are an error)
    # how the evaluation picks among compatible successors (evaluation.protocol.TIE_BREAKS): a setting
    # of the runs, not of the learning (an evaluation's key, not an artifact's)
    tie_break: str = "random"

    def saved_policy(self, domain: str) -> Path | None:
        """The saved policy a cell of `domain` evaluates, None when the grid learns it."""
        for folder in map(Path, self.policies):
            named = folder / f"{domain}.policy"
            if named.is_file():
                return named
            others = sorted(folder.glob(f"{domain}-*.policy"))
            if len(others) == 1:
                return others[0]
        if self.policies and not self.learn_missing:
            raise InputError(f"no policy of {domain} here ({domain}.policy, or one {domain}-*.policy; "
                             f"rules.learn_missing learns it)", Path(self.policies[0]))
        return None


@dataclass(frozen=True)
class GNNConfig:
    """R-GNN training in a grid: `GNNTraining`'s fields (the `[gnn]` keys; value and seed come from the
    cell), and training sizes and instances per size that may differ per domain."""

    training: GNNTraining = GRID_GNN
    sizes: dict[str, str] = field(default_factory=dict)  # domain -> "A:B"; default: the 12 smallest
    per_size: dict[str, int] = field(default_factory=dict)  # domain -> K; default 10


@dataclass(frozen=True)
class WLConfig:
    """WL transition models in a grid: `WLTraining`'s fields (the `[wl]` keys; model, mode and seeds
    come from the cell), and training sizes and instances per size that may differ per domain
    (default: the WL setting's)."""

    training: WLTraining = GRID_WL
    sizes: dict[str, str] = field(default_factory=dict)
    per_size: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PlannerConfig:
    time_limit: float = 300.0  # per (re)plan


@dataclass(frozen=True)
class ExperimentConfig:
    """A grid: every domain x method x seed is one cell."""

    name: str
    path: Path
    out: Path
    domains: tuple[str, ...]
    methods: tuple[str, ...]
    seeds: tuple[int, ...] = (0,)
    jobs: int = 1
    cluster: str | None = None
    evaluation: EvaluationConfig = EvaluationConfig()
    rules: RulesConfig = RulesConfig()
    gnn: GNNConfig = GNNConfig()
    wl: WLConfig = WLConfig()
    planner: PlannerConfig = PlannerConfig()
    exclude: tuple[str, ...] = ()  # cells left out, "domain.method" (a method too slow on a domain)
    # parallel runs within a cell's scaling evaluation and IPC runs: like jobs, how fast, not what is
    # measured (no fingerprint holds it), for the last long cells of a grid on a machine's cores
    evaluation_jobs: int = 1

    def ipc_folder(self, domain: str) -> Path | None:
        """The IPC 2023 folder of `domain`, when the config names one and it has test instances."""
        if self.evaluation.ipc_benchmarks is None:
            return None
        folder = Path(self.evaluation.ipc_benchmarks) / domain
        return folder if (folder / "testing").is_dir() else None

    def training_on(self, device: str) -> ExperimentConfig:
        """This grid with its R-GNNs trained on `device` (auto, cpu or cuda): the same cells and models."""
        return replace(self, gnn=replace(self.gnn, training=replace(self.gnn.training, device=device)))


class _Reader:
    """Typed access to one TOML table; errors name the file and the dotted key."""

    def __init__(self, path: Path, data: dict, prefix: str = "") -> None:
        self.path, self.data, self.prefix = path, data, prefix
        self.used: set[str] = set()

    def fail(self, key: str, message: str) -> None:
        raise InputError(f"{self.prefix}{key}: {message}", self.path)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        self.used.add(key)
        if key not in self.data:
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            self.fail(key, f"expected {names}, got {type(value).__name__} {value!r}")
        return value

    def positive(self, key: str, kind: type, default: Any) -> Any:
        value = self.get(key, kind, default)
        if value is not None and value <= 0:
            self.fail(key, f"must be positive, not {value}")
        return value

    def parameters(self, default: S, exclude: tuple[str, ...] = ()) -> S:
        """`default` (a settings dataclass of `stratpol.parameters` fields) with this table's values."""
        names = {f.name for f in fields(default)} - set(exclude)
        self.used |= names & set(self.data)
        try:
            return from_mapping(default, {k: v for k, v in self.data.items() if k in names})
        except ParameterError as error:
            self.fail(error.key, error.message)

    def strings(self, key: str, default: tuple[str, ...] | None = None) -> tuple[str, ...]:
        value = self.get(key, list, None)
        if value is None:
            if default is None:
                self.fail(key, "missing (a list of names)")
            return default
        if not value or not all(isinstance(v, str) for v in value):
            self.fail(key, f"expected a non-empty list of strings, got {value!r}")
        return tuple(value)

    def table(self, key: str) -> _Reader:
        value = self.get(key, dict, {})
        return _Reader(self.path, value, f"{self.prefix}{key}.")

    def per_domain(self, key: str, kind: type) -> dict:
        value = self.get(key, dict, {})
        for domain, item in value.items():
            if not isinstance(item, kind) or isinstance(item, bool):
                self.fail(f"{key}.{domain}", f"expected {kind.__name__}, got {item!r}")
        return dict(value)

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            self.fail(unknown[0], "unknown key")


def load_config(path: Path | str, out: Path | str | None = None) -> ExperimentConfig:
    """Parse and check `path`; relative paths in it are relative to the config file's folder."""
    path = Path(path)
    if not path.is_file():
        raise InputError("experiment config not found", path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", path) from None
    base = path.resolve().parent
    top = _Reader(path, data)
    name = top.get("name", str, path.stem)
    domains = top.strings("domains")
    methods = top.strings("methods")
    _check_domains(top, domains)
    for method_name in methods:
        if method(method_name) is None:
            top.fail("methods", f"unknown method {method_name!r} (known: {', '.join(method_names())})")
    seeds = top.get("seeds", list, [0])
    if not seeds or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        top.fail("seeds", f"expected a non-empty list of integers, got {seeds!r}")
    exclude = top.strings("exclude", ())
    for pair in exclude:
        domain, _, method_name = pair.partition(".")
        if domain not in domains or method_name not in methods:
            top.fail("exclude", f"{pair!r} is not a cell of this grid (\"domain.method\" of its domains and methods)")
    jobs = top.positive("jobs", int, 1)
    evaluation_jobs = top.positive("evaluation_jobs", int, 1)
    cluster = top.get("cluster", str, None) or None
    configured_out = base / top.get("out", str, f"results/{name}")
    out_path = Path(out) if out is not None else configured_out
    evaluation = _evaluation(top.table("evaluation"), base)
    rules = _rules(top.table("rules"), base)
    gnn = _gnn(top.table("gnn"))
    wl = _wl(top.table("wl"))
    planner = _planner(top.table("planner"))
    top.finish()
    fixed = [name for name in methods if method(name).trained_by is not None]
    if fixed and not gnn.training.fixed_validation:
        top.fail("methods", f"{fixed[0]} needs a fixed validation set: set gnn.fixed_validation (the paper: 4)")
    config = ExperimentConfig(name, path, out_path, domains, methods, tuple(seeds), jobs, cluster, evaluation, rules,
                              gnn, wl, planner, exclude, evaluation_jobs)
    _check_ipc_domains(config)
    return config


def _check_ipc_domains(config: ExperimentConfig) -> None:
    """IPC test problems are read with the generator's domain file (the one the policies learned on), so an
    IPC set must define the same domain: the same expressions, up to comments, layout and case."""
    from stratpol.generation import domain_folder
    from stratpol.planning.sexpr import parse

    for domain in config.domains:
        folder = config.ipc_folder(domain)
        if folder is None or not (folder / "domain.pddl").is_file():
            continue
        ours = domain_folder(domain).domain_file
        try:
            same = parse((folder / "domain.pddl").read_text()) == parse(ours.read_text())
        except ValueError as error:
            raise InputError(f"not valid PDDL: {error}", folder / "domain.pddl") from None
        if not same:
            raise InputError(f"differs from {ours}, with which the IPC problems would be read; "
                             f"leave {domain} out or use another ipc_benchmarks", folder / "domain.pddl")


def _check_domains(top: _Reader, domains: tuple[str, ...]) -> None:
    from stratpol.generation import domain_names

    known = domain_names()
    for domain in domains:
        if domain not in known:
            top.fail("domains", f"unknown domain {domain!r} (see `stratpol domains`)")


def _evaluation(table: _Reader, base: Path) -> EvaluationConfig:
    default = EvaluationConfig()
    ipc = table.get("ipc_benchmarks", str, None)
    if ipc is not None:
        ipc = str((base / ipc).resolve())
        if not Path(ipc).is_dir():
            table.fail("ipc_benchmarks", f"folder not found: {ipc}")
    config = EvaluationConfig(
        protocol=table.parameters(GRID_PROTOCOL, exclude=("seed", "jobs")),
        max_sizes=_positive_per_domain(table, "max_sizes"),
        ipc_benchmarks=ipc,
        ipc_levels=table.strings("ipc_levels", default.ipc_levels),
        ipc_instances=table.positive("ipc_instances", int, default.ipc_instances),
        ipc_time_limit=table.positive("ipc_time_limit", float, default.ipc_time_limit),
    )
    table.finish()
    return config


def flat_settings(settings: Any) -> dict:
    """What of a grid's settings differs from their defaults, as one flat table: a nested settings
    object (the protocol, GNN training) against the grid's default of that field (GRID_PROTOCOL,
    GRID_GNN, ...), then the other fields; the shape that artifacts and evaluations are keyed by."""
    default = type(settings)()
    flat = {}
    for name, value in changed_settings(settings).items():
        if is_dataclass(value):
            flat.update(changed_settings(value, getattr(default, name)))
        else:
            flat[name] = value
    return flat


def _rules(table: _Reader, base: Path) -> RulesConfig:
    from stratpol.evaluation.protocol import TIE_BREAKS
    from stratpol.planning.planners import PLANNERS, planner_chain

    default = RulesConfig()
    learning = table.parameters(GRID_LEARNING)
    try:
        planner_chain(learning.teacher)  # "a+b" chains as `stratpol learn --planner` takes them
    except InputError:
        table.fail("teacher", f"unknown planner in {learning.teacher!r} (known: {', '.join(PLANNERS)})")
    policies = table.get("policies", (str, list), [])
    folders = [policies] if isinstance(policies, str) else policies
    if not all(isinstance(folder, str) for folder in folders):
        table.fail("policies", f"expected a folder or a list of folders, got {policies!r}")
    folders = tuple(str((base / folder).resolve()) for folder in folders)
    for folder in folders:
        if not Path(folder).is_dir():
            table.fail("policies", f"folder not found: {folder}")
    tie_break = table.get("tie_break", str, default.tie_break)
    if tie_break not in TIE_BREAKS:
        table.fail("tie_break", f"unknown tie-break {tie_break!r} (known: {', '.join(TIE_BREAKS)})")
    config = RulesConfig(learning, table.positive("time_limit", float, default.time_limit), folders,
                         table.get("learn_missing", bool, default.learn_missing), tie_break)
    table.finish()
    return config


def _positive_per_domain(table: _Reader, key: str) -> dict[str, int]:
    values = table.per_domain(key, int)
    for domain, value in values.items():
        if value <= 0:
            table.fail(f"{key}.{domain}", f"must be positive, not {value}")
    return values


def _sizes(table: _Reader) -> dict[str, str]:
    sizes = table.per_domain("sizes", str)
    for domain, text in sizes.items():
        low, _, high = text.partition(":")
        if not (low.isdigit() and (high or low).isdigit() and int(low) <= int(high or low)):
            table.fail(f"sizes.{domain}", f"expected a size range \"A:B\", got {text!r}")
    return sizes


def _gnn(table: _Reader) -> GNNConfig:
    config = GNNConfig(
        training=table.parameters(GRID_GNN, exclude=("value", "seed", "per_size")),
        sizes=_sizes(table),
        per_size=table.per_domain("per_size", int),
    )
    table.finish()
    return config


def _wl(table: _Reader) -> WLConfig:
    config = WLConfig(
        training=table.parameters(GRID_WL, exclude=("model", "mode", "seed", "model_seed", "per_size")),
        sizes=_sizes(table),
        per_size=table.per_domain("per_size", int),
    )
    table.finish()
    return config


def _planner(table: _Reader) -> PlannerConfig:
    config = PlannerConfig(table.positive("time_limit", float, PlannerConfig().time_limit))
    table.finish()
    return config
