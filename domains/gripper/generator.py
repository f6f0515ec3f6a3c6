"""Gripper instances: all balls start in rooma and must go to roomb (as pddl-generators' gripper)."""

from __future__ import annotations

from stratpol.generation.size_model import Argument, SizeModel

balls = Argument("balls", low=1)
SIZE_MODEL = SizeModel([balls], objects=balls + 4)  # rooma, roomb, left, right


def generate(balls: int, seed: int = 0) -> str:
    """PDDL text of the gripper instance with `balls` balls; there is nothing random to seed."""
    if balls < 1:
        raise ValueError(f"gripper needs at least one ball, not {balls}")
    names = [f"ball{i}" for i in range(1, balls + 1)]
    at = "\n    ".join(f"(at {b} rooma)" for b in names)
    goal = "\n    ".join(f"(at {b} roomb)" for b in names)
    return f""";; balls={balls}, seed={seed}
(define (problem gripper-{balls})
  (:domain gripper)
  (:objects rooma roomb - room
            left right - gripper
            {" ".join(names)} - ball)
  (:init
    (at-robby rooma)
    (free left)
    (free right)
    {at})
  (:goal (and
    {goal})))
"""
