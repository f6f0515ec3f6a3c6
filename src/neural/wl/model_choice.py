"""The WL transition models by name: XGBoost or an LSTM, each imported only when asked for (xgboost
and torch are large)."""

from __future__ import annotations

from pathlib import Path

from neural.wl.models import TransitionModel, check_choice


def new_model(model: str, mode: str, dimension: int, seed: int = 0, epochs: int | None = None,
              threads: int = 1, xgb_trees: str = "per-output") -> TransitionModel:
    """An untrained model; `epochs` is boosting rounds for XGBoost and epochs for the LSTM."""
    check_choice(model, mode)
    if model == "xgb":
        from neural.wl.xgb import XGBTransition

        return XGBTransition(mode, dimension, seed=seed, rounds=epochs or 1000, threads=threads, trees=xgb_trees)
    from neural.wl.lstm import LSTMTransition

    return LSTMTransition(mode, dimension, seed=seed, epochs=epochs or 250, threads=threads)


def load_model(model: str, mode: str, dimension: int, folder: Path, threads: int = 1) -> TransitionModel:
    """The model saved in `folder` by `save`."""
    check_choice(model, mode)
    if model == "xgb":
        from neural.wl.xgb import XGBTransition

        return XGBTransition.load(folder, mode, dimension, threads=threads)
    from neural.wl.lstm import LSTMTransition

    return LSTMTransition.load(folder, mode, dimension, threads=threads)
