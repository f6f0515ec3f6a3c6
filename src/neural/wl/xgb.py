"""The XGBoost transition model: one row per transition, [phi(s_t), phi(g)] -> phi(s_{t+1}) or its delta.

Hyperparameters of the paper's Table 7: hist trees of depth 8, learning rate 0.1, up to 1000
rounds with early stopping after 10 rounds without progress on the validation trajectories,
squared error in both modes (XGBoost has no cosine objective). Native multi-output regression:
one tree per output and round.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import xgboost

from neural.wl.models import EmbeddedTrajectory, FitReport, targets

WEIGHTS_FILE = "xgb.ubj"


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
                 learning_rate: float = 0.1, max_depth: int = 8, patience: int = 10) -> None:
        self.mode = mode
        self.dimension = dimension
        self.seed = seed
        self.rounds = rounds
        self.threads = threads
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.patience = patience
        self.regressor: xgboost.XGBRegressor | None = None

    def fit(self, train: Sequence[EmbeddedTrajectory], validation: Sequence[EmbeddedTrajectory]) -> FitReport:
        started = time.perf_counter()
        x, y = _rows(train, self.mode)
        evaluation = [_rows(validation, self.mode)] if validation else None
        self.regressor = xgboost.XGBRegressor(
            tree_method="hist", objective="reg:squarederror", max_depth=self.max_depth,
            learning_rate=self.learning_rate, n_estimators=self.rounds, n_jobs=self.threads,
            random_state=self.seed, early_stopping_rounds=self.patience if evaluation else None)
        self.regressor.fit(x, y, eval_set=evaluation, verbose=False)
        history = self.regressor.evals_result().get("validation_0", {}).get("rmse", [])
        best = int(getattr(self.regressor, "best_iteration", self.rounds - 1) if evaluation else self.rounds - 1)
        train_loss = float(np.mean((self.regressor.predict(x).reshape(y.shape) - y) ** 2))
        return FitReport(len(history) or self.rounds, best + 1, train_loss,
                         float(history[best] ** 2) if history else None, time.perf_counter() - started)

    def predict(self, states: np.ndarray, goal: np.ndarray, memories: Sequence[object]) -> tuple[np.ndarray, list]:
        assert self.regressor is not None, "predict before fit"
        rows = np.hstack([states, np.tile(goal, (len(states), 1))])
        return self.regressor.predict(rows).reshape(len(states), self.dimension), list(memories)

    def save(self, folder: Path) -> None:
        assert self.regressor is not None, "save before fit"
        self.regressor.save_model(str(Path(folder) / WEIGHTS_FILE))

    @classmethod
    def load(cls, folder: Path, mode: str, dimension: int, threads: int = 1) -> XGBTransition:
        model = cls(mode, dimension, threads=threads)
        model.regressor = xgboost.XGBRegressor(n_jobs=threads)
        model.regressor.load_model(str(Path(folder) / WEIGHTS_FILE))
        return model
