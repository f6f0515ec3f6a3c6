"""Parsing, states, successors and goal tests of the planning core."""

from __future__ import annotations

import pytest
from helpers import DATA, gripper_instance

from stratpol.errors import InputError
from stratpol.planning import Domain


def test_domain_lists_pddl_predicates_not_types(gripper):
    assert gripper.name == "gripper"
    assert gripper.predicates == {"at-robby": 1, "at": 2, "free": 1, "carry": 2}
    assert gripper.types == ("room", "ball", "gripper")
    assert gripper.static_predicates == frozenset()


def test_instances_share_one_parsed_domain(gripper):
    first, second = gripper_instance(gripper, 2), gripper_instance(gripper, 3)
    assert first.domain is second.domain is gripper
    assert first._problem.get_domain()._advanced_domain == second._problem.get_domain()._advanced_domain


def test_initial_state_atoms_and_statics(gripper):
    instance = gripper_instance(gripper, 2)
    state = instance.initial_state
    assert state.atoms == {
        ("at-robby", ("rooma",)), ("free", ("left",)), ("free", ("right",)),
        ("at", ("ball1", "rooma")), ("at", ("ball2", "rooma")),
    }
    assert ("ball", ("ball1",)) in instance.static_atoms
    assert not any(predicate in ("object", "number") for predicate, _ in instance.static_atoms)
    assert instance.goal_atoms == {("at", ("ball1", "roomb")), ("at", ("ball2", "roomb"))}
    assert instance.objects == ("rooma", "roomb", "left", "right", "ball1", "ball2")


def test_successors_of_initial_gripper_state(gripper):
    instance = gripper_instance(gripper, 2)
    successors = instance.successors(instance.initial_state)
    names = sorted(str(s.action) for s in successors)
    assert names == [
        "(move rooma rooma)", "(move rooma roomb)",
        "(pick ball1 rooma left)", "(pick ball1 rooma right)",
        "(pick ball2 rooma left)", "(pick ball2 rooma right)",
    ]
    assert all(s.cost == 1.0 for s in successors)
    picked = next(s.state for s in successors if str(s.action) == "(pick ball1 rooma left)")
    assert ("carry", ("ball1", "left")) in picked.atoms and ("free", ("left",)) not in picked.atoms


def test_states_are_interned_and_hashable(gripper):
    instance = gripper_instance(gripper, 2)
    a = instance.successors(instance.initial_state)[2].state
    b = instance.successors(instance.initial_state)[2].state
    assert a == b and hash(a) == hash(b) and len({a, b, instance.initial_state}) == 2


def test_state_from_atoms_and_goal_test(gripper):
    instance = gripper_instance(gripper, 2)
    goal = instance.state_from_atoms([
        ("at-robby", ("roomb",)), ("free", ("left",)), ("free", ("right",)),
        ("at", ("ball1", "roomb")), ("at", ("ball2", "roomb")),
    ])
    assert instance.is_goal(goal)
    assert not instance.is_goal(instance.initial_state)
    with pytest.raises(InputError, match="not a fluent predicate"):
        instance.state_from_atoms([("ball", ("ball1",))])
    with pytest.raises(InputError, match="unknown object"):
        instance.state_from_atoms([("at", ("ball9", "rooma"))])


def test_applicability_is_checked_not_looked_up(gripper):
    instance = gripper_instance(gripper, 2)
    state = instance.initial_state
    assert instance.is_applicable(state, instance.action("pick", ["ball1", "rooma", "left"]))
    assert not instance.is_applicable(state, instance.action("pick", ["ball1", "roomb", "left"]))
    # a wrongly typed argument fails the precondition, it does not crash
    assert not instance.is_applicable(state, instance.action("pick", ["left", "rooma", "ball1"]))
    with pytest.raises(InputError, match="unknown action"):
        instance.action("fly", ["rooma"])
    with pytest.raises(InputError, match="takes 3 arguments"):
        instance.action("pick", ["ball1"])


def test_domain_constants_are_kept(oneway):
    assert oneway.constants == ("rooma", "roomb")


def test_missing_and_malformed_files_name_the_file(tmp_path, gripper):
    with pytest.raises(InputError, match="domain file not found") as missing:
        Domain(tmp_path / "nope.pddl")
    assert missing.value.path == tmp_path / "nope.pddl"
    broken = tmp_path / "broken.pddl"
    broken.write_text("(define (domain x) (:predicates (p ?x))")
    with pytest.raises(InputError, match=r"PDDL error \(line \d+\)") as bad:
        Domain(broken)
    assert bad.value.path == broken and "\n" not in str(bad.value)
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem p) (:domain gripper) (:objects b - ball) (:init (at b roomq)) (:goal (at b b)))")
    with pytest.raises(InputError, match="roomq") as undefined:
        gripper.load_instance(problem)
    assert "\n" not in str(undefined.value)


def test_oneway_domain_parses_from_data_folder():
    assert (DATA / "gripper-oneway.pddl").is_file()


def test_untyped_upper_case_domain_reads_like_the_file_parser(tmp_path):
    # an untyped domain gets :typing added and is parsed from text: names must still be case-insensitive
    domain_file = tmp_path / "domain.pddl"
    domain_file.write_text("""(define (domain Lights) (:requirements :strips)
      (:predicates (OFF ?x) (ON ?x))
      (:action SWITCH :parameters (?x) :precondition (OFF ?x) :effect (and (ON ?x) (not (OFF ?x)))))""")
    domain = Domain(domain_file)
    instance = domain.instance_from_text("(define (problem p) (:domain lights) (:objects L1 - object) "
                                         "(:init (OFF L1)) (:goal (ON L1)))")
    assert domain.predicates == {"off": 1, "on": 1}
    (successor,) = instance.successors(instance.initial_state)
    assert str(successor.action) == "(switch l1)" and instance.is_goal(successor.state)
