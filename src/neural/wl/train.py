"""Training a WL transition model from teacher plans into a model folder (`loading` reads it back).

A model folder holds `wl-model.json` (domain, model, mode, WL iterations, beam width, what it was
trained on), `wl-features.json` (wlplan's colour table, collected on the training states only) and
the weights (`xgb.ubj` or `lstm.pt`), and `training.json`, how this training went (its seconds): a
model trained again from the same settings differs from the first only there (`model_hash`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.cache import cache_root
from stratpol.errors import InputError
from stratpol.generation import domain_folder
from neural.data import TeacherTrajectory, optimal_trajectory, teacher_data
from neural.wl.features import ColourCounts, WLFeatures
from stratpol.method_settings import WLTraining
from neural.wl.loading import WLModelRecord
from neural.wl.model_choice import new_model
from neural.wl.models import EmbeddedTrajectory, FitReport
from neural.wl.splits import Split, default_setting, split_instances
from stratpol.provenance import TRAINING_REPORT


def default_cache_dir() -> Path:
    return cache_root() / "teacher"


@dataclass
class WLTrainReport:
    """What `train_wl` learned from and how training went."""

    domain: str
    model: str
    mode: str
    folder: str
    train_instances: int
    train_transitions: int
    validation_instances: int
    dimension: int
    fit: FitReport
    validation_unseen_share: float
    teacher_seconds: float
    seconds: float
    train_sizes: tuple[int, ...] = ()

    def describe(self) -> str:
        """Two lines: what it trained on, and how the fit went."""
        fit = self.fit
        held_out = "-" if fit.validation_loss is None else f"{fit.validation_loss:.4f}"
        sizes = f" (sizes {min(self.train_sizes)}-{max(self.train_sizes)})" if self.train_sizes else ""
        return (f"{self.domain} wl-{self.model}-{self.mode}: {self.train_instances} instances{sizes}, "
                f"{self.train_transitions} transitions, D = {self.dimension}\n"
                f"best of {fit.iterations} {'rounds' if self.model == 'xgb' else 'epochs'} at {fit.best_iteration}: "
                f"train loss {fit.train_loss:.4f}, validation loss {held_out} ({self.validation_instances} "
                f"instances, {self.validation_unseen_share:.1%} unseen colours at the last WL iteration); "
                f"{self.seconds:.1f} s; model in {self.folder}")


def embed_trajectories(features: WLFeatures, trajectories: Sequence[TeacherTrajectory],
                       colours: ColourCounts | None = None) -> list[EmbeddedTrajectory]:
    """phi of every state of each trajectory, and phi(g) of its instance."""
    return [EmbeddedTrajectory(features.embed(t.states, colours), features.embed_goal(t.instance, colours))
            for t in trajectories]


def train_wl(domain: str, settings: WLTraining = WLTraining(), out: Path | str = "wl-model",
             sizes: Sequence[int] | None = None, validation: Split | None = None, threads: int = 1,
             cache_dir: Path | None = None, progress: Callable[[str], None] = lambda line: None) -> WLTrainReport:
    """Train a transition model on optimal plans of small generated instances and write its folder.

    Sizes default to the paper's Table 1 training sizes for its four domains; validation instances
    (for early stopping and model selection) to its validation sizes.
    """
    model, mode, iterations, seed = settings.model, settings.mode, settings.iterations, settings.seed
    started = time.perf_counter()
    folder = domain_folder(domain)
    setting = default_setting(folder.name)
    sizes = tuple(sizes) if sizes is not None else setting.train.sizes
    per_size = settings.per_size if settings.per_size is not None else setting.train.per_size
    validation = validation if validation is not None else setting.validation
    cache_dir = default_cache_dir() if cache_dir is None else cache_dir
    train = teacher_data(folder.name, sizes, per_size, seed, planner_name="astar-lmcut",
                         time_limit=settings.time_limit, heuristics=False, cache_dir=cache_dir, progress=progress)
    if not train:
        raise InputError(f"no training instance of {folder.name} of sizes {list(sizes)} was solved by the teacher")
    held_out = []
    for instance in split_instances(folder.name, validation, seed, avoid=[t.instance.text for t in train]):
        progress(f"{folder.name}: validation plan for {instance.name}")
        trajectory = optimal_trajectory(instance, "astar-lmcut", settings.time_limit, False, cache_dir)
        if trajectory is not None:
            held_out.append(trajectory)
    teacher_seconds = time.perf_counter() - started
    progress(f"{folder.name}: collecting WL colours on {sum(len(t.states) for t in train)} training states")
    features = WLFeatures.collect(folder.domain, (s for t in train for s in t.states), iterations,
                                  settings.collect_goals)
    colours = ColourCounts()
    train_embedded = embed_trajectories(features, train)
    held_out_embedded = embed_trajectories(features, held_out, colours)
    progress(f"{folder.name}: training {model} ({mode}) on {len(train)} trajectories, D = {features.dimension}")
    model_seed = seed if settings.model_seed is None else settings.model_seed
    try:
        transition = new_model(model, mode, features.dimension, seed=model_seed, epochs=settings.epochs,
                               threads=threads, xgb_trees=settings.xgb_trees)
    except ValueError as error:
        raise InputError(str(error)) from None
    fit = transition.fit(train_embedded, held_out_embedded)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    features.save(out)
    transition.save(out)
    record = WLModelRecord(
        folder.name, model, mode, iterations, settings.beam_width, features.dimension, seed, model_seed,
        settings.xgb_trees if model == "xgb" else None, list(sizes), per_size, list(validation.sizes),
        settings.epochs, settings.collect_goals, len(train), sum(len(t.plan) for t in train),
        {name: value for name, value in asdict(fit).items() if name != "seconds"})
    record.write(out)
    report = WLTrainReport(folder.name, model, mode, str(out), len(train), record.train_transitions, len(held_out),
                           features.dimension, fit, colours.unseen_share(), teacher_seconds,
                           time.perf_counter() - started, tuple(sizes))
    write_text_atomically(out / TRAINING_REPORT, json.dumps(asdict(report), indent=1) + "\n")
    return report
