"""How the neural methods are trained, declared once, outside `neural`: the command line
and experiment grids read these settings without importing the neural add-ons (no torch, no
wlplan), as the layering asks.

`stratpol train-gnn` and `stratpol train-wl` make their options from these fields, and a grid's
`[gnn]` and `[wl]` tables read them (grids start from `GRID_GNN` and `GRID_WL`);
`train_on_generated` and `train_wl` take them whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stratpol.parameters import at_least, parameter, positive, validate, within

GNN_VALUES = ("v", "q", "q-exp", "q-heu")  # V*, vanilla Q, Q with the explicit or the heuristic regulariser
FIXED_SELECTIONS = ("fixed-loss", "fixed-coverage")  # checkpoints selected on a fixed validation set
WL_MODELS = ("xgb", "lstm")
WL_MODES = ("state", "delta")
SELECTED = "selected-by"  # the subfolder of a GNN model folder with one checkpoint per fixed-set criterion


def selected_checkpoint(model: Path, criterion: str) -> Path:
    """The folder of the checkpoint `criterion` selected in the GNN model folder `model` ("dynamic":
    `model` itself)."""
    return Path(model) if criterion == "dynamic" else Path(model) / SELECTED / criterion


TEACHERS = ("fd-opt", "astar-lmcut")  # optimal planners: the labels are costs to go


@dataclass(frozen=True)
class GNNTraining:
    """Teacher data, model, optimiser and validation; the defaults are the Q-value paper's (appendix C)."""

    value: str = parameter("q-heu", "v (V*), q (vanilla Q), q-exp or q-heu (Q with the explicit or heuristic "
                           "regulariser)", choices=GNN_VALUES)
    planner: str = parameter("fd-opt", "the optimal teacher", choices=TEACHERS)
    time_limit: float = parameter(60.0, "seconds per teacher plan", positive, "S")
    per_size: int = parameter(10, "distinct training instances per size", at_least(1), "K")
    hidden: int = parameter(32, "embedding size", at_least(1), "D")
    layers: int = parameter(30, "message-passing layers", at_least(1), "L")
    epochs: int = parameter(100, "epochs", at_least(1), "E")
    batch_size: int = parameter(256, "states per batch", at_least(1), "B")
    learning_rate: float | None = parameter(None, "Adam's step size; none: 2e-4 for v and q, 2e-3 for the "
                                            "regularised Q", at_least(0), "R")
    gradient_clip: float = parameter(0.1, "gradient norm clip", positive, "C")
    regulariser_weight: float = parameter(1.0, "lambda, the weight of the Q regulariser", at_least(0), "W")
    seed: int = parameter(0, "random seed", None, "S")
    device: str = parameter("auto", "auto, cpu or cuda", None, "DEVICE")
    validation_instances: int = parameter(10, "m: validation instances per size", at_least(1), "M")
    validation_tau: float = parameter(0.3, "coverage below which validation stops going up in size",
                                      within(0, 1, True, True), "T")
    validation_sizes: int = parameter(5, "sizes above the largest training size validation may go", at_least(1),
                                      "K")
    validation_growth: int = parameter(0, "sizes the validation window grows by whenever a checkpoint solves all "
                                       "of it (the best one is judged on them too, so a later checkpoint can "
                                       "beat the first to reach the window's end; 0: the window stays)",
                                       at_least(0), "G")
    validate_every: int = parameter(1, "epochs between validations", at_least(1), "E")
    patience: int | None = parameter(None, "stop after this many validations without a better score", at_least(1),
                                     "P")
    fixed_validation: int = parameter(0, "instances per size of a fixed validation set over the 3 sizes above the "
                                      "largest training size (the scaling paper: 4); with it, the checkpoints "
                                      "selected by fixed-set loss and fixed-set coverage are kept beside the "
                                      "dynamic one (0: none)", at_least(0), "K")

    def __post_init__(self) -> None:
        validate(self)

    @property
    def rate(self) -> float:
        if self.learning_rate is not None:
            return self.learning_rate
        return 2e-4 if self.value in ("v", "q") else 2e-3


# Grids train many cells on 2 cores: smaller models, fewer epochs, cheaper teachers
GRID_GNN = GNNTraining(planner="astar-lmcut", time_limit=30.0, layers=16, epochs=30, batch_size=64, device="cpu",
                       validation_instances=5, validation_sizes=3, validate_every=10)


@dataclass(frozen=True)
class WLTraining:
    """A WL transition model: what it predicts, the WL features, the fit and the decoding beam."""

    model: str = parameter("xgb", "XGBoost or an LSTM", choices=WL_MODELS)
    mode: str = parameter("delta", "predict the next embedding (state) or its change (delta)", choices=WL_MODES)
    iterations: int = parameter(2, "WL iterations", at_least(1), "K")
    beam_width: int = parameter(3, "decoding beam", at_least(1), "W")
    epochs: int | None = parameter(None, "LSTM epochs or XGBoost rounds; none: 250 or 1000", at_least(1), "E")
    xgb_trees: str = parameter("per-output", "one tree per output and round (the paper), or vector leaves "
                               "(much faster to use)", choices=("per-output", "vector"))
    time_limit: float = parameter(60.0, "teacher (astar-lmcut) seconds per instance; unsolved ones are dropped",
                                  positive, "S")
    per_size: int | None = parameter(None, "distinct training instances per size; none: the WL setting's", at_least(1),
                                     "K")
    collect_goals: bool = parameter(False, "the WL vocabulary also holds the colours of the training goals (the "
                                    "paper collects states only)")
    seed: int = parameter(0, "random seed of the instance draws", None, "S")
    model_seed: int | None = parameter(None, "seed of the model's initialisation and training order; none: --seed",
                                       None, "S")

    def __post_init__(self) -> None:
        validate(self)


GRID_WL = WLTraining()  # grids use the defaults
