"""Plan decoding (the paper's Algorithm 1 with a beam), and following a decoded plan.

The true symbolic state is kept throughout: at each step every beam entry asks the model for its
target v_t, enumerates its valid successors (never one already on its own path), and scores each
by its distance to v_t; the score of a path is the sum of its distances. The `width` best
extensions of all entries form the next beam. Decoding stops at the first goal state, when no
entry can move, or after max(100, 10 |O|) steps.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

import numpy as np

from neural.wl.features import ColourCounts, WLFeatures
from neural.wl.models import TransitionModel, distances, target
from stratpol.planning import Instance, State, Successor


def step_cap(instance: Instance) -> int:
    """The paper's dynamic horizon max(100, 10 |O|)."""
    return max(100, 10 * len(instance.objects))


@dataclass
class DecodeResult:
    """The best path found (a valid action sequence from the start), whether it ends in a goal, and the colours met."""

    solved: bool
    path: tuple[Successor, ...]
    steps: int
    colours: ColourCounts = field(default_factory=ColourCounts)

    @property
    def plan(self):
        return tuple(s.action for s in self.path)


@dataclass
class _Entry:
    score: float
    state: State
    path: tuple[Successor, ...]
    visited: frozenset[State]
    memory: object


class Decoder:
    """Algorithm 1 of the paper with beam width `width` for one trained model and its features."""

    def __init__(self, features: WLFeatures, model: TransitionModel, width: int = 3) -> None:
        if width < 1:
            raise ValueError(f"the beam width must be at least 1, not {width}")
        self.features, self.model, self.width = features, model, width

    def decode(self, instance: Instance, start: State | None = None, max_steps: int | None = None,
               exclude: Container[State] = ()) -> DecodeResult:
        """Decode a plan from `start` (default: the initial state); `exclude` states are never entered."""
        start = instance.initial_state if start is None else start
        max_steps = step_cap(instance) if max_steps is None else max_steps
        colours = ColourCounts()
        goal = self.features.embed_goal(instance, colours)
        embedded: dict[State, np.ndarray] = {start: self.features.embed([start], colours)[0]}
        beam = [_Entry(0.0, start, (), frozenset([start]), None)]
        for step in range(max_steps + 1):
            for entry in beam:
                if instance.is_goal(entry.state):
                    return DecodeResult(True, entry.path, step, colours)
            if step == max_steps:
                break
            states = np.stack([embedded[e.state] for e in beam])
            outputs, memories = self.model.predict(states, goal, [e.memory for e in beam])
            targets = target(outputs, states, self.model.mode)
            candidates: list[_Entry] = []
            for entry, wanted, memory in zip(beam, targets, memories):
                options = sorted((s for s in instance.successors(entry.state)
                                  if s.state not in entry.visited and s.state not in exclude),
                                 key=lambda s: str(s.action))
                if not options:
                    continue
                fresh = [s.state for s in options if s.state not in embedded]
                for state, row in zip(fresh, self.features.embed(fresh, colours)):
                    embedded[state] = row
                scores = distances(np.stack([embedded[s.state] for s in options]), wanted, self.model.mode)
                candidates.extend(
                    _Entry(entry.score + float(d), s.state, (*entry.path, s), entry.visited | {s.state}, memory)
                    for s, d in zip(options, scores))
            if not candidates:
                break
            candidates.sort(key=lambda e: e.score)  # stable: ties keep beam and action-name order
            beam = candidates[:self.width]
            if len(embedded) > 50_000:  # long decodes on large instances: keep the beam's own states
                embedded = {e.state: embedded[e.state] for e in beam}
        best = beam[0]
        return DecodeResult(False, best.path, len(best.path), colours)


class DecodedPlanFollower:
    def __init__(self, decoder: Decoder, instance: Instance) -> None:
        self.decoder, self.instance = decoder, instance
        self.next: dict[State, Successor] = {}
        self.colours = ColourCounts()

    def choose(self, state: State, exclude: Container[State] = ()) -> Successor | None:
        step = self.next.get(state)
        if step is None or step.state in exclude:
            result = self.decoder.decode(self.instance, state, exclude=exclude)
            self.colours.add(result.colours.seen, result.colours.unseen)
            at = state
            for successor in result.path:
                self.next[at] = successor
                at = successor.state
            step = self.next.get(state) if result.path else None
        return None if step is None or step.state in exclude else step
