"""WL transition models: learn the successor state's WL embedding, decode with the symbolic successors.

Needs the `neural` extra (wlplan, xgboost, torch; torch only for the LSTM).
"""

from stratpol.neural.wl.train import WLTrainReport, load_decoder, load_wl_policy, read_config, train_wl

__all__ = ["WLTrainReport", "load_decoder", "load_wl_policy", "read_config", "train_wl"]
