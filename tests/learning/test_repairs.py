"""WRAPPER's repairs on gripper-oneway (the robot moves to room B only): a state the policy does not
close gets the teacher's step, a step into a dead end becomes a bad transition; a GENEX failure
names its steps in words."""

from __future__ import annotations

import pytest

from stratpol.features import Vocabulary, load_grammar
from stratpol.features.pool import generate_pool
from stratpol.learning.examples import Example
from stratpol.learning.genex import GenexFailure
from stratpol.learning.hitting_set import Requirement
from stratpol.learning.repairs import Repair, repair
from stratpol.learning.result import LearningFailure
from stratpol.learning.rows import FeatureRows
from stratpol.learning.wrapper import _first_transition
from stratpol.learning.teacher import Teacher
from stratpol.planning import Domain
from stratpol.verification import Failure, Verification
from tests.helpers import DATA, oneway_instance


@pytest.fixture
def oneway(tmp_path):
    domain = Domain(DATA / "gripper-oneway.pddl")
    instance = oneway_instance(domain, 1)
    vocabulary = Vocabulary(domain)
    bridge = vocabulary.bridge(instance)
    rows = FeatureRows(generate_pool(vocabulary, [(bridge, instance.initial_state)], load_grammar("default")))
    teacher = Teacher("siw", cache_dir=tmp_path)
    plan = [rows.row(0, bridge, s) for s in teacher.advise(instance).states]
    example = Example(instance, bridge, plan)
    example.restart()
    return instance, rows, teacher, example


def _successor(instance, state, action: str):
    return next(s.state for s in instance.successors(state) if str(s.action).startswith(action))


def test_a_state_not_closed_gets_the_teachers_step_as_a_good_transition(oneway):
    instance, rows, teacher, example = oneway
    start = instance.initial_state
    picked = _successor(instance, start, "(pick")
    check = Verification(instance.name, False, Failure.NOT_CLOSED, (start, picked), 2)
    good = list(example.good)
    repair(example, 0, check, rows, teacher, 100)
    step = teacher.advise(instance, picked).states[1]
    assert example.good == good + [(rows.row(0, example.bridge, picked), rows.row(0, example.bridge, step))]
    assert example.relevant[-1] == rows.row(0, example.bridge, picked)


def test_a_step_into_a_dead_end_becomes_a_bad_transition(oneway):
    instance, rows, teacher, example = oneway
    start = instance.initial_state
    moved = _successor(instance, start, "(move-to-b")  # the ball is left in room A: a dead end
    repair(example, 0, Verification(instance.name, False, Failure.DEAD_END, (start, moved), 2), rows, teacher, 100)
    assert example.bad == [(rows.row(0, example.bridge, start), rows.row(0, example.bridge, moved))]
    with pytest.raises(LearningFailure, match="the initial state is a dead end"):
        repair(example, 0, Verification(instance.name, False, Failure.DEAD_END, (start,), 1), rows, teacher, 100)


def test_verification_past_the_state_limit_or_a_cycle_is_a_failure_naming_it(oneway):
    instance, rows, teacher, example = oneway
    start = instance.initial_state
    with pytest.raises(LearningFailure, match="verification passed 100 policy-reachable states up to renaming"):
        repair(example, 0, Verification(instance.name, False, Failure.LIMIT, (start,), 101, renamed=True), rows,
               teacher, 100)
    with pytest.raises(LearningFailure, match="verification ended with cycle"):
        repair(example, 0, Verification(instance.name, False, Failure.CYCLE, (start, start), 1), rows, teacher, 100)


def test_where_the_teachers_step_is_a_twin_of_a_bad_one_another_step_is_taken_or_none_is_left(oneway):
    instance, rows, teacher, example = oneway
    start = instance.initial_state
    picks = [s.state for s in instance.successors(start) if str(s.action).startswith("(pick")]
    assert len(picks) == 2  # with the left or the right gripper: every feature changes alike
    example.bad.append((rows.row(0, example.bridge, start), rows.row(0, example.bridge, picks[0])))
    # the teacher picks with one gripper or the other, a twin of the bad step; the other successor,
    # moving to room B without the ball, is a dead end with no plan: nothing is left
    with pytest.raises(LearningFailure, match="every step the teacher could take from a state leads where the "
                                              "policy is to keep out"):
        repair(example, 0, Verification(instance.name, False, Failure.NOT_CLOSED, (start,), 1), rows, teacher, 100)


def test_a_state_the_teacher_cannot_decide_in_its_time_is_avoided_not_fatal(tmp_path):
    domain = Domain(DATA / "gripper-oneway.pddl")
    instance = oneway_instance(domain, 10)  # ten balls: a dead end the proof cannot show in a microsecond
    vocabulary = Vocabulary(domain)
    bridge = vocabulary.bridge(instance)
    start = instance.initial_state
    rows = FeatureRows(generate_pool(vocabulary, [(bridge, start)], load_grammar("default")))
    example = Example(instance, bridge, [rows.row(0, bridge, start)])
    example.restart()
    picked = _successor(instance, start, "(pick")
    hurried = Teacher("siw", time_limit=1e-6, cache_dir=tmp_path)  # no plan and no proof in its time
    check = Verification(instance.name, False, Failure.NOT_CLOSED, (start, picked), 2)
    assert repair(example, 0, check, rows, hurried, 100) is Repair.UNDECIDED
    assert example.bad == [(rows.row(0, bridge, start), rows.row(0, bridge, picked))]
    with pytest.raises(LearningFailure, match="the initial state could be neither solved nor proven a dead end"):
        repair(example, 0, Verification(instance.name, False, Failure.NOT_CLOSED, (start,), 1), rows, hurried, 100)


def test_a_genex_failure_names_the_steps_of_its_first_requirement_in_words(oneway):
    instance, rows, teacher, example = oneway
    start = instance.initial_state
    moved = _successor(instance, start, "(move-to-b")
    repair(example, 0, Verification(instance.name, False, Failure.DEAD_END, (start, moved), 2), rows, teacher, 100)
    bad, first = example.bad[0], example.good[0]
    edge = GenexFailure(((Requirement.EDGE, first),))
    plan_step = f"{instance.source_name}: {example_action(instance, example, rows)}, step 1 of the plan"
    assert _first_transition(edge, [example], rows) == f", in {plan_step}"
    deadend = GenexFailure(((Requirement.DEADEND, bad + first),))
    assert _first_transition(deadend, [example], rows) == (
        f": the bad step, in {instance.source_name}: (move-to-b), looks like the good step, in {plan_step}")


def example_action(instance, example, rows) -> str:
    """The action of the example plan's first step."""
    source, target = (rows.entries[r][1] for r in example.good[0])
    return next(str(s.action) for s in instance.successors(source) if s.state == target)
