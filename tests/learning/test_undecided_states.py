"""A state the teacher can neither plan from nor prove a dead end (here: a 1 ms budget on IPC 2023
ferry's p40, whose searches need more) does not stop learning: the step into it is avoided, the
summary counts it, and the policy is still certified and verified on every file."""

from __future__ import annotations

import stratpol
from stratpol.learning.examples import teacher_plans
from stratpol.learning.result import LearningStatistics
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.planning.dead_ends import Solvability
from tests.helpers import DATA

FERRY = DATA / "ferry-ipc2023"  # IPC 2023 ferry: the domain and training files p01-p03, p20, p40


def test_undecided_teacher_states_are_avoided_and_learning_goes_on(tmp_path):
    domain = stratpol.domain(FERRY / "domain.pddl")
    instances = [domain.load_instance(f) for f in sorted(FERRY.glob("p*.pddl"))]
    # the example plans come from the plan cache, made at a usable budget; repairs get 1 ms
    teacher_plans(instances, Teacher("gbfs", 60.0, tmp_path / "plans"), LearningStatistics(), lambda _: None)
    hurried = Teacher("gbfs", 1e-9, None)
    assert hurried.advise(instances[-1]).verdict is Solvability.UNKNOWN  # p40: undecided in 1 ms
    settings = LearningSettings(teacher="gbfs", teacher_time_limit=1e-9)
    learned = stratpol.learn(FERRY / "domain.pddl", sorted(FERRY.glob("p*.pddl")), settings, cache=tmp_path)
    assert learned.statistics.undecided > 0
    assert f"{learned.statistics.undecided} undecided states avoided" in learned.statistics.describe()
    assert learned.certificate.stratified
    assert [v.solved for v in learned.verifications] == [True] * 5
