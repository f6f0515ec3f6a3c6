"""A WL model folder read back: its configuration, its decoder, and the model as a general policy.

A model folder holds `wl-model.json` (domain, model, mode, WL iterations, beam width, what it was
trained on), `wl-features.json` (wlplan's colour table, collected on the training states only) and
the weights (`xgb.ubj` or `lstm.pt`), and `training.json` (how long it took); `train` writes it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.evaluation.policies import Controller
from stratpol.generation import domain_folder
from neural.wl.decoder import Decoder, DecodedPlanFollower
from neural.wl.features import WLFeatures
from neural.wl.model_choice import load_model
from neural.wl.models import check_choice
from stratpol.planning import Instance

CONFIG_FILE = "wl-model.json"
FORMAT = 1


@dataclass(frozen=True)
class WLModelRecord:
    """`wl-model.json`: what a model folder holds and how it was trained."""

    domain: str
    model: str
    mode: str
    iterations: int
    beam_width: int
    dimension: int
    # how it was trained: folders written before a field existed lack it
    seed: int = 0
    model_seed: int = 0
    xgb_trees: str | None = None  # None for the LSTM
    train_sizes: list[int] = field(default_factory=list)
    per_size: int | None = None
    validation_sizes: list[int] = field(default_factory=list)
    epochs: int | None = None
    collect_goals: bool = False
    train_instances: int = 0
    train_transitions: int = 0
    fit: dict = field(default_factory=dict)  # rounds or epochs, the best, losses (older folders: seconds too)
    format: int = FORMAT

    @property
    def method(self) -> str:
        return f"wl-{self.model}-{self.mode}"

    def write(self, folder: Path) -> None:
        write_text_atomically(folder / CONFIG_FILE, json.dumps(asdict(self), indent=1) + "\n")


def read_config(folder: Path | str) -> WLModelRecord:
    """The `wl-model.json` of a model folder; InputError when the folder holds no WL model."""
    path = Path(folder) / CONFIG_FILE
    if not path.is_file():
        raise InputError(f"no {CONFIG_FILE} here (train one with stratpol train-wl)", folder)
    try:
        data = json.loads(path.read_text())
        record = WLModelRecord(**{f.name: data[f.name] for f in fields(WLModelRecord) if f.name in data})
        check_choice(record.model, record.mode)
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"not a WL model configuration ({error})", path) from None
    return record


def load_decoder(folder: Path | str, beam_width: int | None = None, threads: int = 1) -> Decoder:
    """The decoder (features, model, beam width) saved in a model folder."""
    config = read_config(folder)
    domain = domain_folder(config.domain).domain
    features = WLFeatures.load(Path(folder), domain)
    if features.dimension != config.dimension:
        raise InputError(f"the features have {features.dimension} dimensions, the model {config.dimension}", folder)
    model = load_model(config.model, config.mode, config.dimension, Path(folder), threads=threads)
    return Decoder(features, model, beam_width or config.beam_width)


def load_wl_policy(folder: Path | str, beam_width: int | None = None):
    """A model folder as a general policy for the evaluation protocol (`stratpol evaluate`)."""
    decoder = load_decoder(folder, beam_width)
    return WLPolicy(decoder, read_config(folder).method, Path(folder).resolve())


class WLPolicy:
    """A trained WL transition model as a general policy: decode a plan with the beam, then follow it.

    From a state off the decoded path (or past the end of an unsuccessful decode) it decodes again.
    It pickles by the folder it was loaded from, so joblib workers load the model themselves.
    """

    def __init__(self, decoder: Decoder, name: str = "wl", folder: Path | None = None) -> None:
        self.decoder = decoder
        self.name = name
        self.folder = folder

    def __reduce__(self):
        if self.folder is None:
            raise TypeError("a WLPolicy pickles only when it was loaded from a model folder")
        return (load_wl_policy, (str(self.folder), self.decoder.width))

    def controller(self, instance: Instance) -> Controller:
        return DecodedPlanFollower(self.decoder, instance)
