"""Dynamic validation's choice among the checkpoints of one training run, over a window of sizes
that may grow while checkpoints solve all of it.

The validation paper's Algorithm 2 goes up in size until coverage drops to tau; here a window of K
sizes above the training ones caps it (the budget of a CPU). Every checkpoint that solves the whole
window then scores K, and the first of them stays selected however much later ones improve
(seeds.toml's ferry V: the first of 14 such checkpoints, with loss 0.79, later ones down to 0.35).
With a growth of g, a checkpoint that solves the whole window (coverage above tau at its last size)
grows it by g sizes, and the best checkpoint so far is judged on the added sizes too, so that every
score compared covers the same sizes. A window that cannot grow settles the choice once a checkpoint
solves all of it: later ones can only tie, and ties keep the earlier one."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import torch

from stratpol.evaluation.scaling import LARGEST_VALIDATION_SIZE, ValidationResult, dynamic_validation
from stratpol.generation import DomainFolder
from stratpol.generation.size_csp import size_exists
from neural.encoding import StateEncoder
from neural.policies import GNNPolicy
from neural.rgnn import RelationalGNN


@dataclass(frozen=True)
class Judgement:
    """One checkpoint's validation result, whether it is the best so far, and the window's last size."""

    result: ValidationResult
    best: bool
    window_end: int
    grown: bool  # the window grew while this checkpoint was judged


class CheckpointSelection:
    """Keeps the best checkpoint of a run by dynamic validation, judging each on the current window."""

    def __init__(self, folder: DomainFolder, encoder: StateEncoder, start_size: int, plan_length_bound: int,
                 instances: int, tau: float, sizes: int, growth: int = 0, seed: int = 0,
                 progress: Callable[[str], None] = lambda line: None) -> None:
        self.folder, self.encoder = folder, encoder
        self.start_size, self.plan_length_bound = start_size, plan_length_bound
        self.instances, self.tau, self.growth, self.seed = instances, tau, growth, seed
        self.progress = progress
        self.window_end = min(start_size + sizes, LARGEST_VALIDATION_SIZE)
        self.best: ValidationResult | None = None
        self._best_model: RelationalGNN | None = None

    def judge(self, model: RelationalGNN) -> Judgement:
        """Validate `model` (growing the window while it solves all of it); a copy is kept when it is best."""
        result = self._validate(model, self.start_size, self.window_end)
        grown = False
        while self.growth and self._fills_window(result) and self.window_end < LARGEST_VALIDATION_SIZE:
            end = min(self.window_end + self.growth, LARGEST_VALIDATION_SIZE)
            self.progress(f"validation window grows to size {end} (sizes {self.window_end + 1}-{end} added)")
            if self.best is not None and self._fills_window(self.best):
                self.best = _joined(self.best, self._validate(self._best_model, self.window_end, end))
            result = _joined(result, self._validate(model, self.window_end, end))
            self.window_end, grown = end, True
        best = self.best is None or result.score > self.best.score
        if best:
            self.best, self._best_model = result, copy.deepcopy(model).eval()
        return Judgement(result, best, self.window_end, grown)

    @property
    def settled(self) -> bool:
        """Whether no later checkpoint can be selected: the best solves every instance of a window
        that cannot grow, so a later one could at most tie it."""
        if self.best is None or (self.growth and self.window_end < LARGEST_VALIDATION_SIZE):
            return False
        sizes = sum(size_exists(self.folder.size_model, size) for size in range(self.start_size + 1, self.window_end + 1))
        return self.best.score >= sizes

    def _validate(self, model: RelationalGNN, above: int, end: int) -> ValidationResult:
        """Algorithm 2 over the sizes above `above` up to `end`."""
        return dynamic_validation(cpu_policy(model, self.encoder), self.folder, above, self.plan_length_bound,
                                  self.instances, self.tau, max_size=end, seed=self.seed)

    def _fills_window(self, result: ValidationResult) -> bool:
        """Validation reached the window's end without coverage dropping to tau."""
        return bool(result.coverage) and result.coverage[max(result.coverage)] > self.tau


def cpu_policy(model: RelationalGNN, encoder: StateEncoder) -> GNNPolicy:
    """`model` as a policy that decides on the CPU, a copy where `model` trains on a GPU: one state's
    decision is launch-bound there (30 layers: ~30 ms on an H200 against 16 ms on one CPU thread)."""
    on_cpu = model if next(model.parameters()).device.type == "cpu" else copy.deepcopy(model).cpu()
    return GNNPolicy(on_cpu, encoder, device=torch.device("cpu"))


def _joined(first: ValidationResult, then: ValidationResult) -> ValidationResult:
    return ValidationResult(first.score + then.score, {**first.coverage, **then.coverage})
