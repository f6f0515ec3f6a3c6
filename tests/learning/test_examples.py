"""WRAPPER's examples: the teacher's plans, longest first, and GENEX's problem on a subset Q'."""

from __future__ import annotations

import time

import pytest

from stratpol.features import Vocabulary, load_grammar
from stratpol.generation import domain_folder
from stratpol.learning.examples import Example, subset_problem, teacher_plans
from stratpol.learning.hitting_set import Requirement
from stratpol.learning.result import LearningFailure, LearningStatistics, LearningTimeout
from stratpol.learning.rows import FeatureRows
from stratpol.learning.teacher import Teacher
from stratpol.learning.training_pool import training_pool
from tests.helpers import gripper_instances

GRIPPER = domain_folder("gripper")


def test_teacher_plans_come_longest_first_and_a_goal_true_at_the_start_gives_no_example(tmp_path):
    solved = GRIPPER.generator(balls=1).replace("(at ball1 roomb)", "(at ball1 rooma)").replace("gripper-1)",
                                                                                              "solved)")
    given = [*gripper_instances(1, 3, 2), GRIPPER.domain.instance_from_text(solved)]
    statistics, lines = LearningStatistics(), []
    plans = teacher_plans(given, Teacher("siw", cache_dir=tmp_path), statistics, lines.append)
    assert [instance.name for instance, _ in plans] == ["gripper-3", "gripper-2", "gripper-1"]
    assert [len(states) for _, states in plans] == [12, 8, 4]  # SIW's plans: their states, the goal included
    assert "teacher plans: 3 of 4 instances give examples" in lines and "plans" in statistics.seconds
    with pytest.raises(LearningFailure, match="no training instance has a usable example plan"):
        teacher_plans(given[3:], Teacher("siw", cache_dir=tmp_path), statistics, lines.append)


def test_the_teacher_plans_stop_at_the_deadline_saying_how_far_they_got(tmp_path):
    statistics = LearningStatistics()
    with pytest.raises(LearningTimeout, match=r"^time limit reached in the teacher's plans, 0 of 3 files planned$"):
        teacher_plans(gripper_instances(1, 2, 3), Teacher("siw", cache_dir=tmp_path), statistics, print,
                      deadline=time.perf_counter() - 1)
    assert "plans" in statistics.seconds
    # without a deadline the same call plans all three
    assert len(teacher_plans(gripper_instances(1, 2, 3), Teacher("siw", cache_dir=tmp_path), statistics, print)) == 3


def test_an_example_starts_again_from_its_plan_and_q_reads_only_its_own_rows(tmp_path):
    vocabulary = Vocabulary(GRIPPER.domain)
    plans = teacher_plans(gripper_instances(1, 2), Teacher("siw", cache_dir=tmp_path), LearningStatistics(), print)
    bridges = [vocabulary.bridge(instance) for instance, _ in plans]
    rows = FeatureRows(training_pool(vocabulary, [(b, states) for b, (_, states) in zip(bridges, plans)],
                                     load_grammar("default")))
    examples = [Example(instance, bridge, [rows.row(n, bridge, s) for s in states])
                for n, ((instance, states), bridge) in enumerate(zip(plans, bridges))]
    for example in examples:
        example.restart()
    two, one = examples  # gripper-2 first: the longer plan
    assert two.good == list(zip(two.plan, two.plan[1:])) and two.bad == [] and two.relevant == two.plan[:-1]
    two.good.append((two.plan[0], two.plan[2]))
    two.restart()
    assert len(two.good) == len(two.plan) - 1

    q = subset_problem(examples, [1], rows)  # gripper-1 alone
    assert q.rows == sorted(one.plan)
    kinds = [kind for kind in q.problem.kinds]
    # one Edge requirement per good transition, one Goal per relevant state (the plan's non-goal states)
    assert kinds.count(Requirement.EDGE) == len(one.plan) - 1 == kinds.count(Requirement.GOAL)
    assert len(q.columns) < len(rows.pool)  # features equal on these rows are pruned


def test_rows_are_numbered_once_and_valued_when_first_read(tmp_path):
    vocabulary = Vocabulary(GRIPPER.domain)
    instance = gripper_instances(2)[0]
    bridge = vocabulary.bridge(instance)
    states = teacher_plans([instance], Teacher("siw", cache_dir=tmp_path), LearningStatistics(), print)[0][1]
    pool = training_pool(vocabulary, [(bridge, states)], load_grammar("default"))
    rows = FeatureRows(pool)
    numbers = [rows.row(0, bridge, s) for s in states]
    assert numbers == list(range(len(states))) and rows.row(0, bridge, states[1]) == 1  # the same state, its row
    table = rows.table([2, 0])
    whole = rows.table(numbers)
    assert (table.values == whole.values[[2, 0]]).all()  # row i of a table is the i-th row asked for
    changes = rows.step_changes(0, [1, 2])
    assert (changes == whole.changes([(0, 1), (0, 2)])).all()
