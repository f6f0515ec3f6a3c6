"""Requirement-directed feature synthesis: over a pool whose complexity bound (3) is below the
features gripper needs, GENEX fails; with synthesis it finds features that meet the requirements
it failed on, and the policy learned with them is certified and verified beyond its training set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.features import Vocabulary
from stratpol.features.kind import Kind
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.features.pool import parse_feature
from stratpol.features.table import FeatureTable
from stratpol.generation import domain_folder
from stratpol.learning.result import LearningFailure
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import learn_policy
from stratpol.termination import lowest_stratification
from stratpol.verification import verify
from tests.helpers import gripper_instances, random_walk

BOUND = 3


def _grammar(folder, bound: int):
    """The published grammar with every complexity limit `bound`."""
    from stratpol.features.grammar import grammars_root
    text = (grammars_root() / "default.toml").read_text().replace("complexity_limit = 15", f"complexity_limit = {bound}")
    path = folder / f"complexity-{bound}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def low_grammar(tmp_path_factory):
    """Complexity 3: 16 features on gripper's plans."""
    return _grammar(tmp_path_factory.mktemp("grammars"), BOUND)


def _learn(grammar, cache, synthesis: bool, seed: int = 0):
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    settings = LearningSettings(grammar=str(grammar), synthesis=synthesis)
    return learn_policy(gripper_instances(1, 2, 3, 4), vocabulary, settings, Teacher("siw", cache_dir=cache / "plans"),
                        seed=seed, cache_dir=cache / "pools"), vocabulary


@pytest.fixture(scope="module")
def synthesised(low_grammar, tmp_path_factory):
    return _learn(low_grammar, tmp_path_factory.mktemp("cache"), synthesis=True)


def test_without_synthesis_genex_finds_no_feature_in_the_low_pool(low_grammar, tmp_path):
    with pytest.raises(LearningFailure, match="GENEX: no eligible feature hits"):
        _learn(low_grammar, tmp_path, synthesis=False)


def test_synthesised_features_lie_above_the_bound_and_the_policy_uses_them(synthesised):
    result, _ = synthesised
    found = result.statistics.synthesised
    assert found and all(parse_feature(synthesised[1], Kind.BOOLEAN if f.startswith("b_") else Kind.NUMERICAL,
                                       f).complexity > BOUND for f in found)
    used = [f.description for f in result.policy.features if f.description in found]
    assert used, result.policy
    assert result.statistics.pool == 16 and f"{len(found)} features synthesised" in result.statistics.describe()
    assert "synthesis" in result.statistics.seconds


def test_the_policy_learned_with_them_is_certified_and_verified_on_larger_instances(synthesised):
    result, vocabulary = synthesised
    assert all(v.solved for v in result.verifications)
    assert lowest_stratification(result.policy).stratified
    folder = domain_folder("gripper")
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    for balls in (6, 9):
        instance = folder.domain.instance_from_text(folder.generator(balls=balls))
        assert verify(instance, evaluator.on(instance).compatible_successors).solved, balls


def test_from_an_empty_pool_synthesis_alone_finds_a_policy_that_generalises(tmp_path):
    # complexity 1 generates no feature at all on gripper's plans
    result, vocabulary = _learn(_grammar(tmp_path, 1), tmp_path, synthesis=True)
    assert result.statistics.pool == 0 and len(result.policy.features) > 0
    assert {f.description for f in result.policy.features} <= set(result.statistics.synthesised)
    assert lowest_stratification(result.policy).stratified
    folder = domain_folder("gripper")
    evaluator = PolicyEvaluator(result.policy, vocabulary)
    instance = folder.domain.instance_from_text(folder.generator(balls=10))
    assert verify(instance, evaluator.on(instance).compatible_successors).solved


def test_synthesis_is_deterministic_under_a_seed(synthesised, low_grammar, tmp_path):
    again, _ = _learn(low_grammar, tmp_path, synthesis=True)
    assert again.statistics.synthesised == synthesised[0].statistics.synthesised
    assert again.policy == synthesised[0].policy


@settings(max_examples=25, deadline=None)
@given(balls=st.integers(1, 6), steps=st.integers(0, 30), seed=st.integers(0, 10_000))
def test_every_synthesised_feature_prints_and_parses_back_to_the_same_values(synthesised, balls, steps, seed):
    result, vocabulary = synthesised
    folder = domain_folder("gripper")
    instance = folder.domain.instance_from_text(folder.generator(balls=balls))
    bridge = vocabulary.bridge(instance)
    state = [(bridge, random_walk(instance, steps, seed))]
    for description in result.statistics.synthesised:
        kind = Kind.BOOLEAN if description.startswith("b_") else Kind.NUMERICAL
        feature = parse_feature(vocabulary, kind, description)
        printed = parse_feature(vocabulary, kind, str(feature.element))
        assert printed.description == feature.description
        assert (FeatureTable.evaluate([feature], state).values == FeatureTable.evaluate([printed], state).values).all()
