"""The methods stratpol compares, by name: `rules`, `gnn-<value>`, `wl-<model>-<mode>`, `lama-first`,
and `gnn-<value>@<selection>`: the checkpoint that fixed-set loss or coverage selected in the same
training run as `gnn-<value>`, whose checkpoint dynamic validation selects.

One registry: a name gives the method's kind, how an experiment trains it into a folder, and how
that folder (or, for a planner, nothing) becomes a policy. The neural entries import
`neural` only when they are called, so `stratpol learn` never loads torch.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from stratpol.errors import InputError
from stratpol.method_settings import FIXED_SELECTIONS, GNN_VALUES, WL_MODELS, WL_MODES, selected_checkpoint
from stratpol.parameters import size_range

if TYPE_CHECKING:
    from stratpol.evaluation.policies import GeneralPolicy
    from stratpol.experiment.config import ExperimentConfig


class MethodKind(enum.Enum):
    RULES = "rules"  # GENEX + WRAPPER
    GNN = "gnn"  # relational GNN value or Q-value policies
    WL = "wl"  # WL transition models
    PLANNER = "planner"  # a planner followed as a policy (the baseline)


PLANNERS = ("lama-first",)

Report = Callable[[str], None]
# train(config, domain, seed, folder, report): the trained artifact lands in `folder`
Trainer = Callable[["ExperimentConfig", str, int, Path, Report], None]
# load(config, domain, seed, folder): the policy, named after the method by the caller
Loader = Callable[["ExperimentConfig", str, int, "Path | None"], "GeneralPolicy"]


class TrainingFailed(Exception):
    """A method produced no policy (learning failed, no teacher plan): the cell is recorded as failed."""


@dataclass(frozen=True)
class Method:
    name: str
    kind: MethodKind
    train: Trainer | None  # None: nothing to train (planners)
    load: Loader
    trained_by: str | None = None  # the method whose training this one evaluates (None: its own)
    selection: str = "dynamic"  # GNNs: the checkpoint of the training it runs

    @property
    def artifact_method(self) -> str:
        """The method that names the artifact: methods sharing one training share its folder."""
        return self.trained_by or self.name

    def trained_model(self, artifact: Path) -> Path:
        """The model folder this method runs, in the artifact folder its training wrote."""
        return selected_checkpoint(artifact, self.selection) if self.kind is MethodKind.GNN else Path(artifact)


def method(name: str) -> Method | None:
    """The method called `name`, or None when there is none."""
    if name == "rules":
        return Method(name, MethodKind.RULES, _train_rules, _load_rules)
    if name in PLANNERS:
        return Method(name, MethodKind.PLANNER, None, partial(_load_planner, name))
    base, _, selection = name.partition("@")
    if base.startswith("gnn-") and base[4:] in GNN_VALUES and selection in ("", *FIXED_SELECTIONS):
        return Method(name, MethodKind.GNN, partial(_train_gnn, base[4:]), _load_gnn,
                      base if selection else None, selection or "dynamic")
    parts = name.split("-")
    if len(parts) == 3 and parts[0] == "wl" and parts[1] in WL_MODELS and parts[2] in WL_MODES:
        return Method(name, MethodKind.WL, partial(_train_wl, parts[1], parts[2]), _load_wl)
    return None


def method_names() -> list[str]:
    return ["rules", *(f"gnn-{v}" for v in GNN_VALUES),
            *(f"gnn-{v}@{s}" for v in GNN_VALUES for s in FIXED_SELECTIONS),
            *(f"wl-{m}-{d}" for m in WL_MODELS for d in WL_MODES), *PLANNERS]


def load_trained(folder: Path, domain: str) -> GeneralPolicy:
    """A trained neural policy from its folder (a GNN checkpoint or a WL model), checked to be `domain`'s."""
    from neural.policies import is_checkpoint, load_gnn_policy, set_cpu_threads

    set_cpu_threads(1)  # evaluation parallelises over runs instead
    if is_checkpoint(folder):
        policy = load_gnn_policy(folder)
        trained_on = json.loads((folder / "gnn.json").read_text())["domain"]
    elif (folder / "wl-model.json").is_file():
        from neural.wl import load_wl_policy, read_config

        policy = load_wl_policy(folder)
        trained_on = read_config(folder).domain
    else:
        raise InputError("not a policy: neither a GNN checkpoint (gnn.json) nor a WL model (wl-model.json)", folder)
    if trained_on != domain:
        raise InputError(f"the model was trained on {trained_on}, not {domain}", folder)
    return policy


# -- the entries: each imports what it needs when called -----------------------------------------

RULES_POLICY = "policy.txt"  # the learned policy in a rules artifact folder


def _train_rules(config: ExperimentConfig, domain: str, seed: int, folder: Path, report: Report) -> None:
    from stratpol.learner import learn
    from stratpol.learning.result import LearningFailure
    from stratpol.policy.text import write_policy

    saved = config.rules.saved_policy(domain)
    if saved is not None:  # evaluate a committed policy: its "training" is reading it
        from stratpol.policy.text import read_policy

        write_policy(folder / RULES_POLICY, read_policy(saved))
        return
    try:
        result = learn(domain, None, config.rules.learning, seed=seed, time_limit=config.rules.time_limit,
                       progress=report)
    except LearningFailure as failure:
        raise TrainingFailed(str(failure).splitlines()[0]) from None
    write_policy(folder / RULES_POLICY, result.policy)


def _load_rules(config: ExperimentConfig, domain: str, seed: int, folder: Path | None) -> GeneralPolicy:
    from stratpol.evaluation import RulePolicy
    from stratpol.features import Vocabulary
    from stratpol.generation import domain_folder
    from stratpol.policy.text import read_policy

    return RulePolicy(read_policy(folder / RULES_POLICY), Vocabulary(domain_folder(domain).domain),
                      config.rules.tie_break, seed)


def _train_gnn(value: str, config: ExperimentConfig, domain: str, seed: int, folder: Path, report: Report) -> None:
    from stratpol.cache import cache_root
    from neural.policies import set_cpu_threads
    from neural.train import train_on_generated

    set_cpu_threads(1)
    gnn = config.gnn
    sizes = size_range(gnn.sizes[domain]) if domain in gnn.sizes else None
    training = dataclasses.replace(gnn.training, value=value, seed=seed,
                                   per_size=gnn.per_size.get(domain, gnn.training.per_size))
    train_on_generated(domain, training, folder, sizes, cache_root() / "teacher", report,
                       force=True)  # the grid owns its folders


def _load_gnn(config: ExperimentConfig, domain: str, seed: int, folder: Path | None) -> GeneralPolicy:
    from neural.policies import is_checkpoint, load_gnn_policy, set_cpu_threads

    set_cpu_threads(1)
    if not is_checkpoint(folder):
        raise InputError("no such checkpoint: the model was trained without a fixed validation set "
                         "(fixed_validation = 0)", folder)
    return load_gnn_policy(folder, device="cpu")


def _train_wl(model: str, mode: str, config: ExperimentConfig, domain: str, seed: int, folder: Path,
              report: Report) -> None:
    from stratpol.cache import cache_root
    from neural.policies import set_cpu_threads
    from neural.wl import train_wl

    set_cpu_threads(1)
    wl = config.wl
    sizes = list(size_range(wl.sizes[domain])) if domain in wl.sizes else None
    settings = dataclasses.replace(wl.training, model=model, mode=mode, seed=seed,
                                   per_size=wl.per_size.get(domain, wl.training.per_size))
    train_wl(domain, settings, folder, sizes=sizes, threads=1, cache_dir=cache_root() / "teacher", progress=report)


def _load_wl(config: ExperimentConfig, domain: str, seed: int, folder: Path | None) -> GeneralPolicy:
    from neural.policies import set_cpu_threads
    from neural.wl import load_wl_policy

    set_cpu_threads(1)
    return load_wl_policy(folder)


def _load_planner(name: str, config: ExperimentConfig, domain: str, seed: int, folder: Path | None) -> GeneralPolicy:
    from stratpol.evaluation import PlannerPolicy

    return PlannerPolicy(name, config.planner.time_limit)
