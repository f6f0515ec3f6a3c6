"""The yardstick of feature synthesis (`stratpol bench yardstick`): for each feature a grammar lists
by hand, whether the learner given that grammar without its listed features generates it or
synthesises it, judged by its valuation on the training states, and for which requirement. The
generated part is the grammar's own constructors and bound with the concept distances of the
grammar `distances` (features/distances.py).

Each grammar is learned on the first training files of the domain it was written for (in name
order, those solved from the start passed over), with the settings that learned the hand-assisted
policy, synthesis on. A listed feature is "generated" where a feature of the generated pool takes
its values on the states of the files' teacher plans, "synthesised" where a feature synthesis
added does, else "not found"."""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stratpol.cache import cache_root
from stratpol.features import FeatureTable, Vocabulary, load_grammar
from stratpol.features.grammar import Grammar, grammars_root
from stratpol.errors import InputError
from stratpol.features.pool import PoolFeature, generate_pool, parse_any_feature
from stratpol.learner import learn
from stratpol.learning.result import LearningFailure, LearningStatistics
from stratpol.learning.settings import LearningSettings, learning_settings
from stratpol.learning.teacher import Teacher
from stratpol.learning.training import problem_files
from stratpol.planning import Domain
from stratpol.planning.dead_ends import Solvability

@dataclass(frozen=True)
class ListingGrammar:
    """A grammar that lists features, the benchmark set and domain it was written for, and the
    settings file whose entry for the domain learned the hand-assisted policy with it (None: the
    learning_settings.toml of the package)."""

    grammar: str  # a name in feature_grammars/ or a path
    benchmark: str
    domain: str
    settings_file: Path | None = None


HAND_ASSISTED_SETTINGS = Path("experiments/results/policies/ipc2023/learning_settings.toml")
LISTING_GRAMMARS = {name: ListingGrammar(name, "ipc2023", name, HAND_ASSISTED_SETTINGS)
                    for name in ("blocksworld", "childsnack", "floortile", "rovers", "satellite", "transport")}
LISTING_GRAMMARS["logistics"] = ListingGrammar("logistics", "gp2024", "logistics")


@dataclass(frozen=True)
class ListedFeatureVerdict:
    """One listed feature: whether the learner reached it, by which feature, and where from."""

    expression: str
    complexity: int
    found: str  # "generated", "synthesised", "not found" or "constant on these states"
    equal: str | None = None  # the feature with its values on the training states
    equal_complexity: int | None = None
    requirement: str | None = None  # the requirement synthesis found it for, in words


@dataclass(frozen=True)
class GrammarYardstick:
    """One grammar's listed features against what the learner found without them."""

    grammar: str
    training: str  # the benchmark set, domain and files
    states: int  # teacher-plan states the valuations are compared on
    pool: int  # features of the generated pool on them
    outcome: str  # "learned: F features, R rules" or why not
    synthesised: int
    seconds: float
    verdicts: tuple[ListedFeatureVerdict, ...]


def generated_part(grammar: Grammar, folder: Path) -> Path:
    """A grammar file in `folder` that generates what `grammar` generates, and the concept distances
    of the grammar `distances` too, and lists nothing: the published constructors at its
    complexity bound (a ValueError for a grammar that changes more than the bound of its parent,
    as none of the listing grammars does)."""
    bounds = load_grammar("distances").distances
    text = (f'extends = "{grammars_root() / "default.toml"}"\ncomplexity_limit = {grammar.complexity_limit}\n\n'
            f"[distances]\n" + "".join(f"{k} = {v}\n" for k, v in dataclasses.asdict(bounds).items()))
    path = folder / f"{grammar.name}-generated.toml"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    written = load_grammar(path)
    expected = dataclasses.replace(grammar, name=written.name, features=(), distances=bounds)
    if written != expected:
        raise InputError(f"grammar {grammar.name} changes more than the complexity bound of the default grammar")
    return path


def yardstick(listing: ListingGrammar, benchmarks: Path, files: int, time_limit: float | None,
              cache: Path | None = None, progress: Callable[[str], None] = lambda message: None) -> GrammarYardstick:
    """The yardstick of `listing` on the first `files` training files of its domain under
    `benchmarks` (the folder holding its benchmark set), learning for at most `time_limit`
    seconds with the grammar's generated part (`generated_part`, in a temporary folder)."""
    with tempfile.TemporaryDirectory() as folder:
        return _yardstick(listing, benchmarks, Path(folder), files, time_limit,
                          cache_root() if cache is None else cache, progress)


def _yardstick(listing: ListingGrammar, benchmarks: Path, grammars: Path, files: int, time_limit: float | None,
               cache: Path, progress: Callable[[str], None]) -> GrammarYardstick:
    benchmark, domain_name = listing.benchmark, listing.domain
    folder = benchmarks / benchmark / domain_name
    grammar = load_grammar(listing.grammar)
    domain = Domain(folder / "domain.pddl")
    paths = _nontrivial_files(domain, problem_files([folder / "training"]), files)
    settings = learning_settings(domain_name, listing.settings_file)
    settings = dataclasses.replace(settings, grammar=str(generated_part(grammar, grammars)), synthesis=True)
    started = time.perf_counter()
    progress(f"yardstick {grammar.name}: learning on {len(paths)} files of {benchmark}/{domain_name}")
    try:
        result = learn(folder / "domain.pddl", paths, settings, time_limit=time_limit, cache=cache, progress=progress)
        statistics: LearningStatistics = result.statistics
        outcome = f"learned: {len(result.policy.features)} features, {len(result.policy.rules)} rules"
    except LearningFailure as failure:
        statistics = failure.statistics or LearningStatistics(strategy=settings.strategy)
        outcome = str(failure)
    seconds = time.perf_counter() - started
    vocabulary = Vocabulary(domain)
    states = _plan_states(domain, vocabulary, paths, settings, cache)
    pool = list(generate_pool(vocabulary, states, load_grammar(settings.grammar), cache / "pools"))
    synthesised = [parse_any_feature(vocabulary, f) for f in statistics.synthesised]
    found = [(kind, features, FeatureTable.evaluate(features, states).values)
             for kind, features in (("generated", pool), ("synthesised", synthesised))]
    verdicts = tuple(_verdict(parse_any_feature(vocabulary, listed), found, statistics, states)
                     for listed in grammar.features)
    training = f"{benchmark}/{domain_name} {paths[0].stem}-{paths[-1].stem}" if paths else f"{benchmark}/{domain_name}"
    return GrammarYardstick(grammar.name, training, len(states), len(pool), outcome, len(synthesised), seconds, verdicts)


def _nontrivial_files(domain: Domain, paths: Sequence[Path], count: int) -> list[Path]:
    """The first `count` files whose goal does not hold in their initial state (gp2024's smallest
    logistics files are solved from the start: the learner leaves them out)."""
    chosen = []
    for path in paths:
        instance = domain.load_instance(path)
        if not instance.is_goal(instance.initial_state):
            chosen.append(path)
            if len(chosen) == count:
                break
    return chosen


def _plan_states(domain: Domain, vocabulary: Vocabulary, paths: Sequence[Path], settings: LearningSettings,
                 cache: Path) -> list:
    """The states of the teacher's plans of the files (cached by the learning run before)."""
    teacher = Teacher(settings.teacher, settings.teacher_time_limit, cache / "plans")
    states = []
    for path in paths:
        instance = domain.load_instance(path)
        advice = teacher.advise(instance)
        if advice.verdict is Solvability.ALIVE:
            bridge = vocabulary.bridge(instance)
            states.extend((bridge, state) for state in advice.states)
    return states


def _verdict(listed: PoolFeature, found: Sequence[tuple[str, Sequence[PoolFeature], np.ndarray]],
             statistics: LearningStatistics, states: Sequence) -> ListedFeatureVerdict:
    """Whether a feature of the pool, else one synthesised (`found`: each with its values on
    `states`), has the listed feature's values on `states` (the cheapest such feature)."""
    listed_values = FeatureTable.evaluate([listed], states).values[:, 0]
    if len(set(listed_values.tolist())) < 2:  # any constant matches it: these states cannot tell
        return ListedFeatureVerdict(listed.description, listed.complexity, "constant on these states")
    for kind, features, values in found:
        equal = np.flatnonzero((values == listed_values[:, None]).all(axis=0)) if features else []
        if len(equal):
            match = min((features[i] for i in equal), key=lambda f: (f.complexity, f.description))
            requirement = statistics.synthesised_for.get(match.description) if kind == "synthesised" else None
            return ListedFeatureVerdict(listed.description, listed.complexity, kind, match.description,
                                        match.complexity, requirement)
    return ListedFeatureVerdict(listed.description, listed.complexity, "not found")


def render_yardstick(rows: Sequence[GrammarYardstick]) -> str:
    """The table of experiments/README.md: one line per listed feature, grouped by grammar."""
    lines = ["| grammar | training | listed feature (complexity) | found | by (complexity) | for the requirement |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        for verdict in row.verdicts:
            by = "" if verdict.equal is None else f"`{verdict.equal}` ({verdict.equal_complexity})"
            lines.append(f"| {row.grammar} | {row.training} | `{verdict.expression}` ({verdict.complexity}) | "
                         f"{verdict.found} | {by} | {verdict.requirement or ''} |")
    lines += ["", "| grammar | plan states | generated pool | learning without the listed features | "
              "synthesised | seconds |", "|---|---:|---:|---|---:|---:|"]
    for row in rows:
        found = sum(v.found in ("generated", "synthesised") for v in row.verdicts)
        lines.append(f"| {row.grammar} ({found} of {len(row.verdicts)} reached) | {row.states:,} | {row.pool:,} | "
                     f"{row.outcome.replace('|', '/')} | {row.synthesised} | {row.seconds:,.0f} |")
    return "\n".join(lines)
