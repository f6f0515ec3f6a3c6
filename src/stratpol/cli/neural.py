"""Training neural policies: `stratpol train-gnn` and `stratpol train-wl` (torch and wlplan load only here)."""

from __future__ import annotations

import argparse

from stratpol.cli import options
from stratpol.progress import Progress


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_train_gnn(commands)
    _add_train_wl(commands)


def _add_train_gnn(commands: argparse._SubParsersAction) -> None:
    from stratpol.method_settings import GNNTraining
    from stratpol.parameters import add_options

    train_gnn = commands.add_parser("train-gnn", help="train an R-GNN value or Q-value policy on optimal plans")
    train_gnn.add_argument("domain", help="domain name (training instances come from its generator)")
    add_options(train_gnn, GNNTraining())  # --value, --epochs, --layers, ... (stratpol.method_settings)
    train_gnn.add_argument("--sizes", type=options.sizes, metavar="A:B",
                           help="training sizes (default: the 12 smallest sizes of the domain)")
    train_gnn.add_argument("--threads", type=options.positive_int, default=1, metavar="T",
                           help="torch CPU threads; small graphs run fastest on one (default: 1)")
    train_gnn.add_argument("--out", required=True, metavar="DIR", help="checkpoint folder (gnn.json, model.pt)")
    train_gnn.add_argument("--force", action="store_true",
                           help="replace a model trained with other settings in the checkpoint folder")
    train_gnn.set_defaults(run=_train_gnn)


def _train_gnn(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.cache import cache_root
    from stratpol.generation import domain_folder
    from stratpol.method_settings import GNNTraining
    from neural.policies import pick_device, set_cpu_threads
    from neural.train import train_on_generated
    from stratpol.parameters import from_options

    folder = domain_folder(args.domain)
    pick_device(args.device)  # a missing CUDA device fails here, before any work
    set_cpu_threads(args.threads)
    config = from_options(GNNTraining(), args)
    out = Path(args.out)
    with Progress() as progress:
        report = train_on_generated(folder.name, config, out, args.sizes, cache_root() / "teacher",
                                    force=args.force, progress=progress)
    print(f"{report.describe(folder.name)}; checkpoint in {out}")
    return 0


def _add_train_wl(commands: argparse._SubParsersAction) -> None:
    from stratpol.method_settings import WLTraining
    from stratpol.parameters import add_options

    train_wl = commands.add_parser("train-wl", help="train a WL transition model (XGBoost or LSTM) on optimal plans")
    train_wl.add_argument("domain", help="domain name (training instances come from its generator)")
    add_options(train_wl, WLTraining())  # --model, --mode, --iterations, ... (stratpol.method_settings)
    train_wl.add_argument("--sizes", type=options.sizes, metavar="A:B",
                          help="training sizes (default: the paper's Table 1 sizes, or the 5 smallest)")
    train_wl.add_argument("--validation-sizes", type=options.sizes, metavar="A:B",
                          help="sizes of the validation instances (early stopping, model selection)")
    train_wl.add_argument("--out", required=True, metavar="DIR", help="model folder (wl-model.json, features, weights)")
    train_wl.set_defaults(run=_train_wl)


def _train_wl(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.generation import domain_folder
    from stratpol.method_settings import WLTraining
    from neural.wl import train_wl
    from neural.wl.splits import Split
    from stratpol.parameters import from_options

    folder = domain_folder(args.domain)
    validation = Split(tuple(args.validation_sizes), args.per_size or 1) if args.validation_sizes else None
    with Progress() as progress:
        report = train_wl(folder.name, from_options(WLTraining(), args), Path(args.out),
                          sizes=list(args.sizes) if args.sizes else None, validation=validation, progress=progress)
    print(report.describe())
    return 0
