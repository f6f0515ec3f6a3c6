"""Binary projections of predicates of arity 3 or more: what dlplan's generator cannot see without them."""

from __future__ import annotations

import pytest

from stratpol.errors import InputError
from stratpol.features import Vocabulary, load_grammar
from stratpol.features.kind import Kind
from stratpol.features.pool import generate_pool, parse_feature
from stratpol.features.table import FeatureTable
from stratpol.generation import domain_folder
from stratpol.learning.result import LearningFailure
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import learn_policy

# the smallest file of the GENEX paper's tpp training set: buy one goods at one market, store it
TPP_P01 = """(define (problem tpp-p01) (:domain tpp-propositional)
  (:objects goods1 - goods truck1 - truck market1 - market depot1 - depot level0 level1 - level)
  (:init (next level1 level0) (ready-to-load goods1 market1 level0) (stored goods1 level0)
         (loaded goods1 truck1 level0) (connected depot1 market1) (connected market1 depot1)
         (on-sale goods1 market1 level1) (at truck1 depot1))
  (:goal (and (stored goods1 level1))))"""


@pytest.fixture(scope="module")
def tpp():
    domain = domain_folder("tpp").domain
    return domain, domain.instance_from_text(TPP_P01)


def _plan_states(instance, actions):
    states = [instance.initial_state]
    for name in actions:
        (successor,) = [s for s in instance.successors(states[-1]) if s.action.name == name]
        states.append(successor.state)
    return states


def test_the_vocabulary_projects_ternary_predicates_only(tpp):
    domain, _ = tpp
    vocabulary = Vocabulary(domain)
    assert [name for name, _, _ in vocabulary.projections["loaded"]] == ["loaded_0_1", "loaded_0_2", "loaded_1_2"]
    assert "stored" not in vocabulary.projections and "next" not in vocabulary.projections
    assert Vocabulary(domain, projections=False).projections == {}
    gripper = Vocabulary(domain_folder("gripper").domain)
    assert gripper.projections == {} and gripper.without_projections() is gripper


def test_projected_atoms_follow_the_state(tpp):
    domain, instance = tpp
    vocabulary = Vocabulary(domain)
    bridge = vocabulary.bridge(instance)
    loaded = parse_feature(vocabulary, Kind.NUMERICAL,
                           "n_count(c_some(r_primitive(loaded_0_2,0,1),c_some(r_primitive(next,0,1),c_top)))")
    on_sale = parse_feature(vocabulary, Kind.NUMERICAL, "n_count(r_primitive(on-sale_1_2,0,1))")
    states = _plan_states(instance, ["drive", "buy", "load"])
    values = FeatureTable.evaluate([loaded, on_sale], [(bridge, s) for s in states]).values
    # goods loaded above level0 (level1's next is level0): only after loading; one (market, level) pair throughout
    assert values.tolist() == [[0, 1], [0, 1], [0, 1], [1, 1]]
    with pytest.raises(ValueError, match="loaded_0_2"):
        parse_feature(vocabulary.without_projections(), Kind.NUMERICAL, "n_count(r_primitive(loaded_0_2,0,1))")


def test_only_the_projections_grammar_generates_from_projections(tpp, tmp_path):
    domain, instance = tpp
    vocabulary = Vocabulary(domain)
    bridge = vocabulary.bridge(instance)
    states = [(bridge, s) for s in _plan_states(instance, ["drive", "buy", "load", "drive", "unload"])]
    published = generate_pool(vocabulary, states, load_grammar("default"), tmp_path)
    projected = generate_pool(vocabulary, states, load_grammar("projections"), tmp_path)
    names = [name for projections in vocabulary.projections.values() for name, _, _ in projections]
    assert not any(name in f.description for f in published for name in names)
    assert any("loaded_0_2" in f.description for f in projected)
    unprojected = Vocabulary(domain, projections=False)
    bare = generate_pool(unprojected, [(unprojected.bridge(instance), s) for _, s in states], load_grammar("default"))
    assert [f.description for f in published] == [f.description for f in bare]


def test_tpp_p01_has_edge_without_projections_and_a_policy_with_them(tpp, tmp_path):
    domain, instance = tpp
    vocabulary = Vocabulary(domain)
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    # only unloading changes a binary atom that moves one way (stored); the two drives undo each
    # other, buying and loading change ternary atoms only
    with pytest.raises(LearningFailure,
                       match=r"4 Edge requirement.*in tpp-p01: \(drive truck1 depot1 market1\), step 1 of the plan"):
        learn_policy([instance], vocabulary, LearningSettings(), teacher, cache_dir=tmp_path / "pools")
    result = learn_policy([instance], vocabulary, LearningSettings(grammar="projections"), teacher,
                          cache_dir=tmp_path / "pools")
    assert all(v.solved for v in result.verifications)
    assert any("_0_2" in f.description or "_1_2" in f.description for f in result.policy.features)


def test_projections_must_be_a_boolean(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('projections = "yes"\n')
    with pytest.raises(InputError, match="projections must be true or false"):
        load_grammar(path)
    assert load_grammar("projections").projections and not load_grammar("default").projections


def test_a_projection_named_like_a_predicate_of_the_domain_is_left_out(tmp_path):
    from stratpol.planning import Domain

    path = tmp_path / "domain.pddl"
    path.write_text("""(define (domain clash) (:requirements :strips)
      (:predicates (r ?a ?b ?c) (r_0_1 ?a ?b))
      (:action go :parameters (?a ?b ?c) :precondition (r ?a ?b ?c) :effect (r_0_1 ?a ?b)))""")
    vocabulary = Vocabulary(Domain(path))
    assert [name for name, _, _ in vocabulary.projections["r"]] == ["r_0_2", "r_1_2"]
