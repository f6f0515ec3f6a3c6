"""Supervised training of R-GNN value and Q-value functions, with model selection by dynamic validation.

After every epoch (or every `validate_every`) the model runs as a policy on generated instances
larger than the training ones (Algorithm 2 of the validation paper); the checkpoint with the best
score is kept in the output folder, so an interrupted run leaves its best model behind. Given a fixed
validation set, the same run also keeps the checkpoints that fixed-set loss and fixed-set coverage
select (`neural.selection`), so the three criteria differ only in the selection.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.generation import domain_folder
from stratpol.generation.size_csp import smallest_size
from stratpol.method_settings import GNNTraining
from stratpol.method_settings import FIXED_SELECTIONS, selected_checkpoint
from neural.checkpoint_selection import CheckpointSelection, cpu_policy
from neural.data import TeacherTrajectory, teacher_data
from neural.encoding import StateEncoder
from neural.losses import q_loss, regulariser_bounds, value_loss
from neural.policies import CHECKPOINT_FILES, pick_device, save_checkpoint
from neural.rgnn import RelationalGNN, RGNNConfig
from neural.selection import FixedScores, fixed_coverage, fixed_validation_set
from stratpol.provenance import TRAINING_REPORT, Provenance, claim_folder

_REGULARISER = {"v": "none", "q": "none", "q-exp": "explicit", "q-heu": "heuristic"}


@dataclass
class EpochRecord:
    epoch: int
    loss: float
    seconds: float
    validation: float | None = None
    coverage: dict[int, float] | None = None
    window_end: int | None = None  # the largest size of the validation window it was judged on
    fixed: FixedScores | None = None  # on the fixed validation set, when there is one


@dataclass
class TrainingReport:
    value: str
    device: str
    examples: int
    parameters: int
    instances: int = 0
    sizes: list[int] = field(default_factory=list)  # training sizes with at least one solved instance
    epochs: list[EpochRecord] = field(default_factory=list)
    best_epoch: int | None = None
    best_score: float | None = None
    selected: dict[str, int] = field(default_factory=dict)  # fixed-set criterion -> the epoch it selected
    seconds: float = 0.0

    @property
    def examples_per_second(self) -> float:
        spent = sum(e.seconds for e in self.epochs)
        return self.examples * len(self.epochs) / spent if spent else 0.0

    def describe(self, domain: str) -> str:
        """Two lines: what it trained on, and how training went."""
        sizes = f" (sizes {min(self.sizes)}-{max(self.sizes)})" if self.sizes else ""
        best = "-" if self.best_score is None else f"{self.best_score:.2f} at epoch {self.best_epoch}"
        fixed = "".join(f"; {criterion} selects epoch {epoch}" for criterion, epoch in self.selected.items())
        return (f"{domain} {self.value}: {self.instances} instances{sizes}, {self.examples:,} examples, "
                f"{self.parameters:,} parameters, device {self.device}\n"
                f"{len(self.epochs)} epochs in {self.seconds:.1f} s ({self.examples_per_second:,.0f} examples/s); "
                f"best validation {best}{fixed}")


def train_gnn(domain: str, trajectories: Sequence[TeacherTrajectory], config: GNNTraining, out: Path,
              progress: Callable[[str], None] = lambda line: None,
              fixed_set: Sequence[TeacherTrajectory] = ()) -> TrainingReport:
    """Train on the labelled states of `trajectories`; the best model by dynamic validation lands in
    `out`, and with a `fixed_set` the best by fixed-set loss and by fixed-set coverage beside it."""
    if not trajectories:
        raise ValueError("no teacher trajectories to train on")
    started = time.perf_counter()
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)
    device = pick_device(config.device)
    folder = domain_folder(domain)
    head = "value" if config.value == "v" else "q"
    encoder = StateEncoder(folder.domain, actions=head == "q")
    model = RelationalGNN(RGNNConfig(encoder.relations, head, config.hidden, config.layers)).to(device)
    examples = _examples(trajectories, config.value)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.rate)
    report = TrainingReport(config.value, str(device), len(examples), sum(p.numel() for p in model.parameters()),
                            len(trajectories), sorted({t.size for t in trajectories}))
    start_size, bound = _validation_start(trajectories)
    selection = CheckpointSelection(folder, encoder, start_size, bound, config.validation_instances,
                                    config.validation_tau, config.validation_sizes, config.validation_growth,
                                    config.seed, progress)
    fixed_examples = _examples(fixed_set, config.value)
    best_fixed: dict[str, FixedScores] = {}
    stale = 0
    for epoch in range(1, config.epochs + 1):
        epoch_started = time.perf_counter()
        model.train()
        rng.shuffle(examples)
        total = 0.0
        for first in range(0, len(examples), config.batch_size):
            chunk = examples[first:first + config.batch_size]
            loss = _batch_loss(model, encoder, chunk, config, device)
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), config.gradient_clip)
            optimiser.step()
            total += loss.item() * len(chunk)
        record = EpochRecord(epoch, total / len(examples), time.perf_counter() - epoch_started)
        validating = epoch % config.validate_every == 0 or epoch == config.epochs
        meta = {"config": asdict(config), "epoch": epoch, "training_sizes": report.sizes}
        if validating and not selection.settled:
            judgement = selection.judge(model)
            record.validation, record.coverage = judgement.result.score, judgement.result.coverage
            record.window_end = judgement.window_end
            if judgement.best:
                report.best_epoch, stale = epoch, 0
                save_checkpoint(out, model, folder.name, config.value, {**meta, "validation": record.validation})
            else:
                stale += 1
            report.best_score = selection.best.score  # re-scored when the window grew
            if judgement.grown:
                progress(f"over sizes up to {judgement.window_end}, the best is epoch {report.best_epoch} with "
                         f"{report.best_score:.2f}")
        if validating and fixed_set:
            record.fixed = _fixed_scores(model, encoder, fixed_set, fixed_examples, bound, config, device)
            for criterion in FIXED_SELECTIONS:
                if record.fixed.better_than(best_fixed.get(criterion), criterion):
                    best_fixed[criterion], report.selected[criterion] = record.fixed, epoch
                    save_checkpoint(selected_checkpoint(out, criterion), model, folder.name, config.value,
                                    {**meta, "selected_by": criterion, "fixed": asdict(record.fixed)})
        report.epochs.append(record)
        validation = "" if record.validation is None else f", validation {record.validation:.2f}"
        if record.fixed is not None:
            validation += f", fixed set: loss {record.fixed.loss:.3f}, coverage {record.fixed.coverage:.2f}"
        progress(f"epoch {epoch}/{config.epochs}: loss {record.loss:.3f}{validation} ({record.seconds:.1f} s)")
        if config.patience is not None and stale >= config.patience:
            progress(f"stopping: {stale} validations without improvement since epoch {report.best_epoch}")
            break
        if validating and selection.settled and not fixed_set:
            # no later epoch can change what is kept, so they would only cost time
            progress(f"stopping: epoch {report.best_epoch} solves the whole validation window, which cannot "
                     "grow; a later checkpoint could only tie it, and ties keep the earlier one")
            break
    report.seconds = time.perf_counter() - started
    return report


def default_training_sizes(domain: str) -> range:
    """The 12 smallest sizes of the domain's generator, from its smallest instance on."""
    smallest = smallest_size(domain_folder(domain).size_model) or 1
    return range(smallest, smallest + 12)


def train_on_generated(domain: str, config: GNNTraining, out: Path, sizes: Sequence[int] | None = None,
                       cache_dir: Path | None = None, progress: Callable[[str], None] = lambda line: None,
                       force: bool = False) -> TrainingReport:
    """Teacher data from the domain's generator, then `train_gnn`; `training.json` lands beside the checkpoint.

    `out` must be new, or hold a model trained with the same settings: another model there is
    refused (InputError), or with `force` removed first.
    """
    sizes = default_training_sizes(domain) if sizes is None else sizes
    settings = {**asdict(config), "sizes": list(sizes)}
    out.mkdir(parents=True, exist_ok=True)
    claim_folder(out, Provenance("GNN training", "generator", domain, settings), CHECKPOINT_FILES, force)
    trajectories = teacher_data(domain, sizes, config.per_size, config.seed, config.planner, config.time_limit,
                                heuristics=config.value == "q-heu", cache_dir=cache_dir, progress=progress)
    if not trajectories:
        raise InputError(f"{config.planner} solved no training instance of {domain} within {config.time_limit} s")
    fixed_set = []
    if config.fixed_validation:
        fixed_set = fixed_validation_set(domain, max(t.size for t in trajectories), config.fixed_validation,
                                         config.seed, config.planner, config.time_limit,
                                         heuristics=config.value == "q-heu", cache_dir=cache_dir, progress=progress)
        if not fixed_set:
            raise InputError(f"{config.planner} solved no fixed validation instance of {domain} within "
                             f"{config.time_limit} s")
    report = train_gnn(domain, trajectories, config, out, progress, fixed_set)
    write_text_atomically(out / TRAINING_REPORT, json.dumps(
        {**asdict(report), "examples_per_second": report.examples_per_second}, indent=2) + "\n")
    return report


def _examples(trajectories: Sequence[TeacherTrajectory], value: str) -> list:
    if value == "v":
        # every labelled state, and the goal state at the end of each trajectory with h* = 0
        return [(label.state, label.cost_to_go) for t in trajectories for label in t.labels] + \
               [(t.states[-1], 0.0) for t in trajectories]
    return [label for t in trajectories for label in t.labels]


def _fixed_scores(model: RelationalGNN, encoder: StateEncoder, fixed_set: Sequence[TeacherTrajectory],
                  examples: list, bound: int, config: GNNTraining, device: torch.device) -> FixedScores:
    """The training loss over the fixed set's labelled states, and the share of its instances solved."""
    model.eval()
    total = 0.0
    with torch.no_grad():
        for first in range(0, len(examples), config.batch_size):
            chunk = examples[first:first + config.batch_size]
            total += _batch_loss(model, encoder, chunk, config, device).item() * len(chunk)
    coverage = fixed_coverage(cpu_policy(model, encoder), fixed_set, bound)
    return FixedScores(total / len(examples), coverage)


def _batch_loss(model: RelationalGNN, encoder: StateEncoder, chunk: list, config: GNNTraining,
                device: torch.device) -> torch.Tensor:
    if config.value == "v":
        batch = encoder.encode([(state, ()) for state, _ in chunk]).to(device)
        return value_loss(model(batch), torch.tensor([h for _, h in chunk], device=device))
    batch = encoder.encode([(label.state, label.actions) for label in chunk]).to(device)
    offsets = torch.tensor([0, *batch.action_counts[:-1]]).cumsum(0)
    teacher = (offsets + torch.tensor([label.teacher for label in chunk])).to(device)
    cost_to_go = torch.tensor([label.cost_to_go for label in chunk], device=device)
    kind = _REGULARISER[config.value]
    bounds = None if kind == "none" else torch.tensor(regulariser_bounds(
        kind, [label.cost_to_go for label in chunk], [label.action_costs for label in chunk],
        [label.successor_heuristics for label in chunk]), device=device)
    return q_loss(model(batch), batch.action_graph, teacher, cost_to_go, bounds, config.regulariser_weight)


def _validation_start(trajectories: Sequence[TeacherTrajectory]) -> tuple[int, int]:
    """Validation starts above the largest training size with L = 3N, N the mean plan length there."""
    largest = max(t.size for t in trajectories)
    lengths = [len(t.plan) for t in trajectories if t.size == largest]
    return largest, max(1, round(3 * sum(lengths) / len(lengths)))
