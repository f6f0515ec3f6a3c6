"""Satellite instances as the IPC 2023 learning-track generator makes them.

`satellite.py -s S -i I -m M -d D --seed X`: satellites sat1..satS, instruments ins1..insI, modes
mod1..modM, directions dir1..dirD. Every satellite points at a random direction and has power;
every instrument has a random calibration target. Instruments ins1..insS go one to each satellite
(a random permutation), the others to random satellites, so every satellite carries one at least
and the instrument count is exactly I (unlike pddl-generators' satgen, which draws the number of
instruments per satellite). (instrument, mode) pairs are drawn in random order, each one becoming a
`supports` fact, until every instrument and every mode occurs in one. The goal points each satellite
at a random direction with probability 1/2 and asks for a random non-empty set of (direction, mode)
images, its size uniform in 1..D*M.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

satellites = Argument("satellites", low=1)
instruments = Argument("instruments", low=1)
modes = Argument("modes", low=1)
directions = Argument("directions", low=2)
SIZE_MODEL = SizeModel(
    [satellites, instruments, modes, directions],
    objects=satellites + instruments + modes + directions,
    constraints=[instruments >= satellites],  # every satellite carries an instrument
)


def generate(satellites: int, instruments: int, modes: int, directions: int, seed: int = 42) -> str:
    """PDDL text of a random satellite instance (see the module docstring)."""
    if satellites < 1 or instruments < satellites or modes < 1 or directions < 2:
        raise ValueError("satellite needs satellites >= 1, instruments >= satellites, modes >= 1, directions >= 2, "
                         f"not {satellites}, {instruments}, {modes}, {directions}")
    rng = random.Random(seed)
    init = [f"(pointing sat{s} dir{rng.randint(1, directions)})" for s in range(1, satellites + 1)]
    init += [f"(power_avail sat{s})" for s in range(1, satellites + 1)]
    init += [f"(calibration_target ins{i} dir{rng.randint(1, directions)})" for i in range(1, instruments + 1)]
    owners = list(range(1, satellites + 1))
    rng.shuffle(owners)
    owners += [rng.randint(1, satellites) for _ in range(satellites, instruments)]
    init += [f"(on_board ins{i} sat{s})" for i, s in enumerate(owners, start=1)]
    pairs = [(i, m) for i in range(1, instruments + 1) for m in range(1, modes + 1)]
    rng.shuffle(pairs)
    unused_instruments, unused_modes = set(range(1, instruments + 1)), set(range(1, modes + 1))
    for i, m in pairs:
        if not unused_instruments and not unused_modes:
            break
        unused_instruments.discard(i)
        unused_modes.discard(m)
        init.append(f"(supports ins{i} mod{m})")
    goal = [f"(pointing sat{s} dir{rng.randint(1, directions)})" for s in range(1, satellites + 1) if rng.random() < 0.5]
    images = [(d, m) for d in range(1, directions + 1) for m in range(1, modes + 1)]
    rng.shuffle(images)
    goal += [f"(have_image dir{d} mod{m})" for d, m in images[:rng.randint(1, len(images))]]
    nl = "\n    "
    return f""";; satellites={satellites}, instruments={instruments}, modes={modes}, directions={directions}, seed={seed}
(define (problem satellite-{satellites}-{instruments}-{modes}-{directions}-{seed})
  (:domain satellite)
  (:objects
    {" ".join(f"sat{i}" for i in range(1, satellites + 1))} - satellite
    {" ".join(f"ins{i}" for i in range(1, instruments + 1))} - instrument
    {" ".join(f"mod{i}" for i in range(1, modes + 1))} - mode
    {" ".join(f"dir{i}" for i in range(1, directions + 1))} - direction)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/satellite",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; satellites=..., directions=...` header."""
    names = ("satellites", "instruments", "modes", "directions")
    return {k: int(header[k]) for k in names} if all(k in header for k in names) else None
