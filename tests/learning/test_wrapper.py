"""WRAPPER end to end: learn a Gripper policy from small generated instances and check it on larger
ones; the strategies, the orders of the instances, the lexicographic ranking, limits and interrupts."""

from __future__ import annotations

import re
import time

import pytest

from stratpol.evaluation import RulePolicy, run
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.learning.result import LearningFailure, LearningInterrupted, LearningTimeout
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import learn_policy, learn_with_settings, next_subset
from stratpol.termination import lowest_stratification
from stratpol.verification import verify
from tests.helpers import gripper_instances


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    folder = domain_folder("gripper")
    instances = gripper_instances(1, 2, 3, 4)
    vocabulary = Vocabulary(folder.domain)
    cache = tmp_path_factory.mktemp("cache")
    result = learn_policy(instances, vocabulary, LearningSettings(), Teacher("siw", cache_dir=cache / "plans"),
                          cache_dir=cache / "pools")
    return folder, vocabulary, result


def learn(instances, vocabulary, tmp_path, teacher=None, **settings):
    """`learn_policy` with siw as the teacher, plans and pools cached under `tmp_path`."""
    return learn_policy(instances, vocabulary, LearningSettings(**settings),
                        teacher or Teacher("siw", cache_dir=tmp_path / "plans"), cache_dir=tmp_path / "pools")


def test_learned_gripper_policy_verifies_on_2_to_7_balls(learned):
    folder, vocabulary, result = learned
    assert all(v.solved for v in result.verifications)
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in range(2, 8):  # all policy-reachable states, every choice
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls


@pytest.mark.parametrize("balls", [10, 20, 30])
def test_learned_gripper_policy_runs_to_the_goal_on_large_instances(learned, balls):
    folder, vocabulary, result = learned
    instance = folder.domain.instance_from_text(folder.generator(balls=balls))
    for seed in range(3):  # random tie-breaks: any compatible choice reaches the goal
        outcome = run(RulePolicy(result.policy, vocabulary, seed=seed), instance, step_bound=10 * balls)
        assert outcome.solved and outcome.steps <= 4 * balls


def test_statistics_are_filled(learned):
    _, _, result = learned
    stats = result.statistics
    assert stats.instances == 4 and stats.pool > 100 and stats.good >= 3 and stats.outer_iterations >= 1
    assert result.order[0] == "gripper-4"  # longest teacher plan first
    assert set(stats.seconds) >= {"plans", "pool", "preprocessing", "genex", "simplification", "verification"}


@pytest.mark.parametrize("strategy", ["S2", "grow"])
def test_shortest_plans_first_learns_on_the_same_pool_a_policy_verified_on_all_instances(learned, tmp_path,
                                                                                         strategy):
    _, vocabulary, whole = learned
    result = learn(gripper_instances(1, 2, 3, 4), vocabulary, tmp_path, instance_order="shortest", strategy=strategy)
    assert result.order == ("gripper-1", "gripper-2", "gripper-3", "gripper-4")
    assert result.statistics.pool == whole.statistics.pool
    assert len(result.verifications) == 4 and all(v.solved for v in result.verifications)
    with pytest.raises(ValueError, match="instance_order"):
        LearningSettings(instance_order="random")


def test_the_subset_strategies():
    # S1: one instance, the first failing one if beyond, else the next; S2: add it if before the
    # furthest, else restart from it; grow: add every failing one, nothing new where all are in Q'
    assert next_subset("S1", [2], [5], 10) == [5] and next_subset("S1", [2], [1], 10) == [3]
    assert next_subset("S1", [9], [3], 10) is None
    assert next_subset("S2", [2, 6], [4], 10) == [2, 4, 6] and next_subset("S2", [2, 6], [8], 10) == [8]
    assert next_subset("grow", [2, 6], [8], 10) == [2, 6, 8] and next_subset("grow", [2, 6], [6], 10) is None
    assert next_subset("grow", [2, 6], [3, 6, 8], 10) == [2, 3, 6, 8]


def test_growing_by_several_failing_instances_adds_them_in_one_outer_iteration(learned, tmp_path):
    _, vocabulary, _ = learned
    instances = gripper_instances(1, 2, 3, 4, 5)
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    failures = {}
    for grow_by in (1, 3):
        messages = []
        result = learn_policy(instances, vocabulary, LearningSettings(instance_order="shortest", strategy="grow",
                                                                      grow_by=grow_by),
                              teacher, cache_dir=tmp_path / "pools", progress=messages.append)
        assert len(result.verifications) == 5 and all(v.solved for v in result.verifications)
        failures[grow_by] = [m.split(":")[1].split()[-1] for m in messages if m.startswith("outer 1: policy fails")]
        assert result.statistics.last_subset == 1 + len(failures[grow_by])  # Q' after outer 1: gripper-1 and those
    # the policy learned on gripper-1 fails on every larger instance: the first 1 and 3 of them join Q'
    assert failures == {1: ["gripper-2"], 3: ["gripper-2", "gripper-3", "gripper-4"]}
    with pytest.raises(ValueError, match="grow_by"):
        LearningSettings(strategy="S2", grow_by=2)


def test_kept_repairs_carry_into_the_next_outer_iteration(learned, tmp_path):
    _, vocabulary, _ = learned
    fresh, kept = (learn(gripper_instances(1, 2, 3, 4), vocabulary, tmp_path, instance_order="shortest",
                         strategy="grow", keep_repairs=keep) for keep in (False, True))
    # the teacher's step that repaired gripper-1's first policy is a good transition of the last call too
    assert kept.statistics.good == fresh.statistics.good + 1
    assert all(v.solved for v in kept.verifications)


def test_verification_past_its_state_limit_stops_learning_with_one_line_naming_the_limit(tmp_path):
    folder = domain_folder("gripper")
    settings = LearningSettings(teacher="siw", verify_states=5, verify_runs=0)  # gripper-3 reaches more states
    with pytest.raises(LearningFailure, match=r"verification passed 5 policy-reachable states \(--verify-states\)") \
            as failure:
        learn_with_settings(gripper_instances(3), Vocabulary(folder.domain), settings, tmp_path)
    assert "verification up to 5 states" in settings.describe()
    last = failure.value.last_policy  # the policy whose verification stopped, for a look
    assert last is not None and last.domain == "gripper" and last.rules


def test_verification_over_renamings_learns_a_policy_verified_on_all_instances_in_fewer_states(learned, tmp_path):
    folder, vocabulary, whole = learned
    # balls and grippers are interchangeable
    result = learn(gripper_instances(1, 2, 3, 4), vocabulary, tmp_path, symmetry=True)
    assert all(v.solved for v in result.verifications)
    assert sum(v.states for v in result.verifications) < sum(v.states for v in whole.verifications)
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in range(2, 7):  # the policy, verified state by state
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls


def test_an_interrupted_learner_hands_over_the_last_policy_genex_found(tmp_path):
    folder = domain_folder("gripper")

    def interrupt_at_the_first_failure(message: str) -> None:
        if message.startswith("outer 1:"):
            raise KeyboardInterrupt

    with pytest.raises(LearningInterrupted) as interrupted:
        learn_policy(gripper_instances(1, 2, 3, 4), Vocabulary(folder.domain),
                     LearningSettings(instance_order="shortest"), Teacher("siw", cache_dir=tmp_path / "plans"),
                     cache_dir=tmp_path / "pools",
                     progress=interrupt_at_the_first_failure)
    last = interrupted.value.last_policy
    assert isinstance(interrupted.value, KeyboardInterrupt) and last is not None and last.domain == "gripper"


def test_renamed_copies_of_training_instances_are_left_out_and_the_policy_is_the_same(learned, tmp_path):
    folder, vocabulary, _ = learned
    texts = [folder.generator(balls=n) for n in (1, 2, 3, 4)]
    copies = [texts[1].replace("ball1", "orb").replace("rooma", "kitchen"), texts[2].replace("left", "hand")]
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")

    def learned_on(given, **settings):
        instances = [folder.domain.instance_from_text(t) for t in given]
        return learn(instances, vocabulary, tmp_path, teacher, instance_order="shortest", strategy="grow", **settings)

    alone = learned_on(texts)
    # the copies are in the pool's plans, so the pool of the run with them is another one
    with_copies = learned_on(texts + copies, distinct_instances=True)
    assert with_copies.statistics.renamed == 2 and with_copies.statistics.instances == 4
    assert [v.instance for v in with_copies.verifications] == ["gripper-1", "gripper-2", "gripper-3", "gripper-4"]
    assert all(v.solved for v in with_copies.verifications)
    assert with_copies.statistics.outer_iterations == alone.statistics.outer_iterations
    evaluator = PolicyEvaluator(with_copies.policy, vocabulary)
    for text in copies:  # the copies left out are solved too
        instance = folder.domain.instance_from_text(text)
        assert verify(instance, evaluator.on(instance).compatible_successors).solved


def test_a_lexicographic_ranking_learns_a_certified_gripper_policy_that_verifies_on_larger_instances(learned, tmp_path):
    folder, vocabulary, _ = learned
    result = learn(gripper_instances(1, 2, 3, 4), vocabulary, tmp_path, ranking="lexicographic")
    assert all(v.solved for v in result.verifications)
    assert lowest_stratification(result.policy).stratified
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in (5, 6, 7):
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls


def test_a_run_stopped_by_its_time_limit_says_where_learning_stood(tmp_path):
    folder = domain_folder("gripper")
    instances, vocabulary = gripper_instances(1, 2, 3, 4), Vocabulary(folder.domain)
    settings = LearningSettings(instance_order="shortest")
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    learn_policy(instances, vocabulary, settings, teacher, cache_dir=tmp_path / "pools")  # plans and pool cached
    limit, started = 10.0, time.perf_counter()

    def outlast_the_limit_at_the_first_failure(message: str) -> None:
        if message.startswith("outer 1:"):
            time.sleep(max(0.0, started + limit + 0.5 - time.perf_counter()))

    with pytest.raises(LearningTimeout) as stopped:
        learn_policy(instances, vocabulary, settings, teacher, cache_dir=tmp_path / "pools", time_limit=limit,
                     progress=outlast_the_limit_at_the_first_failure)
    assert re.fullmatch(r"time limit reached in outer iteration 2 \(S1, 1 of 4 files in Q', up to gripper-2\), "
                        r"after \d+ inner iterations, the last policy \d+ features and \d+ rules, the last test on "
                        r"every file failed on gripper-2", str(stopped.value)), str(stopped.value)
