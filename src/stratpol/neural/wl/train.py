"""Training a WL transition model from teacher plans, the model folder, and loading it as a policy.

A model folder holds `wl-model.json` (domain, model, mode, WL iterations, beam width, what it was
trained on), `wl-features.json` (wlplan's colour table, collected on the training states only) and
the weights (`xgb.ubj` or `lstm.pt`).
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
from stratpol.neural.data import TeacherTrajectory, optimal_trajectory, teacher_data
from stratpol.neural.wl.decoder import Decoder, WLPolicy
from stratpol.neural.wl.features import ColourCounts, WLFeatures
from stratpol.neural.wl.models import EmbeddedTrajectory, FitReport, check_choice, load_model, new_model
from stratpol.neural.wl.splits import Split, default_setting, split_instances

CONFIG_FILE = "wl-model.json"
FORMAT = 1


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


def embed_trajectories(features: WLFeatures, trajectories: Sequence[TeacherTrajectory],
                       colours: ColourCounts | None = None) -> list[EmbeddedTrajectory]:
    """phi of every state of each trajectory, and phi(g) of its instance."""
    return [EmbeddedTrajectory(features.embed(t.states, colours), features.embed_goal(t.instance, colours))
            for t in trajectories]


def train_wl(domain: str, model: str = "xgb", mode: str = "delta", out: Path | str = "wl-model", seed: int = 0,
             sizes: Sequence[int] | None = None, per_size: int | None = None,
             validation: Split | None = None, iterations: int = 2, beam_width: int = 3,
             epochs: int | None = None, collect_goals: bool = False, model_seed: int | None = None,
             xgb_trees: str = "per-output",
             planner_time_limit: float = 60.0, threads: int = 1,
             cache_dir: Path | None = None, progress: Callable[[str], None] = lambda line: None) -> WLTrainReport:
    """Train a transition model on optimal plans of small generated instances and write its folder.

    Sizes default to the paper's Table 1 training sizes for its four domains; validation instances
    (for early stopping and model selection) to its validation sizes. With `collect_goals` the
    vocabulary also holds the colours of the training goals (the paper collects states only).
    `seed` draws the instances; `model_seed` (default: `seed`) initialises and orders the training.
    `xgb_trees` is "per-output" (the paper's XGBoost) or "vector" (vector leaves, much faster to use).
    """
    try:
        check_choice(model, mode)
    except ValueError as error:
        raise InputError(str(error)) from None
    if iterations < 1 or beam_width < 1:
        raise InputError("the WL iterations and the beam width must be at least 1")
    started = time.perf_counter()
    folder = domain_folder(domain)
    setting = default_setting(folder.name)
    sizes = tuple(sizes) if sizes is not None else setting.train.sizes
    per_size = per_size if per_size is not None else setting.train.per_size
    validation = validation if validation is not None else setting.validation
    cache_dir = default_cache_dir() if cache_dir is None else cache_dir
    train = teacher_data(folder.name, sizes, per_size, seed, planner_name="astar-lmcut",
                         time_limit=planner_time_limit, heuristics=False, cache_dir=cache_dir, progress=progress)
    if not train:
        raise InputError(f"no training instance of {folder.name} of sizes {list(sizes)} was solved by the teacher")
    held_out = []
    for instance in split_instances(folder.name, validation, seed, avoid=[t.instance.text for t in train]):
        progress(f"{folder.name}: validation plan for {instance.name}")
        trajectory = optimal_trajectory(instance, "astar-lmcut", planner_time_limit, False, cache_dir)
        if trajectory is not None:
            held_out.append(trajectory)
    teacher_seconds = time.perf_counter() - started
    progress(f"{folder.name}: collecting WL colours on {sum(len(t.states) for t in train)} training states")
    features = WLFeatures.collect(folder.domain, (s for t in train for s in t.states), iterations, collect_goals)
    colours = ColourCounts()
    train_embedded = embed_trajectories(features, train)
    held_out_embedded = embed_trajectories(features, held_out, colours)
    progress(f"{folder.name}: training {model} ({mode}) on {len(train)} trajectories, D = {features.dimension}")
    model_seed = seed if model_seed is None else model_seed
    try:
        transition = new_model(model, mode, features.dimension, seed=model_seed, epochs=epochs, threads=threads,
                               xgb_trees=xgb_trees)
    except ValueError as error:
        raise InputError(str(error)) from None
    fit = transition.fit(train_embedded, held_out_embedded)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    features.save(out)
    transition.save(out)
    config = {
        "format": FORMAT, "domain": folder.name, "model": model, "mode": mode, "iterations": iterations,
        "beam_width": beam_width, "dimension": features.dimension, "seed": seed, "model_seed": model_seed,
        "xgb_trees": xgb_trees if model == "xgb" else None, "train_sizes": list(sizes),
        "per_size": per_size, "validation_sizes": list(validation.sizes), "epochs": epochs,
        "collect_goals": collect_goals,
        "train_instances": len(train), "train_transitions": sum(len(t.plan) for t in train),
        "fit": asdict(fit),
    }
    write_text_atomically(out / CONFIG_FILE, json.dumps(config, indent=1) + "\n")
    return WLTrainReport(folder.name, model, mode, str(out), len(train), config["train_transitions"], len(held_out),
                         features.dimension, fit, colours.unseen_share(), teacher_seconds,
                         time.perf_counter() - started)


def read_config(folder: Path | str) -> dict:
    """The `wl-model.json` of a model folder; InputError when the folder holds no WL model."""
    path = Path(folder) / CONFIG_FILE
    if not path.is_file():
        raise InputError(f"no {CONFIG_FILE} here (train one with stratpol train-wl)", folder)
    try:
        config = json.loads(path.read_text())
        check_choice(config["model"], config["mode"])
        config["domain"], config["dimension"], config["iterations"]
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"not a WL model configuration ({error})", path) from None
    return config


def load_decoder(folder: Path | str, beam_width: int | None = None, threads: int = 1) -> Decoder:
    """The decoder (features, model, beam width) saved in a model folder."""
    config = read_config(folder)
    domain = domain_folder(config["domain"]).domain
    features = WLFeatures.load(Path(folder), domain)
    if features.dimension != config["dimension"]:
        raise InputError(f"the features have {features.dimension} dimensions, the model {config['dimension']}", folder)
    model = load_model(config["model"], config["mode"], config["dimension"], Path(folder), threads=threads)
    return Decoder(features, model, beam_width or config["beam_width"])


def load_wl_policy(folder: Path | str, beam_width: int | None = None):
    """A model folder as a general policy for the evaluation protocol (`stratpol evaluate`)."""
    config = read_config(folder)
    decoder = load_decoder(folder, beam_width)
    name = f"wl-{config['model']}-{config['mode']}"
    return WLPolicy(decoder, name, Path(folder).resolve())
