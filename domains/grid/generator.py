"""Grid instances as pddl-generators' newer `grid/generate.py X Y` (solvable by construction).

Places pos<x>-<y> on an X x Y grid (4-neighbour `conn` both ways), shapes shape0.., keys key0..;
`locks` distinct random places are locked (the robot starts on an open one). Keys 0..S-1 and locks
0..S-1 get shapes 0..S-1, the others uniform random shapes. Keys are placed by growing the robot's
reachable region: while some place is unreachable, a uniform random locked place on the border of
the region is chosen, one key of its shape (uniform among them) goes to a uniform random reachable
place and the shape's other keys to uniform random places, and all locks of that shape count as
open. Each key gets a goal place (uniform, different from its start) with probability `prob_goal`;
if none does, one uniform random key gets one.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, Free, SizeModel

x, y = Argument("x", low=2), Argument("y", low=2)
shapes, keys = Argument("shapes", low=1), Argument("keys", low=1)
SIZE_MODEL = SizeModel(
    [x, y, shapes, keys],
    objects=x * y + shapes + keys,
    constraints=[shapes <= keys, shapes <= x * y - 1],
    free=[Free("locks", shapes, x * y - 1), Free("prob_goal", 0.0, 1.0, real=True)],
)

Pos = tuple[int, int]


def _adjacent(p: Pos, positions: set[Pos]) -> list[Pos]:
    return [q for q in ((p[0] + 1, p[1]), (p[0], p[1] + 1), (p[0] - 1, p[1]), (p[0], p[1] - 1)) if q in positions]


def _name(p: Pos) -> str:
    return f"pos{p[0]}-{p[1]}"


def generate(x: int, y: int, shapes: int, keys: int, locks: int, prob_goal: float = 1.0, seed: int = 1) -> str:
    """PDDL text of an x * y grid with `shapes` key/lock shapes, `keys` keys and `locks` locks."""
    if not (x >= 2 and y >= 2 and 1 <= shapes <= keys and shapes <= locks < x * y and 0.0 <= prob_goal <= 1.0):
        raise ValueError(f"grid needs x, y >= 2, 1 <= shapes <= keys, shapes <= locks < x * y and "
                         f"0 <= prob_goal <= 1, not {x=} {y=} {shapes=} {keys=} {locks=} {prob_goal=}")
    rng = random.Random(seed)
    positions = [(i, j) for i in range(x) for j in range(y)]
    everywhere = set(positions)
    locked = rng.sample(positions, locks)
    open_positions = [p for p in positions if p not in set(locked)]
    robot = rng.choice(open_positions)
    shape_names = [f"shape{s}" for s in range(shapes)]
    key_names = [f"key{k}" for k in range(keys)]
    key_shape = [s if s < shapes else rng.randrange(shapes) for s in range(keys)]
    lock_shape = {p: (i if i < shapes else rng.randrange(shapes)) for i, p in enumerate(locked)}

    # grow the reachable region, placing the keys that open its border
    key_at: dict[int, Pos] = {}
    reachable, frontier, passable = [robot], set(), set(open_positions)
    seen = {robot}
    i = 0
    while len(reachable) < len(positions):
        while i < len(reachable):
            for q in _adjacent(reachable[i], everywhere):
                if q in seen:
                    continue
                if q in passable:
                    reachable.append(q)
                    seen.add(q)
                else:
                    frontier.add(q)
            i += 1
        if frontier:
            door = rng.choice(sorted(frontier))
            shape = lock_shape[door]
            same = [k for k in range(keys) if key_shape[k] == shape]
            sure = rng.choice(same)
            for k in same:
                key_at[k] = rng.choice(reachable) if k == sure else rng.choice(positions)
            passable |= {p for p in locked if lock_shape[p] == shape}
            for p in sorted(frontier):
                if lock_shape[p] == shape:
                    frontier.discard(p)
                    reachable.append(p)
                    seen.add(p)
    assert len(key_at) == keys  # every shape has a lock, so every shape's keys were placed

    goal = []
    for k in range(keys):
        if rng.random() < prob_goal:
            goal.append((k, rng.choice([p for p in positions if p != key_at[k]])))
    if not goal:
        k = rng.randrange(keys)
        goal.append((k, rng.choice([p for p in positions if p != key_at[k]])))

    init = ["(arm-empty)"]
    init += [f"(place {_name(p)})" for p in positions]
    init += [f"(shape {s})" for s in shape_names]
    init += [f"(key {k})" for k in key_names]
    init += [f"(conn {_name(p)} {_name(q)})" for p in positions for q in _adjacent(p, everywhere)]
    init += [f"(locked {_name(p)})" for p in locked]
    init += [f"(lock-shape {_name(p)} {shape_names[lock_shape[p]]})" for p in locked]
    init += [f"(open {_name(p)})" for p in open_positions]
    init += [f"(key-shape {key_names[k]} {shape_names[key_shape[k]]})" for k in range(keys)]
    init += [f"(at {key_names[k]} {_name(key_at[k])})" for k in range(keys)]
    init.append(f"(at-robot {_name(robot)})")
    nl = "\n    "
    return f""";; x={x}, y={y}, shapes={shapes}, keys={keys}, locks={locks}, prob_goal={prob_goal:.3f}, seed={seed}
(define (problem grid-{x}-{y}-{shapes}-{keys}-{locks}-{seed})
  (:domain grid)
  (:objects
    {" ".join(_name(p) for p in positions)}
    {" ".join(shape_names)}
    {" ".join(key_names)})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(f"(at {key_names[k]} {_name(p)})" for k, p in goal)})))
"""
