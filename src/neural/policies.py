"""GNN policies for the evaluation protocol, and their checkpoints.

V-policy: argmin over successors s' of cost(a) + V(s'), one forward pass over all successors.
Q-policy: argmin over applicable actions of Q(s, a), one forward pass over the current state.
Both never go back to a state of the same run, as in the papers. Ties go to the first action
by name. A checkpoint is a folder with `gnn.json` (the configuration) and `model.pt` (a plain
state_dict).
"""

from __future__ import annotations

import io
import json
import pickle
from collections.abc import Container, Sequence
from pathlib import Path

import torch

from stratpol.atomic import atomic_path, write_text_atomically
from stratpol.errors import InputError
from stratpol.generation import domain_folder
from neural.encoding import StateEncoder
from neural.rgnn import RelationalGNN, RGNNConfig
from stratpol.planning import Instance, State, Successor
from stratpol.provenance import TRAINING_REPORT

CHECKPOINT_FORMAT = "stratpol-gnn/1"
CHECKPOINT_FILES = ("gnn.json", "model.pt", TRAINING_REPORT)  # the report of train_on_generated


def pick_device(name: str = "auto") -> torch.device:
    """The torch device for `name`: auto picks CUDA when present, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise InputError("--device cuda: no CUDA device is available here")
    if name not in ("cpu", "cuda"):
        raise InputError(f"unknown device {name!r} (auto, cpu or cuda)")
    return torch.device(name)


def set_cpu_threads(threads: int = 1) -> None:
    """Torch's intra-op threads for this process. Per-decision graphs are small, so threads cost more
    than they give (measured: 30 ms per Q decision on Gripper-10 with one thread, 800 ms with two on
    a busy 2-core machine); parallel work goes over runs or cells instead."""
    torch.set_num_threads(threads)


class GNNPolicy:
    """A trained R-GNN used as a policy: V or Q, according to the model's head."""

    def __init__(self, model: RelationalGNN, encoder: StateEncoder, name: str = "gnn",
                 device: torch.device | None = None) -> None:
        self.device = device or next(model.parameters()).device
        self.model = model.to(self.device).eval()
        self.encoder = encoder
        self.name = name

    def controller(self, instance: Instance) -> _GNNController:
        return _GNNController(self)

    def choose_together(self, decisions: Sequence[tuple[_GNNController, State, Container[State]]]
                        ) -> list[Successor | None]:
        """Each run's choice, the states of all of them scored in one forward pass (V: passes of
        about CHUNK_NODES nodes). The matrices have other shapes than a lone decision's, so the
        scores may differ from its in the last bits (transport, 5 states: up to 1.5e-5), and a near
        tie may go the other way."""
        candidates = [controller.candidates(state, exclude) for controller, state, exclude in decisions]
        open_ = [(state, found) for (_, state, _), found in zip(decisions, candidates) if found is not None]
        scores = iter(self.scores_together([(state, successors) for state, (successors, _) in open_]))
        return [None if found is None else _best(*found, next(scores)) for found in candidates]

    def scores(self, state: State, successors: list[Successor]) -> torch.Tensor:
        """cost + V(s') per successor, or Q(s, a) per successor's action: lower is better."""
        return self.scores_together([(state, successors)])[0]

    @torch.no_grad()
    def scores_together(self, decisions: Sequence[tuple[State, list[Successor]]]) -> list[torch.Tensor]:
        """`scores` of each (state, successors), computed in one forward pass (V: chunks of it)."""
        if not decisions:
            return []
        if self.model.config.head == "value":
            successors = [s for _, of_state in decisions for s in of_state]
            costs = torch.tensor([s.cost for s in successors], device=self.device)
            objects = max(len(state.instance.objects) for state, _ in decisions)
            chunks = _chunks(successors, objects) if self.device.type == "cpu" else [successors]
            values = costs + torch.cat([self.model(self.encoder.encode([(s.state, ()) for s in chunk]).to(self.device))
                                        for chunk in chunks])
        else:
            batch = self.encoder.encode([(state, [s.action for s in of_state]) for state, of_state in decisions])
            values = self.model(batch.to(self.device))
        return list(values.split([len(of_state) for _, of_state in decisions]))


CHUNK_NODES = 2048  # object nodes per forward pass of a V decision
MIN_CHUNK_STATES = 16


def _chunks(successors: list[Successor], objects: int) -> list[list[Successor]]:
    """The successors in CPU forward passes of about CHUNK_NODES object nodes: the message tensors
    of one pass over all successors outgrow the caches (transport 60, 250 successors: 940 ms in one
    pass, 590 ms in chunks of 32 states, measured idle). There, chunks of 16 states or more gave the
    one pass's values to the bit and chunks of 8 did not (other matmul kernels): hence the floor."""
    size = max(MIN_CHUNK_STATES, CHUNK_NODES // max(objects, 1))
    return [successors[start:start + size] for start in range(0, len(successors), size)]


class _GNNController:
    def __init__(self, policy: GNNPolicy) -> None:
        self.policy = policy
        self.visited: set[State] = set()

    def choose(self, state: State, exclude: Container[State] = ()) -> Successor | None:
        found = self.candidates(state, exclude)
        return None if found is None else _best(*found, self.policy.scores(state, found[0]))

    def candidates(self, state: State, exclude: Container[State]) -> tuple[list[Successor], list[bool]] | None:
        """The successors of `state` by action name, and which of them may be chosen (unvisited, not
        excluded); None when none may. Marks `state` visited."""
        self.visited.add(state)
        successors = sorted(state.instance.successors(state), key=lambda s: str(s.action))
        allowed = [s.state not in self.visited and s.state not in exclude for s in successors]
        return (successors, allowed) if any(allowed) else None


def _best(successors: list[Successor], allowed: list[bool], scores: torch.Tensor) -> Successor:
    """The allowed successor of the lowest score; the first by action name among equals."""
    scores = scores.cpu()
    scores[~torch.tensor(allowed)] = float("inf")
    return successors[int(torch.argmin(scores))]


def save_checkpoint(folder: Path, model: RelationalGNN, domain: str, value: str, training: dict) -> None:
    """Write `model.pt` and `gnn.json` into `folder` (each atomically). The weights go through a
    buffer: saved to a file, torch names the archive inside after the file (here a random temporary
    name), and the same weights would give other bytes, so another model hash."""
    buffer = io.BytesIO()
    torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, buffer)
    with atomic_path(folder / "model.pt") as weights:
        weights.write_bytes(buffer.getvalue())
    meta = {"format": CHECKPOINT_FORMAT, "domain": domain, "value": value, "model": model.config.to_json(),
            "training": training}
    write_text_atomically(folder / "gnn.json", json.dumps(meta, indent=2) + "\n")


def is_checkpoint(path: Path) -> bool:
    return (Path(path) / "gnn.json").is_file()


def load_gnn_policy(folder: Path, device: str = "auto") -> GNNPolicy:
    """The policy saved in `folder` by `stratpol train-gnn`."""
    folder = Path(folder)
    try:
        meta = json.loads((folder / "gnn.json").read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise InputError(f"not a GNN checkpoint: {error}", folder) from None
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise InputError(f"unknown checkpoint format {meta.get('format')!r} (expected {CHECKPOINT_FORMAT})", folder)
    config = RGNNConfig(**meta["model"])
    domain = domain_folder(meta["domain"]).domain
    encoder = StateEncoder(domain, actions=config.head == "q")
    if encoder.relations != config.relations:
        raise InputError(f"the checkpoint's relations do not match domain {meta['domain']} as installed", folder)
    model = RelationalGNN(config)
    try:
        model.load_state_dict(torch.load(folder / "model.pt", map_location="cpu", weights_only=True))
    except (OSError, RuntimeError, EOFError, pickle.UnpicklingError) as error:
        raise InputError(f"cannot load the weights: {error}", folder / "model.pt") from None
    return GNNPolicy(model, encoder, name=f"gnn-{meta['value']}", device=pick_device(device))
