"""What a decision costs: V-policies against Q-policies on random states of growing size.

As in Table 1 of the Q-value paper: states from random walks (length 25) on generated instances
of each size, randomly initialised models, and the time to pick one action per state. A
V-policy encodes and evaluates every successor; a Q-policy only the state and its actions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch

from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample
from stratpol.generation.size_csp import size_exists
from neural.encoding import StateEncoder
from neural.policies import GNNPolicy, pick_device
from neural.rgnn import RelationalGNN, RGNNConfig
from stratpol.planning import Instance, State


@dataclass(frozen=True)
class DecisionTime:
    size: int
    states: int
    successors: float  # mean branching factor
    value_ms: float  # mean milliseconds per decision of the V-policy
    q_ms: float

    @property
    def ratio(self) -> float:
        return self.value_ms / self.q_ms if self.q_ms else float("inf")


def random_walk_states(instance: Instance, length: int, rng: random.Random) -> list[State]:
    """The states of a random walk from the initial state (shorter if it gets stuck)."""
    states = [instance.initial_state]
    for _ in range(length):
        successors = instance.successors(states[-1])
        if not successors:
            break
        states.append(rng.choice(successors).state)
    return states


def decision_times(domain: str, sizes: Iterable[int], instances: int = 5, walk: int = 25, hidden: int = 32,
                   layers: int = 30, device: str = "auto", seed: int = 0,
                   progress: Callable[[str], None] = lambda line: None) -> list[DecisionTime]:
    """Mean time per decision of untrained V and Q policies on random-walk states of each size.

    Successors are generated before the clock starts, for both: what is timed is encoding and
    the forward pass (V: all successors; Q: the state with its action nodes).
    """
    folder = domain_folder(domain)
    chosen = pick_device(device)
    torch.manual_seed(seed)
    policies = {}
    for head in ("value", "q"):
        encoder = StateEncoder(folder.domain, actions=head == "q")
        policies[head] = GNNPolicy(RelationalGNN(RGNNConfig(encoder.relations, head, hidden, layers)), encoder,
                                   device=chosen)
    rows = []
    for size in sizes:
        if not size_exists(folder.size_model, size):
            continue
        rng = random.Random(f"{folder.name}/{seed}/{size}")
        states = []
        for _ in range(instances):
            instance = folder.domain.instance_from_text(sample(folder, size, rng).text)
            states += random_walk_states(instance, walk, rng)
        branching = [sorted(s.instance.successors(s), key=lambda x: str(x.action)) for s in states]
        times = {}
        for head, policy in policies.items():
            policy.scores(states[0], branching[0])  # warm-up
            if chosen.type == "cuda":
                torch.cuda.synchronize()
            started = time.perf_counter()
            for state, successors in zip(states, branching):
                if successors:
                    policy.scores(state, successors)
            if chosen.type == "cuda":
                torch.cuda.synchronize()
            times[head] = 1000 * (time.perf_counter() - started) / len(states)
        rows.append(DecisionTime(size, len(states), sum(map(len, branching)) / len(states), times["value"], times["q"]))
        progress(f"{folder.name} size {size}: V {times['value']:.1f} ms, Q {times['q']:.1f} ms per decision")
    return rows


def render_decision_times(domain: str, rows: list[DecisionTime]) -> str:
    lines = [f"{domain}: size  states  successors  V ms/decision  Q ms/decision  V/Q"]
    lines += [f"{'':>{len(domain) + 2}}{r.size:>4}  {r.states:>6}  {r.successors:>10.1f}  {r.value_ms:>13.2f}  "
              f"{r.q_ms:>13.2f}  {r.ratio:>4.1f}" for r in rows]
    return "\n".join(lines)
