"""ZenoTravel instances with one plane (the gp2024 zenotravel-1plane variant, untyped): pddl-generators'
`ztravel -u SEED CITIES 1 PEOPLE` (stratpol.generation.ztravel draws them).
"""

from __future__ import annotations

from stratpol.generation.size_model import Argument, SizeModel
from stratpol.generation.ztravel import ztravel_problem

cities, people = Argument("cities", low=2), Argument("people", low=1)
SIZE_MODEL = SizeModel([cities, people], objects=cities + people + 8)  # plane1, fl0..fl6


def generate(cities: int, people: int, seed: int = 0) -> str:
    """PDDL text of a one-plane task with `cities` cities (>= 2) and `people` people (>= 1)."""
    if cities < 2 or people < 1:
        raise ValueError(f"zenotravel needs at least 2 cities and 1 person, not {cities} and {people}")
    return ztravel_problem(cities, 1, people, seed)


BENCHMARKS = ("gp2024/zenotravel-1plane",)
