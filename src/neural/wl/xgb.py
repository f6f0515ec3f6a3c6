"""The XGBoost transition model: one row per transition, [phi(s_t), phi(g)] -> phi(s_{t+1}) or its delta.

Hyperparameters of the paper's Table 7: hist trees of depth 8, learning rate 0.1, up to 1000
rounds with early stopping after 10 rounds without progress on the validation trajectories,
squared error in both modes (XGBoost has no cosine objective). Native multi-output regression:
one tree per output and round, as in the paper ("per-output"); or one tree with vector leaves
per round ("vector"), which predicts hundreds of times faster when D is large (Visitall's
per-output model of 467 outputs takes 0.2 s for one beam step on one core).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import xgboost

from neural.wl.models import EmbeddedTrajectory, FitReport, targets

WEIGHTS_FILE = "xgb.ubj"
TREES = {"per-output": "one_output_per_tree", "vector": "multi_output_tree"}


def _rows(trajectories: Sequence[EmbeddedTrajectory], mode: str) -> tuple[np.ndarray, np.ndarray]:
    inputs, outputs = [], []
    for trajectory in trajectories:
        steps = len(trajectory.states) - 1
        inputs.append(np.hstack([trajectory.states[:-1], np.tile(trajectory.goal, (steps, 1))]))
        outputs.append(targets(trajectory, mode))
    return np.vstack(inputs), np.vstack(outputs)


class XGBTransition:
    kind = "xgb"

    def __init__(self, mode: str, dimension: int, seed: int = 0, rounds: int = 1000, threads: int = 1,
                 learning_rate: float = 0.1, max_depth: int = 8, patience: int = 10, trees: str = "per-output") -> None:
        if trees not in TREES:
            raise ValueError(f"the trees must be one of {', '.join(TREES)}, not {trees!r}")
        self.mode = mode
        self.dimension = dimension
        self.seed = seed
        self.rounds = rounds
        self.threads = threads
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.patience = patience
        self.trees = trees
        self.booster: xgboost.Booster | None = None

    def _parameters(self) -> dict:
        return {"tree_method": "hist", "objective": "reg:squarederror", "max_depth": self.max_depth,
                "learning_rate": self.learning_rate, "nthread": self.threads, "seed": self.seed,
                "multi_strategy": TREES[self.trees]}

    def fit(self, train: Sequence[EmbeddedTrajectory], validation: Sequence[EmbeddedTrajectory]) -> FitReport:
        started = time.perf_counter()
        x, y = _rows(train, self.mode)
        data = xgboost.DMatrix(x, label=y, nthread=self.threads)
        evals = [(data, "train")]
        if validation:
            vx, vy = _rows(validation, self.mode)
            evals.append((xgboost.DMatrix(vx, label=vy, nthread=self.threads), "validation"))
        history: dict = {}
        booster = xgboost.train(self._parameters(), data, num_boost_round=self.rounds, evals=evals,
                                early_stopping_rounds=self.patience if validation else None,
                                evals_result=history, verbose_eval=False)
        rounds = len(history["train"]["rmse"])
        best = booster.best_iteration if validation else rounds - 1
        self.booster = booster[: best + 1]  # keep the best rounds only: what is saved is what is used
        held_out = history.get("validation", {}).get("rmse")
        return FitReport(rounds, best + 1, float(history["train"]["rmse"][best] ** 2),
                         float(held_out[best] ** 2) if held_out else None, time.perf_counter() - started)

    def predict(self, states: np.ndarray, goal: np.ndarray, memories: Sequence[object]) -> tuple[np.ndarray, list]:
        assert self.booster is not None, "predict before fit"
        rows = np.hstack([states, np.tile(goal, (len(states), 1))])
        outputs = self.booster.inplace_predict(rows)
        return np.asarray(outputs, dtype=np.float64).reshape(len(states), self.dimension), list(memories)

    def save(self, folder: Path) -> None:
        assert self.booster is not None, "save before fit"
        self.booster.save_model(str(Path(folder) / WEIGHTS_FILE))

    @classmethod
    def load(cls, folder: Path, mode: str, dimension: int, threads: int = 1) -> XGBTransition:
        model = cls(mode, dimension, threads=threads)
        model.booster = xgboost.Booster(params={"nthread": threads}, model_file=str(Path(folder) / WEIGHTS_FILE))
        return model
