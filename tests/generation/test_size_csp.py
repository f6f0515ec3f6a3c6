"""Size models and their CP-SAT enumeration, checked against brute force on random models."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.generation.size_csp import inputs_of_size, size_exists, smallest_size
from stratpol.generation.size_model import Argument, Free, SizeModel


def _brute(model: SizeModel, n: int) -> list[dict]:
    ranges = [range(a.low, (n if a.high is None else min(a.high, n)) + 1) for a in model.arguments]
    names = [a.name for a in model.arguments]
    found = [dict(zip(names, v)) for v in itertools.product(*ranges)]
    return [v for v in found if model.size(v) == n and model.admits(v)]


@st.composite
def size_models(draw):
    count = draw(st.integers(1, 3))
    arguments = [Argument(f"a{i}", draw(st.integers(0, 2)), draw(st.one_of(st.none(), st.integers(2, 6))))
                 for i in range(count)]
    objects = draw(st.integers(0, 4))
    for argument in arguments:
        objects = objects + draw(st.integers(1, 3)) * argument
    if count >= 2 and draw(st.booleans()):
        objects = objects + arguments[0] * arguments[1]
    constraints = []
    if count >= 2 and draw(st.booleans()):
        constraints.append(arguments[0] <= arguments[1])
    if draw(st.booleans()):
        constraints.append(arguments[-1] * 2 >= draw(st.integers(0, 4)))
    return SizeModel(arguments, objects, constraints)


@settings(max_examples=60, deadline=None)
@given(size_models(), st.integers(0, 25))
def test_enumeration_equals_brute_force(model, n):
    expected = sorted(_brute(model, n), key=lambda v: [v[a.name] for a in model.arguments])
    assert inputs_of_size(model, n) == expected
    assert size_exists(model, n) == bool(expected)


def test_products_and_constraints_as_written():
    rows, columns, packages = Argument("rows", 1), Argument("columns", 1), Argument("packages", 1)
    model = SizeModel([rows, columns, packages], objects=rows * columns + packages + 1,
                      constraints=[packages + 2 <= rows * columns])
    assert model.formula() == "n = columns * rows + packages + 1; packages + 2 <= columns * rows"
    assert inputs_of_size(model, 8) == [
        {"rows": 1, "columns": 5, "packages": 2}, {"rows": 1, "columns": 6, "packages": 1},
        {"rows": 2, "columns": 3, "packages": 1}, {"rows": 3, "columns": 2, "packages": 1},
        {"rows": 5, "columns": 1, "packages": 2}, {"rows": 6, "columns": 1, "packages": 1},
    ]
    assert inputs_of_size(model, 8, limit=2) == inputs_of_size(model, 8)[:2]
    assert smallest_size(model) == 5  # 1 x 3 grid, one package, one truck


def test_the_childsnack_example_of_the_paper():
    # n = 3 children + trays + sandwiches + 3 tables, at least as many sandwiches as children
    children, trays, sandwiches = Argument("children", 1), Argument("trays", 1), Argument("sandwiches", 1)
    model = SizeModel([children, trays, sandwiches], 3 * children + trays + sandwiches + 3,
                      [children <= sandwiches])
    assert smallest_size(model) == 8
    assert inputs_of_size(model, 9) == [{"children": 1, "trays": 1, "sandwiches": 2},
                                        {"children": 1, "trays": 2, "sandwiches": 1}]


def test_undeclared_arguments_are_rejected():
    with pytest.raises(ValueError, match="undeclared"):
        SizeModel([Argument("a")], Argument("a") + Argument("b"))


def test_free_arguments_draw_within_dependent_ranges():
    import random

    allergic = Free("allergic", 0, Argument("children"))
    rng = random.Random(0)
    draws = {allergic.draw({"children": 3}, rng) for _ in range(200)}
    assert draws == {0, 1, 2, 3}
    ratio = Free("ratio", 0.2, 0.8, real=True).draw({}, rng)
    assert 0.2 <= ratio <= 0.8
    assert Free("mode", choices=("a", "b")).draw({}, rng) in ("a", "b")


def test_ctrl_c_after_a_solve_is_still_a_keyboard_interrupt():
    # CP-SAT's own SIGINT handler would end the process (exit code 130) instead: a scaling
    # evaluation could then neither stop its worker processes nor say it was interrupted
    import subprocess
    import sys

    script = ("import os, signal, time\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\n"  # as started from a terminal
              "from stratpol.generation import domain_folder\n"
              "from stratpol.generation.size_csp import size_exists\n"
              "assert size_exists(domain_folder('blocksworld').size_model, 7)\n"
              "try:\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    time.sleep(5)\n"
              "except KeyboardInterrupt:\n"
              "    print('KeyboardInterrupt')\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout.strip()) == (0, "KeyboardInterrupt"), result.stderr
