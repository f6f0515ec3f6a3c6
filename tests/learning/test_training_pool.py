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


def test_an_incremental_pool_grows_with_the_files_in_q_and_with_the_states_repairs_touch(plans, tmp_path):
    from stratpol.features import FeaturePool
    from stratpol.learning.examples import Example
    from stratpol.learning.rows import FeatureRows
    from stratpol.learning.training_pool import IncrementalPool

    vocabulary, on = plans
    rows = FeatureRows(FeaturePool([]))
    examples = []
    for number, (bridge, states) in enumerate(on):
        examples.append(Example(bridge.instance, bridge, [rows.row(number, bridge, s) for s in states]))
        examples[-1].restart()
    statistics = LearningStatistics()
    pool = IncrementalPool(vocabulary, load_grammar("default"), None, tmp_path, statistics, lambda line: None)
    first = len(on[0][1])
    assert pool.extend(examples, [0], rows) and statistics.pool_generation.states == first
    assert len(rows.pool) == statistics.pool > 0
    assert not pool.extend(examples, [0], rows)  # nothing new: no generation
    # a repair's transition to a state off the plan: only `touched` generates on it
    instance = examples[0].instance
    source = rows.entries[examples[0].plan[0]][1]
    plan_states = {rows.entries[r][1] for r in examples[0].plan}
    off_plan = next(s.state for s in instance.successors(source) if s.state not in plan_states)
    examples[0].good.append((examples[0].plan[0], rows.row(0, examples[0].bridge, off_plan)))
    assert not pool.extend(examples, [0], rows)
    assert pool.extend(examples, [0], rows, touched=True) and statistics.pool_generation.states == first + 1
    # a file joining Q': the pool on the states of both
    assert pool.extend(examples, [0, 1], rows, touched=True)
    assert statistics.pool_generation.states == first + 1 + len(on[1][1]) and statistics.pool_extensions == 3
    table = rows.table(list(range(len(rows.entries))))  # every row has values over the new pool
    assert table.values.shape == (len(rows.entries), len(rows.pool))
