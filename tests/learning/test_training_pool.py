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
