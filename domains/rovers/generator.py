"""Rovers instances as the IPC 2023 learning-track generator makes them.

`rovers.py -r R -w W -c C -o O --seed S`: lander `general`, modes colour/high_res/low_res,
rovers rover1..roverR with stores rover<i>store, waypoints waypoint1..waypointW, cameras
camera1..cameraC, objectives objective1..objectiveO (so the count is exact, unlike rovgen, which
adds cameras at random).

- The lander and every rover stand at random waypoints. Soil, rock and imaging equipment each go
  to a random non-empty set of rovers; every store starts empty.
- Each waypoint holds a rock sample with probability 1/2, and a soil sample with probability 1/2.
- `visible` is a random connected undirected graph (random spanning tree plus extra edges, the
  number of edges uniform in [W-1, W(W-1)/2]); each rover can traverse the spanning tree and each
  other visible edge with probability 3/10 (both directions).
- Each camera has a random calibration target, sits on a random imaging rover and supports 1..3
  random modes; a mode no camera supports goes to a random non-empty set of cameras.
- Each objective is visible from a random non-empty set of waypoints.
- Goal: random numbers (uniform from 0) of communicated rock and soil data of sample waypoints and
  of communicated images of (objective, mode) pairs. The goal can be empty; such instances are
  trivial and the sampler redraws them.

Every instance is solvable: each rover reaches every waypoint, every waypoint has a visible
neighbour (a place to talk to the lander), every equipment and every mode is available.
"""

from __future__ import annotations

import random

from stratpol.generation.graphs import random_connected_graph
from stratpol.generation.size_model import Argument, SizeModel

rovers = Argument("rovers", low=1)
waypoints = Argument("waypoints", low=2)
cameras = Argument("cameras", low=1)
objectives = Argument("objectives", low=1)
SIZE_MODEL = SizeModel(
    [rovers, waypoints, cameras, objectives],
    objects=2 * rovers + waypoints + cameras + objectives + 4,  # rovers and stores; lander, 3 modes
)

MODES = ("colour", "high_res", "low_res")


def _both(edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted(edges + [(b, a) for a, b in edges])


def generate(rovers: int, waypoints: int, cameras: int, objectives: int, seed: int = 42) -> str:
    """PDDL text of a random rovers instance (see the module docstring)."""
    if rovers < 1 or waypoints < 2 or cameras < 1 or objectives < 1:
        raise ValueError("rovers needs rovers >= 1, waypoints >= 2, cameras >= 1, objectives >= 1, "
                         f"not {rovers}, {waypoints}, {cameras}, {objectives}")
    rng = random.Random(seed)
    init = [f"(at_lander general waypoint{rng.randint(1, waypoints)})"]
    init += [f"(at rover{r} waypoint{rng.randint(1, waypoints)})" for r in range(1, rovers + 1)]
    equipped = {}
    for kind in ("soil_analysis", "rock_analysis", "imaging"):
        shuffled = list(range(1, rovers + 1))
        rng.shuffle(shuffled)
        equipped[kind] = sorted(shuffled[:rng.randint(1, rovers)])
        init += [f"(equipped_for_{kind} rover{r})" for r in equipped[kind]]
    init += [f"(empty rover{r}store)" for r in range(1, rovers + 1)]
    init += [f"(store_of rover{r}store rover{r})" for r in range(1, rovers + 1)]
    rock = [w for w in range(1, waypoints + 1) if rng.random() < 0.5]
    soil = [w for w in range(1, waypoints + 1) if rng.random() < 0.5]
    init += [f"(at_rock_sample waypoint{w})" for w in rock]
    init += [f"(at_soil_sample waypoint{w})" for w in soil]
    tree, extra = random_connected_graph(waypoints, rng)
    init += [f"(visible waypoint{a} waypoint{b})" for a, b in _both(tree + extra)]
    for r in range(1, rovers + 1):
        traversable = tree + [edge for edge in extra if rng.randint(1, 10) <= 3]
        init += [f"(can_traverse rover{r} waypoint{a} waypoint{b})" for a, b in _both(traversable)]
    supported = set()
    for c in range(1, cameras + 1):
        init.append(f"(calibration_target camera{c} objective{rng.randint(1, objectives)})")
        init.append(f"(on_board camera{c} rover{rng.choice(equipped['imaging'])})")
        modes = list(MODES)
        rng.shuffle(modes)
        modes = sorted(modes[:rng.randint(1, len(modes))])
        supported.update(modes)
        init += [f"(supports camera{c} {m})" for m in modes]
    for m in MODES:
        if m not in supported:
            shuffled = list(range(1, cameras + 1))
            rng.shuffle(shuffled)
            init += [f"(supports camera{c} {m})" for c in sorted(shuffled[:rng.randint(1, cameras)])]
    for o in range(1, objectives + 1):
        shuffled = list(range(1, waypoints + 1))
        rng.shuffle(shuffled)
        init += [f"(visible_from objective{o} waypoint{w})" for w in sorted(shuffled[:rng.randint(1, waypoints)])]
    goal = []
    for kind, samples in (("rock", rock), ("soil", soil)):
        chosen = samples[:]
        rng.shuffle(chosen)
        goal += [f"(communicated_{kind}_data waypoint{w})" for w in sorted(chosen[:rng.randint(0, len(chosen))])]
    images = [(o, m) for o in range(1, objectives + 1) for m in MODES]
    rng.shuffle(images)
    goal += [f"(communicated_image_data objective{o} {m})" for o, m in sorted(images[:rng.randint(0, len(images))])]
    nl = "\n    "
    return f""";; rovers={rovers}, waypoints={waypoints}, cameras={cameras}, objectives={objectives}, seed={seed}
(define (problem rover-{rovers}-{waypoints}-{cameras}-{objectives}-{seed})
  (:domain rover)
  (:objects
    general - lander
    {" ".join(MODES)} - mode
    {" ".join(f"rover{r}" for r in range(1, rovers + 1))} - rover
    {" ".join(f"rover{r}store" for r in range(1, rovers + 1))} - store
    {" ".join(f"waypoint{w}" for w in range(1, waypoints + 1))} - waypoint
    {" ".join(f"camera{c}" for c in range(1, cameras + 1))} - camera
    {" ".join(f"objective{o}" for o in range(1, objectives + 1))} - objective)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/rovers",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; rovers=..., objectives=...` header."""
    names = ("rovers", "waypoints", "cameras", "objectives")
    return {k: int(header[k]) for k in names} if all(k in header for k in names) else None
