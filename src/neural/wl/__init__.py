"""WL transition models: learn the successor state's WL embedding, decode with the symbolic successors.

Needs the `neural` extra (wlplan, xgboost, torch; torch only for the LSTM).
"""

from neural.wl.loading import WLPolicy, load_decoder, load_wl_policy, read_config
from neural.wl.train import WLTrainReport, train_wl

__all__ = ["WLPolicy", "WLTrainReport", "load_decoder", "load_wl_policy", "read_config", "train_wl"]
