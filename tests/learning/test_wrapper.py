"""WRAPPER end to end: learn a Gripper policy from small generated instances and check it on larger
ones; the strategies, the orders of the instances, the lexicographic ranking, limits and interrupts."""

from __future__ import annotations

import pytest

from stratpol.evaluation import RulePolicy, run
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.learning.result import LearningFailure, LearningInterrupted
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import learn_policy, learn_with_settings, next_subset
from stratpol.termination import lowest_stratification
from stratpol.verification import verify


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    folder = domain_folder("gripper")
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    vocabulary = Vocabulary(folder.domain)
    cache = tmp_path_factory.mktemp("cache")
    result = learn_policy(instances, vocabulary, LearningSettings(), Teacher("siw", cache_dir=cache / "plans"),
                          cache_dir=cache / "pools")
    return folder, vocabulary, result


def gripper(*balls: int) -> list:
    folder = domain_folder("gripper")
    return [folder.domain.instance_from_text(folder.generator(balls=n)) for n in balls]


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
    result = learn(gripper(1, 2, 3, 4), vocabulary, tmp_path, instance_order="shortest", strategy=strategy)
    assert result.order == ("gripper-1", "gripper-2", "gripper-3", "gripper-4")
    assert result.statistics.pool == whole.statistics.pool
    assert len(result.verifications) == 4 and all(v.solved for v in result.verifications)
    with pytest.raises(ValueError, match="instance_order"):
        LearningSettings(instance_order="random")


def test_the_subset_strategies():
    # S1: one instance, the failing one if beyond, else the next; S2: add it if before the
    # furthest, else restart from it; grow: add it, nothing new where it is in Q' already
    assert next_subset("S1", [2], 5, 10) == [5] and next_subset("S1", [2], 1, 10) == [3]
    assert next_subset("S1", [9], 3, 10) is None
    assert next_subset("S2", [2, 6], 4, 10) == [2, 4, 6] and next_subset("S2", [2, 6], 8, 10) == [8]
    assert next_subset("grow", [2, 6], 8, 10) == [2, 6, 8] and next_subset("grow", [2, 6], 6, 10) is None
    assert next_subset("grow", [2, 6], 3, 10) == [2, 3, 6]


def test_grow_keeps_every_failing_instance_in_q_where_s2_restarts(learned, tmp_path):
    _, vocabulary, _ = learned
    lines = {}
    for strategy in ("S2", "grow"):
        lines[strategy] = []
        result = learn_policy(gripper(1, 2, 3, 4), vocabulary, LearningSettings(strategy=strategy,
                                                                               instance_order="shortest"),
                              Teacher("siw", cache_dir=tmp_path / "plans"), cache_dir=tmp_path / "pools",
                              progress=lines[strategy].append)
        assert all(v.solved for v in result.verifications)
    fails = {strategy: [line.split()[4].rstrip(":") for line in found if " policy fails on " in line]
             for strategy, found in lines.items()}
    assert fails["grow"] and fails["grow"] == sorted(set(fails["grow"]))  # each instance joins Q' once


def test_verification_past_its_state_limit_stops_learning_with_one_line_naming_the_limit(tmp_path):
    folder = domain_folder("gripper")
    settings = LearningSettings(teacher="siw", verify_states=5)  # gripper-3's policy reaches more states
    with pytest.raises(LearningFailure, match=r"verification passed 5 policy-reachable states \(--verify-states\)") \
            as failure:
        learn_with_settings(gripper(3), Vocabulary(folder.domain), settings, tmp_path)
    assert "verification up to 5 states" in settings.describe()
    last = failure.value.last_policy  # the policy whose verification stopped, for a look
    assert last is not None and last.domain == "gripper" and last.rules


def test_verification_over_renamings_learns_a_policy_verified_on_all_instances_in_fewer_states(learned, tmp_path):
    folder, vocabulary, whole = learned
    result = learn(gripper(1, 2, 3, 4), vocabulary, tmp_path, symmetry=True)  # balls and grippers are interchangeable
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
        learn_policy(gripper(1, 2, 3, 4), Vocabulary(folder.domain), LearningSettings(instance_order="shortest"),
                     Teacher("siw", cache_dir=tmp_path / "plans"), cache_dir=tmp_path / "pools",
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
    result = learn(gripper(1, 2, 3, 4), vocabulary, tmp_path, ranking="lexicographic")
    assert all(v.solved for v in result.verifications)
    assert lowest_stratification(result.policy).stratified
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in (5, 6, 7):
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls
