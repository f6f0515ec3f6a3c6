"""ZenoTravel instances with one person (the gp2024 zenotravel-1person variant, untyped): pddl-generators'
`ztravel -u SEED CITIES PLANES 1` (stratpol.generation.ztravel draws them).
"""

from __future__ import annotations

from stratpol.generation.size_model import Argument, SizeModel
from stratpol.generation.ztravel import ztravel_problem

cities, planes = Argument("cities", low=2), Argument("planes", low=1)
SIZE_MODEL = SizeModel([cities, planes], objects=cities + planes + 8)  # person1, fl0..fl6


def generate(cities: int, planes: int, seed: int = 0) -> str:
    """PDDL text of a one-person task with `cities` cities (>= 2) and `planes` planes (>= 1)."""
    if cities < 2 or planes < 1:
        raise ValueError(f"zenotravel needs at least 2 cities and 1 plane, not {cities} and {planes}")
    return ztravel_problem(cities, planes, 1, seed)


BENCHMARKS = ("gp2024/zenotravel-1person",)
