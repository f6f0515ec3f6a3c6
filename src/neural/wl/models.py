"""Transition models on (phi(s), phi(g)): what they share, and how a saved one is found again.

A model maps the embedding of a state and of the goal to a prediction: the next embedding
("state" mode) or its change ("delta" mode). `target` turns either into the vector v_t the
decoder compares successors with. Models predict a batch of beam entries at once and thread a
per-entry memory through the steps (the LSTM's hidden state; None for XGBoost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

MODELS = ("xgb", "lstm")
MODES = ("state", "delta")


@dataclass(frozen=True)
class EmbeddedTrajectory:
    """phi(s_0)..phi(s_T) of one teacher trajectory ([T+1, D]) and phi(g) ([D])."""

    states: np.ndarray
    goal: np.ndarray


@dataclass(frozen=True)
class FitReport:
    """What training did: rounds or epochs run, the best one, and its losses."""

    iterations: int
    best_iteration: int
    train_loss: float
    validation_loss: float | None
    seconds: float


class TransitionModel(Protocol):
    kind: str
    mode: str

    def fit(self, train: Sequence[EmbeddedTrajectory], validation: Sequence[EmbeddedTrajectory]) -> FitReport:
        """Learn phi(s_t), phi(g) -> phi(s_{t+1}) (or its delta) on the teacher trajectories."""

    def predict(self, states: np.ndarray, goal: np.ndarray, memories: Sequence[object]) -> tuple[np.ndarray, list]:
        """Raw outputs [B, D] for a batch of states of one instance, and each entry's next memory."""

    def save(self, folder: Path) -> None:
        """Write the weights into `folder`."""


def check_choice(model: str, mode: str) -> None:
    if model not in MODELS:
        raise ValueError(f"the model must be one of {', '.join(MODELS)}, not {model!r}")
    if mode not in MODES:
        raise ValueError(f"the mode must be one of {', '.join(MODES)}, not {mode!r}")


def targets(trajectory: EmbeddedTrajectory, mode: str) -> np.ndarray:
    """What the model learns for steps 0..T-1: phi(s_{t+1}), or phi(s_{t+1}) - phi(s_t) in delta mode."""
    following = trajectory.states[1:]
    return following - trajectory.states[:-1] if mode == "delta" else following


def target(outputs: np.ndarray, states: np.ndarray, mode: str) -> np.ndarray:
    """The decoder's v_t: phi(s_t) + delta in delta mode, the prediction itself in state mode."""
    return states + outputs if mode == "delta" else outputs


def distances(candidates: np.ndarray, target_vector: np.ndarray, mode: str) -> np.ndarray:
    """Euclidean distance in delta mode, cosine distance (1 - cos) in state mode, as in the paper."""
    if mode == "delta":
        return np.linalg.norm(candidates - target_vector, axis=1)
    norms = np.linalg.norm(candidates, axis=1) * np.linalg.norm(target_vector)
    cosine = (candidates @ target_vector) / np.where(norms > 0, norms, 1.0)
    return 1.0 - np.where(norms > 0, cosine, 0.0)
