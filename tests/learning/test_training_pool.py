"""The pool WRAPPER learns with: on every state of the example plans, within the time left."""

from __future__ import annotations

import time

import pytest

from stratpol.features import Vocabulary, load_grammar
from stratpol.generation import domain_folder
from stratpol.learning.examples import teacher_plans
from stratpol.learning.result import LearningStatistics, LearningTimeout
from stratpol.learning.teacher import Teacher
from stratpol.learning.training_pool import training_pool
from tests.helpers import gripper_instances


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    found = teacher_plans(gripper_instances(1, 2, 3, 4), Teacher("siw", cache_dir=tmp_path_factory.mktemp("plans")),
                          LearningStatistics(), print)
    return vocabulary, [(vocabulary.bridge(instance), states) for instance, states in found]


def test_a_deadline_passed_before_the_pool_is_a_timeout_and_one_ahead_leaves_it_whole(plans):
    vocabulary, on = plans
    with pytest.raises(LearningTimeout, match="before the feature pool"):
        training_pool(vocabulary, on, load_grammar("default"), deadline=time.perf_counter() - 1)
    lines = []
    pool = training_pool(vocabulary, on, load_grammar("default"), deadline=time.perf_counter() + 600,
                         progress=lines.append)
    assert pool.generation.states == 40 and lines[0] == "feature pool: generating on 40 states (complexity 15)"


def test_an_incremental_pool_is_generated_on_the_files_in_use_and_learns_the_same_policy(tmp_path):
    from stratpol.learner import learn
    from stratpol.learning.settings import LearningSettings

    whole = learn("gripper", settings=LearningSettings(), cache=tmp_path)
    incremental = learn("gripper", settings=LearningSettings(incremental_pool=True), cache=tmp_path)
    assert whole.statistics.pool_extensions == 0 and whole.statistics.pool_generation.states == 84
    # S1 solves all six training files from Q' = {the file with the longest plan}: the pool is
    # generated once, on that plan's 24 states, not on the 84 of all six plans
    assert incremental.statistics.pool_extensions == 1 and incremental.statistics.pool_generation.states == 24
    assert incremental.statistics.pool < whole.statistics.pool
    assert "(complete, 24 states, " in incremental.statistics.describe()
    assert ", 1 generation as files joined Q')" in incremental.statistics.describe()
    assert all(v.solved and not v.runs for v in incremental.verifications) and incremental.certificate.k == 1
    assert len(incremental.policy.rules) == len(whole.policy.rules) == 4
