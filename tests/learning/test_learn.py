"""End to end: learn a Gripper policy from small generated instances and check it on larger ones."""

from __future__ import annotations

import pytest

from stratpol.evaluation import RulePolicy, run
from stratpol.features import Vocabulary, load_grammar
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import _next_subset, learn_policy
from stratpol.termination import lowest_stratification
from stratpol.verification import verify


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    folder = domain_folder("gripper")
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    vocabulary = Vocabulary(folder.domain)
    cache = tmp_path_factory.mktemp("cache")
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=cache / "plans"),
                          cache_dir=cache / "pools")
    return folder, vocabulary, result


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


def test_a_pool_on_every_other_plan_still_learns_a_policy_verified_on_all_instances(learned, tmp_path):
    folder, vocabulary, whole = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", pool_states=20)
    # the plans of gripper-4 and gripper-2 (every second instance, longest first): 16 + 8 states of 40
    assert result.statistics.pool_generation.states == 24 < whole.statistics.pool_generation.states == 40
    assert len(result.verifications) == 4 and all(v.solved for v in result.verifications)


def test_a_pool_also_on_reached_states_keeps_more_features_apart_and_still_learns(learned, tmp_path):
    folder, vocabulary, whole = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", pool_reachable=30)
    # the 40 plan states and the other 20 classes of renamed states the 4 instances have (gripper-n:
    # robot room x balls in A, in B, held by 0-2 grippers: 6, 12, 18, 24 classes)
    assert result.statistics.pool_generation.states == 60
    assert result.statistics.pool > whole.statistics.pool  # features equal on the plans told apart
    assert len(result.verifications) == 4 and all(v.solved for v in result.verifications)


@pytest.mark.parametrize("strategy", ["S2", "grow"])
def test_shortest_plans_first_learns_on_the_same_pool_a_policy_verified_on_all_instances(learned, tmp_path,
                                                                                         strategy):
    folder, vocabulary, whole = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", instance_order="shortest", strategy=strategy)
    assert result.order == ("gripper-1", "gripper-2", "gripper-3", "gripper-4")
    assert result.statistics.pool == whole.statistics.pool
    assert len(result.verifications) == 4 and all(v.solved for v in result.verifications)
    with pytest.raises(ValueError, match="instance_order"):
        learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw"), instance_order="random")


def test_the_subset_strategies():
    # S1: one instance, the first failing one if beyond, else the next; S2: add it if before the
    # furthest, else restart from it; grow: add every failing one, nothing new where all are in Q'
    assert _next_subset("S1", [2], [5], 10) == [5] and _next_subset("S1", [2], [1], 10) == [3]
    assert _next_subset("S1", [9], [3], 10) is None
    assert _next_subset("S2", [2, 6], [4], 10) == [2, 4, 6] and _next_subset("S2", [2, 6], [8], 10) == [8]
    assert _next_subset("grow", [2, 6], [8], 10) == [2, 6, 8] and _next_subset("grow", [2, 6], [6], 10) is None
    assert _next_subset("grow", [2, 6], [3, 6, 8], 10) == [2, 3, 6, 8]


@pytest.mark.parametrize("probe_states", [None, 10])
def test_growing_by_several_failing_instances_adds_them_in_one_outer_iteration(learned, tmp_path, probe_states):
    folder, vocabulary, _ = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4, 5)]
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    failures = {}
    for grow_by in (1, 3):
        messages = []
        result = learn_policy(instances, vocabulary, load_grammar("default"), teacher, cache_dir=tmp_path / "pools",
                              instance_order="shortest", strategy="grow", grow_by=grow_by, probe_states=probe_states,
                              progress=messages.append)
        assert len(result.verifications) == 5 and all(v.solved for v in result.verifications)
        failures[grow_by] = [m.split(":")[1].split()[-1] for m in messages if m.startswith("outer 1: policy fails")]
        assert result.statistics.last_subset == 1 + len(failures[grow_by])  # Q' after outer 1: gripper-1 and those
    # the policy learned on gripper-1 fails on every larger instance: the first 1 and 3 of them join Q'
    assert failures == {1: ["gripper-2"], 3: ["gripper-2", "gripper-3", "gripper-4"]}
    with pytest.raises(ValueError, match="grow_by"):
        learn_policy(instances, vocabulary, load_grammar("default"), teacher, strategy="S2", grow_by=2)


def test_verification_past_its_state_limit_stops_learning_with_one_line_naming_the_limit(tmp_path):
    from stratpol.learning.settings import LearningSettings
    from stratpol.learning.wrapper import LearningFailure, learn_with_settings

    folder = domain_folder("gripper")
    instances = [folder.domain.instance_from_text(folder.generator(balls=3))]
    settings = LearningSettings(teacher="siw", verify_states=5)  # gripper-3's policy reaches more states
    with pytest.raises(LearningFailure, match=r"verification passed 5 policy-reachable states \(--verify-states\)") \
            as failure:
        learn_with_settings(instances, Vocabulary(folder.domain), settings, tmp_path)
    assert "verification up to 5 states" in settings.describe()
    last = failure.value.last_policy  # the policy whose verification stopped, for a look
    assert last is not None and last.domain == "gripper" and last.rules


def test_verification_over_renamings_learns_a_policy_verified_on_all_instances_in_fewer_states(learned, tmp_path):
    folder, vocabulary, whole = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", symmetry=True)  # balls and grippers are interchangeable
    assert all(v.solved for v in result.verifications)
    assert sum(v.states for v in result.verifications) < sum(v.states for v in whole.verifications)
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in range(2, 7):  # the policy, verified state by state
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls


def test_verifying_two_instances_at_once_learns_what_one_at_a_time_learns(learned, tmp_path):
    folder, vocabulary, _ = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    results = [learn_policy(instances, vocabulary, load_grammar("default"), teacher, cache_dir=tmp_path / "pools",
                            instance_order="shortest", strategy="grow", verify_jobs=jobs) for jobs in (1, 2)]
    one, two = ([(v.instance, v.solved, v.states) for v in r.verifications] for r in results)
    assert results[0].policy == results[1].policy and one == two and all(solved for _, solved, _ in two)
    # the first policies fail on a larger instance: the forked test found the same first failure
    assert results[0].statistics.outer_iterations == results[1].statistics.outer_iterations > 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_probing_every_instance_first_still_verifies_the_learned_policy_in_full(learned, tmp_path, jobs):
    folder, vocabulary, _ = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", instance_order="shortest", strategy="grow",
                          probe_states=3, verify_jobs=jobs)  # 3 states: the larger instances are left to the full test
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    full = [verify(i, evaluator.on(i).compatible_successors) for i in instances]
    # shortest first: the verdicts come in the examples' order, gripper-1 ... gripper-4
    assert [(v.solved, v.states) for v in result.verifications] == [(True, v.states) for v in full]
    assert max(v.states for v in full) > 3


def test_an_interrupted_learner_hands_over_the_last_policy_genex_found(tmp_path):
    from stratpol.learning.wrapper import LearningInterrupted

    folder = domain_folder("gripper")
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]

    def interrupt_at_the_first_failure(message: str) -> None:
        if message.startswith("outer 1:"):
            raise KeyboardInterrupt

    with pytest.raises(LearningInterrupted) as interrupted:
        learn_policy(instances, Vocabulary(folder.domain), load_grammar("default"),
                     Teacher("siw", cache_dir=tmp_path / "plans"), cache_dir=tmp_path / "pools",
                     instance_order="shortest", progress=interrupt_at_the_first_failure)
    last = interrupted.value.last_policy
    assert isinstance(interrupted.value, KeyboardInterrupt) and last is not None and last.domain == "gripper"


def test_renamed_copies_of_training_instances_are_left_out_and_the_policy_is_the_same(learned, tmp_path):
    folder, vocabulary, _ = learned
    texts = [folder.generator(balls=n) for n in (1, 2, 3, 4)]
    copies = [texts[1].replace("ball1", "orb").replace("rooma", "kitchen"), texts[2].replace("left", "hand")]
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")

    def learned_on(given, **options):
        instances = [folder.domain.instance_from_text(t) for t in given]
        return learn_policy(instances, vocabulary, load_grammar("default"), teacher, cache_dir=tmp_path / "pools",
                            instance_order="shortest", strategy="grow", **options)

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


def test_repairing_several_states_per_verification_learns_in_fewer_genex_calls(tmp_path):
    folder = domain_folder("miconic")
    sizes = [(1, 2, 1), (2, 2, 2), (2, 3, 3), (3, 3, 4)]
    instances = [folder.domain.instance_from_text(folder.generator(passengers=p, floors=f, seed=s))
                 for p, f, s in sizes]
    vocabulary = Vocabulary(folder.domain)
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    one, several = (learn_policy(instances, vocabulary, load_grammar("default"), teacher, cache_dir=tmp_path / "pools",
                                 repairs=repairs) for repairs in (1, 8))
    assert one.statistics.inner_iterations == 5 and several.statistics.inner_iterations == 2
    assert several.statistics.good > one.statistics.good  # the repairs of one call are more
    assert all(v.solved for v in several.verifications)
    evaluator = PolicyEvaluator(several.policy, vocabulary)
    for passengers, floors in [(3, 4), (4, 4)]:  # the policy, verified state by state beyond its training set
        instance = folder.domain.instance_from_text(folder.generator(passengers=passengers, floors=floors, seed=7))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved
    with pytest.raises(ValueError, match="repairs"):
        learn_policy(instances, vocabulary, load_grammar("default"), teacher, repairs=0)


def test_a_lexicographic_ranking_learns_a_certified_gripper_policy_that_verifies_on_larger_instances(learned, tmp_path):
    folder, vocabulary, _ = learned
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (1, 2, 3, 4)]
    result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw", cache_dir=tmp_path / "plans"),
                          cache_dir=tmp_path / "pools", ranking="lexicographic")
    assert all(v.solved for v in result.verifications)
    assert lowest_stratification(result.policy).stratified
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in (5, 6, 7):
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls
