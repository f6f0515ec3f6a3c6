"""Plan validation (no search trusted) and IPC plan files."""

from __future__ import annotations

import pytest
from helpers import gripper_instance

from stratpol.errors import InputError
from stratpol.planning import GroundAction
from stratpol.planning.plans import format_plan, parse_plan, read_plan, validate_plan, write_plan


def _actions(*texts: str) -> tuple[GroundAction, ...]:
    return parse_plan("\n".join(texts))


OPTIMAL_2 = _actions(
    "(pick ball1 rooma left)", "(pick ball2 rooma right)", "(move rooma roomb)",
    "(drop ball1 roomb left)", "(drop ball2 roomb right)",
)


def test_valid_plan(gripper):
    check = validate_plan(gripper_instance(gripper, 2), OPTIMAL_2)
    assert check.valid and check.steps == 5 and check.cost == 5.0
    assert check.describe() == "valid: 5 steps, cost 5"


def test_precondition_failure_names_the_step(gripper):
    plan = OPTIMAL_2[:2] + _actions("(drop ball1 roomb left)")
    check = validate_plan(gripper_instance(gripper, 2), plan)
    assert not check.valid
    assert check.reason == "step 3: precondition of (drop ball1 roomb left) does not hold"
    assert check.steps == 2


def test_goal_failure_lists_what_is_missing(gripper):
    check = validate_plan(gripper_instance(gripper, 2), OPTIMAL_2[:4])
    assert not check.valid and check.reason == "the goal does not hold at the end: (at ball2 roomb)"


def test_unknown_actions_and_objects_are_invalid_not_errors(gripper):
    instance = gripper_instance(gripper, 2)
    assert "unknown action 'fly'" in validate_plan(instance, _actions("(fly rooma)")).reason
    assert "ball7" in validate_plan(instance, _actions("(pick ball7 rooma left)")).reason
    assert "takes 3 arguments" in validate_plan(instance, _actions("(pick ball1)")).reason


def test_validation_from_another_start_state(gripper):
    instance = gripper_instance(gripper, 2)
    after_two = instance.apply(instance.apply(instance.initial_state, OPTIMAL_2[0])[0], OPTIMAL_2[1])[0]
    assert validate_plan(instance, OPTIMAL_2[2:], start=after_two).valid
    assert not validate_plan(instance, OPTIMAL_2, start=after_two).valid


def test_plan_file_round_trip(tmp_path, gripper):
    path = tmp_path / "out" / "plan.ipc"
    write_plan(path, OPTIMAL_2, 5.0)
    assert path.read_text().splitlines()[-1] == "; cost = 5 (unit cost)"
    assert read_plan(path) == OPTIMAL_2
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def test_plan_text_is_case_insensitive_and_skips_comments():
    plan = parse_plan("; a comment\n(PICK Ball1 rooma left) ; trailing\n\n(move rooma roomb)\n")
    assert plan == (GroundAction("pick", ("ball1", "rooma", "left")), GroundAction("move", ("rooma", "roomb")))
    assert format_plan(plan).startswith("(pick ball1 rooma left)\n(move rooma roomb)\n")


@pytest.mark.parametrize("text", ["(pick ball1", "pick ball1)", "((pick) x)", "(pick (ball1))"])
def test_malformed_plan_text(text):
    with pytest.raises(InputError, match="plan"):
        parse_plan(text, "bad.plan")


def test_missing_plan_file(tmp_path):
    with pytest.raises(InputError, match="plan file not found"):
        read_plan(tmp_path / "none.plan")


def test_names_are_case_insensitive_as_in_pddl(blocksworld):
    instance = blocksworld.instance_from_text(
        "(define (problem caps) (:domain blocksworld) (:objects A B)"
        " (:init (arm-empty) (on-table A) (on-table B) (clear A) (clear B)) (:goal (on A B)))"
    )
    plan = parse_plan("(pickup a)\n(STACK a b)")
    check = validate_plan(instance, plan)
    assert check.valid, check.reason
