"""One entry point for learning a policy: a domain (registry name or domain.pddl) and its training
instances in, the policy with its termination certificate and its verification out. The command
line, the method registry and the benchmarks all learn through `learn`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.cache import cache_root
from stratpol.features import Vocabulary, load_grammar
from stratpol.generation import domain_folder, find_domain, names_a_domain_file
from stratpol.learning.result import WrapperResult
from stratpol.learning.portfolio import learn_with_portfolio
from stratpol.learning.settings import LearningSettings, NamedSettings, learning_configuration
from stratpol.learning.training import default_training_texts, domain_file_near, problem_files
from stratpol.planning import Domain, Instance
from stratpol.planning.planners import planner_chain

TrainingSet = Sequence["str | Path | Instance"]


def learning_domain(domain: str | Path | Domain, instances: TrainingSet | None = None) -> tuple[Domain, str]:
    """The domain to learn and the name of its settings entry. A domain.pddl names its settings by
    its folder and the folder above ("ipc2023/spanner"); a registry name with problem files takes
    the domain.pddl in their folder or up to two folders above it (the layout of the IPC and gp2024
    sets), named so too, and is the settings name itself where they have none."""
    if names_a_domain_file(domain):
        resolved = find_domain(domain)
        return resolved, _settings_name(resolved.path)
    paths = [p for p in instances or () if not isinstance(p, Instance)]
    near = domain_file_near(paths) if paths else None
    if near is None:
        return find_domain(domain), str(domain)
    return Domain(near), _settings_name(near)


def _settings_name(domain_file: Path) -> str:
    folder = Path(domain_file).resolve().parent
    return f"{folder.parent.name}/{folder.name}"


def training_instances(domain: Domain, name: str, instances: TrainingSet | None = None,
                       seed: int = 0) -> list[Instance]:
    """The instances given (problem files, folders of them, or loaded instances), or when none are
    given the default training set drawn from the generator of the registry domain `name`."""
    if not instances:
        generator = domain_folder(name.rsplit("/", 1)[-1])
        return [domain.instance_from_text(text) for text in default_training_texts(generator, seed)]
    loaded = [i for i in instances if isinstance(i, Instance)]
    paths = [i for i in instances if not isinstance(i, Instance)]
    return loaded + [domain.load_instance(path) for path in problem_files(paths)] if paths else loaded


@dataclass(frozen=True)
class LearningTask:
    """What a learning run starts from: the domain, the settings it tries in turn (one, or the
    portfolio) and its training instances, each checked (teacher planners, grammars, problem
    files) before any work."""

    domain: Domain
    configuration: tuple[NamedSettings, ...]
    instances: tuple[Instance, ...]


def learning_task(domain: str | Path | Domain, instances: TrainingSet | None = None,
                  settings: LearningSettings | Sequence[NamedSettings] | None = None, seed: int = 0,
                  settings_file: Path | None = None) -> LearningTask:
    """The task of learning `domain` from `instances` (default: small instances from the domain's
    generator, drawn with `seed`) with `settings`: one LearningSettings, named settings tried in
    turn, or by default the domain's entry in learning_settings.toml (or `settings_file`), else
    its portfolio. An unknown planner or grammar, or a bad problem file, fails here."""
    resolved, name = learning_domain(domain, instances)
    if settings is None:
        configuration = learning_configuration(name, settings_file)
    elif isinstance(settings, LearningSettings):
        configuration = (NamedSettings("given", settings),)
    else:
        configuration = tuple(settings)
    for entry in configuration:
        planner_chain(entry.settings.teacher)
        load_grammar(entry.settings.grammar)
    return LearningTask(resolved, configuration, tuple(training_instances(resolved, name, instances, seed)))


def learn(domain: str | Path | Domain | LearningTask, instances: TrainingSet | None = None,
          settings: LearningSettings | Sequence[NamedSettings] | None = None, *, seed: int = 0,
          time_limit: float | None = None, pool_time_limit: int | None = None, checkpoint: Path | None = None,
          cache: Path | None = None, progress: Callable[[str], None] = lambda message: None) -> WrapperResult:
    """Learn a general policy for `domain` with GENEX inside WRAPPER.

    `domain`: a registry name, a domain.pddl, a Domain, or a LearningTask made already (then no
    `instances` or `settings`); `instances` and `settings` as `learning_task` takes them;
    `time_limit`: seconds for the whole run, shared by the portfolio's entries; `cache`: where
    teacher plans and feature pools are kept (default: $STRATPOL_CACHE). The result holds the
    policy, its termination certificate, the learning statistics, its verification on every
    training instance and the settings tried (`attempts`, the last of which learned it);
    LearningFailure (or LearningTimeout, LearningInterrupted) says why there is none."""
    if isinstance(domain, LearningTask):
        if instances is not None or settings is not None:
            raise ValueError("a LearningTask holds its instances and settings already")
        task = domain
    else:
        task = learning_task(domain, instances, settings, seed)
    return learn_with_portfolio(list(task.instances), Vocabulary(task.domain), task.configuration,
                                cache_root() if cache is None else cache, seed=seed, time_limit=time_limit,
                                pool_time_limit=pool_time_limit, checkpoint=checkpoint, progress=progress)
