"""WRAPPER's Edge replanning: a teacher transition that no feature can order is replaced by another
planner's plan from the same state (LearningSettings.edge_teacher)."""

from __future__ import annotations

import numpy as np
import pytest

from stratpol.features import Vocabulary
from stratpol.features.pool import parse_feature
from stratpol.learning.checkpoint import read_checkpoint, write_checkpoint
from stratpol.learning.directions import FeatureDirections
from stratpol.learning.genex import GenexFailure
from stratpol.learning.hitting_set import Requirement
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import (EdgeReplanning, LearningStatistics, _avoid_edge_states, _checkpoint, _Example,
                                      _first_transition, _repair, _resume, _Rows, _Run)
from stratpol.planning.dead_ends import Solvability
from stratpol.policy import Kind
from stratpol.verification import Failure, Verification

# Two balls, only ball1 has a goal: picking ball2 up is a detour an optimal planner does not take.
DETOUR = """(define (problem detour) (:domain gripper)
  (:objects rooma roomb - room ball1 ball2 - ball left right - gripper)
  (:init (at-robby rooma) (at ball1 rooma) (at ball2 rooma) (free left) (free right))
  (:goal (at ball1 roomb)))"""
DETOUR_PLAN = ["(pick ball1 rooma left)", "(pick ball2 rooma right)", "(move rooma roomb)", "(drop ball1 roomb left)"]
# grippers free; the robot where a ball is to go; balls at their goal: no feature tells the grippers apart
DETOUR_FEATURES = [(Kind.NUMERICAL, "n_count(c_primitive(free,0))"),
                   (Kind.BOOLEAN, "b_empty(c_and(c_primitive(at-robby,0),c_some(r_inverse(r_primitive(at_g,0,1)),c_top)))"),
                   (Kind.NUMERICAL, "n_count(r_and(r_primitive(at,0,1),r_primitive(at_g,0,1)))")]


@pytest.fixture
def detour(gripper):
    instance = gripper.instance_from_text(DETOUR)
    states = [instance.initial_state]
    for step in DETOUR_PLAN:
        name, *args = step.strip("()").split()
        states.append(instance.apply(states[-1], instance.action(name, args))[0])
    assert instance.is_goal(states[-1])
    vocabulary = Vocabulary(gripper)
    rows = _Rows([parse_feature(vocabulary, kind, expression) for kind, expression in DETOUR_FEATURES])
    bridge = vocabulary.bridge(instance)
    example = _Example(instance, bridge, [rows.row(0, bridge, s) for s in states])
    example.restart()
    return instance, states, rows, example


def test_an_edge_on_the_plan_is_replaced_by_the_edge_teachers_plan_from_its_state(detour):
    instance, states, rows, example = detour
    s1, s2 = example.plan[1], example.plan[2]
    statistics, lines = LearningStatistics(), []
    failure = GenexFailure(((Requirement.EDGE, (s1, s2)),))
    assert EdgeReplanning(Teacher("astar")).replan(failure, [example], rows, statistics, lines.append)
    # the optimal plan from s1 carries ball1 across at once: the pick of ball2 and what followed are gone
    assert example.plan[:2] == [0, s1] and len(example.plan) == 4 and s2 not in example.plan
    assert instance.is_goal(rows.entries[example.plan[-1]][1])
    assert example.good == list(zip(example.plan, example.plan[1:]))
    assert set(example.plan[:-1]) <= set(example.relevant)
    assert statistics.replanned == 1 and "replaced by astar" in lines[0]
    # asked again, the teacher takes the same step: nothing more to replace
    assert not EdgeReplanning(Teacher("astar")).replan(GenexFailure(((Requirement.EDGE, (s1, example.plan[2])),)),
                                                       [example], rows, statistics, lines.append)
    assert statistics.replanned == 1


def test_where_the_teacher_takes_the_same_step_a_detour_through_another_successor_replaces_it(detour):
    instance, _, rows, example = detour
    edges = EdgeReplanning(Teacher("astar"), alternatives=8)
    edge = lambda source, target: GenexFailure(((Requirement.EDGE, (source, target)),))  # noqa: E731
    assert edges.replan(edge(example.plan[1], example.plan[2]), [example], rows, LearningStatistics(), [].append)
    start, first = example.plan[:2]  # the optimal plan picks ball1 with the left gripper
    assert edges.replan(edge(start, first), [example], rows, LearningStatistics(), [].append)
    # the teacher takes the same first step; the shortest detour picks ball1 with the right gripper
    assert example.plan[0] == start and example.plan[1] != first and len(example.plan) == 4
    assert instance.is_goal(rows.entries[example.plan[-1]][1])
    assert (start, first) in example.replaced and (start, first) not in example.good
    # another Edge on the detour's first step never brings a replaced transition back
    edges.replan(edge(start, example.plan[1]), [example], rows, LearningStatistics(), [].append)
    assert not example.replaced & set(zip(example.plan, example.plan[1:]))
    assert len(set(example.plan)) == len(example.plan) and instance.is_goal(rows.entries[example.plan[-1]][1])


def test_with_feature_directions_a_detour_whose_first_step_a_feature_orders_comes_first(detour, gripper):
    instance, states, _, _ = detour
    vocabulary = Vocabulary(gripper)
    # the fixture's features and two that tell the balls apart: carried balls with a goal, without one
    features = DETOUR_FEATURES + [
        (Kind.NUMERICAL, "n_count(c_and(c_some(r_primitive(carry,0,1),c_top),c_some(r_primitive(at_g,0,1),c_top)))"),
        (Kind.NUMERICAL, "n_count(c_and(c_some(r_primitive(carry,0,1),c_top),c_all(r_primitive(at_g,0,1),c_bot)))")]
    rows = _Rows([parse_feature(vocabulary, kind, expression) for kind, expression in features])
    bridge = vocabulary.bridge(instance)
    example = _Example(instance, bridge, [rows.row(0, bridge, s) for s in states])
    example.restart()
    edges = EdgeReplanning(Teacher("astar"), alternatives=8)
    edge = lambda source, target: GenexFailure(((Requirement.EDGE, (source, target)),))  # noqa: E731
    assert edges.replan(edge(example.plan[1], example.plan[2]), [example], rows, LearningStatistics(), [].append)
    start, first = example.plan[:2]  # the optimal plan picks ball1
    # free grippers only went up and carried balls with a goal only down: picking ball1 is ordered by
    # no feature; carried balls without a goal never moved, so picking ball2 (a longer detour) is
    directions = FeatureDirections(np.arange(5), up=np.array([True, False, False, False, False]),
                                   down=np.array([False, False, False, True, False]))
    assert edges.replan(edge(start, first), [example], rows, LearningStatistics(), [].append, directions)
    assert any(atom[0] == "carry" and atom[1][0] == "ball2" for atom in rows.entries[example.plan[1]][1].atoms)
    assert example.plan[0] == start and len(example.plan) == 5  # one step longer than picking ball1 first
    assert instance.is_goal(rows.entries[example.plan[-1]][1])


def test_replacement_keeps_repairs_and_refuses_same_steps_and_returns(detour):
    _, _, rows, example = detour
    plan = list(example.plan)
    example.good.append((7, 8))  # a repair's good transition, off the plan
    assert not example.replace_transition(plan[1], plan[2], [plan[1], plan[2], 9])  # the same first step
    assert not example.replace_transition(plan[2], plan[3], [plan[2], 9, plan[1]])  # back to a state before it
    assert example.plan == plan
    assert example.replace_transition(7, 8, [7, 10, 11])
    assert example.plan == plan and (7, 8) not in example.good
    assert {(7, 10), (10, 11)} <= set(example.good) and {7, 10} <= set(example.relevant)


def test_edge_replanning_is_off_unless_asked():
    assert LearningSettings().edge_teacher is None and LearningSettings().edge_alternatives == 0
    assert "or up to 4 other first steps" in LearningSettings(edge_teacher="astar", edge_alternatives=4).describe()
    assert "Edge replanning with astar-lmcut" in LearningSettings(edge_teacher="astar-lmcut").describe()


def test_a_checkpoint_keeps_the_plans_edge_replanning_changed_and_what_it_took_out(detour, tmp_path):
    instance, states, rows, example = detour
    edges = EdgeReplanning(Teacher("astar"), alternatives=8)
    failure = GenexFailure(((Requirement.EDGE, (example.plan[1], example.plan[2])),))
    assert edges.replan(failure, [example], rows, LearningStatistics(), [].append)
    untouched = _Example(instance, example.bridge, [rows.row(0, example.bridge, s) for s in states[:2]])
    run = _Run(Vocabulary(instance.domain), Teacher("siw"), 0, 1000, None, True, None, edges, 1,
               LearningStatistics(outer_iterations=3, inner_iterations=7, replanned=1), [].append,
               checkpoint=tmp_path / "run.checkpoint")
    identity = {"domain": "gripper", "instances": ["detour", "untouched"]}
    write_checkpoint(run.checkpoint, _checkpoint(run, identity, [0, 1], [example, untouched], rows))

    fresh_rows = _Rows([])
    fresh = _Example(instance, example.bridge, [fresh_rows.row(0, example.bridge, s) for s in states])
    other = _Example(instance, example.bridge, [fresh_rows.row(1, example.bridge, s) for s in states[:2]])
    resumed = _Run(Vocabulary(instance.domain), Teacher("siw"), 0, 1000, None, True, None, edges, 1,
                   LearningStatistics(), [].append, checkpoint=run.checkpoint,
                   resume_from=read_checkpoint(run.checkpoint))
    assert _resume(resumed, identity, [fresh, other], fresh_rows) == [0, 1]

    def states_of(rows_, plan):
        return [rows_.entries[r][1] for r in plan]

    assert states_of(fresh_rows, fresh.plan) == states_of(rows, example.plan) != states
    assert {(fresh_rows.entries[s][1], fresh_rows.entries[t][1]) for s, t in fresh.replaced} == \
        {(rows.entries[s][1], rows.entries[t][1]) for s, t in example.replaced} == {(states[1], states[2])}
    assert states_of(fresh_rows, other.plan) == states[:2] and not other.replaced
    statistics = resumed.statistics
    assert (statistics.outer_iterations, statistics.inner_iterations, statistics.replanned) == (3, 7, 1)


def test_an_edge_on_a_repair_makes_the_policys_step_into_its_state_bad(detour):
    instance, states, rows, example = detour
    s1 = example.plan[1]
    # the policy stepped from s1 (ball1 held) to a state off the plan, and a repair added the teacher's step there
    off = next(s.state for s in instance.successors(states[1]) if rows.row(0, example.bridge, s.state) not in
               example.plan)
    repaired, onward = rows.row(0, example.bridge, off), rows.row(0, example.bridge, states[0])
    example.good.append((repaired, onward))
    example.entries[repaired] = s1
    statistics, lines = LearningStatistics(), []
    # the failure names the transition and whose it is
    named = _first_transition(GenexFailure(((Requirement.EDGE, (repaired, onward)),)), [example], rows)
    assert named.startswith(", in detour: ") and named.endswith(", a repair")
    assert _first_transition(GenexFailure(((Requirement.EDGE, (s1, example.plan[2])),)), [example], rows) == \
        ", in detour: (pick ball2 rooma right), step 2 of the plan"
    # a Deadend requirement names a bad and a good transition: four rows, no state to keep out of
    failure = GenexFailure(((Requirement.DEADEND, (s1, repaired, 0, s1)), (Requirement.EDGE, (repaired, onward)),
                            (Requirement.EDGE, (0, s1))))
    assert _avoid_edge_states(failure, [example], rows, statistics, lines.append)
    assert (repaired, onward) not in example.good and example.bad == [(s1, repaired)]
    assert statistics.avoided == 1 and "keep out of" in lines[0]
    # the plan's own transition (0, s1) stays: there is no step of the policy to avoid instead
    assert (0, s1) in example.good
    assert not _avoid_edge_states(failure, [example], rows, statistics, lines.append)  # nothing left to avoid


def test_no_state_is_kept_out_of_where_a_symmetric_step_into_another_is_good(detour):
    instance, states, rows, example = detour
    # the policy picked ball1 with the right gripper, the plan picks it with the left one: the two
    # steps change every feature alike, so no rule policy takes one and not the other
    right = next(s.state for s in instance.successors(states[0]) if str(s.action) == "(pick ball1 rooma right)")
    repaired, onward = rows.row(0, example.bridge, right), rows.row(0, example.bridge, states[3])
    example.good.append((repaired, onward))
    example.entries[repaired] = 0
    statistics, lines = LearningStatistics(), []
    failure = GenexFailure(((Requirement.EDGE, (repaired, onward)),))
    assert not _avoid_edge_states(failure, [example], rows, statistics, lines.append)
    assert (repaired, onward) in example.good and example.bad == [] and statistics.avoided == 0


@pytest.mark.parametrize("twin", [False, True])
def test_a_repair_never_steps_where_the_policy_is_to_keep_out(detour, twin):
    instance, states, rows, example = detour
    teacher = Teacher("astar")
    step = teacher.advise(instance, states[0]).states[1]
    first = rows.row(0, example.bridge, step)
    if twin:  # the same pick with the other gripper is to be avoided: no rule takes one and not the other
        held = next(str(s.action) for s in instance.successors(states[0]) if s.state == step)
        other = held.replace("left", "right") if "left" in held else held.replace("right", "left")
        example.bad.append((0, rows.row(0, example.bridge, next(
            s.state for s in instance.successors(states[0]) if str(s.action) == other))))
    else:  # the teacher's own first step is to be avoided
        example.bad.append((0, first))
    check = Verification(instance.source_name, False, Failure.NOT_CLOSED, (states[0],), 1)
    _repair(example, 0, check, rows, teacher, 1000)
    source, target = example.good[-1]
    assert source == 0 and target not in (0, first)
    # the step taken instead is one of the initial state's successors from which the goal is reachable
    assert teacher.advise(instance, rows.entries[target][1]).verdict is Solvability.ALIVE
