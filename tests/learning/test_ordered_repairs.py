"""Ordered repairs (LearningSettings.ordered_repairs): where a policy is not closed, the repair takes
the step the last policy's features order best among those whose teacher plan is at most SLACK
steps longer than the teacher's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.features import Vocabulary
from stratpol.features.pool import parse_feature
from stratpol.generation import domain_folder
from stratpol.learning.directions import FeatureDirections
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import _Example, _ordered_step, _repair, _Rows
from stratpol.policy import Kind
from stratpol.verification import Failure, Verification

# The lift stands between two passengers, one below and one above, both going to its floor: going
# down first or up first, the optimal plans are equally long (7 steps).
BETWEEN = """(define (problem between) (:domain miconic)
  (:objects p1 p2 - passenger f1 f2 f3 - floor)
  (:init (lift-at f2) (origin p1 f1) (destin p1 f2) (origin p2 f3) (destin p2 f2)
         (above f1 f2) (above f1 f3) (above f2 f3))
  (:goal (and (served p1) (served p2))))"""
# Only the passenger below: going up first is a detour.
BELOW = """(define (problem below) (:domain miconic)
  (:objects p1 - passenger f1 f2 f3 - floor)
  (:init (lift-at f2) (origin p1 f1) (destin p1 f2) (above f1 f2) (above f1 f3) (above f2 f3))
  (:goal (served p1)))"""
FEATURES = [(Kind.NUMERICAL, "n_count(c_some(r_primitive(above,0,1),c_primitive(lift-at,0)))"),  # floors below
            (Kind.NUMERICAL, "n_count(c_primitive(served,0))")]


def setup(text: str):
    domain = domain_folder("miconic").domain
    instance = domain.instance_from_text(text)
    vocabulary = Vocabulary(domain)
    rows = _Rows([parse_feature(vocabulary, kind, expression) for kind, expression in FEATURES])
    bridge = vocabulary.bridge(instance)
    example = _Example(instance, bridge, [rows.row(0, bridge, instance.initial_state)])
    example.restart()
    teacher = Teacher("astar")
    advice = teacher.advise(instance)
    return instance, rows, example, teacher, advice


def floors_below(rows: _Rows, row: int) -> int:
    return int(rows.table([row]).values[0, 0])


def against_the_teacher(rows: _Rows, start: int, step: int) -> FeatureDirections:
    """An order in which the teacher's step moves "floors below" the wrong way."""
    went_up = floors_below(rows, step) > floors_below(rows, start)
    return FeatureDirections(np.array([0]), np.array([not went_up]), np.array([went_up]))


@pytest.mark.parametrize("moves, key", [((1, 0), (1, 1)), ((-1, 0), (0, 0)), ((0, 0), (0, 1)), ((-1, 1), (0, 0)),
                                        ((1, 1), (1, 1))])
def test_a_step_is_ranked_by_the_features_it_moves_against_and_along_their_direction(moves, key):
    # feature 0 only went down on the good transitions, feature 1 both ways (a chained feature)
    order = FeatureDirections(np.array([0, 1]), up=np.array([False, True]), down=np.array([True, True]))
    assert order.key(np.array(moves)) == key


@pytest.mark.parametrize("moves, orders", [((1, 0), False), ((-1, 0), True), ((0, 1), False), ((0, 0), False)])
def test_a_step_is_ordered_where_a_feature_moves_as_on_every_good_transition(moves, orders):
    # feature 0 only went down, feature 1 both ways: only a feature that stays monotone orders a step
    directions = FeatureDirections(np.array([0, 1]), up=np.array([False, True]), down=np.array([True, True]))
    assert directions.orders(np.array(moves)) is orders


def test_the_repair_takes_the_equally_short_step_the_policy_orders_instead_of_the_teachers():
    instance, rows, example, teacher, advice = setup(BETWEEN)
    start = example.plan[0]
    step = rows.row(0, example.bridge, advice.states[1])
    successors = {rows.row(0, example.bridge, s.state) for s in instance.successors(instance.initial_state)}
    assert len(successors) == 2 and len(advice.states) == 8  # down or up, 7 steps either way
    order = against_the_teacher(rows, start, step)
    chosen = _ordered_step(example, 0, instance.initial_state, step, len(advice.states) - 1, rows, teacher, order)
    assert chosen == (successors - {step}).pop()
    # as a repair: the state where the policy is not closed gets the ordered step as its good transition
    check = Verification("between", False, Failure.NOT_CLOSED, (instance.initial_state,), 1)
    _repair(example, 0, check, rows, teacher, 1000, order)
    assert (start, chosen) in example.good and (start, step) not in example.good


def test_a_better_ordered_step_with_a_longer_plan_is_taken_only_within_the_slack():
    instance, rows, example, teacher, advice = setup(BELOW)
    start, step = example.plan[0], rows.row(0, example.bridge, advice.states[1])
    assert floors_below(rows, step) < floors_below(rows, start)  # the teacher goes down to the passenger
    order = against_the_teacher(rows, start, step)  # going up is ordered, and one step longer
    steps = len(advice.states) - 1
    assert _ordered_step(example, 0, instance.initial_state, step, steps, rows, teacher, order) == step
    chosen = _ordered_step(example, 0, instance.initial_state, step, steps + 1, rows, teacher, order)
    assert floors_below(rows, chosen) > floors_below(rows, start)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([(False, False), (True, False), (False, True), (True, True)]), min_size=2,
                max_size=2))
def test_the_chosen_step_is_the_teachers_or_better_ordered_with_a_plan_no_longer(directions):
    instance, rows, example, teacher, advice = setup(BETWEEN)
    step = rows.row(0, example.bridge, advice.states[1])
    up, down = (np.array([d[i] for d in directions]) for i in (0, 1))
    order = FeatureDirections(np.array([0, 1]), up, down)
    chosen = _ordered_step(example, 0, instance.initial_state, step, len(advice.states) - 1, rows, teacher, order)
    if chosen != step:
        changes = rows.table([example.plan[0], step, chosen]).changes([(0, 1), (0, 2)])
        assert order.key(changes[1]) < order.key(changes[0])
        assert len(teacher.advise(instance, rows.entries[chosen][1]).states) <= len(advice.states) - 1
